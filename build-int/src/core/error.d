build-int/src/core/error.o: src/core/error.c src/core/error.h
src/core/error.h:
