# The measured program runs with the scheduling policy and nice value
# pmustat was started with. The spawn server makes itself SCHED_BATCH (so
# that its wakeups do not preempt pmustat, docs/spawn.md) and gives the
# program the server's original policy back before the exec; a policy the
# user chose (chrt) is left alone, and so is nice.
. "$TESTLIB"
command -v chrt >/dev/null || { echo "SKIP: no chrt (util-linux)"; exit 77; }

# What the program sees: "POLICY NICE" from /proc/self/stat fields 19 and
# 41 (nice, policy) via a shell, so that no extra tool is in the way.
probe='read -r l </proc/self/stat; set -- ${l##*) }; echo "${39} ${17}" >"$0"'

run_pm 0 stat -r 1 -q -- sh -c "$probe" "$PWD/seen"
expect_eq "$(cat seen)" "0 0" "policy (0 = SCHED_OTHER) and nice by default"

nice -n 7 "$PMUSTAT" stat -r 1 -q -- sh -c "$probe" "$PWD/seen" >out 2>err || fail "nice -n 7 pmustat failed"
expect_eq "$(cat seen)" "0 7" "policy and nice under nice -n 7"

chrt -b 0 "$PMUSTAT" stat -r 1 -q -- sh -c "$probe" "$PWD/seen" >out 2>err || fail "chrt -b 0 pmustat failed"
expect_eq "$(cat seen)" "3 0" "policy (3 = SCHED_BATCH) when pmustat runs under chrt -b"

# The server itself is SCHED_BATCH during a campaign.
"$PMUSTAT" stat -r 1 -q -- sh -c 'read -r l </proc/$PPID/stat; set -- ${l##*) }; echo "${39}" >"$0"' "$PWD/server" \
	>out 2>err || fail "pmustat failed"
expect_eq "$(cat server)" 3 "the spawn server's policy (3 = SCHED_BATCH)"
exit 0
