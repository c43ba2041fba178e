#!/bin/sh
# Submits a tournament to Slurm as an array job of N slices (default 16)
# and its merge as a job that runs when the array is done.
#
#   configs/cluster/slurm-submit.sh [-k K] CONFIG OUTDIR [N]
#
# -k K runs at most K slices at a time (sbatch --array=0-(N-1)%K). N must be
# within the cluster's MaxArraySize: a larger N is refused before anything
# is submitted. OUTDIR must be on a file system every node sees; the merged
# tournament ends up in OUTDIR/merged. Each task's log is
# OUTDIR/slurm-slice-I-JOBID.log and the merge's OUTDIR/slurm-merge-JOBID.log,
# so that a task or merge submitted again keeps the earlier attempt's log.
# The arena command is $ARENA (default: arena in PATH); other sbatch options
# (partition, account, time limit) can be given in SBATCH_* variables, e.g.
# SBATCH_PARTITION=batch.
set -eu
usage() {
	echo "usage: $0 [-k MAX_RUNNING] CONFIG OUTDIR [N]" >&2
	exit 2
}
throttle=
while getopts k: opt; do
	case $opt in
	k) throttle=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	usage
fi
n=${3:-16}
case $n in
'' | *[!0-9]*) echo "$0: N must be a number of slices, not $n" >&2; exit 2 ;;
esac
case $throttle in
*[!0-9]* | 0) echo "$0: -k must be a positive number of slices, not $throttle" >&2; exit 2 ;;
esac
if [ "$n" -lt 1 ]; then
	echo "$0: N must be at least 1" >&2
	exit 2
fi
# An array's indices must be below MaxArraySize (1001 unless slurm.conf says
# otherwise): refuse before submitting anything.
max=$(scontrol show config | awk '$1 == "MaxArraySize" { print $3 }')
if [ -n "$max" ] && [ "$n" -gt "$max" ]; then
	echo "$0: $n slices need array indices up to $((n - 1)), but this cluster's MaxArraySize is $max (indices up to $((max - 1))): use at most $max slices, or workers (configs/README.md)" >&2
	exit 1
fi
here=$(cd "$(dirname "$0")" && pwd)
config=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
ARENA=${ARENA:-arena} ARENA_CONFIG=$config ARENA_OUT=$out ARENA_SLICES=$n
export ARENA ARENA_CONFIG ARENA_OUT ARENA_SLICES # sbatch passes them to the jobs

range="0-$((n - 1))${throttle:+%$throttle}"
array=$(sbatch --parsable --array="$range" --output="$out/slurm-slice-%a-%A.log" "$here/slurm-slice.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" --output="$out/slurm-merge-%j.log" "$here/slurm-merge.sbatch")
merge=${merge%%;*}
echo "array job $array plays $n slices into $out/slice-*; job $merge merges them into $out/merged (log $out/slurm-merge-$merge.log)"
echo "to play slice I again: ARENA=$ARENA ARENA_CONFIG=$config ARENA_OUT=$out ARENA_SLICES=$n sbatch --array=I --output=$out/slurm-slice-%a-%A.log $here/slurm-slice.sbatch"
echo "then merge again: ARENA=$ARENA ARENA_OUT=$out sbatch --dependency=afterany:JOBID --output=$out/slurm-merge-%j.log $here/slurm-merge.sbatch"
