build-int/src/report/csv.o: src/report/csv.c src/report/csv.h \
 src/core/error.h src/report/result.h src/host/hostinfo.h \
 src/core/outfile.h src/core/strbuf.h
src/report/csv.h:
src/core/error.h:
src/report/result.h:
src/host/hostinfo.h:
src/core/outfile.h:
src/core/strbuf.h:
