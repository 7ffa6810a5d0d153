# Temporary directories a pmustat killed by SIGKILL left behind (the
# call-count directory, then compare's exec directory with its
# subdirectories; the simulation directory is made the same way,
# core/path.c) are removed by a later run of any kind: only pmustat's own
# (its name, this user's), and only when the process that made it (pid and
# start time in the name) is gone. Other campaigns run at the same time: a
# live one's directory is kept.
. "$TESTLIB"

mkdir tmp
export TMPDIR="$PWD/tmp"
start_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }

# A real one: pmustat killed while the call-count run holds its directory.
cat >wait.sh <<'EOF'
#!/bin/sh
[ -n "${PMUSTAT_COUNT_FILE-}" ] || exit 0
read x <go
EOF
chmod +x wait.sh
mkfifo go
"$PMUSTAT" stat -q -m allocs -r 1 -- ./wait.sh >/dev/null 2>&1 &
pid=$!
calls_dir() { ls tmp | grep -q "^pmustat-calls\.$pid-"; }
poll 60 calls_dir
killed=$(ls tmp | grep "^pmustat-calls\.$pid-") ||
	{ kill -9 $pid; fail "no call-count directory of pmustat $pid"; }
kill -9 $pid
wait $pid 2>/dev/null
exec 3<>go	# let the orphaned program end
exec 3>&-
[ -d "tmp/$killed" ] || fail "the directory went with pmustat"

# Made by hand: a live process's (this shell's, with its start time), one
# whose pid is alive but started at another time (the pid was reused),
# another user's, and one of a name pmustat does not make.
live="pmustat-calls.$$-$(start_of $$)-AAAAAA"
reused="pmustat-calls.$$-1-BBBBBB"
mkdir "tmp/$live" "tmp/$reused" tmp/pmustat-calls.XYZ123 tmp/other
: >"tmp/$reused/counts"
mkdir tmp/theirs
chown nobody tmp/theirs 2>/dev/null && mv tmp/theirs "tmp/pmustat-calls.$pid-1-CCCCCC"
ln -s "$PWD/tmp/other" "tmp/pmustat-calls.$pid-2-DDDDDD"

run_pm 0 stat -q -m allocs -r 1 -- true
[ ! -e "tmp/$killed" ] || fail "the killed campaign's directory was left"
[ ! -e "tmp/$reused" ] || fail "a directory of a reused pid was left"
[ -d "tmp/$live" ] || fail "a live process's directory was removed"
[ -d tmp/pmustat-calls.XYZ123 ] || fail "a directory of another form was removed"
[ -d tmp/other ] || fail "a link's target was removed"
[ -L "tmp/pmustat-calls.$pid-2-DDDDDD" ] || fail "a link was removed"
if [ -d "tmp/pmustat-calls.$pid-1-CCCCCC" ]; then
	[ "$(stat -c %U "tmp/pmustat-calls.$pid-1-CCCCCC")" = nobody ] ||
		fail "another user's directory changed hands"
else
	[ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || fail "another user's directory removed"
fi
# The run cleaned up its own: nothing but the above is left.
left=$(ls tmp | grep -v -e "^$live\$" -e '^pmustat-calls.XYZ123$' -e '^other$' -e '-CCCCCC$' -e '-DDDDDD$')
expect_eq "$left" "" "directories left"

# compare's exec directory (DIR/<index>/<link>), left by a kill -9 of the
# whole process group while a run waits: a plain stat, which makes no
# temporary directory of its own, removes it with its subdirectories.
cat >block.sh <<'EOF2'
#!/bin/sh
read x <go
EOF2
chmod +x block.sh
setsid "$PMUSTAT" compare -q --blocks 2 -- ./block.sh -- ./block.sh >/dev/null 2>&1 &
pid=$!
stop() {	# the compare (its program released), on every path
	if [ -n "$pid" ] && kill -9 -$pid 2>/dev/null; then
		wait $pid 2>/dev/null
		exec 3<>go
		exec 3>&-
	fi
	pid=""
}
trap stop EXIT
# (its last link made: the directory is complete)
exec_link() { [ -L "$(echo tmp/pmustat-exec-$pid-*/1/block.sh)" ]; }
poll 60 exec_link
exec_dir=$(ls tmp | grep "^pmustat-exec-$pid-") || fail "no exec directory of pmustat $pid"
# A pmustat started meanwhile keeps the running one's directory.
run_pm 0 stat -r 1 -- true
[ -L "tmp/$exec_dir/1/block.sh" ] || fail "a live compare's exec directory was removed"
expect_not_in out "$exec_dir"
stop
[ -L "tmp/$exec_dir/0/block.sh" ] || fail "no link in the killed campaign's exec directory"

# Made by hand: the same shape for a reused pid, with a link to a directory
# outside (followed, it would empty it), and for a live process.
reused="pmustat-exec-$$-1-EEEEEE"
live="pmustat-exec-$$-$(start_of $$)-FFFFFF"
mkdir -p "tmp/$reused/0_" "tmp/$reused/1/x" "tmp/$live/0" keep
: >keep/file
ln -s "$PWD/keep" "tmp/$reused/0_/prog"
ln -s "$PWD/keep" "tmp/$reused/1/prog"
: >"tmp/$reused/1/x/file"
# Another user's subdirectory in a dead campaign's: not pmustat's, kept,
# and the directory holding it with it.
held="pmustat-exec-$$-2-GGGGGG"
mkdir -p "tmp/$held/0/theirs"
chown nobody "tmp/$held/0/theirs" 2>/dev/null || rm -r "tmp/$held"

run_pm 0 stat -r 1 -- true
[ ! -e "tmp/$exec_dir" ] ||
	fail "the killed compare's exec directory was left: $(find "tmp/$exec_dir")"
[ ! -e "tmp/$reused" ] || fail "an exec directory of a reused pid was left: $(find "tmp/$reused")"
[ -d "tmp/$live/0" ] || fail "a live process's exec directory was removed"
[ -f keep/file ] || fail "a link in an exec directory was followed"
expect_in out "removed 2 temporary directories left by pmustat processes that were killed"
expect_in out "$TMPDIR/$exec_dir"
if [ -d "tmp/$held" ]; then
	[ -d "tmp/$held/0/theirs" ] || fail "another user's subdirectory was removed"
	rmdir "tmp/$held/0/theirs" "tmp/$held/0" "tmp/$held"
fi
# A start that finds nothing says nothing.
run_pm 0 stat -r 1 -- true
expect_not_in out "removed"
echo ok
