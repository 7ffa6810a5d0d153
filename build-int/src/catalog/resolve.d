build-int/src/catalog/resolve.o: src/catalog/resolve.c \
 src/catalog/catalog_data.h src/catalog/catalog.h src/catalog/event.h \
 src/core/error.h src/core/strbuf.h src/core/suggest.h src/host/sysfs.h
src/catalog/catalog_data.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/core/suggest.h:
src/host/sysfs.h:
