build-int/src/plan/resolved.o: src/plan/resolved.c src/catalog/catalog.h \
 src/catalog/event.h src/core/error.h src/core/strbuf.h src/plan/groups.h
src/catalog/catalog.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/plan/groups.h:
