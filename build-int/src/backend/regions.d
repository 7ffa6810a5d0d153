build-int/src/backend/regions.o: src/backend/regions.c \
 src/backend/regions.h src/catalog/event.h src/core/error.h \
 src/backend/../../lib/pmustat/protocol.h src/core/strbuf.h
src/backend/regions.h:
src/catalog/event.h:
src/core/error.h:
src/backend/../../lib/pmustat/protocol.h:
src/core/strbuf.h:
