build-int/src/cli/list.o: src/cli/list.c src/backend/sim.h \
 src/core/error.h src/catalog/catalog.h src/catalog/event.h \
 src/core/strbuf.h src/catalog/native.h src/catalog/select.h \
 src/host/cpu.h src/host/sysfs.h src/cli/cli.h src/core/parseopt.h \
 src/report/list.h
src/backend/sim.h:
src/core/error.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/strbuf.h:
src/catalog/native.h:
src/catalog/select.h:
src/host/cpu.h:
src/host/sysfs.h:
src/cli/cli.h:
src/core/parseopt.h:
src/report/list.h:
