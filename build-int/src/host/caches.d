build-int/src/host/caches.o: src/host/caches.c src/host/caches.h \
 src/core/error.h src/core/strbuf.h src/host/sysfs.h
src/host/caches.h:
src/core/error.h:
src/core/strbuf.h:
src/host/sysfs.h:
