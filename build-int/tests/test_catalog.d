build-int/tests/test_catalog: tests/unit/test_catalog.c \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h src/host/sysfs.h
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/host/sysfs.h:
