build-int/tests/test_suggest: tests/unit/test_suggest.c \
 src/catalog/event.h src/core/error.h src/core/strbuf.h \
 src/core/suggest.h
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/core/suggest.h:
