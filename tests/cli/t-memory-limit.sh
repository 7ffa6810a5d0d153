# Running out of memory (an address-space limit, ulimit -v) in the middle of
# `compare --profile` stops the campaign like any other runtime error: one
# error line with a hint, exit code 1, the table of the finished runs, and
# the runs kept (document and journal). Where memory runs out depends on
# this machine's libraries, so a sweep of limits is tried and each limit
# that stopped the campaign this way is checked. Not asserted: libdw
# (elfutils) running out inside itself, which exits or asserts on its own,
# and a second exhaustion before the run ends (the reserve is spent); the
# reserve itself is tested deterministically in tests/unit/test_xalloc.c.
. "$TESTLIB"
if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
	echo "SKIP: ASan reserves terabytes of address space: no ulimit -v under it"
	exit 77
fi
T=$BUILD/twofunc
hit=0
for mb in 36 39 42 45 48 51 54 57; do
	rm -f m.json m.json.journal
	(ulimit -v $((mb * 1024)) && exec "$PMUSTAT" compare --profile --blocks 3 --seed 5 \
		-o m.json -- "$T" 5 5 -- "$T" 5 15 >out 2>err)
	rc=$?
	grep -q '^error: out of memory after run' err || continue
	hit=$((hit + 1))
	expect_eq "$rc" 1 "exit code at $mb MB"
	expect_eq "$(grep -c '^error:' err)" 1 "error lines at $mb MB"
	expect_in err "hint: the address space is limited to "
	expect_in out "pmustat compare: 2 variants"
	n=$(sed -n 's/^error: out of memory after run \([0-9]*\)$/\1/p' err)
	# every finished run is kept: in the document, or in its journal
	if [ -e m.json.journal ]; then
		run_pm 0 report m.json.journal -o rec.json
		expect_eq "$(jv rec.json runs.#)" "$n" "runs in the journal at $mb MB"
	else
		expect_eq "$(jv m.json runs.#)" "$n" "runs in the document at $mb MB"
	fi
done
[ "$hit" -gt 0 ] || echo "skip: no limit from 36 to 57 MB ran out of memory in pmustat's own allocations here"
exit 0
