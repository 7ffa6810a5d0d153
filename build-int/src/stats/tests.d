build-int/src/stats/tests.o: src/stats/tests.c src/stats/tests.h \
 src/core/error.h src/stats/dist.h src/stats/sample.h
src/stats/tests.h:
src/core/error.h:
src/stats/dist.h:
src/stats/sample.h:
