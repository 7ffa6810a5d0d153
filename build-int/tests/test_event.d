build-int/tests/test_event: tests/unit/test_event.c src/catalog/event.h \
 src/core/error.h src/core/strbuf.h src/host/sysfs.h
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/host/sysfs.h:
