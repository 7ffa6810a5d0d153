#!/bin/sh
# Benchmark (not a test): the cost of one libpmustat enter/exit pair on the
# read() path, against PAPI_read for the same event in the same process, as
# a ratio; and the cost of the markers when switched off. See bench/regions.c
# for how PAPI is made to run on a machine without a hardware PMU.
#   sh bench/regions.sh [BUILD]       (needs `make`: BUILD/lib/libpmustat.a)
# PAPI is a bench-only dependency (Debian libpapi-dev); this script installs
# it when missing and it is root, else it says so and stops.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
BUILD=${1:-$root/build}
N=${BENCH_OPS:-200000}
ROUNDS=${BENCH_ROUNDS:-9}
if ! [ -f /usr/include/papi.h ]; then
	if [ "$(id -u)" = 0 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libpapi-dev >/dev/null
	else
		echo "bench/regions.sh needs PAPI: sudo apt-get install libpapi-dev" >&2
		exit 1
	fi
fi
[ -f "$BUILD/lib/libpmustat.a" ] || { echo "run make first ($BUILD/lib/libpmustat.a missing)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -I"$root/include" -o "$tmp/bench" "$here/regions.c" "$BUILD/lib/libpmustat.a" \
	-lpapi -ldl -pthread
# libpfm (inside PAPI) finds no core PMU in a VM without one: force a model
# so that PAPI starts; its event is rewritten to task-clock (regions.c).
force=${LIBPFM_FORCE_PMU:-amd64_fam19h_zen4}
echo "== markers on: PMUSTAT_EVENTS=task-clock"
LIBPFM_FORCE_PMU=$force PMUSTAT_EVENTS=task-clock PMUSTAT_OUTPUT=/dev/null "$tmp/bench" "$N" "$ROUNDS"
echo "== markers off: no variables"
LIBPFM_FORCE_PMU=$force "$tmp/bench" "$N" "$ROUNDS"
