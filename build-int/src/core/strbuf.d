build-int/src/core/strbuf.o: src/core/strbuf.c src/core/strbuf.h
src/core/strbuf.h:
