build-int/src/report/comparison.o: src/report/comparison.c \
 src/report/comparison.h src/report/result.h src/core/error.h \
 src/host/hostinfo.h src/stats/compare.h src/core/strbuf.h \
 src/report/analysis.h src/stats/counter.h src/stats/summary.h \
 src/stats/stop.h src/stats/tests.h
src/report/comparison.h:
src/report/result.h:
src/core/error.h:
src/host/hostinfo.h:
src/stats/compare.h:
src/core/strbuf.h:
src/report/analysis.h:
src/stats/counter.h:
src/stats/summary.h:
src/stats/stop.h:
src/stats/tests.h:
