build-int/tests/test_report_explain: tests/unit/test_report_explain.c \
 src/report/explain.h src/catalog/catalog.h src/catalog/event.h \
 src/core/error.h src/core/strbuf.h src/catalog/select.h src/host/cpu.h \
 src/host/sysfs.h
src/report/explain.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/catalog/select.h:
src/host/cpu.h:
src/host/sysfs.h:
