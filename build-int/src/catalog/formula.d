build-int/src/catalog/formula.o: src/catalog/formula.c \
 src/catalog/catalog.h src/catalog/event.h src/core/error.h \
 src/core/strbuf.h
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
