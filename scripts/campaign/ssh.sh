#!/bin/sh
# A campaign over several machines reached by SSH, with GNU parallel: one
# shard per job slot of the machines in HOSTS (GNU parallel's
# --sshloginfile: one "[N/]user@host" a line, ":" for this machine).
# Each machine needs musket on its PATH (or MUSKET set in its shell) and
# the tests at the same path (a shared file system, or rsync them first);
# the shards' JSON comes back over SSH into OUT/campaign.json, then merged.
#
#   scripts/campaign/ssh.sh HOSTS N OUT [musket litmus flags] TESTS...
set -u
if [ $# -lt 4 ]; then
	echo "usage: $0 HOSTS N OUT [musket litmus flags] TESTS..." >&2
	exit 2
fi
hosts=$1
n=$2
out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/shquote.sh"
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
mkdir -p "$out" || exit 2
# --group (the default) keeps each shard's lines together; 'musket merge'
# reads the runs one after the other from the one file.
seq "$n" | parallel --sshloginfile "$hosts" --workdir "$PWD" --halt never \
	"MUSKET_SHARD_INDEX={} sh$(shquote "$here/shard.sh" "$n") - -j 1$(shquote "$@")" >"$out/campaign.json" || true
exec "$MUSKET" merge "$out/campaign.json"
