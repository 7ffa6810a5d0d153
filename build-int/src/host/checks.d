build-int/src/host/checks.o: src/host/checks.c src/host/checks_int.h \
 src/host/checks.h src/core/error.h src/host/cpu.h src/host/sysfs.h \
 src/host/cpumap.h src/core/strbuf.h
src/host/checks_int.h:
src/host/checks.h:
src/core/error.h:
src/host/cpu.h:
src/host/sysfs.h:
src/host/cpumap.h:
src/core/strbuf.h:
