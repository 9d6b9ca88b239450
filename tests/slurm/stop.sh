#!/usr/bin/env bash
# Stops the daemons tests/slurm/start.sh started, in reverse order (slurmd ignores
# SIGTERM once slurmctld is gone, hence the SIGKILL).
set -u
for daemon in slurmd slurmctld; do
  pkill -x "$daemon" 2>/dev/null
done
sleep 2
pkill -9 -x slurmd 2>/dev/null
pkill -9 -x slurmctld 2>/dev/null
pkill -x munged 2>/dev/null
exit 0
