build-int/src/stats/stop.o: src/stats/stop.c src/stats/stop.h \
 src/stats/dist.h
src/stats/stop.h:
src/stats/dist.h:
