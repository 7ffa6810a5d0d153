build-int/src/host/elf.o: src/host/elf.c src/host/elf.h src/core/error.h \
 src/core/strbuf.h
src/host/elf.h:
src/core/error.h:
src/core/strbuf.h:
