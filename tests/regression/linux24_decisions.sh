#!/usr/bin/env bash
# Regression check for the Linux 2.4 scheduler's implementation (src/sched/smp/linux24.cpp): runs a fixed set of
# linux24 scenarios and compares the SHA-256 of each run's summary.json (without its wall_seconds line) and
# jobs.csv with the digests in linux24_decisions.sha256.
#
# The digests are NOT model expectations: they were recorded with the binary of commit 9c36b2e, before the
# indexed ready list replaced the full scan of schedule() (docs/models/smp.md §15, implementation note), so
# that any later change of the implementation that alters a single scheduling decision shows here. A change
# that is meant to alter decisions (a model change) must re-record them, say so in its commit, and justify
# the new figures elsewhere (by hand-derived tests), never by this file.
#
# Usage: linux24_decisions.sh COSCHED_BIN [record]
# With LINUX24_DECISIONS_KEEP=DIR the runs' result directories are kept in DIR (to diff two binaries' runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/regression.sh"
export REGRESSION_KEEP=${LINUX24_DECISIONS_KEEP:-}
regression_start "$here/linux24_decisions.sha256" "$@"

ch7="$root/scenarios/tsafrir/ch7-linux-nonsync.yaml"
loaded="$root/bench/smp-loaded.yaml"
# name | scenario | seed | --set overrides (separated by ';')
cases=(
  "ch7-load80-smart-cs|$ch7|1|"
  "ch7-load32-silly|$ch7|2|workload.nosync=21;scheduler.wakeup=silly"
  "ch7-load40-silly|$ch7|12|workload.nosync=29;scheduler.wakeup=silly"
  "ch7-load48-aip-idle|$ch7|3|workload.nosync=37;scheduler.wakeup=aip"
  "ch7-load48-aip-all|$ch7|4|workload.nosync=37;scheduler.wakeup=aip;scheduler.aip_search=all"
  "ch7-load96-smart-linux24|$ch7|5|workload.nosync=85;scheduler.params=linux24"
  "ch7-load16-smart-csplus|$ch7|6|workload.nosync=5;workload.jobs.0.wait.spin=CS+"
  "ch7-load16-silly|$ch7|7|workload.nosync=5;scheduler.wakeup=silly"
  "ch7-load16-aip-linux24|$ch7|8|workload.nosync=5;scheduler.wakeup=aip;scheduler.params=linux24"
  "ch7-load161-medium-aip-all|$ch7|9|workload.nosync=150;workload.jobs.0.compute=10%;scheduler.wakeup=aip;scheduler.aip_search=all"
  "ch7-load200-smart-2csplus|$ch7|10|workload.nosync=189;workload.jobs.0.wait.spin=2CS+"
  "ch7-load0-coarse-silly-linux24|$ch7|11|workload.nosync=0;workload.jobs.0.compute=100%;scheduler.params=linux24;scheduler.wakeup=silly"
  "loaded-smart|$loaded|1|scheduler.policy=linux24;scheduler.wakeup=smart"
  "loaded-silly-shortspin|$loaded|2|scheduler.policy=linux24;scheduler.wakeup=silly;workload.jobs.0.wait.spin=1;workload.jobs.0.barriers=200"
  "loaded-aip-all-linux24|$loaded|3|scheduler.policy=linux24;scheduler.wakeup=aip;scheduler.aip_search=all;scheduler.params=linux24;workload.jobs.0.barriers=300"
  "loaded-aip-idle-nosync|$loaded|4|scheduler.policy=linux24;scheduler.wakeup=aip;workload.nosync=20;workload.jobs.0.barriers=300"
)

for entry in "${cases[@]}"; do
  IFS='|' read -r name scenario seed sets <<<"$entry"
  regression_run "$name" "$scenario" "$seed" "$sets"
  dir="$work/$name"
  grep -q '"policy": "linux24"' "$dir/summary.json" || { echo "$name: not a linux24 run" >&2; exit 1; }
  echo "$name $(regression_summary_digest "$dir") $(sha256sum <"$dir/jobs.csv" | cut -d' ' -f1)" >>"$out"
done

regression_finish "linux24 decisions"
