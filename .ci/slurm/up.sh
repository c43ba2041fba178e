#!/usr/bin/env bash
# Brings up a one-node Slurm cluster on localhost for the tests, with its
# own MUNGE key and socket and its own slurm.conf, all under DIR; nothing
# under /etc is read or changed. Clients reach it with SLURM_CONF=DIR/slurm.conf.
# The daemons run in the foreground of background processes whose pids are
# in DIR/*.pid; .ci/slurm/down.sh DIR stops them.
#
#   .ci/slurm/up.sh DIR
#
# Needs root (SlurmUser=root) and Debian's slurm-wlm and munge packages.
set -euo pipefail

dir=${1:?usage: up.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# slurmctld runs only on the host SlurmctldHost names, so the node is named
# after this host (its address stays 127.0.0.1).
node=$(hostname -s)

for port in 6817 6818; do
	if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
		echo "up.sh: port $port is in use (another Slurm?); stop it first" >&2
		exit 1
	fi
done
for tool in munged slurmctld slurmd sinfo; do
	command -v "$tool" >/dev/null || { echo "up.sh: $tool not found (apt-get install slurm-wlm munge)" >&2; exit 1; }
done

mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"

# MUNGE refuses a socket directory others may write to; ours is private.
munged --foreground --force \
	--key-file="$dir/munge/munge.key" \
	--socket="$dir/munge/munge.sock" \
	--pid-file="$dir/munge/munged.pid" \
	--log-file="$dir/munge/munged.log" \
	--seed-file="$dir/munge/munged.seed" </dev/null >>"$dir/munge/munged.out" 2>&1 &
echo $! >"$dir/munged.pid"
for _ in $(seq 100); do
	[ -S "$dir/munge/munge.sock" ] && break
	sleep 0.1
done
[ -S "$dir/munge/munge.sock" ] || { echo "up.sh: munged did not start:" >&2; cat "$dir/munge/munged.out" "$dir/munge/munged.log" >&2 || true; exit 1; }

# The node offers 16 CPUs whatever the machine has (config_overrides), so
# that the shipped batch scripts (4 CPUs a task) run unchanged; the tasks
# share the real cores.
cat >"$dir/slurm.conf" <<CONF
ClusterName=arena-ci
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/state/slurmctld.pid
SlurmdPidFile=$dir/spool/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
MailProg=/bin/true
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=10
MinJobAge=300
SlurmdParameters=config_overrides
NodeName=$node NodeAddr=127.0.0.1 CPUs=16 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
export SLURM_CONF=$dir/slurm.conf

slurmctld -D -i -f "$dir/slurm.conf" </dev/null >>"$dir/slurmctld.out" 2>&1 &
echo $! >"$dir/slurmctld.pid"
slurmd -D -N "$node" -f "$dir/slurm.conf" </dev/null >>"$dir/slurmd.out" 2>&1 &
echo $! >"$dir/slurmd.pid"

# Wait (up to a minute) until the node takes jobs.
for _ in $(seq 120); do
	state=$(timeout 5 sinfo -h -n "$node" -o %T 2>/dev/null || true)
	case $state in
	idle | mixed | allocated) exit 0 ;;
	esac
	sleep 0.5
done
echo "up.sh: the node did not come up (state: ${state:-none})" >&2
tail -n 20 "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/*.out >&2 || true
exit 1
