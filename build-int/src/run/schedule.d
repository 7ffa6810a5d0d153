build-int/src/run/schedule.o: src/run/schedule.c src/run/schedule.h \
 src/core/rng.h
src/run/schedule.h:
src/core/rng.h:
