# SIGKILL to pmustat's whole process group (`timeout -s KILL`, a job
# control kill, a CI runner cancelling a step) while a run goes: the spawn
# server is not in that group, so it survives the signal long enough to see
# pmustat gone, kill every process of the run (the measured program is in a
# process group of its own and would be orphaned) and remove the run's
# cgroup. Without that, the program lived on with parent 1 in the cgroup.
#
# Sync without sleeps, as in t-kill9.sh: every process pmustat starts
# inherits fd 9, the write end of a FIFO, so its reader sees EOF exactly when
# the last of them is gone; the run is known to be going once the program's
# setsid grandchild has reported itself. The bounds only turn a hang into a
# failure.
. "$TESTLIB"

command -v setsid >/dev/null || { echo "SKIP: no setsid(1)"; exit 77; }
H=$PWD/hostile-pg.$$
cp "$BUILD/hostile" "$H"
export HOSTILE_REPORT="$PWD/rep"
cleanup() {
	for p in $(pgrep -f "$H"); do kill -9 "$p"; done
}
trap cleanup EXIT
mkfifo gone

for mode in cgroup subreaper; do
	rm -f rep pg
	nocg=0
	[ $mode = subreaper ] && nocg=1
	timeout 60 cat gone >/dev/null &
	reader=$!
	# setsid: pmustat leads a process group of its own (as under timeout(1)),
	# so the kill below reaches exactly that group.
	PMUSTAT_NO_CGROUP=$nocg setsid sh -c 'echo $$ >pg; exec "$0" stat -r 3 -- "$1" hang-setsid' \
		"$PMUSTAT" "$H" 9>gone >/dev/null 2>&1 &
	i=0
	while ! [ -s rep ] && [ $i -lt 200000 ]; do i=$((i + 1)); done
	[ -s rep ] || fail "$mode: the measured program never started"
	pgid=$(cat pg)
	server=$(pgrep -P "$pgid")
	[ -n "$server" ] || fail "$mode: no spawn server under pmustat $pgid"
	kill -9 "-$pgid"
	wait $reader || fail "$mode: a process pmustat started outlived a SIGKILL to its process group"
	left=$(pgrep -f "$H")
	[ -z "$left" ] || fail "$mode: left behind: $left"
	find /sys/fs/cgroup -maxdepth 3 -name "pmustat-$server" | grep -q . &&
		fail "$mode: the run cgroup of $server is left"
done
exit 0
