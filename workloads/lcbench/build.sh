#!/bin/sh
# Build the seed's experiment (see src/main.rs) offline from Debian's
# packaged crates, four ways: storage Vec (A) or SmallVec (B), each with
# Rust's legacy symbol mangling and with v0. Usage: build.sh OUTDIR.
# Writes OUTDIR/lcbench-{vec,small}-{legacy,v0} and prints the toolchain
# used on stderr.
#
# Debian's cargo and rustc (/usr/bin) are used when installed, for CI
# reproducibility; a rustup toolchain earlier on PATH is not. Crates come
# from the directory source that Debian's librust-*-dev packages install
# (/usr/share/cargo/registry), named in a cargo config in the build copy,
# and cargo runs --offline: nothing is fetched.
set -eu
out=${1:?usage: build.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
registry=/usr/share/cargo/registry
if [ -x /usr/bin/cargo ] && [ -x /usr/bin/rustc ]; then
	CARGO=/usr/bin/cargo RUSTC=/usr/bin/rustc
else
	CARGO=$(command -v cargo) RUSTC=$(command -v rustc)
fi
export RUSTC
mkdir -p "$out/src-copy/src" "$out/src-copy/.cargo"
cp "$here/Cargo.toml" "$out/src-copy/"
cp "$here/src/main.rs" "$out/src-copy/src/"
cat >"$out/src-copy/.cargo/config.toml" <<CONF
[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "$registry"
CONF
echo "lcbench: $("$CARGO" --version) ($CARGO), $("$RUSTC" --version) ($RUSTC)" >&2
for mangling in legacy v0; do
	for storage in vec small; do
		feat="" flags="-C force-frame-pointers=yes"
		# legacy is rustc's default (naming it needs -Z unstable-options)
		[ "$mangling" = v0 ] && flags="$flags -C symbol-mangling-version=v0"
		[ "$storage" = small ] && feat="--features small"
		(cd "$out/src-copy" &&
			RUSTFLAGS="$flags" \
			CARGO_TARGET_DIR="$out/target-$storage-$mangling" \
			"$CARGO" build --release --offline --quiet $feat)
		cp "$out/target-$storage-$mangling/release/lcbench" "$out/lcbench-$storage-$mangling"
	done
done
