# The man page covers every subcommand of 'pmustat help' and every long
# option of every command's -h (the option tables), and renders without
# groff warnings. A new command or option without its man page entry fails
# here.
. "$TESTLIB"
: "${SRCROOT:?}"
man1="$SRCROOT/docs/pmustat.1"
run_pm 0 help
cmds=$(sed -n 's/^   \([a-z][a-z]*\) .*/\1/p' out)
[ -n "$cmds" ] || fail "no commands in 'pmustat help'"
for c in $cmds; do
	grep -q "^\.B pmustat $c\$" "$man1" || fail "docs/pmustat.1: no synopsis line '.B pmustat $c'"
done
for c in $cmds; do
	[ "$c" = help ] || [ "$c" = completion ] && continue
	run_pm 0 "$c" -h
	for o in $(grep -o -- ' --[a-z][a-z-]*' out | tr -d ' ' | sort -u); do
		e=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$e" "$man1" || fail "docs/pmustat.1 does not mention '$o' of 'pmustat $c'"
	done
done
if command -v groff >/dev/null; then
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww "$man1" >/dev/null 2>groff.err
	[ ! -s groff.err ] || { cat groff.err; fail "groff warns about docs/pmustat.1"; }
fi
exit 0
