# libpmustat: the region-marker library linked into user programs
# (include/pmustat.h, docs/regions.md). Included by the top-level Makefile.
# It is built from lib/pmustat/*.c alone and links nothing but libc: it must
# not pull the tool's layers, libpfm4 or jansson into a user's program.
# Objects are position-independent so one set serves both libraries; the
# shared one exports only the symbols in pmustat.map.
#
#   $(BUILD)/lib/libpmustat.a, libpmustat.so{,.0,.$(VERSION)}
#   $(BUILD)/regions-prog      test driver (static lib), for tests/cli/t-regions*.sh
#   $(BUILD)/regions-prog-so   the same against the shared library
#   $(BUILD)/pmustat-regioncost  times one region entry with the real library,
#                              for the campaign's cost note (installed in libexec)
#   make install-lib           header, libraries, pkg-config file, man page
#                              (a prerequisite of `make install`)
PMLIB_SRC := $(sort $(wildcard lib/pmustat/*.c))
PMLIB_OBJ := $(PMLIB_SRC:%.c=$(BUILD)/%.o)
PMLIB_DIR := $(BUILD)/lib
PMLIB_A := $(PMLIB_DIR)/libpmustat.a
PMLIB_SONAME := libpmustat.so.0
PMLIB_SO := $(PMLIB_DIR)/libpmustat.so.$(VERSION)
PMLIB_CFLAGS := -fPIC -pthread -Ilib/pmustat
# Under sanitizers the runtime resolves symbols at load time, so -z defs
# (every symbol resolved by the libraries named) only holds without them.
PMLIB_LDFLAGS := -shared -pthread -Wl,-soname,$(PMLIB_SONAME) \
	-Wl,--version-script=lib/pmustat/pmustat.map -Wl,-z,nodelete $(if $(SAN),,-Wl,-z,defs)

LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man

EXTRA_BINS += $(PMLIB_A) $(PMLIB_DIR)/libpmustat.so $(BUILD)/regions-prog $(BUILD)/regions-prog-so \
	$(BUILD)/pmustat-regioncost

$(BUILD)/lib/pmustat/%.o: lib/pmustat/%.c
	@mkdir -p $(dir $@)
	@echo "CC $<"
	@$(CC) $(CFLAGS_BASE) $(CFLAGS) $(PMLIB_CFLAGS) -MMD -MP -c $< -o $@

$(PMLIB_A): $(PMLIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(PMLIB_SO): $(PMLIB_OBJ) lib/pmustat/pmustat.map
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) $(PMLIB_LDFLAGS) -o $@ $(PMLIB_OBJ)

$(PMLIB_DIR)/libpmustat.so: $(PMLIB_SO)
	ln -sf libpmustat.so.$(VERSION) $(PMLIB_DIR)/$(PMLIB_SONAME)
	ln -sf $(PMLIB_SONAME) $@

$(BUILD)/regions-prog: lib/pmustat/test/regions-prog.c include/pmustat.h $(PMLIB_A)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $< $(PMLIB_A)

$(BUILD)/regions-prog-so: lib/pmustat/test/regions-prog.c include/pmustat.h $(PMLIB_DIR)/libpmustat.so
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $< \
		-L$(PMLIB_DIR) -Wl,-rpath,'$$ORIGIN/lib' -lpmustat

$(BUILD)/pmustat-regioncost: lib/pmustat/cost/regioncost.c include/pmustat.h $(PMLIB_A)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $< $(PMLIB_A)

# The library's own unit test links its objects directly (the generic test
# rule links only the tool's internal library, which it also needs for the
# hand-off round trip).
$(BUILD)/tests/test_regions_lib: tests/unit/test_regions_lib.c $(PMLIB_OBJ) $(INTERNAL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) $(PMLIB_CFLAGS) -MMD -MP -o $@ $< \
		$(PMLIB_OBJ) $(INTERNAL) -lcmocka $(LDLIBS_BASE)

# CLI tests that compile against the installed library need the build's
# sanitizer flags (an ASan-built libpmustat.so needs an ASan program).
clitest: export PMUSTAT_TEST_SAN := $(SAN)

# Programs linked with `pkg-config --libs pmustat` find libpmustat.so
# without LD_LIBRARY_PATH: outside the linker's own directories the .pc
# carries a run path to $(LIBDIR).
comma := ,
PC_RPATH := $(if $(filter /usr/lib /lib /usr/lib/$(shell $(CC) -dumpmachine 2>/dev/null),$(LIBDIR)),,-Wl$(comma)-rpath$(comma)$${libdir})

.PHONY: install-lib
install: install-lib
install-lib: $(PMLIB_A) $(PMLIB_DIR)/libpmustat.so $(BUILD)/pmustat-regioncost
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(MANDIR)/man3
	install -m 644 include/pmustat.h $(DESTDIR)$(INCLUDEDIR)/pmustat.h
	install -m 644 $(PMLIB_A) $(DESTDIR)$(LIBDIR)/libpmustat.a
	install -m 755 $(PMLIB_SO) $(DESTDIR)$(LIBDIR)/libpmustat.so.$(VERSION)
	ln -sf libpmustat.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(PMLIB_SONAME)
	ln -sf $(PMLIB_SONAME) $(DESTDIR)$(LIBDIR)/libpmustat.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		-e 's|@RPATH@|$(PC_RPATH)|' \
		lib/pmustat/pmustat.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/pmustat.pc
	install -m 644 lib/pmustat/pmustat_region.3 $(DESTDIR)$(MANDIR)/man3/pmustat_region.3
	install -d $(DESTDIR)$(PREFIX)/libexec/pmustat
	install -m 755 $(BUILD)/pmustat-regioncost $(DESTDIR)$(PREFIX)/libexec/pmustat/pmustat-regioncost

-include $(PMLIB_OBJ:.o=.d)

# tests/unit/test_regions.c runs build/regions-prog through measure_run.
$(BUILD)/tests/test_regions: $(BUILD)/regions-prog
