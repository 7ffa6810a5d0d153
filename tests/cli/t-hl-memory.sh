# The Hodges-Lehmann estimate in bounded memory (#38): `report` of a
# 6,000-block comparison under a 150 MB address-space limit gives the same
# comparisons as without one. Before, the n(n+1)/2 Walsh averages (18
# million, 144 MB, twice that while sorted) did not fit, and wall time's p
# came out as "—" with nothing said. Then a sweep of tighter limits: where
# memory runs out depends on this machine's libraries, so each limit must
# end one of three ways, never a fourth: an error, the same comparisons, or
# a warning naming what was left out (the analysis' every allocation is
# failed in turn by tests/unit/test_comparison_oom.c).
. "$TESTLIB"
if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
	echo "SKIP: ASan reserves terabytes of address space: no ulimit -v under it"
	exit 77
fi
python3 "$FIXTURES/results/make-blocks.py" 6000 r.json || fail "cannot make the result"
run_pm 0 report r.json -o full.json
jv full.json comparisons >want
[ "$(jv full.json comparisons.0.p)" != null ] || fail "no p without a limit"
(ulimit -v $((150 * 1024)) && exec "$PMUSTAT" report r.json -o lim.json >out 2>err)
rc=$?
[ "$rc" = 0 ] || { cat err; fail "report under 150 MB exited $rc"; }
jv lim.json comparisons >got
cmp -s want got || { diff want got; fail "comparisons differ under 150 MB"; }
expect_not_in out "out of memory"
expect_not_in out "  —  6000"
ends=""
for mb in 40 42 44 46 48 50 55 60; do
	rm -f lim.json
	(ulimit -v $((mb * 1024)) && exec "$PMUSTAT" report r.json -o lim.json >out 2>err)
	rc=$?
	if [ "$rc" != 0 ]; then
		[ "$rc" = 1 ] || { cat err; fail "exit code $rc at $mb MB"; }
		expect_eq "$(grep -c '^error:' err)" 1 "error lines at $mb MB"
		ends="$ends error"
	elif grep -q "left out: out of memory computing it" out; then
		grep -q '"kind": *"memory"' lim.json ||
			fail "the memory warning is not in the document at $mb MB"
		ends="$ends said"
	else
		jv lim.json comparisons >got
		cmp -s want got || { diff want got; fail "comparisons differ at $mb MB, unsaid"; }
		ends="$ends same"
	fi
done
echo "limits 40-60 MB ended:$ends"
exit 0
