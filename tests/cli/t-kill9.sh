# kill -9 of pmustat, at varied moments (after the k-th run reached the
# journal, with programs that leave processes behind or hang until a
# timeout): no process of the spawn server or of the measured program
# outlives pmustat, and `pmustat report` reads every finished run.
#
# Sync without sleeps: every process pmustat starts inherits fd 9, the write
# end of a FIFO (pmustat passes inherited fds through), so a reader of the
# FIFO sees EOF exactly when the last of them is gone. The timeout around it
# only turns a hang into a failure.
. "$TESTLIB"

H=$PWD/hostile-k9.$$
cp "$BUILD/hostile" "$H"
export HOSTILE_REPORT="$PWD/rep"
trials=${PMUSTAT_KILL9_TRIALS:-24}
cleanup() {
	for p in $(pgrep -f "$H"); do kill -9 "$p"; done
}
trap cleanup EXIT
mkfifo gone
# Is pid a live process (not a zombie waiting for init to reap it)?
alive() {
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# Finished run lines in the journal. A last line without its newline was cut
# by the kill (a write to a file can stop at a page boundary on SIGKILL): no
# run, and report rightly drops it.
runs_in() {
	[ -f r.json.journal ] || { echo 0; return; }
	n=$(grep -c '^{"run"' r.json.journal)
	if [ -n "$(tail -c 1 r.json.journal)" ] && tail -n 1 r.json.journal | grep -q '^{"run"'; then
		n=$((n - 1))
	fi
	echo "$n"
}

t=0
while [ $t -lt "$trials" ]; do
	k=$((1 + t % 5))
	case $((t % 4)) in
	0) prog="fork 3"; opts= ;;
	1) prog=daemon; opts= ;;
	2) prog=setsid; opts= ;;
	*) prog=hang-setsid; opts="-i --timeout 0.01" ;;
	esac
	rm -f r.json r.json.journal rep
	timeout 120 cat gone >/dev/null &
	reader=$!
	# shellcheck disable=SC2086
	"$PMUSTAT" stat -r 100000 $opts -o r.json -- "$H" $prog 9>gone >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ "$(runs_in)" -lt $k ] && [ $i -lt 200000 ]; do
		i=$((i + 1))
	done
	server=$(pgrep -P $pid)
	kill -9 $pid
	wait $pid 2>/dev/null
	wait $reader || fail "trial $t ($prog, k=$k): a process pmustat started outlived it"
	left=$(pgrep -f "$H")
	[ -z "$left" ] || fail "trial $t ($prog, k=$k): left behind: $left"
	[ -n "$server" ] && alive "$server" && fail "trial $t: the spawn server $server is alive"
	[ -n "$server" ] && find /sys/fs/cgroup -maxdepth 3 -name "pmustat-$server" | grep -q . &&
		fail "trial $t: the run cgroup of $server is left"
	lines=$(runs_in)
	[ "$lines" -ge $k ] || fail "trial $t: $lines runs in the journal, expected $k"
	run_pm 0 report r.json -o rec.json
	expect_eq "$(jv rec.json runs.#)" "$lines" "trial $t ($prog, k=$k): runs recovered"
	t=$((t + 1))
done
exit 0
