# pmustat-spawner (lib/spawner/main.c + src/run/spawner.c + src/run/tree.c):
# the spawn server program pmustat execs next to itself. Built without $(SAN)
# and linked with libc only, on purpose: its memory is what measured
# children inherit. Statically where libc.a is there: a child shares the
# server's memory until it execs, and exec records that memory's peak as
# the child's max-rss (1.0 MiB static, 1.5 MiB dynamic, under /bin/true's own).
SPAWNER := $(BUILD)/pmustat-spawner
SPAWNER_SRC := lib/spawner/main.c src/run/spawner.c src/run/tree.c

EXTRA_BINS += $(SPAWNER)

$(SPAWNER): $(SPAWNER_SRC) src/run/spawn_proto.h src/run/tree.h lib/spawner/build.mk
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror -Isrc -static -o $@ $(SPAWNER_SRC) || \
	$(CC) -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror -Isrc -o $@ $(SPAWNER_SRC)
