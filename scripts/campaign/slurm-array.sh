#!/bin/sh
# A campaign as a Slurm job array: one array task per shard.
#
#   sbatch --array=1-16 scripts/campaign/slurm-array.sh OUT [musket litmus flags] TESTS...
#   # when every task is done:
#   musket merge OUT/shard-*-of-16.json
#
# N is the size of the array (SLURM_ARRAY_TASK_COUNT); the task's shard is
# SLURM_ARRAY_TASK_ID (see shard.sh). Tests and OUT must be on a file
# system every node sees.
#SBATCH --job-name=musket-campaign
#SBATCH --cpus-per-task=1
#SBATCH --time=02:00:00
#SBATCH --output=musket-campaign-%A_%a.log
set -u
if [ -z "${SLURM_ARRAY_TASK_COUNT:-}" ]; then
	echo "$0: run it with sbatch --array=1-N" >&2
	exit 2
fi
# sbatch runs a copy of this script from Slurm's spool folder, not from
# scripts/campaign: shard.sh is then looked for where sbatch was called
# (SLURM_SUBMIT_DIR, the repository's root as the usage line has it).
here=${MUSKET_CAMPAIGN_DIR:-$(cd "$(dirname "$0")" && pwd)}
if [ ! -f "$here/shard.sh" ] && [ -z "${MUSKET_CAMPAIGN_DIR:-}" ] && [ -f "${SLURM_SUBMIT_DIR:-.}/scripts/campaign/shard.sh" ]; then
	here=${SLURM_SUBMIT_DIR:-.}/scripts/campaign
fi
if [ ! -f "$here/shard.sh" ]; then
	echo "$0: no shard.sh in $here: sbatch from the repository's root, or set MUSKET_CAMPAIGN_DIR to its scripts/campaign" >&2
	exit 2
fi
exec sh "$here/shard.sh" "$SLURM_ARRAY_TASK_COUNT" "$@"
