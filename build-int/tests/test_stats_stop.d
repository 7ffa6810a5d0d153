build-int/tests/test_stats_stop: tests/unit/test_stats_stop.c \
 tests/unit/numcheck.h src/stats/stop.h
tests/unit/numcheck.h:
src/stats/stop.h:
