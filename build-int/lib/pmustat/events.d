build-int/lib/pmustat/events.o: lib/pmustat/events.c lib/pmustat/lib.h \
 lib/pmustat/protocol.h
lib/pmustat/lib.h:
lib/pmustat/protocol.h:
