# Embedded data: every data/*.json and data/<dir>/*.json is compiled into
# libpmustat-internal.a, so the pmustat binary carries its per-CPU knowledge
# and needs no data path at run time. Included by the top-level Makefile.
#
# data/embedgen.c (a build tool, built with $(HOSTCC), the build machine's
# compiler even when CC cross-compiles, and no
# sanitizers) writes $(BUILD)/gen/embed_data.c, one byte array per file plus
# the table that src/core/embed.h reads: embed_find("data/cpus.json", &len).
# A new data file needs no edit here. The generated source is remade when a
# data file changes and when a file is added or removed (embed.list holds the
# current file list and is only rewritten when that list changes).
EMBED_FILES := $(sort $(wildcard data/*.json data/*/*.json))
EMBEDGEN    := $(BUILD)/tools/embedgen
EMBED_C     := $(BUILD)/gen/embed_data.c
EMBED_LIST  := $(BUILD)/gen/embed.list

GEN_SRC += $(EMBED_C)

$(EMBEDGEN): data/embedgen.c
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=c11 -O1 -Wall -Wextra -Werror -o $@ $<

$(EMBED_LIST): embed-list-check
	@mkdir -p $(dir $@)
	@echo '$(EMBED_FILES)' >$@.new
	@if cmp -s $@ $@.new; then rm -f $@.new; else mv $@.new $@; fi

$(EMBED_C): $(EMBEDGEN) $(EMBED_FILES) $(EMBED_LIST) data/build.mk
	@echo "GEN $@ ($(words $(EMBED_FILES)) data files)"
	@$(EMBEDGEN) $@ $(EMBED_FILES)

.PHONY: embed-list-check
embed-list-check:
