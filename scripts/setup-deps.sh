#!/usr/bin/env bash
# Installs the system packages Musket needs (Debian): Z3's C library for
# the SMT engine, clang-14 for C programs, and chromium for the
# playground's browser tests (internal/serve). Does nothing when they are
# there already; needs root (or sudo) otherwise.
#
# It also builds musket-cc (tools/musket-cc), clang-14's C front end
# linked statically, which compiles a C program in a third of clang-14's
# time (no dynamic loading of LLVM), into /usr/local/bin (MUSKET_CC_DIR
# names another folder). That needs clang's and LLVM's static libraries
# (llvm-14-dev, libclang-14-dev, libpolly-14-dev, zlib1g-dev) and about
# 25 s of CPU and 0.7 GB of memory, once: it is rebuilt only when its
# source or clang changes. MUSKET_NO_CC=1 skips it; without it, Musket
# runs clang-14 itself, with the same results.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
need=()
[ -f /usr/include/z3.h ] || need+=(libz3-dev)
command -v clang-14 >/dev/null 2>&1 || need+=(clang-14)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
cc=${MUSKET_NO_CC:-}
case "$cc" in 1 | true | yes) cc="" ;; *) cc=1 ;; esac
llvmlib=/usr/lib/llvm-14/lib
if [ -n "$cc" ]; then
	[ -f $llvmlib/libLLVMCore.a ] || need+=(llvm-14-dev)
	[ -f $llvmlib/libclangCodeGen.a ] || need+=(libclang-14-dev)
	[ -f $llvmlib/libPolly.a ] || need+=(libpolly-14-dev)
	[ -f /usr/lib/x86_64-linux-gnu/libz.a ] || need+=(zlib1g-dev)
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "installing ${need[*]}" >&2
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
[ -n "$cc" ] || exit 0

# musket-cc: rebuilt when its source, the build script, its list of hot
# functions or clang changes.
dest=${MUSKET_CC_DIR:-/usr/local/bin}
stampdir=/usr/local/lib/musket
[ -n "${MUSKET_CC_DIR:-}" ] && stampdir=$dest
stamp=$(cat "$here/tools/musket-cc/musket-cc.cpp" "$here/tools/musket-cc/build.sh" "$here/tools/musket-cc/hot-functions.txt" |
	sha256sum | cut -c1-16)-$(stat -L -c %s-%Y "$(command -v clang-14)" $llvmlib/libclangCodeGen.a | tr '\n' -)
if [ -x "$dest/musket-cc" ] && [ "$(cat "$stampdir/musket-cc.stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi
echo "building musket-cc (clang-14's front end, static; ~25 s of CPU)" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$here/tools/musket-cc/build.sh" "$tmp/musket-cc"; then
	echo "musket-cc could not be built: C programs will be compiled by clang-14 (slower, same results)" >&2
	exit 0
fi
$sudo mkdir -p "$dest" "$stampdir"
$sudo install -m 755 "$tmp/musket-cc" "$dest/musket-cc"
echo "$stamp" | $sudo tee "$stampdir/musket-cc.stamp" >/dev/null
