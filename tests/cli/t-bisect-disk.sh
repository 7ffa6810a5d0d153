# A full disk during a bisect (what held in the review, kept so): the
# results directory is a small tmpfs, mounted where only this test sees it
# (a mount namespace of its own); a file fills it while the search runs, so
# a write fails: one error line naming the file and the cause with a hint
# (df), exit 1, and what was decided stays in the journal; with the space
# back, the same command resumes and names the culprit. Needs root (mount).
. "$TESTLIB"
git_sandbox
[ "$(id -u)" = 0 ] || { echo "SKIP: not root: no tmpfs can be mounted for a full disk"; exit 77; }
command -v unshare >/dev/null || { echo "SKIP: no unshare: no private mount"; exit 77; }
if [ -z "${PMUSTAT_TEST_MOUNTNS-}" ]; then
	PMUSTAT_TEST_MOUNTNS=1 exec unshare -m sh -c \
		'mount --make-rprivate / 2>/dev/null; mkdir -p "$PWD/full" &&
		mount -t tmpfs -o size=4m tmpfs "$PWD/full" 2>/dev/null || {
			echo "SKIP: a tmpfs cannot be mounted here"; exit 77; }
		exec sh "$0"' "$0"
fi
mountpoint -q full || fail "full is not a mount point"

# 16 commits, the 12th doubles the allocations. The search tests 8, 12,
# 10, 11: the build of the 10th (its tree has 'late', as the 11th's) fills
# the disk once (the flag file), after three steps are decided.
mkdir r && cd r && git init -q -b main
printf '#include <stdlib.h>\n#include "cost.h"\nint main(void)\n{\n\tfor (int i = 0; i < ALLOCS; i++)\n\t\tfree(malloc(16));\n\treturn 0;\n}\n' >prog.c
echo '#define ALLOCS 100' >cost.h
cat >build.sh <<'EOF'
if [ -e late ] && [ -e "$T/fill-once" ]; then
	rm -f "$T/fill-once"
	dd if=/dev/zero of="$T/full/filler" bs=4k 2>/dev/null
fi
exec cc -o prog prog.c
EOF
git add -A && git commit -qm start && git tag good
for i in $(seq 1 16); do
	[ "$i" = 10 ] && touch late && git add late
	[ "$i" = 12 ] && git rm -q late
	if [ "$i" = 12 ]; then echo '#define ALLOCS 200' >cost.h; else echo "$i" >>notes.txt; git add notes.txt; fi
	git commit -qam "commit $i"
done
cd "$T"
touch fill-once
run() { (cd r && T="$T" "$PMUSTAT" bisect --seed 7 --good good --bad main --shell \
	--build 'sh build.sh' -m allocs -o "$T/full/b" -- ./prog >"$T/out" 2>"$T/err"); echo $? >"$T/rc"; }
run
[ ! -e fill-once ] || fail "the build that fills the disk did not run"
rc=$(cat rc)
if [ "$rc" = 0 ]; then
	# every write after the fill fitted in what was left: nothing to check
	echo "skip: the search needed no more space after the fill"
else
	expect_eq "$rc" 1 "exit code on a full disk"
	expect_eq "$(grep -c '^error:' err)" 1 "error lines on a full disk"
	grep -q "No space left on device" err || { cat err; fail "the cause is not said"; }
	expect_in err "hint: "
	n=$(grep -c '"step"' full/b/bisect.journal)
	[ "$n" -ge 3 ] || fail "only $n steps decided were kept"
	rm -f full/filler
	run
	[ "$(cat rc)" = 0 ] || { cat out err; fail "the resumed bisect exited $(cat rc)"; }
	expect_in err "resuming: $n step"
fi
expect_eq "$(jv full/b/bisect.json culprit.subject)" "commit 12" "the culprit"
expect_eq "$(cd r && git worktree list | wc -l)" 1 "no worktree left registered"
exit 0
