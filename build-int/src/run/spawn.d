build-int/src/run/spawn.o: src/run/spawn.c src/run/spawn.h \
 src/core/error.h src/run/sigwatch.h src/core/selfpath.h \
 src/core/strbuf.h src/run/spawn_proto.h
src/run/spawn.h:
src/core/error.h:
src/run/sigwatch.h:
src/core/selfpath.h:
src/core/strbuf.h:
src/run/spawn_proto.h:
