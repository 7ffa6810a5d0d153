build-int/tests/test_callcount: tests/unit/test_callcount.c \
 src/backend/callcount.h src/catalog/event.h src/core/error.h \
 src/backend/callcount_abi.h src/core/strbuf.h src/host/sysfs.h \
 src/run/measure.h src/backend/perf_event.h src/run/spawn.h \
 src/run/sigwatch.h
src/backend/callcount.h:
src/catalog/event.h:
src/core/error.h:
src/backend/callcount_abi.h:
src/core/strbuf.h:
src/host/sysfs.h:
src/run/measure.h:
src/backend/perf_event.h:
src/run/spawn.h:
src/run/sigwatch.h:
