#!/bin/sh
# One shard of a campaign: runs 'musket litmus -shard K/N -json ARGS...'
# and writes its JSON Lines to OUT/shard-K-of-N.json (OUT "-": stdout).
#
#   scripts/campaign/shard.sh N OUT [musket litmus flags and tests...]
#
# K comes from the scheduler, the first of these that is set:
#   MUSKET_SHARD_INDEX    1..N (by hand)
#   JOB_COMPLETION_INDEX  0..N-1 (a Kubernetes Indexed Job)
#   SLURM_ARRAY_TASK_ID   a Slurm job array; K = ID - SLURM_ARRAY_TASK_MIN + 1
#   PARALLEL_SEQ          1..N (GNU parallel's job number)
# MUSKET names the musket binary (default: musket on the PATH, else the
# one built at the root of the repository).
#
# The exit status is 0 when the shard ran to its summary, whatever its
# verdicts (a verdict that disagrees with -expect is not a failure of the
# job: 'musket merge' gives the campaign's exit status); musket's status
# otherwise (2: bad input, 130: interrupted), so that a scheduler retries
# only a shard that did not finish.
set -u
if [ $# -lt 3 ]; then
	echo "usage: $0 N OUT [musket litmus flags] TESTS..." >&2
	exit 2
fi
n=$1
out=$2
shift 2
if [ -n "${MUSKET_SHARD_INDEX:-}" ]; then
	k=$MUSKET_SHARD_INDEX
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
	k=$((JOB_COMPLETION_INDEX + 1))
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
	k=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
elif [ -n "${PARALLEL_SEQ:-}" ]; then
	k=$PARALLEL_SEQ
else
	echo "$0: no shard index: set MUSKET_SHARD_INDEX, JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or PARALLEL_SEQ" >&2
	exit 2
fi
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
if [ "$out" = "-" ]; then
	"$musket" litmus -shard "$k/$n" -json "$@"
	code=$?
	[ "$code" -eq 2 ] || [ "$code" -eq 130 ] && exit "$code"
	exit 0
fi
mkdir -p "$out" || exit 2
file="$out/shard-$k-of-$n.json"
"$musket" litmus -shard "$k/$n" -json "$@" >"$file.tmp"
code=$?
if tail -n 1 "$file.tmp" | grep -q '^{"summary":'; then
	mv "$file.tmp" "$file"
	exit 0
fi
echo "$0: shard $k/$n did not finish (musket exit status $code); $file.tmp kept" >&2
[ "$code" -eq 0 ] && code=2
exit "$code"
