build-int/src/report/compare_table.o: src/report/compare_table.c \
 src/report/compare_table.h src/core/strbuf.h src/report/result.h \
 src/core/error.h src/host/hostinfo.h src/report/table.h \
 src/report/analysis.h src/stats/counter.h src/stats/summary.h \
 src/report/comparison.h src/stats/compare.h src/report/texttable.h \
 src/report/units.h
src/report/compare_table.h:
src/core/strbuf.h:
src/report/result.h:
src/core/error.h:
src/host/hostinfo.h:
src/report/table.h:
src/report/analysis.h:
src/stats/counter.h:
src/stats/summary.h:
src/report/comparison.h:
src/stats/compare.h:
src/report/texttable.h:
src/report/units.h:
