build-int/src/core/embed.o: src/core/embed.c src/core/embed.h
src/core/embed.h:
