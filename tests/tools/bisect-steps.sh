#!/bin/sh
# bisect-steps.sh FIXTURE N: FIXTURE (a bisect.json such as
# tests/fixtures/results/bisect-found.json) with its steps replaced by N
# candidates whose builds failed, one after the other along a range of N+1
# commits: the document a long stretch of broken builds leaves, for the
# page's size test (tests/cli/t-report-bisect.sh) and bench/bisect-page.sh.
set -eu
fixture=$1 n=$2
awk -v n="$n" '
/^  "steps": \[/ {
	print
	for (i = 1; i <= n; i++) {
		sha = sprintf("%07x%033d", i, 0)
		printf "    {\"index\": %d, \"kind\": \"candidate\", \"commit\": \"%s\", ", i, sha
		printf "\"short\": \"%s\", \"subject\": \"broken %d\", \"position\": %d, ", substr(sha, 1, 7), i, i
		printf "\"outcome\": \"skipped\", \"reason\": \"the build failed (exit 2): see builds/%s.log\", ", sha
		printf "\"build\": {\"status\": \"failed\", \"log\": \"builds/%s.log\", \"exit\": 2}, ", sha
		printf "\"vs_good\": null, \"vs_bad\": null, \"runs\": 0, \"blocks\": 0, "
		printf "\"stop_reason\": null, \"result\": null, \"window\": {\"lo\": %d, \"hi\": %d}}%s\n", \
			i - 1, n + 1, i < n ? "," : ""
	}
	skip = 1
	next
}
skip && /^  \],/ { skip = 0 }
skip { next }
/^  "candidates": / { printf "  \"candidates\": %d,\n", n + 1; next }
/^  "max_decisions": / { printf "  \"max_decisions\": %d,\n", n; next }
/^    "index": 6,/ { printf "    \"index\": %d,\n", n + 1; next }
/^  "skipped": / { printf "  \"skipped\": %d,\n", n; next }
/^    "position": 24,/ { printf "    \"position\": %d,\n", n + 1; next }
{ print }
' "$fixture"
