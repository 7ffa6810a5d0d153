build-int/src/catalog/event_kind.o: src/catalog/event_kind.c \
 src/catalog/event_kind.h src/catalog/event.h src/core/error.h
src/catalog/event_kind.h:
src/catalog/event.h:
src/core/error.h:
