build-int/src/catalog/event.o: src/catalog/event.c src/catalog/libpfm.h \
 src/catalog/event.h src/core/error.h src/core/strbuf.h \
 src/core/suggest.h src/host/sysfs.h
src/catalog/libpfm.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/core/suggest.h:
src/host/sysfs.h:
