build-int/src/catalog/libpfm.o: src/catalog/libpfm.c src/catalog/libpfm.h
src/catalog/libpfm.h:
