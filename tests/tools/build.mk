# callers-fp: tests/tools/callers.c with frame pointers, for `--call-graph
# fp` (the plain `callers` is built by the top-level rule for tools, without).
# GCC 12 still sets up no frame in leaf(), so an fp chain skips leaf's caller
# there, as `perf record -g` does on the same binary.
EXTRA_BINS += $(BUILD)/callers-fp

$(BUILD)/callers-fp: tests/tools/callers.c tests/tools/build.mk
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -g -O2 -fno-omit-frame-pointer -Wall -Wextra -Werror $(LDFLAGS) -o $@ $<
