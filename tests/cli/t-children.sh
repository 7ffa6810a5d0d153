# What a run leaves behind (a daemon, a grandchild in its own session, a
# thousand children it never waited for) is found after the run, killed, and
# said in a note with the count and in the JSON result; --keep-children lets
# it live on instead; a timeout kills every process the run started, not only
# its process group. Both ways of finding them are tried: a cgroup per run
# (where cgroup v2 is writable) and the spawn server as child subreaper.
. "$TESTLIB"

H=$PWD/hostile-ch.$$
cp "$BUILD/hostile" "$H"
export HOSTILE_REPORT="$PWD/rep"

# How many processes that hostile reported are still alive (by pid, and
# only if the pid is still one of ours: its command line names $H).
alive() {
	n=0
	while read -r pid cg; do
		grep -qsF "$H" "/proc/$pid/cmdline" && n=$((n + 1))
	done <rep
	echo $n
}
# Whatever a failing check left behind goes, by pid.
cleanup() {
	[ -f rep ] || return 0
	while read -r pid cg; do
		grep -qsF "$H" "/proc/$pid/cmdline" && kill -9 "$pid"
	done <rep
}
trap cleanup EXIT

# The cgroup way is expected where cgroup v2 is mounted and we are root.
cgroup_way=0
if [ "$(id -u)" = 0 ] && grep -q ' - cgroup2 ' /proc/self/mountinfo; then
	cgroup_way=1
fi

for way in cgroup subreaper; do
	[ $way = subreaper ] && export PMUSTAT_NO_CGROUP=1
	: >rep

	# A daemon (fork, setsid, fork): found and killed after each run.
	run_pm 0 stat -r 2 -o d.json -- "$H" daemon
	expect_eq "$(wc -l <rep)" 2 "$way: daemons started"
	expect_eq "$(alive)" 0 "$way: daemons alive after the campaign"
	expect_in out "run 1 left 1 process behind (killed): "
	expect_in out "run 2 left 1 process behind (killed): "
	expect_in out "hint: use --keep-children to let them live on"
	expect_eq "$(jv d.json runs.0.left_behind)" 1 "$way: left_behind"
	expect_eq "$(jv d.json runs.0.left_kept)" false "$way: left_kept"
	expect_eq "$(jv d.json options.keep_children)" false "$way: options.keep_children"
	if [ $way = subreaper ]; then
		grep -q '/pmustat-' rep && fail "PMUSTAT_NO_CGROUP=1: a run cgroup was used"
	elif [ $cgroup_way = 1 ]; then
		[ "$(grep -c '/pmustat-' rep)" = 2 ] || { cat rep; fail "the daemons were not in a run cgroup"; }
	fi

	# A grandchild that called setsid(): out of the process group, not out
	# of reach.
	: >rep
	run_pm 0 stat -r 1 -o s.json -- "$H" setsid
	expect_eq "$(alive)" 0 "$way: setsid grandchild alive after the campaign"
	expect_eq "$(jv s.json runs.0.left_behind)" 1 "$way: setsid left_behind"

	# A thousand children left waiting.
	: >rep
	run_pm 0 stat -r 1 -o f.json -- "$H" fork 1000
	expect_eq "$(wc -l <rep)" 1000 "$way: children started"
	expect_eq "$(alive)" 0 "$way: children alive after the campaign"
	expect_in out "run 1 left 1000 processes behind (killed): "
	expect_in out " more"
	expect_eq "$(jv f.json runs.0.left_behind)" 1000 "$way: fork left_behind"

	# A timeout kills the grandchild in its own session too. The program
	# reaps its middle child before it hangs; a timeout of 0.05 s could
	# fire before that on a loaded host (2 processes seen, not 1), so the
	# timeout leaves it a second: the count is the program's, not the load's.
	: >rep
	run_pm 0 stat -r 1 -i --timeout 1 -o t.json -- "$H" hang-setsid
	expect_eq "$(jv t.json runs.0.status)" timeout "$way: the run timed out"
	expect_eq "$(alive)" 0 "$way: processes alive after the timeout"
	expect_in out "run 1 timed out with 1 more process running (killed): "
	expect_eq "$(jv t.json runs.0.left_behind)" 1 "$way: timeout left_behind"

	# --keep-children: they live on, and the note says so.
	: >rep
	run_pm 0 stat -r 2 --keep-children -o k.json -- "$H" setsid
	expect_eq "$(alive)" 2 "$way: kept grandchildren alive"
	expect_in out "run 1 left 1 process behind (kept): "
	expect_in out "run 2 left 1 process behind (kept): "
	expect_in out "they are still running"
	expect_eq "$(jv k.json runs.1.left_behind)" 1 "$way: kept left_behind"
	expect_eq "$(jv k.json runs.1.left_kept)" true "$way: left_kept"
	expect_eq "$(jv k.json options.keep_children)" true "$way: options.keep_children"
	cleanup

	# Three runs are noted one by one, the rest summed up.
	: >rep
	run_pm 0 stat -r 5 -o n.json -- "$H" setsid
	expect_in out "run 3 left 1 process behind (killed)"
	expect_not_in out "run 4 left"
	expect_in out "5 of 5 runs left processes behind (killed), 5 in all"
	expect_eq "$(alive)" 0 "$way: alive after five runs"

	# A well-behaved program leaves nothing and gets no note.
	run_pm 0 stat -r 2 -o ok.json -- true
	expect_not_in out "behind"
	jv ok.json runs.0.left_behind >/dev/null 2>&1 && fail "$way: left_behind for a program that left nothing"
done
exit 0
