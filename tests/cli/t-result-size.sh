# A result is read back whatever its size (docs/report.md): the reader has no
# limit of its own that the writer could pass (it refused files over 256 MiB,
# which `stat -r 300000` writes). A result of 5 runs followed by 257 MiB of
# blanks (JSON whitespace: as large as that campaign's, written in a second)
# reads back with its 5 runs, parsed from its descriptor: not a copy of its
# text in memory (under a 1 GB address-space limit, as t-untrusted-files.sh).
# It needs a file system with room for big.json: with less than 1 GiB free
# it is skipped (CI images have had under 300 MB), not failed for the wrong
# reason, and big.json is removed on every way out, a failure included
# (run.sh keeps a failed test's scratch directory).
. "$TESTLIB"
free_kib=$(df -Pk . | awk 'NR == 2 { print $4 }')
case $free_kib in
''|*[!0-9]*) echo "SKIP: cannot tell the free space here ('df -Pk .' said '$free_kib')"; exit 77 ;;
esac
if [ "$free_kib" -lt $((1 << 20)) ]; then
	echo "SKIP: $free_kib KiB free here, 1 GiB needed for a 257 MiB result"
	exit 77
fi
trap 'rm -f big.json' EXIT
trap 'exit 1' HUP INT TERM
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
