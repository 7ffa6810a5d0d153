build-int/src/core/selfpath.o: src/core/selfpath.c src/core/selfpath.h \
 src/core/strbuf.h
src/core/selfpath.h:
src/core/strbuf.h:
