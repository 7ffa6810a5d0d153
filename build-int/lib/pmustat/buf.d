build-int/lib/pmustat/buf.o: lib/pmustat/buf.c lib/pmustat/lib.h \
 lib/pmustat/protocol.h
lib/pmustat/lib.h:
lib/pmustat/protocol.h:
