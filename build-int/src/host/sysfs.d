build-int/src/host/sysfs.o: src/host/sysfs.c src/host/sysfs.h \
 src/core/error.h src/core/strbuf.h
src/host/sysfs.h:
src/core/error.h:
src/core/strbuf.h:
