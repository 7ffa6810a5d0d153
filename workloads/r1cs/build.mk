# r1cs-synth: the built-in R1CS constraint-synthesis workload (see
# workloads/r1cs/main.c). Included by the top-level Makefile; it builds with
# the same flags as everything else (-O2 normally, -O1 + sanitizers under
# `make asan`) and links libpmustat statically (its synthesis phase is the
# region "synth", include/pmustat.h), so at run time it needs nothing but
# libc. No -march: the binary must run on any x86-64.
R1CS_SRC := $(sort $(wildcard workloads/r1cs/*.c))
R1CS_HDR := $(wildcard workloads/r1cs/*.h)

EXTRA_BINS += $(BUILD)/r1cs-synth

# The literal path: this fragment is included before lib/pmustat/build.mk.
$(BUILD)/r1cs-synth: $(R1CS_SRC) $(R1CS_HDR) workloads/r1cs/build.mk $(BUILD)/lib/libpmustat.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -pthread -o $@ $(R1CS_SRC) $(BUILD)/lib/libpmustat.a
