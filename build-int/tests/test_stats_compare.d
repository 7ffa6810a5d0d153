build-int/tests/test_stats_compare: tests/unit/test_stats_compare.c \
 tests/unit/numcheck.h src/core/error.h src/stats/compare.h
tests/unit/numcheck.h:
src/core/error.h:
src/stats/compare.h:
