build-int/src/report/explain.o: src/report/explain.c src/report/explain.h \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h src/catalog/select.h src/host/cpu.h src/host/sysfs.h
src/report/explain.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/catalog/select.h:
src/host/cpu.h:
src/host/sysfs.h:
