build-int/src/report/result.o: src/report/result.c src/report/result.h \
 src/core/error.h src/host/hostinfo.h src/core/strbuf.h
src/report/result.h:
src/core/error.h:
src/host/hostinfo.h:
src/core/strbuf.h:
