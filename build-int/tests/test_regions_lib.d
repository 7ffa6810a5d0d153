build-int/tests/test_regions_lib: tests/unit/test_regions_lib.c \
 src/backend/regions.h src/catalog/event.h src/core/error.h \
 lib/pmustat/lib.h lib/pmustat/protocol.h
src/backend/regions.h:
src/catalog/event.h:
src/core/error.h:
lib/pmustat/lib.h:
lib/pmustat/protocol.h:
