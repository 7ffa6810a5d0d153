build-int/src/core/parseopt.o: src/core/parseopt.c src/core/parseopt.h \
 src/core/error.h src/core/strbuf.h src/core/suggest.h
src/core/parseopt.h:
src/core/error.h:
src/core/strbuf.h:
src/core/suggest.h:
