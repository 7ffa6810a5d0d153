build-int/src/host/checks_env.o: src/host/checks_env.c \
 src/host/checks_int.h src/host/checks.h src/core/error.h src/host/cpu.h \
 src/host/sysfs.h src/host/cpumap.h
src/host/checks_int.h:
src/host/checks.h:
src/core/error.h:
src/host/cpu.h:
src/host/sysfs.h:
src/host/cpumap.h:
