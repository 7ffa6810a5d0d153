build-int/src/catalog/native.o: src/catalog/native.c src/catalog/native.h \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h src/catalog/select.h src/host/cpu.h src/host/sysfs.h \
 src/catalog/libpfm.h
src/catalog/native.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/catalog/select.h:
src/host/cpu.h:
src/host/sysfs.h:
src/catalog/libpfm.h:
