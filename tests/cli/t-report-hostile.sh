# pmustat report on hostile results: every index read from a file is an
# in-range integer before use, and what a result takes in memory is bounded
# by its size, never by a number it holds. Each file is a few hundred bytes.
. "$TESTLIB"

head='{"schema":"pmustat.result/1","command":"compare",'
head=$head'"variants":[{"name":"A","argv":["true"]},{"name":"B","argv":["true"]}],'
head=$head'"metrics":[{"name":"wall-time","unit":"ns","backend":"clock","available":true}]'
run() { # run VARIANT BLOCK [MORE-FIELDS]
	printf '{"variant":%s,"block":%s%s,"values":{"wall-time":{"value":1000}}}' \
		"$1" "$2" "${3:-}"
}
doc() { echo "$head,\"runs\":[$1]}"; }

# Out of range, or not an integer: refused, naming the run and the field.
for bad in -1 1e300 3e8 16777216 '"3"' true; do
	doc "$(run 0 0),$(run 1 "$bad")" >bad.json
	run_pm 2 report bad.json
	expect_in err "error: 'bad.json': run 1: 'block' is "
done
expect_in err "not an integer from 0 to 16777215"
doc "$(run 0 0 ',"position":-1')" >pos.json
run_pm 2 report pos.json
expect_in err "'position' is -1, not an integer from 0 to 2147483647"
doc "$(run 0 0 ',"group":-2')" >group.json
run_pm 2 report group.json
expect_in err "'group' is -2, not an integer from -1 to 2147483647"
doc "$(run 0.5 0)" >variant.json
run_pm 2 report variant.json
expect_in err "'variant' is 0.5, not an integer from 0 to 1"

# The largest block number allowed costs no more than block 1: the
# comparison is laid out over the blocks present. Under a 100 MB address
# space limit (not with ASan, which reserves terabytes of it) a table sized
# by the block number (16 M blocks x 2 variants) cannot be allocated.
doc "$(run 0 0),$(run 1 0),$(run 0 16777215),$(run 1 16777215)" >far.json
if [ -z "${PMUSTAT_TEST_SAN:-}" ]; then
	(ulimit -v 100000 && "$PMUSTAT" report far.json >out 2>err) || fail "report far.json: $(cat err)"
else
	run_pm 0 report far.json
fi
expect_in out "pmustat compare: 2 variants, 2 blocks"

# Many metrics and many empty runs: a few hundred kilobytes asking for
# gigabytes of values are refused, not allocated.
awk 'BEGIN {
	printf "{\"schema\":\"pmustat.result/1\",\"variants\":[{\"name\":\"A\"}],\"metrics\":["
	for (i = 0; i < 1000; i++) printf "%s{\"name\":\"m%d\",\"unit\":\"\"}", i ? "," : "", i
	printf "],\"runs\":["
	for (i = 0; i < 20000; i++) printf "%s{}", i ? "," : ""
	print "]}"
}' >wide.json
run_pm 2 report wide.json
expect_in err "error: 'wide.json': run 2745: too large for its size: 2746 runs, 1000 metrics and 1 variant would take over 84 MiB"

# More variants than compare can have.
awk 'BEGIN {
	printf "{\"schema\":\"pmustat.result/1\",\"variants\":["
	for (i = 0; i < 65; i++) printf "%s{\"name\":\"v%d\"}", i ? "," : "", i
	print "]}"
}' >many.json
run_pm 2 report many.json
expect_in err "variant 64: more than 64 variants"

# Merging renumbers blocks after each other's: past INT_MAX is refused.
doc "$(run 0 16777215),$(run 1 16777215)" >top.json
set --
i=0
while [ $i -lt 130 ]; do set -- "$@" top.json; i=$((i + 1)); done
run_pm 2 report -q "$@"
expect_in err "cannot merge 'top.json': its blocks, numbered after the others', would pass 2147483647"

# A skeleton's journal must be a regular file: a FIFO offered a valid
# journal by a writer is refused rather than read (or waited on).
echo "$head,\"complete\":false,\"journal\":\"skel.json.journal\",\"runs\":[]}" >skel.json
mkfifo skel.json.journal
(for i in 1 2 3; do
	printf '{"journal":"pmustat.journal/1","result":%s}\n' "$(doc "")" >skel.json.journal
done) &
writer=$!
run_pm 1 report skel.json
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
expect_in err "error: 'skel.json.journal' is not a regular file"
