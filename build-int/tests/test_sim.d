build-int/tests/test_sim: tests/unit/test_sim.c src/backend/sim.h \
 src/core/error.h src/core/strbuf.h src/run/measure.h \
 src/backend/perf_event.h src/catalog/event.h src/run/spawn.h \
 src/run/sigwatch.h
src/backend/sim.h:
src/core/error.h:
src/core/strbuf.h:
src/run/measure.h:
src/backend/perf_event.h:
src/catalog/event.h:
src/run/spawn.h:
src/run/sigwatch.h:
