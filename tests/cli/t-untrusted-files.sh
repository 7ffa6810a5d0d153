# Files a measured program controls (its executable, a file it maps, the
# call-count file it reports into) and files a result names: a FIFO there is
# refused at once, never waited on (during a campaign SIGINT and SIGTERM
# wait in a signalfd, so a blocked open() was a hang only SIGKILL ended);
# a link to /dev/zero or a huge file is refused, not read until memory runs
# out. Where a FIFO would block a reader, a writer offers it content, so a
# reader that opened it blocking would not hang here but take that content,
# and the checks below would fail.
. "$TESTLIB"

# ---- the command is a FIFO: the interpreter check of -m allocs opens it
mkfifo f
chmod +x f
(for i in 1 2 3 4; do printf '#!/bin/true\n' >f; done) &
writer=$!
run_pm 1 stat -m allocs -- ./f
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
expect_in err "error: cannot read './f': not a regular file"
expect_in err "hint:"

# ---- the call-count file replaced by a FIFO (a writer waits on it), by a
# link to /dev/zero, by a sparse file of 1 GiB: each run's counts are left
# out with the reason, the campaign goes on.
# (Call counts are taken in runs of their own: the timed runs have no file.)
cat >count-fifo.sh <<'EOF'
#!/bin/sh
[ -n "${PMUSTAT_COUNT_FILE-}" ] || exit 0
rm -f "$PMUSTAT_COUNT_FILE"
mkfifo "$PMUSTAT_COUNT_FILE"
(printf 'junkjunkjunkjunkjunkjunk' >"$PMUSTAT_COUNT_FILE") &
echo $! >>count-writer.pid
EOF
cat >count-zero.sh <<'EOF'
#!/bin/sh
[ -n "${PMUSTAT_COUNT_FILE-}" ] || exit 0
ln -sf /dev/zero "$PMUSTAT_COUNT_FILE"
EOF
cat >count-huge.sh <<'EOF'
#!/bin/sh
[ -n "${PMUSTAT_COUNT_FILE-}" ] || exit 0
truncate -s 1G "$PMUSTAT_COUNT_FILE"
EOF
chmod +x count-fifo.sh count-zero.sh count-huge.sh
# Bounded memory: a reader without a limit runs out of it on /dev/zero.
# Under ASan (which reserves terabytes of address space and aborts under
# ulimit -v) the commands run without the limit: the refusals are still
# asserted, the bound on memory only in the plain build.
memlimit() {
	if [ -n "${PMUSTAT_TEST_SAN:-}" ]; then
		"$@"
	else
		(ulimit -v 1000000; exec "$@")
	fi
}
memlimit "$PMUSTAT" stat -m allocs -r 1 -o c1.json -- ./count-fifo.sh >out 2>err
rc=$?
[ -s count-writer.pid ] && kill $(cat count-writer.pid) 2>/dev/null
expect_eq "$rc" 0 "exit code with a FIFO for the call-count file"
expect_in out "not a regular file"
memlimit "$PMUSTAT" stat -m allocs -r 1 -o c2.json -- ./count-zero.sh >out 2>err
expect_eq "$?" 0 "exit code with a link to /dev/zero for the call-count file"
expect_in out "cannot read the call-count file"
expect_in out "not a regular file"
memlimit "$PMUSTAT" stat -m allocs -r 1 -o c3.json -- ./count-huge.sh >out 2>err
expect_eq "$?" 0 "exit code with a huge call-count file"
expect_in out "is larger than 256 MiB"

# ---- a mapped file the program replaces with a FIFO before the profiler
# reads it (a writer it leaves behind offers the FIFO an ELF header)
cat >remap.sh <<'EOF'
#!/bin/sh
rm -f ./m
cp /bin/dash ./m
./m -c 'rm ./m; mkfifo ./m; (head -c 64 /bin/dash >./m) & echo $! >>m-writer.pid
	i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'
EOF
chmod +x remap.sh
run_pm 0 stat --profile --keep-children -r 1 -o p.json -- ./remap.sh
[ -s m-writer.pid ] && kill $(cat m-writer.pid) 2>/dev/null
# pmustat returned (the FIFO did not block it). Whether it looked at m
# depends on the sampler: once under load (2 busy loops on 2 CPUs) m's
# samples had no mapping at all ([unknown]: its mapping record was not seen
# before them, so m was never opened); then there is nothing to say.
if grep -q "^  \[unknown\]" out && ! grep -q "'$PWD/m'" out; then
	echo "skip: no sample was placed in m's mapping this time: its refusal was not exercised"
else
	expect_in out "cannot read '$PWD/m': not a regular file"
fi

# ---- the debug file a mapped object's .gnu_debuglink names, looked up
# beside the object: a FIFO the program put there (no writer: a blocking
# open would wait for ever, with SIGINT and SIGTERM held) is skipped and
# said; a real debug file there is still found (its DWARF used).
if command -v cc >/dev/null && command -v objcopy >/dev/null; then
	cat >spin.c <<'EOF2'
int main(int argc, char **argv)
{
	volatile unsigned long x = 0;

	(void)argv;
	for (unsigned long i = 0; i < 150000000ul * (unsigned long)argc; i++)
		x += i;
	return (int)(x & 1);
}
EOF2
	cc -g -O1 -o spin spin.c && objcopy --only-keep-debug spin spin.debug &&
		objcopy --strip-debug --add-gnu-debuglink=spin.debug spin ||
		fail "cannot build a program with a .gnu_debuglink"
	timeout -k 5 300 "$PMUSTAT" stat --profile -r 1 -o d1.json -- ./spin >out 2>err
	expect_eq "$?" 0 "exit code with the linked debug file beside the program"
	expect_not_in out "'$PWD/spin' has no DWARF"
	expect_not_in out "skipped where the debug file"
	rm spin.debug && mkfifo spin.debug
	timeout -k 5 300 "$PMUSTAT" stat --profile -r 1 -o d2.json -- ./spin >out 2>err
	expect_eq "$?" 0 "exit code with a FIFO where the linked debug file is looked up"
	expect_in out "'$PWD/spin.debug' is not a regular file: skipped where the debug file of '$PWD/spin' is looked up"
	expect_in out "'$PWD/spin' has no DWARF"
	notes=$(jv d2.json notes.#)
	i=0 found=0
	while [ "$i" -lt "$notes" ]; do
		case "$(jv d2.json notes.$i.text)" in *"'$PWD/spin.debug' is not a regular file"*) found=1 ;; esac
		i=$((i + 1))
	done
	expect_eq "$found" 1 "the skipped debug file in the result's notes"
else
	echo "skip: no cc or objcopy: the .gnu_debuglink FIFO case"
fi

# ---- `report` reads regular files only (docs/report.md): a device, a
# directory, a FIFO (without a writer: the open must not wait for one) are
# refused at once, each in one line; a journal too
memlimit "$PMUSTAT" report /dev/zero >out 2>err
expect_eq "$?" 1 "exit code of report /dev/zero"
expect_in err "error: '/dev/zero' is not a regular file (a character device)"
expect_in err "hint:"
mkfifo rf.json rf.journal
mkdir rd.json
for f in rf.json:FIFO rf.journal:FIFO rd.json:directory; do
	timeout 20 "$PMUSTAT" report "${f%%:*}" >out 2>err
	expect_eq "$?" 1 "exit code of report ${f%%:*}"
	expect_eq "$(head -1 err)" "error: '${f%%:*}' is not a regular file (a ${f#*:})" "report ${f%%:*}"
	expect_eq "$(wc -l <err)" 2 "lines of the error for ${f%%:*}"
done
# a skeleton naming its journal, which is a FIFO
printf '{"schema":"pmustat.result/1","complete":false,"journal":"rf.journal"}\n' >skf.json
timeout 20 "$PMUSTAT" report skf.json >out 2>err
expect_eq "$?" 1 "exit code of report on a skeleton whose journal is a FIFO"
expect_in err "error: 'rf.journal' is not a regular file (a FIFO)"

# ---- a skeleton result names its journal: only RESULT.journal next to it
for name in /etc/shadow ../r.json.journal sub/r.json.journal shadow; do
	printf '{"schema":"pmustat.result/1","complete":false,"journal":"%s"}\n' "$name" >sk.json
	run_pm 1 report sk.json
	expect_in err "error: 'sk.json' names the journal '$name', which is not next to it"
	expect_in err "hint: a campaign's journal is RESULT.journal"
	expect_not_in err "root"
done

# ---- interruptible: every run after the first puts a FIFO where the
# call-count file is (no writer this time: a blocking open would hang with
# SIGINT and SIGTERM blocked). SIGTERM and SIGINT end the campaign, the
# finished runs kept; the wait for the end is bounded.
cat >count-late.sh <<'EOF'
#!/bin/sh
[ -n "${PMUSTAT_COUNT_FILE-}" ] || exit 0
if [ -e ran ]; then rm -f "$PMUSTAT_COUNT_FILE"; mkfifo "$PMUSTAT_COUNT_FILE"; fi
touch ran
EOF
chmod +x count-late.sh
runs_in() { grep -s '^{"run"' "$1" | wc -l; }
for sig in TERM INT; do
	rm -f ran i.json i.json.journal
	"$PMUSTAT" stat -m allocs -r 100000 -o i.json -- ./count-late.sh >out 2>err &
	pid=$!
	i=0
	while [ "$(runs_in i.json.journal)" -lt 3 ] && [ $i -lt 20000 ]; do
		i=$((i+1))
	done
	[ "$(runs_in i.json.journal)" -ge 3 ] ||
		{ kill -9 $pid; fail "runs after the first FIFO did not finish (SIG$sig)"; }
	kill -$sig $pid
	timeout 60 tail --pid=$pid -f /dev/null ||
		{ kill -9 $pid; fail "SIG$sig did not end the campaign"; }
	wait $pid
	rc=$?
	expect_eq "$rc" 130 "exit code after SIG$sig"
	expect_eq "$(jv i.json interrupted)" true "interrupted flag (SIG$sig)"
	n=$(jv i.json runs.#)
	[ "$n" -ge 3 ] || fail "runs kept after SIG$sig: $n"
	expect_in out "interrupted by SIG$sig"
done
echo ok
