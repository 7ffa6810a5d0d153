# A result is read back whatever its size (docs/report.md): the reader has no
# limit of its own that the writer could pass (it refused files over 256 MiB,
# which `stat -r 300000` writes). A result of 5 runs followed by 257 MiB of
# blanks (JSON whitespace: as large as that campaign's, written in a second)
# reads back with its 5 runs, parsed from its descriptor: not a copy of its
# text in memory (under a 1 GB address-space limit, as t-untrusted-files.sh).
. "$TESTLIB"
run_pm 0 stat -q -r 5 -o r.json -- true
cp r.json big.json
yes ' ' | head -c $((257 << 20)) >>big.json
[ "$(wc -c <big.json)" -gt $((256 << 20)) ] || fail "big.json is not above 256 MiB"
if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
	"$PMUSTAT" report -q big.json -o back.json >out 2>err
else
	(ulimit -v 1000000; exec "$PMUSTAT" report -q big.json -o back.json) >out 2>err
fi
rc=$?
rm -f big.json
[ "$rc" = 0 ] || { cat err; fail "report of a result above 256 MiB exited $rc"; }
expect_eq "$(jv back.json runs.#)" 5 "runs read back from a result above 256 MiB"
# what it read is what was written: the same document once more
run_pm 0 report -q r.json -o again.json
cmp -s back.json again.json || fail "the result read back from big.json differs from r.json's"
exit 0
