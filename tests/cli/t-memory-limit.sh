# Running out of memory (an address-space limit, ulimit -v) in the middle of
# `compare --profile` stops the campaign like any other runtime error: one
# error line with a hint, exit code 1, the table of the finished runs, and
# the runs kept (document and journal). Where memory runs out depends on
# this machine's libraries, so a sweep of limits is tried and each limit
# that stopped the campaign this way is checked. At no limit may pmustat
# die: libdw (elfutils), which exits or asserts on its own when memory runs
# out, and pmustat's own allocations after the reserve is spent are caught
# inside the symbolizer and unwinder (core/oomguard.h; caught for sure in
# tests/unit/test_oomguard.c); the reserve itself is tested in
# tests/unit/test_xalloc.c.
. "$TESTLIB"
if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
	echo "SKIP: ASan reserves terabytes of address space: no ulimit -v under it"
	exit 77
fi
T=$BUILD/twofunc
hit=0 libdw=0
for mb in 34 36 38 40 42 44 46 48 50; do
	rm -f m.json m.json.journal
	(ulimit -v $((mb * 1024)) && exec "$PMUSTAT" compare --profile --blocks 3 --seed 5 \
		-o m.json -- "$T" 5 5 -- "$T" 5 15 >out 2>err)
	rc=$?
	# never a death: no libdw exit, no abort, no "fatal:"
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat err; fail "exit code $rc at $mb MB"; }
	expect_not_in err "libdw: Cannot allocate memory"
	expect_not_in err "fatal:"
	if [ "$rc" = 1 ]; then
		expect_eq "$(grep -c '^error:' err)" 1 "error lines at $mb MB"
		expect_in err "hint:"
	fi
	grep -q '^error: out of memory after run' err || continue
	hit=$((hit + 1))
	expect_eq "$rc" 1 "exit code at $mb MB"
	expect_eq "$(grep -c '^error:' err)" 1 "error lines at $mb MB"
	expect_in err "hint: the address space is limited to "
	expect_in out "pmustat compare: 2 variants"
	# libdw's running out, when it was what stopped it, is said
	if grep -q "profile: libdw" out; then
		expect_in out "the campaign stops after this run"
		libdw=$((libdw + 1))
	fi
	n=$(sed -n 's/^error: out of memory after run \([0-9]*\)$/\1/p' err)
	# every finished run is kept: in the document, or in its journal
	if [ -e m.json.journal ]; then
		run_pm 0 report m.json.journal -o rec.json
		expect_eq "$(jv rec.json runs.#)" "$n" "runs in the journal at $mb MB"
	else
		expect_eq "$(jv m.json runs.#)" "$n" "runs in the document at $mb MB"
	fi
done
[ "$hit" -gt 0 ] || echo "skip: no limit from 34 to 50 MB ran out of memory in pmustat's own allocations here"
echo "limits stopped cleanly: $hit ($libdw by libdw running out)"
exit 0
