#!/usr/bin/env python3
"""The simulated SMP model against this machine's kernel (issue 33, section 2; docs/reproductions.md).

For every cell of a grid (job size, non-synchronizing threads, spin, grain, policy) it runs
scenarios/linux/smp-2cpu.yaml's workload REPS times with `cosched host` and once with `cosched run`, and
reports per cell the host's median and spread (min-max) and the simulation's value, for the successful spin
rate (SSR) and the job's completion time. Nothing is tuned per cell: the simulation takes the version
defaults of the host's kernel (scheduler.kernel) and the scenario's costs.

Usage: host_validation.py [--cosched BIN] [--reps N] [--out DIR] [--quick] [--rr] [--sim-set PATH=VALUE]...
                          [--host-from DIR]
--sim-set adds an override to the simulated runs only (a model option against the same host runs);
--host-from reads the host runs of an earlier --out DIR instead of running them again.
Writes DIR/cells.csv and DIR/table.md, and prints the table. The host runs need the machine to themselves:
run it on an otherwise idle machine (it takes several minutes).
"""

import argparse
import csv
import itertools
import json
import os
import platform
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENARIO = os.path.join(ROOT, "scenarios", "linux", "smp-2cpu.yaml")

# Tsafrir's spin names (thesis 3.2): block at once, spin one context switch, twice and a little more.
SPINS = {"0": "{algorithm: block}", "CS": "{algorithm: fixed-spin, spin: CS}",
         "2CS+": "{algorithm: fixed-spin, spin: 2CS+}"}
# Grains: a phase's mean computation and the number of barriers that makes a dedicated run about 0.2 s.
GRAINS = {"fine": (100_000, 2000), "medium": (1_000_000, 200)}


def kernel_version():
    """The host kernel's major.minor, as scheduler.kernel names EEVDF versions (the closest one not after)."""
    major, minor = (int(x) for x in platform.release().split(".")[:2])
    known = [(6, 6), (6, 12), (6, 15), (6, 18)]
    best = max((v for v in known if v <= (major, minor)), default=(6, 6))
    return f"{best[0]}.{best[1]}"


def overrides(cell, policy_name, quantum):
    threads, nosync, spin, grain = cell
    compute, barriers = GRAINS[grain]
    sets = [f"workload.nosync={nosync}", f"workload.jobs.0.threads={threads}",
            f"workload.jobs.0.compute={compute}", f"workload.jobs.0.sigma={compute // 10}",
            f"workload.jobs.0.barriers={barriers}", f"workload.jobs.0.wait={SPINS[spin]}"]
    if policy_name == "rr":
        sets += ["scheduler={policy: rr, quantum: %d, cs_in: 2500, cs_out: 2500}" % quantum]
    else:
        sets += ["scheduler.policy=eevdf", f"scheduler.kernel={kernel_version()}"]
    return sets


def run(cosched, command, sets, out, repetition=None, reuse=False):
    if not reuse:
        args = [cosched, command, SCENARIO, "--out", out, "--quiet"]
        for s in sets:
            args += ["--set", s]
        if repetition is not None:
            args += ["--repetition", str(repetition)]
        subprocess.run(args, check=True)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    job = summary["jobs"][0]
    ssr = job["ssr"]
    return ssr, job["completion_time"] / 1e9  # ssr is a percentage already


def rr_timeslice_cycles():
    try:
        with open("/proc/sys/kernel/sched_rr_timeslice_ms") as f:
            return int(f.read().strip()) * 1_000_000
    except OSError:
        return 100_000_000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cosched", default=os.path.join(ROOT, "build", "cosched"))
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--out", default=os.path.join(ROOT, "results", "host-validation"))
    parser.add_argument("--quick", action="store_true", help="one job size and fewer busy threads")
    parser.add_argument("--rr", action="store_true", help="also the SCHED_RR cells (needs root)")
    parser.add_argument("--sim-set", action="append", default=[], help="an override for the simulation only")
    parser.add_argument("--host-from", help="the --out DIR of an earlier run whose host runs to reuse")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    sizes = [2] if args.quick else [2, 4]
    nosyncs = [0, 2, 8] if args.quick else [0, 1, 2, 4, 8]
    cells = [("eevdf",) + c for c in itertools.product(sizes, nosyncs, SPINS, GRAINS)]
    if args.rr:
        # SCHED_RR's timeslice (100 ms by default) makes busy threads hold a CPU for long: few of them.
        cells += [("rr",) + c for c in itertools.product(sizes, [0, 1], SPINS, ["medium"])]
    quantum = rr_timeslice_cycles()

    rows = []
    for n, (policy_name, *cell) in enumerate(cells):
        sets = overrides(tuple(cell), policy_name, quantum)
        tag = "-".join(str(x) for x in [policy_name] + cell)
        host_dir = os.path.join(args.host_from or args.out, "host", tag)
        host = [run(args.cosched, "host", sets, os.path.join(host_dir, f"r{r}"), r, reuse=bool(args.host_from))
                for r in range(1, args.reps + 1)]
        sim_sets = sets + [s for s in args.sim_set if policy_name != "rr" or not s.startswith("scheduler.")]
        sim = run(args.cosched, "run", sim_sets, os.path.join(args.out, "sim", tag))
        ssrs = [h[0] for h in host if h[0] is not None]
        times = [h[1] for h in host]
        row = {"policy": policy_name, "threads": cell[0], "nosync": cell[1], "spin": cell[2], "grain": cell[3],
               "host_ssr_median": statistics.median(ssrs) if ssrs else None,
               "host_ssr_min": min(ssrs) if ssrs else None, "host_ssr_max": max(ssrs) if ssrs else None,
               "sim_ssr": sim[0], "host_time_median": statistics.median(times), "host_time_min": min(times),
               "host_time_max": max(times), "sim_time": sim[1]}
        row["ssr_points_off"] = (None if row["sim_ssr"] is None or row["host_ssr_median"] is None
                                 else abs(row["sim_ssr"] - row["host_ssr_median"]))
        row["time_off_percent"] = 100.0 * abs(row["sim_time"] - row["host_time_median"]) / row["host_time_median"]
        rows.append(row)
        print(f"[{n + 1}/{len(cells)}] {tag}: host SSR {row['host_ssr_median']} time {row['host_time_median']:.3f} s;"
              f" sim SSR {row['sim_ssr']} time {row['sim_time']:.3f} s", file=sys.stderr)

    with open(os.path.join(args.out, "cells.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)

    def fmt(x, spec=".1f"):
        return "n/a" if x is None else format(x, spec)

    lines = [f"Host: Linux {platform.release()}, {os.cpu_count()} CPUs; simulation: scheduler.kernel "
             f"{kernel_version()} (eevdf cells), rr with the host's {quantum // 1_000_000} ms timeslice; "
             f"{args.reps} host runs per cell; simulation overrides: {args.sim_set or 'none'}.", "",
             "| policy | threads | nosync | spin | grain | host SSR % median (min-max) | sim SSR % | "
             "host time s median (min-max) | sim time s | SSR points off | time off % |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['policy']} | {r['threads']} | {r['nosync']} | {r['spin']} | {r['grain']} | "
            f"{fmt(r['host_ssr_median'])} ({fmt(r['host_ssr_min'])}-{fmt(r['host_ssr_max'])}) | {fmt(r['sim_ssr'])} | "
            f"{r['host_time_median']:.3f} ({r['host_time_min']:.3f}-{r['host_time_max']:.3f}) | {r['sim_time']:.3f} | "
            f"{fmt(r['ssr_points_off'])} | {r['time_off_percent']:.1f} |")
    ssr_cells = [r for r in rows if r["ssr_points_off"] is not None]
    ssr_ok = sum(1 for r in ssr_cells if r["ssr_points_off"] <= 10)
    time_ok = sum(1 for r in rows if r["time_off_percent"] <= 15)
    lines += ["", f"SSR within 10 points of the host's median: {ssr_ok} of {len(ssr_cells)} cells with spins "
              f"(target: 80%); completion time within 15%: {time_ok} of {len(rows)} cells."]
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
