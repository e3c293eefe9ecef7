#!/usr/bin/env bash
# Regression check of whole runs: runs a fixed set of NOW scenario variants (with both engines) and SMP
# and NUMA scenarios, and compares the SHA-256 of every result file each run writes (summary.json without
# its wall_seconds line, jobs.csv, workstations.csv, barriers.csv, classes.csv, pairs.csv, network.csv, timeline.csv) with
# run_digests.sha256.
#
# The digests are NOT model expectations: they record what the implementation computed when they were
# recorded, so that a change meant to leave behaviour alone (a refactoring, a speed-up) shows here if it
# alters a single decision. The NOW variants cover the local schedulers, every family of waiting
# algorithm (block, spin, spin-fixed, the two-phase ones, informed waiting), Linux's cfs and eevdf, latency 0, barrier trees and
# all-to-all barriers, keep-alives, prefetching, the Arpaci-Dusseau settings, a 128-workstation run and
# timeline runs, and an open workload (a stream of jobs) under each job scheduler; each NOW variant runs under
# both engines (`--engine sequential` and `--engine simgrid`), whose files must agree but for `engine` and
# `wall_seconds` in summary.json.
#
# Regenerating (docs/architecture.md, "The safety net"): only when a model rule changes on purpose. Run
#   bash tests/regression/run_digests.sh build/cosched record
# and commit the new run_digests.sha256 in the commit that changes the rule, whose message says which rule
# changed and why; the new figures are justified elsewhere (hand-derived tests, docs/models/), never by
# this file. A refactoring or a speed-up never re-records.
#
# Usage: run_digests.sh COSCHED_BIN [record]
# With RUN_DIGESTS_KEEP=DIR the runs' result directories are kept in DIR (to diff two binaries' runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/regression.sh"
export REGRESSION_KEEP=${RUN_DIGESTS_KEEP:-}
regression_start "$here/run_digests.sha256" "$@"

short="$root/scenarios/brim-miller/short.yaml"
ad="$root/scenarios/brim-miller/arpaci-dusseau.yaml"
news128="$root/scenarios/scale/news-128.yaml"
nowqs="$root/scenarios/now-quickstart.yaml"
smpqs="$root/scenarios/quickstart.yaml"
linux2="$root/scenarios/linux/smp-2cpu.yaml"
ch7="$root/scenarios/tsafrir/ch7-linux-nonsync.yaml"
ch4="$root/scenarios/tsafrir/ch4-homogeneous.yaml"
kw="$root/scenarios/kontothanassis/synthetic-partitioned.yaml"
numa_a="$root/scenarios/nobukuni/set-a.yaml"
numa_m="$root/scenarios/nobukuni/set-m.yaml"
J=workload.jobs.0
S="$J.barriers=2;$J.sync_interval=50ms"  # the short job, cut to two phases of 50ms
streams="$root/scenarios/streams"
T="workload.stream.arrival_scale=0.01"  # the fcfs stream's jobs submitted 100 times closer, so they queue

# NOW variants, run with both engines. name | scenario | seed | --set overrides (separated by ';')
now_cases=(
  "stride-pairwise|$short|1|$S"
  "ts-pairwise|$short|2|$S;scheduler={policy: ts}"
  "stride-credit-pairwise|$short|3|$S;scheduler={policy: stride-credit}"
  "gang-spin|$short|4|$S;scheduler={policy: gang};$J.wait={algorithm: spin}"
  "ts-block|$short|5|$S;scheduler={policy: ts};$J.wait={algorithm: block}"
  "stride-spin-fixed|$short|6|$S;$J.wait={algorithm: spin-fixed, spin: 300us}"
  "stride-credit-block-immediately|$short|7|$S;scheduler={policy: stride-credit};$J.wait={algorithm: block-immediately}"
  "ts-large-initial-spin-count|$short|8|$S;scheduler={policy: ts};$J.wait={algorithm: large-initial-spin, initial_spin: V+L+2o, conditional: count, resume: keep}"
  "stride-variance-guess|$short|9|$S;$J.wait={algorithm: variance-guess}"
  "stride-credit-proc-count|$short|10|$S;scheduler={policy: stride-credit};$J.wait={algorithm: variance-with-proc-count}"
  "ts-avg-proc-delay-restart|$short|11|$S;scheduler={policy: ts};$J.wait={algorithm: avg-proc-delay, resume: restart, after_wake: first-phase}"
  "stride-latency0|$short|12|$S;platform.latency=0"
  "stride-trees|$short|13|$S;$J.barrier={kind: root, notify: binomial, arrive: binary}"
  "ts-skewed-trees|$short|14|$S;scheduler={policy: ts};$J.barrier={kind: root, notify: order-aware-skewed}"
  "stride-all-to-all|$short|15|$S;$J.barrier={kind: all-to-all}"
  "stride-keepalive|$short|16|$S;$J.barrier={kind: root, keepalive: {start: 3/4, period: 100us, targets: not-arrived}}"
  "stride-credit-prefetch|$short|17|$S;scheduler={policy: stride-credit};$J.wait={algorithm: pairwise, prefetch: true}"
  "cfs-pairwise|$short|18|$S;scheduler={policy: cfs}"
  "eevdf-pairwise|$short|19|$S;scheduler={policy: eevdf}"
  "eevdf-6.6-hz1000-spin-fixed|$short|20|$S;scheduler={policy: eevdf, kernel: \"6.6\", hz: 1000};$J.wait={algorithm: spin-fixed, spin: 300us}"
  "cfs-hrtick-block|$short|21|$S;scheduler={policy: cfs, features: {HRTICK: true}};$J.wait={algorithm: block}"
  "arpaci-dusseau|$ad|1|$J.barriers=2"
  "news-128|$news128|1|$J.barriers=1;$J.sync_interval=20ms"
  "quickstart-timeline|$nowqs|1|output.timeline=true"
  "gang-block-timeline|$nowqs|2|output.timeline=true;scheduler={policy: gang};$J.wait={algorithm: block}"
  # Open workloads (the 8 jobs of small.swf), one run under each job scheduler, the jobs overlapping.
  "stream-fcfs|$streams/fcfs-small.yaml|1|$T"
  "stream-easy|$streams/fcfs-small.yaml|2|$T;job_scheduler.policy=easy"
  "stream-gang-timeline|$streams/gang-small.yaml|3|output.timeline=true"
  "stream-time-share|$streams/time-share-small.yaml|4|"
  "stream-slurm-gang|$streams/slurm-gang-small.yaml|5|job_scheduler.suspend_resume=1ms"
  "stream-fcs|$streams/fcs-small.yaml|6|"
  "stream-buffered|$streams/buffered-small.yaml|7|"
  "stream-paired-gang|$streams/paired-gang-small.yaml|8|"
)

# SMP runs: round robin, linux24, partitioned. name | scenario | seed | --set overrides (separated by ';')
smp_cases=(
  "smp-rr-quickstart-timeline|$smpqs|1|output.timeline=true"
  "smp-rr-ch4|$ch4|2|"
  "smp-eevdf-linux|$linux2|1|"
  "smp-cfs-linux|$linux2|2|scheduler.policy=cfs"
  "smp-eevdf-6.6-hz1000-linux|$linux2|3|scheduler.kernel=6.6;scheduler.hz=1000"
  "smp-linux24-smart|$ch7|3|scheduler.policy=linux24"
  "smp-linux24-aip-all-timeline|$ch7|4|scheduler.policy=linux24;scheduler.wakeup=aip;scheduler.aip_search=all;workload.nosync=37;output.timeline=true"
  "smp-partitioned|$kw|5|$J.barriers=300"
)

# run NAME SCENARIO SEED SETS [cosched options...]: one run, then one digest line per result file.
run() {
  local name=$1
  regression_run "$@"
  local dir="$work/$name"
  echo "$name summary.json $(regression_summary_digest "$dir")" >>"$out"
  for file in jobs.csv workstations.csv barriers.csv classes.csv pairs.csv network.csv timeline.csv; do
    [ -f "$dir/$file" ] && echo "$name $file $(sha256sum <"$dir/$file" | cut -d' ' -f1)" >>"$out"
  done
  return 0
}

for entry in "${now_cases[@]}"; do
  IFS='|' read -r name scenario seed sets <<<"$entry"
  for engine in sequential simgrid; do run "now-$name-$engine" "$scenario" "$seed" "$sets" --engine "$engine"; done
done
# NUMA runs cut to a few slices: both networks, policies with and without the resource management tree, both
# strategies (small memories so that pages are evicted), release consistency, a timeline.
numa_cases=(
  "numa-policy4-strategy1-timeline|$numa_a|1|scheduler.slices=4;memory.pages_per_cluster=60;output.timeline=true"
  "numa-policy0-strategy0|$numa_a|2|scheduler.slices=4;scheduler.policy=policy0;memory.replacement=strategy0;memory.pages_per_cluster=60"
  "numa-policy2-release-w4444|$numa_m|3|scheduler.slices=3;scheduler.policy=policy2;memory.consistency=release;platform.file=../../platforms/numa-w4444.xml"
  "numa-policy3-shared|$numa_m|4|scheduler.slices=3;scheduler.policy=policy3;platform.network=shared;memory.pages_per_cluster=80"
)
for entry in "${smp_cases[@]}" "${numa_cases[@]}"; do
  IFS='|' read -r name scenario seed sets <<<"$entry"
  run "$name" "$scenario" "$seed" "$sets"
done

regression_finish "run digests"
