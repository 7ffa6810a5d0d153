# test_analysed counts how many times one command computes its comparisons.
# It drives the real CLI: main.o with its main() renamed (objcopy), linked
# with every other CLI object, and comparisons_compute wrapped by the linker
# (-Wl,--wrap) so that the test's own __wrap_comparisons_compute counts the
# calls made from every other object — no counter in the library itself.
# Its compare case runs real programs through the spawn server.
TEST_CLI_MAIN := $(BUILD)/tests/cli-main.o

$(TEST_CLI_MAIN): $(BUILD)/src/cli/main.o
	@mkdir -p $(dir $@)
	objcopy --redefine-sym main=pmustat_cli_main $< $@

$(BUILD)/tests/test_analysed: tests/unit/test_analysed.c $(TEST_CLI_MAIN) \
		$(filter-out $(BUILD)/src/cli/main.o,$(CLI_OBJ)) $(INTERNAL) | $(SPAWNER)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -Wl,--wrap=comparisons_compute -MMD -MP -o $@ \
		$< $(TEST_CLI_MAIN) $(filter-out $(BUILD)/src/cli/main.o,$(CLI_OBJ)) $(INTERNAL) \
		-lcmocka -lpfm $(LDLIBS_BASE)

# The renderers' golden files (tests/unit/test_golden.c): after an intended
# change of the output, rewrite them and review the diff.
.PHONY: golden-update
golden-update: $(BUILD)/tests/test_golden
	PMUSTAT_GOLDEN_UPDATE=1 $(BUILD)/tests/test_golden

# test_comparison_oom fails each allocation of one analysis in turn: the
# allocators are wrapped by the linker so that the test's __wrap_malloc
# (calloc, realloc) decides, with nothing to that end in the library.
$(BUILD)/tests/test_comparison_oom: tests/unit/test_comparison_oom.c $(INTERNAL)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(LDFLAGS) -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc \
		-MMD -MP -o $@ $< $(INTERNAL) -lcmocka -lpfm $(LDLIBS_BASE)
