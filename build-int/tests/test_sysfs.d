build-int/tests/test_sysfs: tests/unit/test_sysfs.c src/core/strbuf.h \
 src/host/sysfs.h src/core/error.h
src/core/strbuf.h:
src/host/sysfs.h:
src/core/error.h:
