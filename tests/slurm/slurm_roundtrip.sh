#!/usr/bin/env bash
# Slurm round trip of `cosched sweep --executor slurm` on a real, single-node Slurm started here:
# installs Debian's slurm-wlm, slurmctld, slurmd and munge if missing, starts munged (if not running), a
# slurmctld and a slurmd on localhost with a minimal slurm.conf in a temporary folder, submits a small sweep
# through the executor, waits for it, collects, and checks the merged results against a local-executor run
# of the same sweep (every column but wall_seconds). Stops the daemons it started, by PID.
#
# Run by ctest when COSCHED_TEST_SLURM=1, and by .ci/run. Usage: slurm_roundtrip.sh PATH/TO/cosched
set -euo pipefail
cosched=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)

packages=(slurm-wlm slurmctld slurmd munge)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "slurm round trip: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

work=$(mktemp -d /tmp/cosched-slurm-XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  rm -rf "$work"
}
trap cleanup EXIT

# munge: Slurm's authentication.
if ! pgrep -x munged >/dev/null; then
  mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
  [ -s /etc/munge/munge.key ] || { dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null;
                                   chown munge:munge /etc/munge/munge.key; chmod 400 /etc/munge/munge.key; }
  su -s /bin/sh munge -c "/usr/sbin/munged" 2>/dev/null || /usr/sbin/munged --force
  sleep 0.5
  pids+=("$(pgrep -xo munged)")
fi

mkdir -p "$work/state" "$work/spool" "$work/log"
cpus=$(nproc)
cat >"$work/slurm.conf" <<CONF
ClusterName=cosched-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$work/slurm.conf"
/usr/sbin/slurmctld -i
for _ in $(seq 100); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmctld.pid")")
/usr/sbin/slurmd
for _ in $(seq 100); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmd.pid")")
for _ in $(seq 300); do
  sinfo -h -o %t 2>/dev/null | grep -qE '^idle' && break
  sleep 0.2
done
sinfo -h -o %t | grep -qE '^idle' || { echo "slurm round trip: the node never became idle"; cat "$work/log/"*; exit 1; }

cat >"$work/sweep.yaml" <<SWEEP
base: $root/scenarios/quickstart.yaml
axes:
  workload.nosync: 0..40:10
  workload.jobs.0.wait.spin: [CS, 2CS+]
seeds: 2
SWEEP

cd "$work"
"$cosched" sweep sweep.yaml --out on-slurm --executor slurm --array-size 4
for _ in $(seq 600); do
  [ -z "$(squeue -h 2>/dev/null)" ] && break
  sleep 0.2
done
[ -z "$(squeue -h)" ] || { echo "slurm round trip: jobs still queued after 120 s"; squeue; exit 1; }
"$cosched" sweep status on-slurm
"$cosched" sweep collect on-slurm
"$cosched" sweep sweep.yaml --out local --executor local --quiet

# The same runs, the same results: compare every column but wall_seconds, rows sorted by run id.
drop_wall() {
  python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, name in enumerate(rows[0]) if name != "wall_seconds"]
for row in [rows[0]] + sorted(rows[1:]):
    print(",".join(row[i] for i in keep))
PY
}
slurm_rows=$(($(wc -l <on-slurm/results.csv) - 1))
if [ "$slurm_rows" -ne 20 ]; then
  echo "slurm round trip: expected 20 runs in the Slurm sweep's results.csv, found $slurm_rows"
  cat on-slurm/failures.csv
  exit 1
fi
if ! diff <(drop_wall on-slurm/results.csv) <(drop_wall local/results.csv) >/dev/null; then
  echo "slurm round trip: the Slurm sweep's results differ from the local executor's"
  diff <(drop_wall on-slurm/results.csv) <(drop_wall local/results.csv) | head -20
  exit 1
fi
tasks=$(ls on-slurm/slurm/*.out | wc -l)
echo "slurm round trip: 20 runs in $tasks array tasks (job $(cat on-slurm/slurm/job_id)), results identical to the local executor's"
echo "1 passed, 0 failed"
