build-int/src/report/doctor.o: src/report/doctor.c src/report/doctor.h \
 src/core/strbuf.h src/host/checks.h src/core/error.h src/host/cpu.h \
 src/host/sysfs.h src/host/cpumap.h src/report/texttable.h
src/report/doctor.h:
src/core/strbuf.h:
src/host/checks.h:
src/core/error.h:
src/host/cpu.h:
src/host/sysfs.h:
src/host/cpumap.h:
src/report/texttable.h:
