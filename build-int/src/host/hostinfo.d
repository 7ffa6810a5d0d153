build-int/src/host/hostinfo.o: src/host/hostinfo.c src/host/hostinfo.h \
 src/host/cpu.h src/core/error.h src/host/sysfs.h
src/host/hostinfo.h:
src/host/cpu.h:
src/core/error.h:
src/host/sysfs.h:
