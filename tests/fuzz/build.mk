# Fuzz harnesses (tests/fuzz/fuzz_NAME.c; see tests/fuzz/fuzz.h and
# tests/fuzz/README.md). Included by the top-level Makefile. Each harness is
# built two ways:
#
#   $(BUILD)/fuzz/replay-NAME   with the build's own compiler and sanitizers
#                               and tests/fuzz/replay.c's main(): `make
#                               fuzz-replay` (part of `make check`, so also
#                               under ASan+UBSan) feeds it the seed corpus
#                               tests/fuzz/corpus/NAME/ and the crashes found
#                               before, tests/fuzz/regress/NAME/
#   build-fuzz/fuzz/fuzz-NAME   with clang -fsanitize=fuzzer,address,undefined:
#                               `make fuzz FUZZ_SECONDS=N` runs each for N
#                               seconds and fails on any crash, leak, timeout
#                               or out-of-memory (tests/fuzz/run.sh)
#
# `make fuzz` installs clang when missing (scripts/install-deps.sh fuzz);
# nothing else needs it. A new harness is one new file: no edit here.
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SECONDS ?= 10
FUZZ_BUILD   := build-fuzz
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
FUZZ_CFLAGS  := -Itests/fuzz -DFUZZ_SRCROOT=\"$(abspath .)\"
FUZZ_DEPS    := tests/fuzz/util.c tests/fuzz/fuzz.h tests/fuzz/build.mk $(INTERNAL)

$(BUILD)/fuzz/replay-%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(FUZZ_CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay.c \
		tests/fuzz/util.c $(INTERNAL) $(LDLIBS_BASE)

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $< \
		tests/fuzz/util.c $(INTERNAL) $(LDLIBS_BASE)

.PHONY: fuzz fuzz-build fuzz-replay
fuzz-replay: $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay-%)
	@sh tests/fuzz/replay.sh $(BUILD)/fuzz $(FUZZ_NAMES)

fuzz-build: $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz-%)

# clang has no -Wformat-truncation, which CFLAGS_BASE turns off for gcc.
fuzz:
	@sh scripts/install-deps.sh fuzz
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang SAN="$(FUZZ_SAN)" \
		CFLAGS="$(CFLAGS) -Wno-unknown-warning-option" fuzz-build
	@sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)
