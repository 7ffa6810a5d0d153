build-int/tests/test_regions: tests/unit/test_regions.c \
 src/backend/regions.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h src/run/measure.h src/backend/perf_event.h \
 src/run/spawn.h src/run/sigwatch.h
src/backend/regions.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/run/measure.h:
src/backend/perf_event.h:
src/run/spawn.h:
src/run/sigwatch.h:
