# pmustat build. Sources are discovered by folder (one folder per layer, see
# shared DESIGN.md), so adding a file never means editing this Makefile.
#
#   make            build build/pmustat
#   make clitest ONLY=compare   one CLI script (tests/cli/t-compare.sh; a glob)
#   make check      install missing Debian packages, build, run unit + CLI tests
#                   and the fuzz replays (tests/fuzz/corpus, tests/fuzz/regress),
#                   then the same tests again under ASan+UBSan
#   make asan       only the sanitizer build and its tests
#   make check-pmu  the hardware path on an emulated arm64 PMU: cross-builds
#                   for arm64 and boots guests under qemu-system-aarch64
#                   (tests/pmu/run.sh; installs its packages, SKIP if it cannot)
#   make fuzz       run each fuzz harness for FUZZ_SECONDS (clang; tests/fuzz/)
#   make demo       the main job
#   make bench      benchmarks (not tests: ratios against baselines;
#                   BENCH_BASE=OLD_PMUSTAT adds an older build to hl-memory.sh)
#   make install PREFIX=/usr/local   (also the bash and zsh completions)

PREFIX  ?= /usr/local
BUILD   ?= build
CC      ?= cc
# The compiler of programs that run during the build (data/embedgen):
# the build machine's, also when CC cross-compiles (tests/pmu/run.sh).
HOSTCC  ?= cc
OPT     ?= -O2
SAN     ?=
VERSION := 0.1.0
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -DPMUSTAT_VERSION=\"$(VERSION)\" -g $(OPT) -Wall -Wextra -Werror \
	-Wno-missing-field-initializers -Wno-format-truncation -Isrc -Iinclude $(SAN)
# libpfm4 is dlopen()ed by pmustat on first use (src/catalog/libpfm.h);
# only the unit tests, which call it directly, link it.
LDLIBS_BASE := -ljansson -ldw -lelf -lz -liberty -lm -ldl
CFLAGS  ?=
LDFLAGS ?=

LIB_SRC   := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
CLI_SRC   := $(sort $(wildcard src/cli/*.c))
TEST_SRC  := $(sort $(wildcard tests/unit/test_*.c))
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
INTERNAL  := $(BUILD)/libpmustat-internal.a
PMUSTAT   := $(BUILD)/pmustat

# Parts with their own build rules (workloads, generated data, the region
# library) bring a build.mk fragment; they add programs to EXTRA_BINS,
# generated library sources to GEN_SRC, and may add to CHECK_DEPS.
TOOLS      := $(patsubst tests/tools/%.c,$(BUILD)/%,$(wildcard tests/tools/*.c))
EXTRA_BINS := $(TOOLS)
GEN_SRC :=
# A fragment's first rule must not become the default goal.
.DEFAULT_GOAL := all
-include $(sort $(wildcard workloads/*/build.mk data/build.mk lib/*/build.mk tests/*/build.mk))
LIB_OBJ += $(GEN_SRC:%.c=$(BUILD)/%.o)

.PHONY: all deps check unit clitest check-pmu asan demo bench install clean
all: $(PMUSTAT) $(EXTRA_BINS)

deps:
	@sh scripts/install-deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "CC $<"
	@$(CC) $(CFLAGS_BASE) $(CFLAGS) -MMD -MP -c $< -o $@

$(INTERNAL): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(PMUSTAT): $(CLI_OBJ) $(INTERNAL)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(INTERNAL) $(LDLIBS_BASE)

$(BUILD)/tests/%: tests/unit/%.c $(INTERNAL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -MMD -MP -o $@ $< $(INTERNAL) -lcmocka -lpfm $(LDLIBS_BASE)

# Small programs the CLI tests run (jsonq reads JSON, busy burns CPU, ...).
# Built without $(SAN): they are what gets measured, not code under test,
# and a sanitizer's start-up cost would distort what they measure.
$(TOOLS): $(BUILD)/%: tests/tools/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror -Isrc $(LDFLAGS) -o $@ $< -ljansson

unit: $(TEST_BIN)
	@sh tests/run-unit.sh $(TEST_BIN)

clitest: $(PMUSTAT) $(EXTRA_BINS)
	@PMUSTAT=$(abspath $(PMUSTAT)) BUILD=$(abspath $(BUILD)) ONLY='$(ONLY)' sh tests/cli/run.sh

# Each phase says its wall time, so that CI's 30 minutes stay in view.
check: deps
	@t=$$(date +%s); $(MAKE) --no-print-directory unit clitest fuzz-replay && \
		echo "check: unit, cli and fuzz-replay took $$(($$(date +%s) - t)) s"
	@t=$$(date +%s); $(MAKE) --no-print-directory check-pmu && \
		echo "check: the emulated-PMU tests took $$(($$(date +%s) - t)) s"
	@t=$$(date +%s); $(MAKE) --no-print-directory asan && \
		echo "check: the sanitizer pass took $$(($$(date +%s) - t)) s"

# Exit 77 (packages not installable) has printed its SKIP line: not a failure.
check-pmu:
	@BUILD=$(abspath $(BUILD)) sh tests/pmu/run.sh; rc=$$?; [ $$rc = 0 ] || [ $$rc = 77 ]

asan:
	@$(MAKE) --no-print-directory BUILD=build-asan OPT=-O1 \
		SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		unit clitest fuzz-replay

demo: deps
	@$(MAKE) --no-print-directory all
	$(PMUSTAT) demo

# Benchmarks, not tests: each prints ratios against baselines run side by side.
bench: all
	@sh bench/run.sh $(abspath $(PMUSTAT))
	@python3 bench/cost.py $(abspath $(PMUSTAT))
	@sh bench/output.sh $(abspath $(PMUSTAT))
	@sh bench/profile.sh $(abspath $(PMUSTAT))
	@sh bench/allocsites.sh $(abspath $(PMUSTAT))
	@sh bench/verdicts.sh $(abspath $(PMUSTAT)) $(abspath $(BUILD))
	@sh bench/compare-rules.sh $(abspath $(INTERNAL))
	@sh bench/regions.sh $(abspath $(BUILD))
	@python3 bench/bisect.py $(abspath $(PMUSTAT))
	@sh bench/hl-memory.sh $(abspath $(PMUSTAT)) $(BENCH_BASE)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/libexec/pmustat
	install -m 755 $(PMUSTAT) $(DESTDIR)$(PREFIX)/bin/pmustat
	install -m 755 $(SPAWNER) $(DESTDIR)$(PREFIX)/libexec/pmustat/pmustat-spawner
	install -m 755 $(BUILD)/r1cs-synth $(DESTDIR)$(PREFIX)/libexec/pmustat/r1cs-synth
	install -m 644 docs/pmustat.1 $(DESTDIR)$(PREFIX)/share/man/man1/pmustat.1
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions
	$(PMUSTAT) completion bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pmustat
	$(PMUSTAT) completion zsh >$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_pmustat

clean:
	rm -rf build build-asan build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d)
