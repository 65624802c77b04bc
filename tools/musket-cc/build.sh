#!/usr/bin/env bash
# Builds musket-cc (clang-14's C front end as one static program, see
# musket-cc.cpp) into the file named by $1 (default ./musket-cc).
#
# Needs clang-14 and the static libraries of clang and LLVM 14 (Debian:
# llvm-14-dev, libclang-14-dev, libpolly-14-dev, zlib1g-dev; the
# packages scripts/setup-deps.sh installs). Takes about 25 s of CPU and
# 0.7 GB of memory (most of it in the link); the result is ~80 MB.
set -euo pipefail
out=${1:-musket-cc}
here=$(cd "$(dirname "$0")" && pwd)
cfg=${LLVM_CONFIG:-llvm-config-14}
cxx=${CXX:-clang++-14}
libdir=$("$cfg" --libdir)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The clang libraries the driver and the C-to-IR compilation use; the
# linker takes from LLVM's libraries only what they reach.
clanglibs=(clangCodeGen clangFrontend clangDriver clangParse clangSerialization
	clangSema clangAnalysis clangEdit clangAST clangASTMatchers clangLex clangBasic)
for l in "${clanglibs[@]}"; do
	[ -f "$libdir/lib$l.a" ] || { echo "musket-cc: $libdir/lib$l.a is missing (install libclang-14-dev)" >&2; exit 1; }
done

# shellcheck disable=SC2046
"$cxx" -c -O2 $("$cfg" --cxxflags) -o "$tmp/musket-cc.o" "$here/musket-cc.cpp"
# A static executable (not position independent): no dynamic loader, no relocations at
# start-up. Polly is linked in because clang-14's LLVM has it (the
# optimisation pipeline registers it), so the IR is the same.
# shellcheck disable=SC2046
"$cxx" -static -s -o "$tmp/musket-cc" "$tmp/musket-cc.o" -L"$libdir" \
	-Wl,--gc-sections -Wl,--start-group "${clanglibs[@]/#/-l}" \
	$("$cfg" --link-static --libs all) -Wl,--end-group \
	-lz -ltinfo -lpthread -lrt -ldl -lm 2> >(grep -v 'statically linked applications requires at runtime' | grep -v '^/usr/bin/ld: .*: in function' >&2)
mv -f "$tmp/musket-cc" "$out"
