build-int/src/run/spawner.o: src/run/spawner.c src/run/spawn_proto.h
src/run/spawn_proto.h:
