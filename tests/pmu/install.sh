#!/bin/sh
# Install what the emulated-PMU test (tests/pmu/run.sh) needs from Debian,
# when missing: QEMU's arm system emulator, the arm64 cross compiler and C
# library, cpio, and (through multiarch) the arm64 -dev libraries pmustat
# links. --no-install-recommends keeps it to a few minutes. Prints the
# packages it could not install on the last line of stderr as
# "missing: PKG..." and exits 1, so that the caller can SKIP naming them.
set -u
HOST_PKGS="qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross cpio"
ARM_PKGS="libjansson-dev:arm64 libdw-dev:arm64 libelf-dev:arm64 libpfm4-dev:arm64 libiberty-dev:arm64"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
missing=""
for p in $HOST_PKGS $ARM_PKGS; do installed "$p" || missing="$missing $p"; done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "missing:$missing (not root: run 'sudo sh tests/pmu/install.sh')" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64 || { echo "missing:$missing (dpkg --add-architecture arm64 failed)" >&2; exit 1; }
fi
# A new architecture needs fresh package lists; an old list may also lack it.
apt-get update -qq >/dev/null 2>&1 || { sleep 5; apt-get update -qq >/dev/null 2>&1; }
# Multiarch -dev packages must match their amd64 twins' versions exactly;
# apt upgrades a twin when needed (to the same Debian 12 release).
if ! apt-get install -y -qq --no-install-recommends $missing >/dev/null; then
	still=""
	for p in $missing; do installed "$p" || still="$still $p"; done
	echo "missing:$still (apt-get install failed)" >&2
	exit 1
fi
