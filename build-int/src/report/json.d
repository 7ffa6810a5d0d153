build-int/src/report/json.o: src/report/json.c src/report/json.h \
 src/core/error.h src/report/result.h src/host/hostinfo.h \
 src/core/outfile.h src/core/strbuf.h src/report/analysis.h \
 src/stats/counter.h src/stats/summary.h src/report/comparison.h \
 src/stats/compare.h
src/report/json.h:
src/core/error.h:
src/report/result.h:
src/host/hostinfo.h:
src/core/outfile.h:
src/core/strbuf.h:
src/report/analysis.h:
src/stats/counter.h:
src/stats/summary.h:
src/report/comparison.h:
src/stats/compare.h:
