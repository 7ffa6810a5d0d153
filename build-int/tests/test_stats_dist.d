build-int/tests/test_stats_dist: tests/unit/test_stats_dist.c \
 tests/unit/numcheck.h src/stats/dist.h
tests/unit/numcheck.h:
src/stats/dist.h:
