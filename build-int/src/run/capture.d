build-int/src/run/capture.o: src/run/capture.c src/run/capture.h \
 src/core/error.h src/core/strbuf.h
src/run/capture.h:
src/core/error.h:
src/core/strbuf.h:
