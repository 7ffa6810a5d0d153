# symprog: the program the symbolizer's unit tests symbolize (source in
# tests/tools/sym/symprog.c), in the layouts a profiler meets: a PIE as gcc
# builds it by default, a PIE whose code segment's virtual address differs
# from its file offset (GNU ld, .text moved), one linked by lld (whose
# segments share file pages), a non-PIE executable, a stripped copy, a copy
# with symbols but no DWARF, and a copy whose symbols and DWARF are in a
# separate file found through .gnu_debuglink.
# Built without $(SAN), like every program the tests measure, and only for
# the tests (`make unit`), not by `make`: the lld build needs lld.
SYMPROG_SRC := tests/tools/sym/symprog.c
SYMPROG_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror
SYMPROG_BINS := $(BUILD)/symprog $(BUILD)/symprog-shifted $(BUILD)/symprog-lld \
	$(BUILD)/symprog-nopie $(BUILD)/symprog-stripped $(BUILD)/symprog-nodebug \
	$(BUILD)/symprog-dbglink

$(BUILD)/symprog: $(SYMPROG_SRC) workloads/symprog/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(SYMPROG_CFLAGS) -fPIE -pie -o $@ $< -lm

$(BUILD)/symprog-shifted: $(SYMPROG_SRC) workloads/symprog/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(SYMPROG_CFLAGS) -fPIE -pie -Wl,--section-start=.text=0x20000 -o $@ $< -lm

$(BUILD)/symprog-lld: $(SYMPROG_SRC) workloads/symprog/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(SYMPROG_CFLAGS) -fPIE -pie -fuse-ld=lld -o $@ $< -lm

$(BUILD)/symprog-nopie: $(SYMPROG_SRC) workloads/symprog/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(SYMPROG_CFLAGS) -fno-pie -no-pie -o $@ $< -lm

$(BUILD)/symprog-stripped: $(BUILD)/symprog
	strip -o $@ $<

$(BUILD)/symprog-nodebug: $(BUILD)/symprog
	strip --strip-debug -o $@ $<

# The debug file sits next to the program: libdwfl's default search path
# starts with the program's own directory.
$(BUILD)/symprog-dbglink: $(BUILD)/symprog
	objcopy --only-keep-debug $< $@.debug
	objcopy --strip-all --add-gnu-debuglink=$@.debug $< $@

$(BUILD)/tests/test_symbols: $(SYMPROG_BINS) $(BUILD)/r1cs-synth
