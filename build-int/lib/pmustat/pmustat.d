build-int/lib/pmustat/pmustat.o: lib/pmustat/pmustat.c include/pmustat.h \
 lib/pmustat/lib.h lib/pmustat/protocol.h
include/pmustat.h:
lib/pmustat/lib.h:
lib/pmustat/protocol.h:
