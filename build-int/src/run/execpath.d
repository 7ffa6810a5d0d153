build-int/src/run/execpath.o: src/run/execpath.c src/run/execpath.h \
 src/core/error.h src/core/strbuf.h
src/run/execpath.h:
src/core/error.h:
src/core/strbuf.h:
