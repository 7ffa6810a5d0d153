# Bad input: one clear line, a hint, the documented exit code, nothing lost.
. "$TESTLIB"

run_pm 2 stat -e tsk-clock -- true
expect_in err "error: unknown event 'tsk-clock'"
expect_in err "hint: did you mean 'task-clock'?"

# An empty metric list is a usage error (under ASan a leak on this path
# once turned it into exit 1).
for bad in ',,,' ',' 'ipc,,cycles'; do
	run_pm 2 stat -m "$bad" -- true
	expect_in err "error: empty event in event list '$bad'"
	expect_in err "hint: separate metrics with single commas"
done
long=$(printf '%0100000d' 0 | tr 0 q)
run_pm 2 stat -e "$long" -- true
expect_in err "error: unknown event 'qqqq"

run_pm 2 stat --rpeat 3 -- true
expect_in err "unknown option '--rpeat'"
expect_in err "did you mean '--repeat'"

run_pm 2 stat
expect_in err "error: no command to measure"
expect_in err "hint:"

for bad in abc 0 -1 1.5; do
	run_pm 2 stat -r "$bad" -- true
	expect_in err "option '--repeat' expects"
done
run_pm 2 stat --timeout -3 -- true
expect_in err "option '--timeout': '-3' is out of range"

run_pm 2 stats -- true
expect_in err "unknown command 'stats'"
expect_in err "did you mean 'pmustat stat'"

if has_pmu msr; then
	run_pm 2 stat -e msr/tsc -- true
	expect_in err "error:"
	run_pm 2 stat -e msr/umask=1/ -- true
	expect_in err "has no format term 'umask'"
	expect_in err "hint:"
fi

# An output that cannot be written is found before anything runs.
run_pm 2 stat -o /nonexistent/dir/r.json -- touch ran
expect_in err "cannot write '/nonexistent/dir/r.json'"
[ ! -e ran ] || fail "the command ran although the output was unwritable"
run_pm 2 stat --csv /nonexistent/dir/r.csv -- touch ran
expect_in err "cannot write '/nonexistent/dir/r.csv'"
[ ! -e ran ] || fail "the command ran although the CSV was unwritable"

# A program that cannot be run is not a program that failed.
run_pm 1 stat -- ./no-such-program
expect_in err "error: cannot run './no-such-program': No such file or directory"
run_pm 1 stat -- no-such-program-in-path
expect_in err "cannot run 'no-such-program-in-path'"

# A failing command stops the campaign, shows its stderr, keeps the data.
run_pm 1 stat -r 5 -o f.json -- sh -c 'echo boom >&2; exit 3'
expect_in err "run 1 of 5: 'sh -c echo boom >&2; exit 3' exited with status 3"
expect_in err "hint: use -i/--ignore-failure"
expect_in err "boom"
expect_eq "$(jv f.json runs.#)" 1 "failed run kept"
expect_eq "$(jv f.json runs.0.status)" failed "status"
expect_eq "$(jv f.json runs.0.exit_code)" 3 "exit code"

run_pm 1 stat -r 2 -- sh -c 'kill -SEGV $$'
expect_in err "was killed by signal 11"

# With -i the failing runs are measured and said to be failing.
run_pm 0 stat -r 5 --warmup 2 -i -o i.json --csv i.csv -- sh -c 'exit 3'
expect_eq "$(jv i.json runs.#)" 7 "runs"
expect_eq "$(jv i.json runs.6.exit_code)" 3 "exit code"
expect_in out "5 of 5 runs exited with a non-zero status"
grep -q ',failed,3,wall-time,' i.csv || fail "csv lacks failed runs"

# Timeouts kill the process group; without -i that is an error.
run_pm 1 stat -r 3 --timeout 0.2 -o t.json -- sh -c 'while :; do :; done'
expect_in err "timed out after 0.2 s"
expect_eq "$(jv t.json runs.0.status)" timeout "status"
run_pm 0 stat -r 2 --timeout 0.2 -i -o t2.json -- sh -c 'sh -c "while :; do :; done"; true'
expect_eq "$(jv t2.json runs.1.status)" timeout "status with -i"
expect_in out "2 of 2 runs timed out"
expect_in out "no usable runs"
