build-int/src/plan/groups.o: src/plan/groups.c src/plan/groups.h \
 src/catalog/event.h src/core/error.h src/core/strbuf.h \
 src/catalog/event_kind.h
src/plan/groups.h:
src/catalog/event.h:
src/core/error.h:
src/core/strbuf.h:
src/catalog/event_kind.h:
