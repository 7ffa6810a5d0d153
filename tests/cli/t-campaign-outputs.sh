# Outputs: never written through a link or into a device, a directory is a
# usage error before anything runs, a full disk stops the campaign with one
# error and keeps what was written, and a kill -9 leaves a journal that
# 'pmustat report' reads.
. "$TESTLIB"

# -o DIR: a usage error, before anything runs, said once.
mkdir d
run_pm 2 stat -o d -- touch ran
expect_in err "'d' is a directory"
[ "$(grep -c '^error:' err)" = 1 ] || fail "the error was said $(grep -c '^error:' err) times"
[ ! -e ran ] || fail "the command ran although -o named a directory"
run_pm 2 stat --csv d -- touch ran
[ ! -e ran ] || fail "the command ran although --csv named a directory"

# -o LINK: refused; the link and what it points to are untouched.
echo keep >target.json
ln -s target.json link.json
run_pm 2 stat -r 1 -o link.json -- true
expect_in err "'link.json' is not a regular file"
[ -L link.json ] || fail "the symlink was replaced"
expect_eq "$(cat target.json)" keep "the link's target"

# A FIFO (and, as root, a device node) as -o or --csv: refused, untouched.
mkfifo fifo
run_pm 2 stat -r 1 -o fifo -- true
[ -p fifo ] || fail "the FIFO was replaced"
run_pm 2 stat -r 1 --csv fifo -- true
[ -p fifo ] || fail "the FIFO was replaced by --csv"
if [ "$(id -u)" = 0 ]; then
	mknod full c 1 7
	run_pm 2 stat -r 1 -o full -- true
	expect_in err "'full' is not a regular file"
	[ -c full ] || fail "the device node was replaced"
fi

# A link planted where a temporary file might go is never followed.
echo victim >victim
for n in r.json.tmp .r.json.tmp r.json.journal.tmp; do ln -s victim "$n"; done
run_pm 0 stat -r 2 -o r.json --csv r.csv -- true
expect_eq "$(cat victim)" victim "the planted link's target"
expect_eq "$(jv r.json complete)" true "complete"
expect_eq "$(jv r.json runs.#)" 2 "runs"
[ ! -e r.json.journal ] || fail "the journal was left behind after a complete campaign"

# kill -9: the journal keeps every finished run, and report reads it.
"$PMUSTAT" stat -r 1000000 -o k.json -- true >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(wc -l <k.json.journal 2>/dev/null || echo 0)" -lt 4 ] && [ $i -lt 200000 ]; do
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
lines=$(wc -l <k.json.journal)
[ "$lines" -ge 4 ] || fail "no runs reached the journal before the kill"
expect_eq "$(jv k.json complete)" false "the killed campaign's document"
run_pm 0 report k.json -o rec.json
n=$(jv rec.json runs.#)
# Every complete line after the header is one run.
expect_eq "$n" "$(grep -c '^{"run"' k.json.journal)" "runs recovered from the journal"
expect_eq "$(jv rec.json complete)" false "a recovered result is not complete"
run_pm 0 report -q k.json.journal

# Two campaigns on one -o: the second is refused before it empties anything
# (the journal is locked), the first finishes with all its runs. The first
# one's command waits for the file "go" (bounded: 60 s).
WAITGO='i=0; while [ ! -e go ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done'
"$PMUSTAT" stat -q -r 3 -o two.json --csv two.csv -- sh -c "$WAITGO" >first.out 2>first.err &
first=$!
i=0
while ! grep -q '^{"journal"' two.json.journal 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -s two.json.journal ] || { touch go; wait $first; fail "the first campaign wrote no journal"; }
run_pm 2 stat -q -r 1 -o two.json --csv two.csv -- true
expect_eq "$(grep -c '^error:' err)" 1 "error lines of the refused campaign"
expect_in err "error: 'two.json.journal' is being written by another campaign"
expect_in err "hint: wait for that campaign to finish, or give this one another -o FILE"
expect_eq "$(wc -c <out)" 0 "the refused campaign's table (it ran nothing)"
expect_in two.json.journal '"sh"'
expect_eq "$(jv two.json variants.0.argv.0)" sh "the running campaign's document"
touch go
wait $first
expect_eq "$?" 0 "the first campaign's exit code"
expect_eq "$(jv two.json complete)" true "the first campaign's document"
expect_eq "$(jv two.json runs.#)" 3 "the first campaign's runs"
expect_eq "$(jv two.json variants.0.argv.0)" sh "the first campaign's command"
expect_eq "$(grep -c ',wall-time,' two.csv)" 3 "the first campaign's CSV rows"
[ ! -e two.json.journal ] || fail "the finished campaign left its journal"

# A full disk (a small tmpfs, root only): one clear error, the table of the
# finished runs, what was written kept, never marked complete.
if [ "$(id -u)" = 0 ] && mkdir mnt && mount -t tmpfs -o size=48k tmpfs mnt 2>/dev/null; then
	trap 'umount "$PWD/mnt" 2>/dev/null' EXIT
	run_pm 1 stat -r 5000 -o mnt/r.json -- true
	expect_in err "error: cannot write 'mnt/r.json.journal': No space left on device"
	[ "$(grep -c '^error:' err)" = 1 ] || { cat err; fail "more than one error line"; }
	# the final document did not fit either: said, with where the runs are
	expect_in err "hint: the result was not written either (cannot write 'mnt/r.json': No space left on device); the runs are kept in 'mnt/r.json.journal': 'pmustat report mnt/r.json.journal' reads them"
	expect_in out "task-clock"
	expect_eq "$(jv mnt/r.json complete)" false "JSON on a full disk"
	# the table shows the runs the journal holds, not the one it could not take
	shown=$(sed -n 's/.*(\([0-9]*\) runs).*/\1/p' out)
	expect_eq "$shown" "$(grep -c '^{"run"' mnt/r.json.journal)" "runs in the table and the journal"
	rm -f mnt/*
	run_pm 1 stat -r 5000 --csv mnt/r.csv -o r2.json -- true
	expect_in err "error: cannot write 'mnt/r.csv': No space left on device"
	[ "$(grep -c '^error:' err)" = 1 ] || { cat err; fail "more than one error line"; }
	expect_not_in err "Input/output error"
	expect_eq "$(jv r2.json complete)" false "JSON when the CSV hit a full disk"
	[ "$(jv r2.json runs.#)" -ge 1 ] || fail "finished runs were lost"
	# report --csv replaces the file whole: a full disk leaves the old one
	rm -f mnt/*
	run_pm 0 report -q r.json --csv mnt/old.csv
	cp mnt/old.csv old.csv
	head -c 1000000 /dev/zero >mnt/fill 2>/dev/null
	run_pm 1 report -q r2.json --csv mnt/old.csv
	expect_in err "error: cannot write 'mnt/old.csv': No space left on device"
	cmp -s old.csv mnt/old.csv || fail "report --csv on a full disk changed the previous CSV"
	umount mnt
	trap - EXIT
else
	echo "skip: disk-full cases need root and tmpfs"
fi
