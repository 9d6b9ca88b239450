#!/usr/bin/env bash
# Starts a single-node Slurm cluster on this machine (Debian, as root, no systemd): installs
# Slurm and MUNGE from Debian's packages if missing, writes a minimal slurm.conf, starts
# munged, slurmctld and slurmd by hand and waits until the node is idle. Used by
# tests/slurm/test.sh; `tests/slurm/stop.sh` stops the daemons again.
set -euo pipefail

if [ "$(id -u)" != 0 ]; then
  echo "error: starting Slurm needs root (it installs packages and runs the daemons)" >&2
  exit 2
fi
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# MUNGE: the package makes the key; the run folder is missing without systemd.
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
mkdir -p /run/munge /var/log/munge /var/lib/munge
chown munge:munge /run/munge /var/log/munge /var/lib/munge
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  runuser -u munge -- munged --force
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
fi

host=$(hostname -s)
# The node's line from slurmd itself, with memory a little below what it reports
# (else the node drains for "Low RealMemory").
node=$(slurmd -C | head -1)
memory=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
node=$(sed "s/RealMemory=[0-9]*/RealMemory=$((memory * 9 / 10))/" <<<"$node")
conf_dir=/etc/slurm
mkdir -p "$conf_dir" /var/spool/slurmctld /var/spool/slurmd /run/slurm /var/log/slurm
cat >"$conf_dir/slurm.conf" <<CONF
# Written by reversi-lab's tests/slurm/start.sh: one node, no cgroups, no accounting.
ClusterName=reversi-lab-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MaxArraySize=10001
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
DependencyParameters=kill_invalid_depend
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
$node
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

# A clean controller: state survives restarts otherwise.
rm -rf /var/spool/slurmctld/*
pgrep -x slurmctld >/dev/null || slurmctld -i
pgrep -x slurmd >/dev/null || slurmd
for _ in $(seq 100); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
    echo "slurm: node $host idle"
    exit 0
  fi
  sleep 0.2
done
echo "error: the Slurm node did not come up within 20 s: see /var/log/slurm/*.log" >&2
sinfo >&2 || true
exit 1
