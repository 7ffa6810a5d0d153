build-int/src/stats/sample.o: src/stats/sample.c src/stats/sample.h \
 src/core/error.h
src/stats/sample.h:
src/core/error.h:
