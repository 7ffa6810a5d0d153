build-int/src/report/analysis.o: src/report/analysis.c \
 src/report/analysis.h src/report/result.h src/core/error.h \
 src/host/hostinfo.h src/stats/counter.h src/stats/summary.h \
 src/catalog/catalog.h src/catalog/event.h src/core/strbuf.h
src/report/analysis.h:
src/report/result.h:
src/core/error.h:
src/host/hostinfo.h:
src/stats/counter.h:
src/stats/summary.h:
src/catalog/catalog.h:
src/catalog/event.h:
src/core/strbuf.h:
