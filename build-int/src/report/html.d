build-int/src/report/html.o: src/report/html.c src/report/html.h \
 src/core/strbuf.h src/report/result.h src/core/error.h \
 src/host/hostinfo.h
src/report/html.h:
src/core/strbuf.h:
src/report/result.h:
src/core/error.h:
src/host/hostinfo.h:
