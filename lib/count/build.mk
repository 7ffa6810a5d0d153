# libpmustat-count.so: the LD_PRELOAD fallback of call counters
# (src/backend/callcount.h, lib/count/count.c). Included by the top-level
# Makefile. Always built without $(SAN): a sanitizer runtime must come first
# in a process's library list, so an instrumented shim could not be preloaded
# into the ordinary programs it exists for. It links nothing of pmustat; it
# shares only the record layout in src/backend/callcount_abi.h.
COUNT_LIB := $(BUILD)/libpmustat-count.so

EXTRA_BINS += $(COUNT_LIB)

$(COUNT_LIB): lib/count/count.c src/backend/callcount_abi.h lib/count/build.mk
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror -Isrc -fPIC -shared \
		-fvisibility=hidden -fno-builtin -o $@ lib/count/count.c -ldl

# Installed where callcount_shim_path() looks: <bindir>/../lib/pmustat/.
.PHONY: install-count
install: install-count
install-count: $(COUNT_LIB)
	install -d $(DESTDIR)$(PREFIX)/lib/pmustat
	install -m 644 $(COUNT_LIB) $(DESTDIR)$(PREFIX)/lib/pmustat/libpmustat-count.so
