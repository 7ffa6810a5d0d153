build-int/src/stats/summary.o: src/stats/summary.c src/stats/summary.h \
 src/core/error.h src/stats/dist.h src/stats/sample.h src/stats/tests.h
src/stats/summary.h:
src/core/error.h:
src/stats/dist.h:
src/stats/sample.h:
src/stats/tests.h:
