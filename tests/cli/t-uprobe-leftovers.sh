# Uprobe trace events that a pmustat killed by SIGKILL left in tracefs
# (--profile=allocs on a static program makes them; they pin the probed
# file's file system until removed) are removed by the next pmustat of any
# kind: only groups named as pmustat's, and only when the process that made
# them (pid and start time in the group's name) is gone. Another pmustat
# running at the same time keeps its own.
. "$TESTLIB"
S=$BUILD/allocn-static
ev=/sys/kernel/tracing/uprobe_events

[ "$(id -u)" = 0 ] || { echo "SKIP: not root: no uprobe trace events can be made"; exit 77; }
if [ ! -e "$ev" ] && [ -z "${PMUSTAT_TEST_TRACEFS-}" ] && grep -qw tracefs /proc/filesystems &&
	command -v unshare >/dev/null; then
	# tracefs is not mounted: mount it where only this test sees it (the
	# events themselves are the kernel's, and removed below).
	PMUSTAT_TEST_TRACEFS=1 exec unshare -m sh -c \
		'mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || {
			echo "SKIP: tracefs cannot be mounted"; exit 77; }
		exec sh "$0"' "$0"
fi
[ -w "$ev" ] || { echo "SKIP: no writable $ev"; exit 77; }

start_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
has_group() { grep -q "^[pr]:$1/" "$ev"; }
# Whatever happens, the pmustat started here ends, its program with it,
# and the groups planted here go.
planted="" pid=""
plant() {
	echo "p:$1/p0 $S:0x1000" >>"$ev" || fail "cannot make the event $1/p0"
	planted="$planted $1"
}
cleanup() {
	if [ -n "$pid" ] && kill -9 -$pid 2>/dev/null; then
		wait $pid 2>/dev/null
		exec 3<>go
		exec 3>&-
	fi
	for g in $planted; do
		has_group "$g" && echo "-:$g/p0" >>"$ev"
	done
}
trap cleanup EXIT

# pmustat with its probes made, stopped in a run (the program waits on a
# FIFO); the group is named after it: pid, then start time.
mkfifo go
setsid "$PMUSTAT" stat -q --profile=allocs -r 1 -- "$S" 10 wait >/dev/null 2>&1 &
pid=$!
poll 60 grep -q "^[pr]:pmustat_${pid}_" "$ev"
group=$(grep -o "^[pr]:pmustat_${pid}_[^/]*" "$ev" | head -n 1 | cut -c3-)
[ -n "$group" ] || fail "no trace events of pmustat $pid"
case $group in
"pmustat_${pid}_$(start_of $pid)_"*) ;;
*) fail "group '$group' does not name pmustat $pid's start time $(start_of $pid)" ;;
esac

# Made by hand: this shell's pid with another start time (the pid was
# reused), a dead pid in the form of earlier versions (no start time), and
# kept: this shell's pid with its own start time, the earlier form with a
# live pid, a name of another form.
dead=$(sh -c 'echo $$')
reused="pmustat_$$_1_abc"
old_dead="pmustat_${dead}_abc"
live="pmustat_$$_$(start_of $$)_abc"
old_live="pmustat_$$_abc"
other="pmustat_x$$_1"
for g in "$reused" "$old_dead" "$live" "$old_live" "$other"; do plant "$g"; done

# A pmustat started meanwhile keeps the running one's events.
run_pm 0 stat -r 1 -- true
has_group "$group" || fail "a live pmustat's trace events were removed"
expect_not_in out "$group"
expect_in out "uprobe trace events left in tracefs by pmustat processes that were killed (group "
for g in "$reused" "$old_dead"; do
	expect_in out "$g"
	! has_group "$g" || fail "$g was left"
done

kill -9 -$pid
wait $pid 2>/dev/null
pid=""
exec 3<>go	# let the orphaned program end
exec 3>&-
prog_gone() { ! pgrep -f "^$S 10 wait" >/dev/null; }
poll 60 prog_gone || fail "the orphaned program did not end"
has_group "$group" || fail "the killed pmustat's trace events went with it"

run_pm 0 stat -r 1 -- true
! has_group "$group" || fail "the killed pmustat's trace events were left: $(grep "$group" "$ev")"
expect_in out "left in tracefs by pmustat processes that were killed (group $group)"
for g in "$live" "$old_live" "$other"; do has_group "$g" || fail "$g was removed"; done
echo ok
