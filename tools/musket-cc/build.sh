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

# The functions a compilation runs (hot-functions.txt, from a profile:
# hot-functions.sh) are put together, when the linker can: gold's
# --section-ordering-file (it puts them at the end of the text; LLVM's
# and clang's static libraries have a section per function). Scattered
# over 48 MB of text they cost ~530 page faults per compilation (when
# the page cache holds the file in 4 KB pages), together ~140, and
# musket-cc then maps them in one call (mapHot in musket-cc.cpp). Only
# where code lies changes, not what it does; without gold the link is
# the default one.
order=()
hot=()
if [ -z "${MUSKET_CC_NO_ORDER:-}" ] && [ -f "$here/hot-functions.txt" ] &&
	echo 'int main() { return 0; }' | "$cxx" -x c++ - -o "$tmp/t" -fuse-ld=gold \
		-Wl,--section-ordering-file,/dev/null >/dev/null 2>&1; then
	{
		echo .text.musket_hot_start
		echo .text.startup
		grep -v '^#' "$here/hot-functions.txt" | sed 's/^/.text./'
		echo .text.musket_hot_end
	} >"$tmp/order.txt"
	order=(-fuse-ld=gold "-Wl,--section-ordering-file,$tmp/order.txt")
	hot=(-DMUSKET_HOT_ORDER)
fi
strip=(-s)
[ -n "${MUSKET_CC_SYMBOLS:-}" ] && strip=()

# shellcheck disable=SC2046
"$cxx" -c -O2 $("$cfg" --cxxflags) ${hot[@]+"${hot[@]}"} -o "$tmp/musket-cc.o" "$here/musket-cc.cpp"
# A static executable (not position independent): no dynamic loader, no
# relocations at start-up. Polly is left out: musket-cc.cpp stands in for
# its plugin (see getPollyPluginInfo there). MUSKET_CC_SYMBOLS=1 keeps the
# symbols (for profiles: hot-functions.sh).
# shellcheck disable=SC2046
"$cxx" -static ${strip[@]+"${strip[@]}"} ${order[@]+"${order[@]}"} -o "$tmp/musket-cc" "$tmp/musket-cc.o" -L"$libdir" \
	-Wl,--gc-sections -Wl,--start-group "${clanglibs[@]/#/-l}" \
	$("$cfg" --link-static --libs all) -Wl,--end-group \
	-lz -ltinfo -lpthread -lrt -ldl -lm 2> >(grep -v 'statically linked applications requires at runtime' | grep -v '^/usr/bin/ld: .*: in function' >&2)
mv -f "$tmp/musket-cc" "$out"
