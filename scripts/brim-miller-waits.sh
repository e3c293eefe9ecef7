#!/usr/bin/env bash
# The waiting-algorithm table of issue 7's closing note: on scenarios/brim-miller/short.yaml (or another
# variant), pairwise, block, block-immediately, spin, spin-fixed 300us, large-initial-spin 22500us and
# V+L+2o under stride, stride-credit and ts, and gang. Runs one simulation at a time (other work shares
# the machine), keeps results already in OUT (delete OUT to start afresh), then prints the makespans and
# the slowdown against pairwise under the same scheduler, and writes OUT/table.tsv.
#
# Usage: scripts/brim-miller-waits.sh OUT [VARIANT] [--set KEY=VALUE ...]
#   COSCHED=path/to/cosched selects the binary (default build/cosched): e.g. a build of an older commit.
#   WAIT_EXTRA=', resume: keep' appends keys to every wait mapping (not to gang's).
#   RUNS='stride:pairwise stride:block gang' runs only these, in this order (default: all); the table
#   shows what OUT holds.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1
variant=${2:-short}
shift $(( $# >= 2 ? 2 : 1 ))
scenario=scenarios/brim-miller/$variant.yaml
bin=${COSCHED:-build/cosched}
extra_wait=${WAIT_EXTRA:-}
mkdir -p "$out"

waits=(pairwise block block-immediately spin spin-fixed large-initial-spin-22500us large-initial-spin-VL2o)
schedulers=(stride stride-credit ts)
declare -A wait_of=(
  [pairwise]="{algorithm: pairwise$extra_wait}"
  [block]="{algorithm: block$extra_wait}"
  [block-immediately]="{algorithm: block-immediately$extra_wait}"
  [spin]="{algorithm: spin$extra_wait}"
  [spin-fixed]="{algorithm: spin-fixed, spin: 300us$extra_wait}"
  [large-initial-spin-22500us]="{algorithm: large-initial-spin, initial_spin: 22500us$extra_wait}"
  [large-initial-spin-VL2o]="{algorithm: large-initial-spin, initial_spin: V+L+2o$extra_wait}"
)
declare -A scheduler_of=(
  [stride]='{policy: stride, quantum: 10ms, context_switch: 100us}'
  [stride-credit]='{policy: stride-credit, quantum: 10ms, context_switch: 100us}'
  [ts]='{policy: ts, context_switch: 100us}'
)
runs=${RUNS:-}
if [[ -z $runs ]]; then
  for s in "${schedulers[@]}"; do for w in "${waits[@]}"; do runs+=" $s:$w"; done; done
  runs+=" gang"
fi
for run in $runs; do
  if [[ $run == gang ]]; then
    [[ -f $out/gang/summary.json ]] && continue
    "$bin" run "$scenario" --quiet --out "$out/gang" \
      --set 'scheduler={policy: gang, quantum: 10ms, context_switch: 100us}' "$@"
    continue
  fi
  s=${run%%:*} w=${run#*:}
  dir=$out/$s-$w
  [[ -f $dir/summary.json ]] && continue
  "$bin" run "$scenario" --quiet --out "$dir" --set "scheduler=${scheduler_of[$s]}" \
    --set "workload.jobs.0.wait=${wait_of[$w]}" "$@"
done

python3 - "$out" "${waits[@]}" <<'PY'
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
waits = sys.argv[2:]
def makespan(name):
    f = out / name / "summary.json"
    return json.loads(f.read_text())["makespan"] if f.exists() else None
def cell(value, base):
    if value is None:
        return "-"
    return f"{value:.3f}" + (f" ({value / base:.2f}x)" if base else "")
gang = makespan("gang")
lines = ["scheduler\t" + "\t".join(waits)]
print(f"makespan (simulated s) / slowdown against pairwise; gang {cell(gang, None)} s")
for s in ["stride", "stride-credit", "ts"]:
    base = makespan(f"{s}-pairwise")
    cells = [cell(makespan(f"{s}-{w}"), base) for w in waits]
    lines.append(s + "\t" + "\t".join(cells))
    print(f"{s:14} pairwise/gang {cell(base, gang)}  " + "  ".join(f"{w}={c}" for w, c in zip(waits, cells)))
lines.append(f"gang\t{cell(gang, None)}")
(out / "table.tsv").write_text("\n".join(lines) + "\n")
PY
