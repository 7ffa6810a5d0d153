# `make install PREFIX=...` installs libpmustat usably: the example of
# docs/regions.md, compiled with `pkg-config --cflags --libs pmustat` against
# the installed tree only, runs standalone — without LD_LIBRARY_PATH, the
# .pc carries a run path — and reports its regions with the right entry
# counts; the static library links without the shared one. The installed
# pmustat runs from anywhere, and the completions are installed.
# Builds with the sanitizer flags of this build (PMUSTAT_TEST_SAN, exported
# by lib/pmustat/build.mk), since an ASan libpmustat needs an ASan program.
. "$TESTLIB"
: "${SRCROOT:?}"
SAN=${PMUSTAT_TEST_SAN:-}
prefix=$(pwd)/prefix
unset PMUSTAT_EVENTS PMUSTAT_OUTPUT PMUSTAT_REGION_FD PMUSTAT_REGION_ATTRS

# The tool's man page is another part's job; without it `make install` cannot
# finish, so check what this part installs (install-lib) and say so.
full=0
if [ -f "$SRCROOT/docs/pmustat.1" ]; then
	full=1
	make -C "$SRCROOT" --no-print-directory -s install PREFIX="$prefix" >make.log 2>&1 ||
		{ cat make.log; fail "make install failed"; }
else
	echo "note: docs/pmustat.1 does not exist yet: testing 'make install-lib' only"
	make -C "$SRCROOT" --no-print-directory -s install-lib PREFIX="$prefix" >make.log 2>&1 ||
		{ cat make.log; fail "make install-lib failed"; }
fi
for f in include/pmustat.h lib/libpmustat.a lib/libpmustat.so.0.1.0 lib/pkgconfig/pmustat.pc \
	 share/man/man3/pmustat_region.3; do
	[ -f "$prefix/$f" ] || fail "not installed: $f"
done
[ "$(readlink "$prefix/lib/libpmustat.so")" = libpmustat.so.0 ] || fail "libpmustat.so link"
[ "$(readlink "$prefix/lib/libpmustat.so.0")" = libpmustat.so.0.1.0 ] || fail "soname link"
if [ $full = 1 ]; then
	[ -x "$prefix/bin/pmustat" ] || fail "pmustat not installed"
	[ -f "$prefix/share/man/man1/pmustat.1" ] || fail "pmustat.1 not installed"
	grep -q '^complete -o default -F _pmustat pmustat' \
		"$prefix/share/bash-completion/completions/pmustat" || fail "bash completion"
	grep -q '^#compdef pmustat' "$prefix/share/zsh/site-functions/_pmustat" || fail "zsh completion"
	# From another directory, with nothing of the build tree in the environment.
	(cd / && env -u LD_LIBRARY_PATH -u PMUSTAT_SPAWNER "$prefix/bin/pmustat" stat -r 2 -q \
		-m wall-time -o "$OLDPWD/installed.json" -- true) || fail "installed pmustat does not run"
	expect_eq "$(jv installed.json complete)" true "installed pmustat: complete result"
fi

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
expect_eq "$(pkg-config --modversion pmustat)" 0.1.0 "pkg-config version"
flags=$(pkg-config --cflags --libs pmustat) || fail "pkg-config"
flags=$(echo $flags)	# pkg-config pads with a blank
expect_eq "$flags" "-I$prefix/include -L$prefix/lib -Wl,-rpath,$prefix/lib -lpmustat" "pkg-config flags"

# The example in the docs, verbatim.
awk '/^```c$/ { on = 1; next } /^```$/ { if (on) exit } on' "$SRCROOT/docs/regions.md" >example.c
grep -q 'pmustat_region_begin("synth")' example.c || fail "example not found in docs/regions.md"
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $SAN example.c $flags -o example || fail "example does not compile"
unset LD_LIBRARY_PATH
readelf -d example | grep -q "R.*PATH.*$prefix/lib" || fail "example has no run path to $prefix/lib"
[ "$(./example)" = "$(./example)" ] || fail "example output unstable"
./example >plain.out 2>plain.err || fail "example failed unmeasured"
[ ! -s plain.err ] || fail "unmeasured run wrote to stderr"
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=regions.json ./example >/dev/null ||
	fail "example failed measured"
expect_eq "$(jv regions.json regions.0.name)" hot "handle region"
expect_eq "$(jv regions.json regions.0.count)" 10 "hot entered 10 times"
expect_eq "$(jv regions.json regions.1.name)" synth "named region"
expect_eq "$(jv regions.json regions.1.count)" 1 "synth entered once"
h=$(jv regions.json regions.0.counters.0.value)
s=$(jv regions.json regions.1.counters.0.value)
[ "$h" -gt 0 ] && [ "$h" -le "$s" ] || fail "hot $h should be positive and within synth $s"

# Static: links the archive, needs no libpmustat.so at run time.
# shellcheck disable=SC2086
cc -std=c11 $SAN example.c -I"$prefix/include" "$prefix/lib/libpmustat.a" -pthread -o example-static ||
	fail "static link"
readelf -d example-static | grep -q 'libpmustat' && fail "static example needs libpmustat.so"
PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=static.json ./example-static >/dev/null || fail "static run"
expect_eq "$(jv static.json regions.1.count)" 1 "static: synth count"
exit 0
