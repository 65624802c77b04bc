#!/bin/sh
# A campaign on one machine: N shards side by side with GNU parallel (or,
# without it, N background processes), then merged into one result.
#
#   scripts/campaign/local.sh N OUT [musket litmus flags] TESTS...
#
# Each shard runs with -j 1 unless the flags give -j; the merged text goes
# to stdout, the shards' JSON stays in OUT; the exit status is the merged
# run's (the one a single 'musket litmus' run would have had).
set -u
if [ $# -lt 3 ]; then
	echo "usage: $0 N OUT [musket litmus flags] TESTS..." >&2
	exit 2
fi
n=$1
out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${MUSKET:-}" ]; then
	if command -v musket >/dev/null 2>&1; then
		MUSKET=musket
	elif [ -x "$here/../../musket" ]; then
		MUSKET="$here/../../musket"
	else
		echo "$0: no musket binary: build it (go build -o musket ./cmd/musket) or set MUSKET" >&2
		exit 2
	fi
fi
export MUSKET
musket=$MUSKET
rm -f "$out"/shard-*-of-"$n".json
if command -v parallel >/dev/null 2>&1 && [ -z "${MUSKET_NO_PARALLEL:-}" ]; then
	. "$here/shquote.sh"
	seq "$n" | parallel -j "$n" --halt never "MUSKET_SHARD_INDEX={} sh$(shquote "$here/shard.sh" "$n" "$out") -j 1$(shquote "$@")" || true
else
	k=1
	while [ "$k" -le "$n" ]; do
		MUSKET_SHARD_INDEX=$k sh "$here/shard.sh" "$n" "$out" -j 1 "$@" &
		k=$((k + 1))
	done
	wait
fi
# The shards' files, in order, as the positional parameters (a folder
# with a blank in its name stays one argument).
k=$n
set --
while [ "$k" -ge 1 ]; do
	set -- "$out/shard-$k-of-$n.json" "$@"
	k=$((k - 1))
done
exec "$musket" merge "$@"
