#!/usr/bin/env bash
# Runs the Brim & Miller comparison of waiting algorithms under each local scheduler (B&M 3.1, 3.3) on one
# of scenarios/brim-miller/*.yaml and prints slowdowns relative to pairwise and pairwise's job-state
# breakdown (B&M figure 4).
#
# Usage: scripts/brim-miller-demo.sh [short|medium|long|arpaci-dusseau] [PARALLEL_RUNS] [extra --set ...]
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:-short}
parallel=${2:-2}
shift $(( $# > 2 ? 2 : $# )) || true
scenario=scenarios/brim-miller/$variant.yaml
out=results/brim-miller-demo/$variant
bin=${COSCHED:-build/cosched}
# Every run afresh: results of another binary or other arguments must not be mixed in.
rm -rf "$out"
mkdir -p "$out"

declare -A waits=(
  [pairwise]='{algorithm: pairwise}'
  [block]='{algorithm: block}'
  [block-immediately]='{algorithm: block-immediately}'
  [spin]='{algorithm: spin}'
  [spin-fixed]='{algorithm: spin-fixed, spin: 300us}'
  [large-initial-spin-VL2o]='{algorithm: large-initial-spin, initial_spin: V+L+2o}'
)
declare -A schedulers=(
  [stride]='{policy: stride, quantum: 10ms, context_switch: 100us}'
  [stride-credit]='{policy: stride-credit, quantum: 10ms, context_switch: 100us}'
  [ts]='{policy: ts, context_switch: 100us}'
)
jobs_file=$(mktemp)
for s in "${!schedulers[@]}"; do
  for w in "${!waits[@]}"; do
    printf '%s\t%s\t%s\t%s\n' "$out/$s-$w" "${schedulers[$s]}" "${waits[$w]}" "$*" >>"$jobs_file"
  done
done
printf '%s\t%s\t%s\t%s\n' "$out/gang" '{policy: gang, quantum: 10ms, context_switch: 100us}' '{algorithm: pairwise}' "$*" >>"$jobs_file"
run_one() {
  IFS=$'\t' read -r dir sched wait extra <<<"$1"
  # shellcheck disable=SC2086
  "$bin" run "$scenario" --quiet --out "$dir" --set "scheduler=$sched" --set "workload.jobs.0.wait=$wait" $extra
}
export -f run_one
export bin scenario
tr '\n' '\0' <"$jobs_file" | xargs -0 -P "$parallel" -I{} bash -c 'run_one "$@"' _ {}
rm -f "$jobs_file"

python3 - "$out" <<'PY'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
def load(name):
    return json.loads((out / name / "summary.json").read_text())
waits = ["pairwise", "block", "block-immediately", "spin", "spin-fixed", "large-initial-spin-VL2o"]
gang = load("gang")["makespan"]
print(f"makespan in simulated seconds, and slowdown relative to pairwise under the same scheduler")
print(f"{'scheduler':14}" + "".join(f"{w:>26}" for w in waits))
for s in ["stride", "stride-credit", "ts"]:
    base = load(f"{s}-pairwise")["makespan"]
    row = f"{s:14}"
    for w in waits:
        m = load(f"{s}-{w}")["makespan"]
        row += f"{m:>17.3f} ({m / base:5.2f}x)"
    print(row)
    print(f"{'':14}gang {gang:.3f} s = {gang / base:.2f}x pairwise")
print()
print("pairwise job-state breakdown (fraction of completion time, averaged over jobs);")
print("the last column adds the time blocked at barriers to synchronize (docs/models/now.md, section 7)")
keys = ["compute", "communicate", "synchronize", "idle", "switch"]
print(f"{'scheduler':14}{'compute':>10}{'communicate':>13}{'synchronize':>13}{'idle':>8}{'switch':>8}"
      f"{'sync+blocked':>14}")
for s in ["stride", "stride-credit", "ts", "gang"]:
    summary = load(f"{s}-pairwise" if s != "gang" else "gang")
    parts = {k: 0.0 for k in keys + ["sync+blocked"]}
    for job in summary["jobs"]:
        share = 1.0 / job["completion_time"] / len(summary["jobs"])
        for k in keys:
            parts[k] += job["time"][k] * share
        parts["sync+blocked"] += (job["time"]["synchronize"] + job["idle_detail"]["blocked_barrier"]) * share
    print(f"{s:14}" + "".join(f"{parts[k]:>{w}.1%}" for k, w in zip(parts, [10, 13, 13, 8, 8, 14])))
PY
