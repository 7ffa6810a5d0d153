build-int/tests/test_report_list: tests/unit/test_report_list.c \
 tests/unit/fixtures.h src/core/strbuf.h src/report/list.h \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/catalog/native.h src/catalog/select.h src/host/cpu.h \
 src/host/sysfs.h
tests/unit/fixtures.h:
src/core/strbuf.h:
src/report/list.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/catalog/native.h:
src/catalog/select.h:
src/host/cpu.h:
src/host/sysfs.h:
