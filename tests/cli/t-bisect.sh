# pmustat bisect on real git repositories built here: a history of 24
# commits of a small C program in which one known commit doubles its
# allocations (an exact count through the LD_PRELOAD shim, so no verdict
# depends on the host's load), one commit does not build, and a second
# history with two changes. Checks the culprit and the number of decisions,
# the skip, the stop on a candidate like neither endpoint, one line and a
# hint per bad input, and the resume after a kill -9 (the build of one
# commit kills pmustat, so the interruption lands at a known step).
. "$TESTLIB"
git_sandbox

# make_repo DIR CHANGES: commit 0 allocates 100 times a run; CHANGES is a
# list of N:WHAT (break, fix, or a number of allocations) for commits 1..24.
make_repo() {
	mkdir "$1" && cd "$1" || fail "cannot make $1"
	git init -q
	# With INT_HERE (one commit of the resume check) and the file named by
	# $INT_ONCE present, a run sends SIGINT to pmustat (the spawn server's
	# parent) once, as Ctrl-C would, without allocating on the way.
	cat >prog.c <<-'EOF'
	#include <signal.h>
	#include <stdlib.h>
	#include <string.h>
	#include <fcntl.h>
	#include <unistd.h>
	#include "cost.h"
	#include "extra.h"
	#include "int.h"
	static void interrupt_once(void)
	{
	#ifdef INT_HERE
		const char *f = getenv("INT_ONCE");
		char path[64], buf[512], *p;
		ssize_t n;
		int fd;

		if (!f || unlink(f))
			return;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)getppid());
		fd = open(path, O_RDONLY);
		n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (n <= 0)
			return;
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p)
			kill((pid_t)atoi(p + 4), SIGINT);
	#endif
	}
	#ifndef EXIT_CODE
	#define EXIT_CODE 0
	#endif
	int main(void)
	{
		interrupt_once();
		for (int i = 0; i < ALLOCS; i++)
			free(malloc(16));
		return EXIT_CODE;
	}
	EOF
	# The build kills pmustat (its spawn server's parent) once, for the
	# resume check, when this commit's tree has kill-here and the file named
	# by KILL_ONCE exists.
	cat >build.sh <<-'EOF'
	if [ -e kill-here ] && [ -n "${KILL_ONCE:-}" ] && [ -e "$KILL_ONCE" ]; then
		rm -f "$KILL_ONCE"
		kill -9 "$(sed 's/.*) [A-Za-z] \([0-9]*\).*/\1/' /proc/$PPID/stat)"; exit 1
	fi
	exec cc -o prog prog.c
	EOF
	echo '#define ALLOCS 100' >cost.h
	: >extra.h
	: >int.h
	echo 0 >notes.txt
	git add -A && git commit -qm start
	for i in $(seq 1 24); do
		what=$(printf '%s\n' $2 | sed -n "s/^$i://p")
		[ -e kill-here ] && git rm -q kill-here
		: >int.h
		case $what in
		break) echo '#error broken on purpose' >extra.h; msg="break the build" ;;
		fail) echo '#define EXIT_CODE 3' >extra.h; msg="fail every run" ;;
		fix) : >extra.h; msg="fix the build" ;;
		kill) touch kill-here; git add kill-here; msg="kill the build once" ;;
		int) echo '#define INT_HERE 1' >int.h; msg="interrupt a run once" ;;
		[0-9]*) echo "#define ALLOCS $what" >cost.h; msg="allocate $what times" ;;
		*) echo "$i" >notes.txt; msg="tidy $i" ;;
		esac
		git commit -qam "$msg"
	done
	cd "$T" || exit 1
}

bisect() { (cd "$1" && shift && "$PMUSTAT" bisect --seed 7 "$@" >"$T/out" 2>"$T/err"); echo $? >"$T/rc"; }
expect_rc() { expect_eq "$(cat "$T/rc")" "$1" "$2: exit code" || true; }

# --- one culprit, one commit that does not build, one whose runs fail --------
make_repo one "11:fail 12:break 13:fix 17:200"
bisect one --good HEAD~24 --bad HEAD --build 'cc -o prog prog.c' -m allocs -o "$T/r1" -- ./prog
[ "$(cat rc)" = 0 ] || { cat out err; fail "bisect exited $(cat rc)"; }
culprit=$(cd one && git rev-parse HEAD~7)
expect_eq "$(jv r1/bisect.json culprit.commit)" "$culprit" "the culprit is the commit that doubled the allocations"
expect_eq "$(jv r1/bisect.json outcome)" found "outcome"
short=$(cd one && git rev-parse --short HEAD~7)
expect_in out "first bad commit: $short allocate 200 times"
expect_in out "(exact) higher against its parent"
d=$(jv r1/bisect.json decisions)
[ "$d" -le 7 ] || fail "$d decisions, more than ceil(log2(24)) + 2 = 7"
expect_eq "$(jv r1/bisect.json max_decisions)" 5 "ceil(log2(24))"
# The search tests the middle (commit 12) first: its build fails, it is
# skipped and said so, with the build's last lines and its log. The next
# nearest, commit 11, builds but its program fails: skipped too.
expect_eq "$(jv r1/bisect.json skipped)" 2 "two commits skipped"
expect_eq "$(jv r1/bisect.json steps.1.outcome)" skipped "the commit whose runs fail is skipped"
expect_eq "$(jv r1/bisect.json steps.1.subject)" "fail every run" "the second skipped commit"
expect_in err "its runs failed"
expect_eq "$(jv r1/bisect.json steps.0.outcome)" skipped "the broken commit is skipped"
expect_eq "$(jv r1/bisect.json steps.0.subject)" "break the build" "the skipped commit"
expect_in err "skip: "
expect_in err "error: #error broken on purpose"
log=$(jv r1/bisect.json steps.0.build.log)
expect_in "r1/$log" "broken on purpose"
expect_eq "$(jv r1/bisect.json premise.outcome)" differ "premise"
# 200 allocations a run against 100, and whatever libc's start-up adds to both.
awk -v r="$(jv r1/bisect.json premise.vs_good.ratio)" 'BEGIN { exit !(r > 1.8 && r <= 2) }' ||
	fail "premise ratio $(jv r1/bisect.json premise.vs_good.ratio), expected about 2"
expect_eq "$(jv r1/bisect.json premise.vs_good.exact)" true "an exact comparison"
expect_eq "$(jv r1/bisect.json direction)" higher "direction"
# Each step's evidence is a compare result of its own; worktrees are gone.
r=$(jv r1/bisect.json steps.2.result)
[ -f "r1/$r" ] || fail "the step's result $r is missing"
expect_eq "$(jv "r1/$r" schema)" pmustat.result/1 "a step's result is a compare result"
[ -z "$(ls r1/worktrees)" ] || fail "worktrees left behind: $(ls r1/worktrees)"
expect_eq "$(cd one && git worktree list | wc -l)" 1 "no worktree registered after the end"
expect_eq "$(jv r1/bisect.json complete)" true "complete"

# Run again when finished: nothing is measured again; a torn last line of
# the journal (a kill during a write) is dropped before anything is appended.
printf '{"step":{"index":9,"ki' >>r1/bisect.journal
runs=$(jv r1/bisect.json runs_total)
bisect one --good HEAD~24 --bad HEAD --build 'cc -o prog prog.c' -m allocs -o "$T/r1" -- ./prog
expect_rc 0 "a finished bisect run again"
expect_in err "resuming: 9 steps decided before are not run again"
expect_not_in err "building"
expect_eq "$(jv r1/bisect.json runs_total)" "$runs" "runs after running a finished bisect again"
expect_eq "$(tail -c 1 r1/bisect.journal | od -An -c | tr -d ' ')" '\n' "the journal ends with a whole line"
expect_not_in r1/bisect.journal '"index":9,'

# report renders it again
run_pm 0 report r1/bisect.json
expect_in out "first bad commit: $short allocate 200 times"
run_pm 0 report r1
expect_in out "(premise: bad vs good)"

# --- --profile: one commit after good, so the search is the premise and the
# culprit against its parent, profiled: its allocation site shows the change.
make_repo prof "1:200"
bisect prof --good HEAD~24 --bad HEAD~23 --shell --build 'cc -g -o prog prog.c && test -x prog' \
	-m allocs --profile -o "$T/rp" -- ./prog
expect_rc 0 "--profile"
expect_eq "$(jv rp/bisect.json candidates)" 1 "one candidate"
expect_eq "$(jv rp/bisect.json decisions)" 0 "no decision needed"
expect_eq "$(jv rp/bisect.json culprit.subject)" "allocate 200 times" "the only commit"
expect_eq "$(jv rp/bisect.json profile.alloc_sites.0.calls_base)" 100.0 "the parent's allocations at the site"
expect_eq "$(jv rp/bisect.json profile.alloc_sites.0.calls_culprit)" 200.0 "the culprit's"
case $(jv rp/bisect.json profile.alloc_sites.0.site) in
main*) ;;
*) fail "the site is not main's: $(jv rp/bisect.json profile.alloc_sites.0.site)" ;;
esac
r=$(jv rp/bisect.json profile.result)
[ -f "rp/$r" ] || fail "the profiled result $r is missing"
# Run again when finished: the profile is read back from the confirm step's result.
bisect prof --good HEAD~24 --bad HEAD~23 --shell --build 'cc -g -o prog prog.c && test -x prog' \
	-m allocs --profile -o "$T/rp" -- ./prog
expect_rc 0 "--profile again"
expect_eq "$(jv rp/bisect.json profile.alloc_sites.0.calls_culprit)" 200.0 "the culprit's, read back"

# --- the premise fails: good and bad allocate the same ----------------------
bisect prof --good HEAD~22 --bad HEAD --build 'cc -o prog prog.c' -m allocs -o "$T/rn" -- ./prog
expect_rc 4 "no difference"
expect_eq "$(jv rn/bisect.json outcome)" no-difference "outcome"
expect_eq "$(jv rn/bisect.json premise.vs_good.verdict)" equivalent "the premise's verdict"
expect_eq "$(jv rn/bisect.json premise.vs_good.ratio)" 1.0 "the premise's ratio"
expect_eq "$(jv rn/bisect.json decisions)" 0 "no candidate tested"

# --- two changes: the middle candidate is like neither endpoint --------------
make_repo two "8:150 18:200"
bisect two --good HEAD~24 --bad HEAD --build 'cc -o prog prog.c' -m allocs -o "$T/r2" -- ./prog
c=$(cat rc)
o=$(jv r2/bisect.json outcome)
if [ "$o" = neither ]; then
	expect_eq "$c" 5 "like neither: exit code"
	expect_in out "is neither like good nor like bad"
	expect_in out "bisect the two halves separately"
	n=$(jv r2/bisect.json decisions)
	expect_eq "$(jv r2/bisect.json steps.$((n - 1)).outcome)" neither "the last step says neither"
else
	expect_eq "$o" found "two changes: neither, or the first found"
	expect_eq "$(jv r2/bisect.json culprit.subject)" "allocate 150 times" "the first change"
fi

# --- resume after Ctrl-C and after kill -9 -----------------------------------
# The search tests commits 12, 18 (the culprit), 15, 16, 17: a run of commit
# 16 sends SIGINT once (the step is cut short: exit 130, outcome
# interrupted), then the build of commit 17 kills pmustat with SIGKILL once;
# each rerun goes on from the first step not decided.
make_repo three "16:int 17:kill 18:200"
touch int-once kill-once
resume() {
	INT_ONCE="$T/int-once" KILL_ONCE="$T/kill-once" bisect three --good HEAD~24 --bad HEAD \
		--build 'sh build.sh' -m allocs -o "$T/r3" -- ./prog
}
resume
[ ! -e int-once ] || fail "no run sent SIGINT"
expect_rc 130 "interrupted"
expect_eq "$(jv r3/bisect.json outcome)" interrupted "outcome after Ctrl-C"
expect_eq "$(jv r3/bisect.json complete)" false "complete after Ctrl-C"
expect_in out "run the same command again to resume"
n1=$(grep -c '"step"' r3/bisect.journal)
expect_eq "$n1" 4 "steps decided before the interrupt (premise, 12, 18, 15)"
cp r3/bisect.journal journal.1
resume
[ ! -e kill-once ] || fail "the killing build did not run"
[ "$(cat rc)" -gt 128 ] || fail "the build did not kill pmustat (exit $(cat rc))"
expect_in err "resuming: $n1 steps decided before are not run again"
n2=$(grep -c '"step"' r3/bisect.journal)
expect_eq "$n2" 5 "steps decided before the kill (16 too)"
# What the killed search left is a document too (complete: false), shown by report.
expect_eq "$(jv r3/bisect.json complete)" false "the document after kill -9"
expect_eq "$(jv r3/bisect.json outcome)" running "its outcome"
run_pm 0 report r3
head -n $((n1 + 1)) r3/bisect.journal | cmp -s - journal.1 || fail "decided steps changed"
cp r3/bisect.journal journal.2
resume
[ "$(cat rc)" = 0 ] || { cat out err; fail "the resumed bisect exited $(cat rc)"; }
expect_in err "resuming: $n2 steps decided before are not run again"
head -n $((n2 + 1)) r3/bisect.journal | cmp -s - journal.2 || fail "decided steps changed"
# Each step's commit appears once in the journal: nothing decided was rerun.
dups=$(grep -o '"kind":"candidate","commit":"[0-9a-f]*"' r3/bisect.journal | sort | uniq -d)
[ -z "$dups" ] || fail "steps run twice: $dups"
expect_eq "$(jv r3/bisect.json culprit.subject)" "allocate 200 times" "culprit after the resumes"
expect_eq "$(jv r3/bisect.json decisions)" 5 "decisions over the three runs"

# The documents match docs/schema/bisect.schema.json (and a broken one does not).
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	v() { /usr/bin/python3 "$SRCROOT/tests/schema/validate.py" "$SRCROOT/docs/schema" "$@"; }
	v bisect r1/bisect.json r2/bisect.json r3/bisect.json >schema.out 2>&1 ||
		{ cat schema.out; fail "a bisect result does not match its schema"; }
	v bisect-journal r1/bisect.journal r3/bisect.journal >schema.out 2>&1 ||
		{ cat schema.out; fail "a bisect journal does not match its schema"; }
	sed 's/"outcome": "found"/"outcome": "maybe"/' r1/bisect.json >broken.json
	! v bisect broken.json >/dev/null 2>&1 || fail "the schema accepts a broken document"
else
	echo "skip: python3-jsonschema is missing: the documents were not validated"
fi

# --- bad inputs: one line, a hint, exit 2 -------------------------------------
mkdir plain
bisect plain --good HEAD~1 --bad HEAD -- ./prog
expect_rc 2 "not a repository"
expect_in err "error: not a git repository"
expect_in err "hint: "
bisect one --good nosuchrev --bad HEAD -- ./prog
expect_rc 2 "unknown revision"
expect_in err "error: --good 'nosuchrev' is not a commit in this repository"
expect_in err "hint: "
bisect one --good HEAD --bad HEAD -- ./prog
expect_rc 2 "good == bad"
expect_in err "are the same commit"
bisect one --good HEAD --bad HEAD~3 -- ./prog
expect_rc 2 "good after bad"
expect_in err "is not an ancestor of --bad"
expect_in err "hint: "
bisect one --good HEAD~3 --bad HEAD ./prog
expect_rc 2 "no --"
expect_in err "the command comes after '--'"
bisect one --good HEAD~3 --bad HEAD
expect_rc 2 "no command"
expect_in err "error: no command to measure"
echo changed >one/notes.txt
bisect one --good HEAD~3 --bad HEAD -- ./prog
expect_rc 2 "uncommitted changes"
expect_in err "error: the work tree has uncommitted changes ('notes.txt')"
expect_in err "hint: commit or stash them"
for f in err; do [ "$(grep -c '^error: ' $f)" = 1 ] || fail "more than one error line"; done
(cd one && git checkout -q notes.txt)
bisect one --good HEAD~3 --bad HEAD -m allocs -o "$T/r1" -- ./prog
expect_rc 2 "another bisect's directory"
expect_in err "holds a bisect of good $(cd one && git rev-parse --short=12 HEAD~24) and bad"
if command -v flock >/dev/null; then
	# One bisect per directory: another one holding its journal refuses this one.
	flock r1/bisect.journal sh -c "cd one && '$PMUSTAT' bisect --good HEAD~24 --bad HEAD \
		-m allocs -o '$T/r1' -- ./prog" >out 2>err
	expect_eq "$?" 2 "a directory in use: exit code"
	expect_in err "is being used by another bisect"
fi
touch afile
bisect one --good HEAD~3 --bad HEAD -o "$T/afile" -- ./prog
expect_rc 2 "-o names a file"
expect_in err "cannot use '$T/afile' as the results directory"
exit 0
