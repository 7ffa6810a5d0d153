build-int/tests/test_elf: tests/unit/test_elf.c src/core/rng.h \
 src/core/strbuf.h src/host/elf.h src/core/error.h
src/core/rng.h:
src/core/strbuf.h:
src/host/elf.h:
src/core/error.h:
