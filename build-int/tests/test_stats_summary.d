build-int/tests/test_stats_summary: tests/unit/test_stats_summary.c \
 tests/unit/numcheck.h src/core/error.h src/stats/sample.h \
 src/stats/summary.h
tests/unit/numcheck.h:
src/core/error.h:
src/stats/sample.h:
src/stats/summary.h:
