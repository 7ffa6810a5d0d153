build-int/tests/test_stats_tests: tests/unit/test_stats_tests.c \
 tests/unit/numcheck.h src/core/error.h src/stats/tests.h
tests/unit/numcheck.h:
src/core/error.h:
src/stats/tests.h:
