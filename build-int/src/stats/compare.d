build-int/src/stats/compare.o: src/stats/compare.c src/stats/compare.h \
 src/core/error.h src/stats/dist.h src/stats/sample.h src/stats/tests.h
src/stats/compare.h:
src/core/error.h:
src/stats/dist.h:
src/stats/sample.h:
src/stats/tests.h:
