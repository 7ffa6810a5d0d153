# pmustat-spawner (lib/spawner/main.c + src/run/spawner.c + src/run/tree.c):
# the spawn server program pmustat execs next to itself. Built without $(SAN)
# and linked with libc only, on purpose: its memory is what measured
# children inherit.
SPAWNER := $(BUILD)/pmustat-spawner
SPAWNER_SRC := lib/spawner/main.c src/run/spawner.c src/run/tree.c

EXTRA_BINS += $(SPAWNER)

$(SPAWNER): $(SPAWNER_SRC) src/run/spawn_proto.h src/run/tree.h lib/spawner/build.mk
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror -Isrc -o $@ $(SPAWNER_SRC)
