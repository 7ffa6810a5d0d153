build-int/src/report/json_read.o: src/report/json_read.c \
 src/report/json.h src/core/error.h src/report/result.h \
 src/host/hostinfo.h src/core/strbuf.h src/report/journal.h
src/report/json.h:
src/core/error.h:
src/report/result.h:
src/host/hostinfo.h:
src/core/strbuf.h:
src/report/journal.h:
