build-int/src/catalog/select.o: src/catalog/select.c src/catalog/select.h \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h src/host/cpu.h src/host/sysfs.h
src/catalog/select.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/host/cpu.h:
src/host/sysfs.h:
