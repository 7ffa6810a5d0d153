build-int/src/stats/dist.o: src/stats/dist.c src/stats/dist.h
src/stats/dist.h:
