build-int/tests/test_cpu: tests/unit/test_cpu.c src/core/embed.h \
 src/host/cpu.h src/core/error.h src/host/cpumap.h
src/core/embed.h:
src/host/cpu.h:
src/core/error.h:
src/host/cpumap.h:
