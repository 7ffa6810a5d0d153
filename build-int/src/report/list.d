build-int/src/report/list.o: src/report/list.c src/report/list.h \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h src/catalog/native.h src/catalog/select.h \
 src/host/cpu.h src/host/sysfs.h src/backend/callcount.h \
 src/backend/sim.h src/report/texttable.h
src/report/list.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/catalog/native.h:
src/catalog/select.h:
src/host/cpu.h:
src/host/sysfs.h:
src/backend/callcount.h:
src/backend/sim.h:
src/report/texttable.h:
