build-int/src/report/journal.o: src/report/journal.c src/report/journal.h \
 src/core/error.h src/core/strbuf.h src/report/result.h \
 src/host/hostinfo.h src/core/outfile.h src/report/json.h
src/report/journal.h:
src/core/error.h:
src/core/strbuf.h:
src/report/result.h:
src/host/hostinfo.h:
src/core/outfile.h:
src/report/json.h:
