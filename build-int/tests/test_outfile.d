build-int/tests/test_outfile: tests/unit/test_outfile.c \
 src/core/outfile.h src/core/error.h src/core/strbuf.h
src/core/outfile.h:
src/core/error.h:
src/core/strbuf.h:
