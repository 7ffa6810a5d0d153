build-int/tests/test_caches: tests/unit/test_caches.c src/backend/sim.h \
 src/core/error.h src/catalog/catalog.h src/catalog/event.h \
 src/core/strbuf.h src/core/embed.h src/host/caches.h src/run/measure.h \
 src/backend/perf_event.h src/run/spawn.h src/run/sigwatch.h
src/backend/sim.h:
src/core/error.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/strbuf.h:
src/core/embed.h:
src/host/caches.h:
src/run/measure.h:
src/backend/perf_event.h:
src/run/spawn.h:
src/run/sigwatch.h:
