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

# r1cs-synth-static: the same workload linked statically, for the allocation
# call sites of static programs (tests/cli/t-allocsites-static.sh: traced
# with uprobes, its sites must be the shim's on r1cs-synth). Built from the
# sources with the region library's own, without $(SAN): a static program
# can take no sanitizer runtime.
EXTRA_BINS += $(BUILD)/r1cs-synth-static

$(BUILD)/r1cs-synth-static: $(R1CS_SRC) $(R1CS_HDR) $(wildcard lib/pmustat/*.[ch]) workloads/r1cs/build.mk
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -g -O2 -Wall -Wextra -Werror -Iinclude -Ilib/pmustat \
		-pthread -static -o $@ $(R1CS_SRC) $(wildcard lib/pmustat/*.c)
