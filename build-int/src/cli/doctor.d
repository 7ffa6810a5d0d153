build-int/src/cli/doctor.o: src/cli/doctor.c src/cli/cli.h \
 src/core/error.h src/core/parseopt.h src/core/strbuf.h src/host/checks.h \
 src/host/cpu.h src/host/sysfs.h src/host/cpumap.h src/report/doctor.h
src/cli/cli.h:
src/core/error.h:
src/core/parseopt.h:
src/core/strbuf.h:
src/host/checks.h:
src/host/cpu.h:
src/host/sysfs.h:
src/host/cpumap.h:
src/report/doctor.h:
