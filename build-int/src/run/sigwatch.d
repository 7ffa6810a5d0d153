build-int/src/run/sigwatch.o: src/run/sigwatch.c src/run/sigwatch.h \
 src/core/error.h
src/run/sigwatch.h:
src/core/error.h:
