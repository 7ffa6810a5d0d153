build-int/src/run/measure.o: src/run/measure.c src/run/measure.h \
 src/backend/perf_event.h src/catalog/event.h src/core/error.h \
 src/run/spawn.h src/run/sigwatch.h src/core/strbuf.h
src/run/measure.h:
src/backend/perf_event.h:
src/catalog/event.h:
src/core/error.h:
src/run/spawn.h:
src/run/sigwatch.h:
src/core/strbuf.h:
