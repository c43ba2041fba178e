#!/bin/sh
# Submits a tournament to Slurm as an array job of N slices (default 16)
# and its merge as a job that runs when the array is done.
#
#   configs/cluster/slurm-submit.sh CONFIG OUTDIR [N]
#
# OUTDIR must be on a file system every node sees; the merged tournament
# ends up in OUTDIR/merged. The arena command is $ARENA (default: arena in
# PATH); other sbatch options (partition, account, time limit) can be given
# in SBATCH_* variables, e.g. SBATCH_PARTITION=batch.
set -eu
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 CONFIG OUTDIR [N]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
config=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
n=${3:-16}
ARENA=${ARENA:-arena} ARENA_CONFIG=$config ARENA_OUT=$out ARENA_SLICES=$n
export ARENA ARENA_CONFIG ARENA_OUT ARENA_SLICES # sbatch passes them to the jobs

array=$(sbatch --parsable --array="0-$((n - 1))" --output="$out/slurm-slice-%a.log" "$here/slurm-slice.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" --output="$out/slurm-merge.log" "$here/slurm-merge.sbatch")
echo "array job $array plays $n slices into $out/slice-*; job ${merge%%;*} merges them into $out/merged"
echo "to play slice I again: ARENA=$ARENA ARENA_CONFIG=$config ARENA_OUT=$out ARENA_SLICES=$n sbatch --array=I --output=$out/slurm-slice-%a.log $here/slurm-slice.sbatch"
