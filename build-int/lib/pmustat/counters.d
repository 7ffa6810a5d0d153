build-int/lib/pmustat/counters.o: lib/pmustat/counters.c \
 lib/pmustat/lib.h lib/pmustat/protocol.h
lib/pmustat/lib.h:
lib/pmustat/protocol.h:
