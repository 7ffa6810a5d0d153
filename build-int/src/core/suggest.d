build-int/src/core/suggest.o: src/core/suggest.c src/core/suggest.h \
 src/core/strbuf.h
src/core/suggest.h:
src/core/strbuf.h:
