build-int/src/cli/explain.o: src/cli/explain.c src/catalog/catalog.h \
 src/catalog/event.h src/core/error.h src/core/strbuf.h \
 src/catalog/select.h src/host/cpu.h src/host/sysfs.h src/cli/cli.h \
 src/core/parseopt.h src/report/explain.h
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/catalog/select.h:
src/host/cpu.h:
src/host/sysfs.h:
src/cli/cli.h:
src/core/parseopt.h:
src/report/explain.h:
