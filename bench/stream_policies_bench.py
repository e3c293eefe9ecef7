#!/usr/bin/env python3
"""The job schedulers' cost on an open workload (issue 35, section 2): the CPU seconds of one `cosched run`
of the Lublin stream under each time-sharing job scheduler, against `gang` at the same level, printed as
one markdown table.

    python3 bench/stream_policies_bench.py [--cosched build/cosched] [--seeds 1 2] [--max-wait SECONDS]

The run: scenarios/streams/lublin-32.yaml (1000 jobs of the Lublin-Feitelson stream on 32 workstations, the
coarse class, time_scale 0.02) at offered load 0.7, on each stream seed given (the seed names the stream,
lublin-32-seedS.swf, as in sweeps/streams-lublin.yaml), under gang, fcs, buffered and paired-gang (10 ms
slots, the gang local scheduler, each new policy's keys at their defaults) and slurm-gang (Slurm's 30 s time
slice scaled by the time_scale: 600 ms) with 2 and 4 places per workstation. The target is each new policy within 1.5 times gang's CPU seconds.

Measured per run: CPU seconds of the `cosched` child (user + system, the deltas of
resource.getrusage(RUSAGE_CHILDREN) around it), and from its summary.json the events and the simulated
makespan. The runs are taken policy by policy within each seed, so that a change in the machine's load
touches the policies of a seed alike. Before each run the script waits until no other `cosched` process runs
(`pgrep -x cosched` every 10 s, for at most --max-wait seconds), and says in the report if it gave up. The
figures are from one machine at one time; the report names its CPU count and model.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCENARIO = REPO / "scenarios" / "streams" / "lublin-32.yaml"
POLL_SECONDS = 10
GANG_LOCAL = "{policy: gang, quantum: 10ms, context_switch: 100us}"
# (label, job_scheduler, scheduler, the gang it is compared with)
POLICIES = [
    ("gang mpl 2", "{policy: gang, mpl: 2}", GANG_LOCAL, "gang mpl 2"),
    ("fcs mpl 2", "{policy: fcs, mpl: 2}", GANG_LOCAL, "gang mpl 2"),
    ("slurm-gang oversubscribe 2", "{policy: slurm-gang, time_slice: 600ms, oversubscribe: 2}",
     "{policy: gang, context_switch: 100us}", "gang mpl 2"),
    ("buffered mpl 2", "{policy: buffered, mpl: 2}", GANG_LOCAL, "gang mpl 2"),
    ("paired-gang mpl 2", "{policy: paired-gang, mpl: 2}", GANG_LOCAL, "gang mpl 2"),
    ("gang mpl 4", "{policy: gang, mpl: 4}", GANG_LOCAL, "gang mpl 4"),
    ("fcs mpl 4", "{policy: fcs, mpl: 4}", GANG_LOCAL, "gang mpl 4"),
    ("slurm-gang oversubscribe 4", "{policy: slurm-gang, time_slice: 600ms, oversubscribe: 4}",
     "{policy: gang, context_switch: 100us}", "gang mpl 4"),
    ("buffered mpl 4", "{policy: buffered, mpl: 4}", GANG_LOCAL, "gang mpl 4"),
    ("paired-gang mpl 4", "{policy: paired-gang, mpl: 4}", GANG_LOCAL, "gang mpl 4"),
]
TARGET = 1.5


def others_running() -> bool:
    return subprocess.run(["pgrep", "-x", "cosched"], capture_output=True).returncode == 0


def wait_for_quiet(max_wait: float) -> bool:
    """True when no other cosched runs; False when --max-wait passed first."""
    waited = 0.0
    while others_running():
        if waited >= max_wait:
            return False
        if waited == 0:
            print("stream_policies_bench: another cosched is running; waiting", file=sys.stderr)
        time.sleep(POLL_SECONDS)
        waited += POLL_SECONDS
    return True


def run_once(cosched: Path, seed: int, job_scheduler: str, scheduler: str, out: Path) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(cosched), "run", str(SCENARIO), "--quiet", "--out", str(out), "--seed", str(seed),
                    "--set", "workload.stream.load=0.7", "--set", f"workload.stream.swf=lublin-32-seed{seed}.swf",
                    "--set", f"job_scheduler={job_scheduler}", "--set", f"scheduler={scheduler}"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = json.loads((out / "summary.json").read_text())
    return {"cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "events": summary["events"], "makespan": summary["makespan"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cosched", type=Path, default=REPO / "build" / "cosched")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2], choices=[1, 2])
    parser.add_argument("--max-wait", type=float, default=1800)
    args = parser.parse_args()
    if not args.cosched.is_file():
        parser.error(f"--cosched: no such file '{args.cosched}' (build first)")
    gave_up = False
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            for label, job_scheduler, scheduler, baseline in POLICIES:
                gave_up |= not wait_for_quiet(args.max_wait)
                measured = run_once(args.cosched, seed, job_scheduler, scheduler, Path(tmp) / f"{seed}-{len(rows)}")
                rows.append({"seed": seed, "policy": label, "baseline": baseline, **measured})
                print(f"stream_policies_bench: seed {seed}, {label}: {measured['cpu']:.1f} CPU s", file=sys.stderr)
    cpu = {(r["seed"], r["policy"]): r["cpu"] for r in rows}
    print(f"Lublin stream (1000 jobs, 32 workstations), load 0.7; {os.cpu_count()} CPUs, {platform.processor() or platform.machine()}")
    print()
    print("| seed | job scheduler | CPU s | against gang | events (M) | makespan (s) |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for r in rows:
        ratio = r["cpu"] / cpu[(r["seed"], r["baseline"])]
        if r["policy"] != r["baseline"]:
            worst = max(worst, ratio)
        print(f"| {r['seed']} | {r['policy']} | {r['cpu']:.1f} | {ratio:.2f}x | {r['events'] / 1e6:.0f} | {r['makespan']:.0f} |")
    print()
    print(f"Largest ratio of a new policy to gang: {worst:.2f}x (target: within {TARGET}x).")
    if gave_up:
        print("Another cosched process was running during some runs: the figures are not reliable.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
