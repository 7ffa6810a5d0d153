build-int/src/core/outfile.o: src/core/outfile.c src/core/outfile.h \
 src/core/error.h src/core/strbuf.h
src/core/outfile.h:
src/core/error.h:
src/core/strbuf.h:
