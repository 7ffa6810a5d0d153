build-int/src/host/cpu.o: src/host/cpu.c src/host/cpu.h src/core/error.h \
 src/core/strbuf.h src/host/sysfs.h
src/host/cpu.h:
src/core/error.h:
src/core/strbuf.h:
src/host/sysfs.h:
