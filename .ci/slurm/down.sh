#!/usr/bin/env bash
# Stops the cluster .ci/slurm/up.sh DIR started: cancels what is left of
# its jobs, then stops slurmd, slurmctld and munged by pid.
#
#   .ci/slurm/down.sh DIR
set -uo pipefail

dir=${1:?usage: down.sh DIR}
if [ -f "$dir/slurm.conf" ] && command -v scancel >/dev/null; then
	SLURM_CONF=$dir/slurm.conf scancel --quiet --full --user="$(id -un)" 2>/dev/null
fi
for daemon in slurmd slurmctld munged; do
	pidfile=$dir/$daemon.pid
	[ -f "$pidfile" ] || continue
	pid=$(cat "$pidfile")
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	rm -f "$pidfile"
done
exit 0
