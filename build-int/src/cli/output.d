build-int/src/cli/output.o: src/cli/output.c src/cli/cli.h \
 src/core/error.h src/core/parseopt.h src/core/strbuf.h
src/cli/cli.h:
src/core/error.h:
src/core/parseopt.h:
src/core/strbuf.h:
