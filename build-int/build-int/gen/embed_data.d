build-int/build-int/gen/embed_data.o: build-int/gen/embed_data.c \
 src/core/embed.h
src/core/embed.h:
