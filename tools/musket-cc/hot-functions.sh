#!/usr/bin/env bash
# Remakes hot-functions.txt: the functions musket-cc runs when Musket
# compiles C programs, which build.sh links together (see there).
#
#   tools/musket-cc/hot-functions.sh MUSKET [FILE.c ...]
#
# MUSKET is a musket binary; the programs default to examples/c/*.c.
# It builds musket-cc with its symbols, runs `MUSKET check -no-cache` on
# each program with musket-cc under valgrind's callgrind (every function
# run is recorded, however briefly), and writes the names, with the
# other names of the same functions (a constructor's C1 and C2), sorted.
# Needs valgrind; takes a few minutes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
musket=$(realpath "${1:?usage: hot-functions.sh MUSKET [FILE.c ...]}")
shift
[ $# -gt 0 ] || set -- "$root"/examples/c/*.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

MUSKET_CC_SYMBOLS=1 MUSKET_CC_NO_ORDER=1 "$here/build.sh" "$tmp/musket-cc"
cat >"$tmp/cc" <<WRAP
#!/bin/sh
exec valgrind -q --tool=callgrind --callgrind-out-file=$tmp/cg.%p --dump-instr=no \\
	--compress-strings=no --demangle=no "$tmp/musket-cc" "\$@"
WRAP
chmod +x "$tmp/cc"
for f in "$@"; do
	MUSKET_CC="$tmp/cc" MUSKET_HUGEHEAP=0 "$musket" check -no-cache -timeout 10m "$f" >/dev/null 2>&1 || true
done
# Callgrind names a function by one of its symbols; the link orders
# sections, named after each symbol: all the names of an address.
nm --defined-only "$tmp/musket-cc" | awk '$2 ~ /^[tTwWiI]$/ { print $1, $3 }' >"$tmp/syms"
cat "$tmp"/cg.* | sed -n 's/^fn=//p' | sed "s/'[0-9]*\$//" | sort -u >"$tmp/run"
awk 'NR == FNR { run[$1] = 1; next }
	{ names[$1] = names[$1] " " $2; if ($2 in run) hot[$1] = 1 }
	END { for (a in hot) { n = split(names[a], s, " "); for (i = 1; i <= n; i++) print s[i] } }' \
	"$tmp/run" "$tmp/syms" | sort -u >"$tmp/hot"
{
	sed -n '/^#/p' "$here/hot-functions.txt" 2>/dev/null
	cat "$tmp/hot"
} >"$tmp/out"
mv -f "$tmp/out" "$here/hot-functions.txt"
echo "$(wc -l <"$tmp/hot") functions in $here/hot-functions.txt" >&2
