build-int/src/report/table.o: src/report/table.c src/report/table.h \
 src/core/strbuf.h src/report/result.h src/core/error.h \
 src/host/hostinfo.h src/report/analysis.h src/stats/counter.h \
 src/stats/summary.h src/report/texttable.h src/report/units.h
src/report/table.h:
src/core/strbuf.h:
src/report/result.h:
src/core/error.h:
src/host/hostinfo.h:
src/report/analysis.h:
src/stats/counter.h:
src/stats/summary.h:
src/report/texttable.h:
src/report/units.h:
