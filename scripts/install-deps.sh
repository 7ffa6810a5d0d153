#!/bin/sh
# Install the Debian packages pmustat needs to build and test, when missing.
# As root this runs apt-get; otherwise it prints the exact command and fails,
# because a build that silently lacks a dependency fails later and less clearly.
# `install-deps.sh fuzz` adds what `make fuzz` needs: clang and its sanitizer
# and libFuzzer runtimes (only recommended by clang, so named here).
# `install-deps.sh chromium` adds the headless browser tests/cli/t-html.sh
# renders the HTML report in (its DOM and a screenshot).
# `install-deps.sh bench` adds hyperfine, a baseline of bench/cost.py.
# `install-deps.sh rust` adds Debian's cargo and rustc and the crates the
# Rust workload needs (workloads/lcbench, tests/cli/t-rust.sh), built offline.
# `install-deps.sh slurm` installs only what the fleet test needs: Slurm's
# daemons and clients and munge (tests/slurm/cluster.sh, tests/cli/t-fleet.sh).
set -u
PKGS="gcc make pkg-config libpfm4-dev libjansson-dev libelf-dev libdw-dev libiberty-dev libcmocka-dev valgrind heaptrack
	elfutils lld python3-jsonschema"
[ "${1:-}" = fuzz ] && PKGS="$PKGS clang libclang-rt-dev"
[ "${1:-}" = chromium ] && PKGS="$PKGS chromium"
[ "${1:-}" = rust ] && PKGS="$PKGS cargo librust-smallvec-dev"
[ "${1:-}" = bench ] && PKGS="$PKGS hyperfine"
[ "${1:-}" = slurm ] && PKGS="slurm-wlm munge"
missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "pmustat: installing missing Debian packages:$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends $missing >/dev/null ||
	{ apt-get update >/dev/null && apt-get install -y --no-install-recommends $missing >/dev/null; } || {
		echo "error: apt-get could not install:$missing" >&2
		exit 1
	}
else
	echo "error: missing Debian packages:$missing" >&2
	echo "hint: run 'sudo apt-get install -y$missing', then run make again" >&2
	exit 1
fi
