#!/bin/sh
# The emulated-PMU test: pmustat's hardware path on a real perf_event PMU
# driver (armv8_pmuv3) in an arm64 Linux guest under qemu-system-aarch64, in
# pure emulation with one vCPU and -icount, where instruction counts are
# exact (docs/emulated-pmu.md says what this verifies and what it cannot).
#
#   sh tests/pmu/run.sh          (make check-pmu; run by make check)
#
# Steps: install the Debian packages (install.sh; a SKIP naming them and exit
# 77 when they cannot be), fetch the guest kernel and busybox with
# `apt-get download` into $CACHE (kept across runs), cross-build pmustat and
# the test programs for arm64 into $BUILD/pmu/arm64, pack an initrd whose
# /init runs guest.sh, then boot one guest per CPU model. Each guest prints a
# result block between "@@pmu begin" and "@@pmu end" on its console and
# powers off; a guest that does not finish within $PMU_TIMEOUT seconds is
# killed and reported FAIL, never PASS. Prints one PASS/FAIL/SKIP line per
# test and the closing count line; exits 1 on any failure.
# PMU_RECORD=DIR also records each guest's sysfs as a fixture tree
# DIR/qemu-MODEL (tests/fixtures/record-doctor.sh, run in the guest).
# PMU_TESTS=a,b runs only those guest tests (names as in guest.sh, with _).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$root/build}
CACHE=${PMU_CACHE:-$BUILD/pmu-cache}
OUT=$BUILD/pmu
ARM=$OUT/arm64
PMU_TIMEOUT=${PMU_TIMEOUT:-600}
CROSS=aarch64-linux-gnu-
JOBS=${JOBS:-2}
# The boots: a catalogue uarch, one without stall events (at a second
# -icount shift, for cycles = 2^shift x instructions), the generic model,
# and a machine without a PMU. MODEL SHIFT per line; ONLY=MODEL selects one.
BOOTS=${PMU_BOOTS:-"neoverse-n1:0 cortex-a57:1 max,pauth-impdef=on:0 max,pauth-impdef=on,pmu=off:0"}

say() { echo "pmu: $*" >&2; }
die() { echo "FAIL pmu/setup: $*"; echo "pmu: 0 passed, 0 skipped, 1 failed"; exit 1; }

if ! err=$(sh "$here/install.sh" 2>&1); then
	what=$(printf '%s\n' "$err" | sed -n 's/^missing: *//p' | tail -1)
	echo "SKIP pmu: cannot install ${what:-the packages: $(printf '%s\n' "$err" | tail -1)}"
	echo "SKIP: Debian packages for the emulated PMU not installable"
	echo "pmu: 0 passed, 1 skipped, 0 failed"
	exit 77
fi

# ---- the guest kernel and busybox, from Debian, unpacked (nothing installed)
fetch_deb() {	# PACKAGE DIR [MEMBER]: apt-get download PACKAGE, unpack it (or MEMBER) into DIR
	[ -d "$2" ] && return 0
	mkdir -p "$CACHE/debs" && rm -f "$CACHE/debs/${1%:*}"_*.deb && rm -rf "$2.tmp"
	(cd "$CACHE/debs" && apt-get download -qq "$1" >/dev/null 2>&1) || return 1
	if [ -n "${3:-}" ]; then
		mkdir -p "$2.tmp" && dpkg-deb --fsys-tarfile "$CACHE/debs/${1%:*}"_*.deb |
			tar -x -C "$2.tmp" --wildcards "$3" || return 1
	else
		dpkg -x "$CACHE/debs/${1%:*}"_*.deb "$2.tmp" || return 1
	fi
	mv "$2.tmp" "$2"
}
kpkg=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*-arm64\).*/\1/p' | head -1)
[ -n "$kpkg" ] || die "no arm64 kernel package known to apt (apt-cache depends linux-image-arm64:arm64)"
# Only the image is needed: the modules (350 MB unpacked) are not written.
fetch_deb "$kpkg-unsigned:arm64" "$CACHE/kernel" './boot/vmlinuz-*' ||
	die "apt-get download $kpkg-unsigned:arm64 failed"
fetch_deb busybox-static:arm64 "$CACHE/busybox" || die "apt-get download busybox-static:arm64 failed"
rm -rf "$CACHE"/debs/linux-image-*.deb
VMLINUZ=$(ls "$CACHE"/kernel/boot/vmlinuz-* 2>/dev/null | head -1)
[ -f "$VMLINUZ" ] || die "no vmlinuz in $kpkg-unsigned"

# ---- cross-build (HOSTCC builds the build-time generator for this machine)
say "cross-building pmustat for arm64 into $ARM"
# -O1 without debug information: the guest runs small workloads and never
# symbolizes pmustat itself, and the cross-build is most of a cold run.
make -C "$root" -j"$JOBS" --no-print-directory BUILD="$ARM" CC=${CROSS}gcc HOSTCC=cc OPT=-O1 CFLAGS=-g0 \
	"$ARM/pmustat" "$ARM/pmustat-spawner" "$ARM/lib/libpmustat.a" "$ARM/jsonq" \
	>"$OUT.build.log" 2>&1 || { tail -20 "$OUT.build.log"; die "cross-build failed (log: $OUT.build.log)"; }
${CROSS}gcc -nostdlib -static -o "$ARM/asmloop" "$here/asmloop.S" &&
${CROSS}gcc -nostdlib -static -o "$ARM/forkrun" "$here/forkrun.S" &&
${CROSS}gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$ARM/runas" "$here/runas.c" &&
${CROSS}gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" -o "$ARM/regionloop" \
	"$here/regionloop.c" "$here/spin.S" "$ARM/lib/libpmustat.a" -pthread ||
	die "cross-compiling the test programs failed"

# ---- the initrd: busybox, pmustat, its shared libraries, the tests
rd=$OUT/initrd
rm -rf "$rd" && mkdir -p "$rd/bin" "$rd/lib/aarch64-linux-gnu" "$rd/pmu/fixtures" "$rd/proc" \
	"$rd/sys" "$rd/dev" "$rd/tmp" "$rd/etc"
cp "$CACHE/busybox/bin/busybox" "$rd/bin/busybox"
cp "$ARM/pmustat" "$ARM/pmustat-spawner" "$ARM/jsonq" "$ARM/asmloop" "$ARM/regionloop" \
	"$ARM/runas" "$ARM/forkrun" "$rd/pmu/"
cp "$here/guest.sh" "$rd/pmu/guest.sh"
cp "$here/../fixtures/record-host.sh" "$here/../fixtures/record-doctor.sh" "$rd/pmu/fixtures/"
cp "$here/init" "$rd/init" && chmod 755 "$rd/init"
libdirs="/usr/aarch64-linux-gnu/lib /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu"
findlib() { for d in $libdirs; do [ -e "$d/$1" ] && { echo "$d/$1"; return 0; }; done; return 1; }
# libpfm.so.4 is dlopen()ed, so no NEEDED entry names it.
todo="libpfm.so.4 $(for f in "$rd"/pmu/*; do ${CROSS}readelf -d "$f" 2>/dev/null; done |
	sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)"
done_=""
while [ -n "$todo" ]; do
	set -- $todo; lib=$1; shift; todo="$*"
	case " $done_ " in *" $lib "*) continue ;; esac
	done_="$done_ $lib"
	p=$(findlib "$lib") || die "arm64 library $lib not found in $libdirs"
	cp -L "$p" "$rd/lib/aarch64-linux-gnu/$lib"
	todo="$todo $(${CROSS}readelf -d "$p" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
done
ln -s aarch64-linux-gnu/ld-linux-aarch64.so.1 "$rd/lib/ld-linux-aarch64.so.1"
(cd "$rd" && find . | cpio -o -H newc --quiet | gzip -1) >"$OUT/initrd.gz" || die "cpio failed"

# ---- the boots
npass=0 nskip=0 nfail=0
for b in $BOOTS; do
	model=${b%:*} shift_=${b##*:}
	case "$model" in ${ONLY:-*}) ;; *) continue ;; esac
	log=$OUT/console-$(echo "$model" | tr ',=' '__').log
	say "booting -cpu $model -icount shift=$shift_"
	t0=$(date +%s)
	timeout -k 5 "$PMU_TIMEOUT" qemu-system-aarch64 -M virt -cpu "$model" -smp 1 -m 1G \
		-icount shift="$shift_" -nographic -no-reboot -nic none \
		-kernel "$VMLINUZ" -initrd "$OUT/initrd.gz" \
		-append "console=ttyAMA0 panic=-1 quiet loglevel=1 pmumodel=$model pmushift=$shift_${PMU_RECORD:+ pmurecord=1}${PMU_TESTS:+ pmutests=$PMU_TESTS}" \
		</dev/null >"$log" 2>&1
	rc=$? t1=$(date +%s)
	tr -d '\r' <"$log" | sed -n '/^@@pmu begin/,/^@@pmu end/p' >"$log.results"
	# the result lines, and the output a failed test shows under its line
	sed -n 's/^@@pmu \(PASS\|FAIL\|SKIP\) /\1 /p; /^    | /p' "$log.results" |
		sed "s#^\(PASS\|FAIL\|SKIP\) #\1 pmu/$model/#"
	npass=$((npass + $(grep -c '^@@pmu PASS ' "$log.results")))
	nskip=$((nskip + $(grep -c '^@@pmu SKIP ' "$log.results")))
	nfail=$((nfail + $(grep -c '^@@pmu FAIL ' "$log.results")))
	if [ -n "${PMU_RECORD:-}" ]; then	# the guest's sysfs, as a fixture tree
		fx=$PMU_RECORD/qemu-$(echo "$model" | sed 's/,pauth-impdef=on//; s/,pmu=off/-nopmu/')
		rm -rf "$fx" && mkdir -p "$fx"
		tr -d '\r' <"$log" | sed -n '/^@@rec begin/,/^@@rec end/p' | sed '1d;$d' |
			base64 -d | tar -xzf - -C "$fx" && say "recorded $fx"
	fi
	if ! grep -q '^@@pmu end' "$log.results"; then
		why="exit $rc"; [ $rc = 124 ] && why="killed after ${PMU_TIMEOUT} s"
		echo "FAIL pmu/$model/guest: the guest did not finish its tests ($why; console: $log)"
		tr -d '\r' <"$log" | tail -15 | sed 's/^/     /'
		nfail=$((nfail + 1))
	fi
	say "-cpu $model: $((t1 - t0)) s"
done
echo "pmu: $npass passed, $nskip skipped, $nfail failed"
[ $nfail = 0 ]
