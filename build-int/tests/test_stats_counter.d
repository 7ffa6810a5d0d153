build-int/tests/test_stats_counter: tests/unit/test_stats_counter.c \
 tests/unit/numcheck.h src/core/error.h src/stats/counter.h
tests/unit/numcheck.h:
src/core/error.h:
src/stats/counter.h:
