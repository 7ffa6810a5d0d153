build-int/src/cli/main.o: src/cli/main.c src/cli/cli.h src/core/error.h \
 src/core/parseopt.h src/core/strbuf.h src/core/suggest.h
src/cli/cli.h:
src/core/error.h:
src/core/parseopt.h:
src/core/strbuf.h:
src/core/suggest.h:
