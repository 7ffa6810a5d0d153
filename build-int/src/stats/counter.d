build-int/src/stats/counter.o: src/stats/counter.c src/stats/counter.h \
 src/stats/dist.h src/stats/sample.h
src/stats/counter.h:
src/stats/dist.h:
src/stats/sample.h:
