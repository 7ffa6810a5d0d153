# Programs whose counts are known in advance, for the call-counter and
# simulation unit tests (sources in tests/tools/known/): allocn makes an exact
# number of allocation calls, loopn runs a loop an exact number of times.
# They are measured, not tested, so they are built without $(SAN) (an
# instrumented program could not take the LD_PRELOAD shim either), and
# allocn also statically, to test call counters in a static binary.
KNOWN_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror
KNOWN_BINS := $(BUILD)/allocn $(BUILD)/allocn-static $(BUILD)/loopn

EXTRA_BINS += $(KNOWN_BINS)

$(BUILD)/allocn: tests/tools/known/allocn.c workloads/known-counts/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(KNOWN_CFLAGS) -pthread -o $@ $<

$(BUILD)/allocn-static: tests/tools/known/allocn.c workloads/known-counts/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(KNOWN_CFLAGS) -pthread -static -o $@ $<

$(BUILD)/loopn: tests/tools/known/loopn.c workloads/known-counts/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(KNOWN_CFLAGS) -o $@ $<

# `make unit` builds only the test binaries: these tests run the programs
# above (and the preload shim), so they depend on them.
$(BUILD)/tests/test_callcount: $(KNOWN_BINS) $(BUILD)/libpmustat-count.so
$(BUILD)/tests/test_elf: $(BUILD)/allocn $(BUILD)/allocn-static
$(BUILD)/tests/test_sim: $(BUILD)/loopn
