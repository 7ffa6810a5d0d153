build-int/tests/test_calibration: tests/unit/test_calibration.c \
 src/core/rng.h src/core/strbuf.h src/report/comparison.h \
 src/report/result.h src/core/error.h src/host/hostinfo.h \
 src/stats/compare.h src/run/schedule.h src/stats/sample.h \
 src/stats/stop.h src/stats/tests.h
src/core/rng.h:
src/core/strbuf.h:
src/report/comparison.h:
src/report/result.h:
src/core/error.h:
src/host/hostinfo.h:
src/stats/compare.h:
src/run/schedule.h:
src/stats/sample.h:
src/stats/stop.h:
src/stats/tests.h:
