# r1cs-synth: the built-in R1CS constraint-synthesis workload (see
# workloads/r1cs/main.c). Included by the top-level Makefile; it builds with
# the same flags as everything else (-O2 normally, -O1 + sanitizers under
# `make asan`) and links nothing but libc: the workload must not depend on
# libpmustat. No -march: the binary must run on any x86-64.
R1CS_SRC := $(sort $(wildcard workloads/r1cs/*.c))
R1CS_HDR := $(wildcard workloads/r1cs/*.h)

EXTRA_BINS += $(BUILD)/r1cs-synth

$(BUILD)/r1cs-synth: $(R1CS_SRC) $(R1CS_HDR) workloads/r1cs/build.mk
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -o $@ $(R1CS_SRC)
