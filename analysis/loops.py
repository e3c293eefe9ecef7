"""User-level loop scheduling under load (issue 23; sweeps/loops-under-load.yaml; docs/reproductions.md,
"User-level loop scheduling under load"): a loop job's completion time and SSR against the number of
non-synchronizing threads, one curve per OpenMP schedule, one column of panels per kernel policy.

    .venv/bin/python -m analysis.loops DIR [--out OUT]   # OUT/loops.csv and OUT/loops.png (default DIR/loops)

loop_table aggregates results.csv over seeds (mean and standard deviation); loop_schedules_figure draws it;
the command line only loads, calls and saves."""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the Agg backend)
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .contract import load_results  # noqa: E402

POLICY = "scheduler.policy"
SCHEDULE = "workload.jobs.0.loop.schedule"
LOAD = "workload.nosync"
SCHEDULE_ORDER = ["static", "dynamic", "guided"]
SCHEDULE_COLOURS = {"static": "tab:blue", "dynamic": "tab:red", "guided": "tab:green"}


def loop_table(results: pd.DataFrame, job: str = "loop") -> pd.DataFrame:
    """One row per (policy, schedule, load): completion time (cycles) and SSR (%), mean and standard
    deviation over the seeds, and the completion time against static's at the same policy and load (%)."""
    completion, ssr = f"job.{job}.completion_time", f"job.{job}.ssr"
    for column in (POLICY, SCHEDULE, LOAD, completion, ssr):
        if column not in results.columns:
            raise ValueError(f"results.csv has no column '{column}' (expected a sweep of sweeps/loops-under-load.yaml)")
    frame = results[[POLICY, SCHEDULE, LOAD, completion, ssr]].copy()
    frame[completion] = pd.to_numeric(frame[completion])
    frame[ssr] = pd.to_numeric(frame[ssr])
    grouped = frame.groupby([POLICY, SCHEDULE, LOAD], sort=True)
    table = pd.DataFrame(
        {
            "completion_mean": grouped[completion].mean(),
            "completion_std": grouped[completion].std().fillna(0.0),
            "ssr_mean": grouped[ssr].mean(),
            "ssr_std": grouped[ssr].std().fillna(0.0),
            "seeds": grouped[completion].count(),
        }
    ).reset_index()
    static = table[table[SCHEDULE] == "static"].set_index([POLICY, LOAD])["completion_mean"]
    keys = list(zip(table[POLICY], table[LOAD]))
    table["vs_static_percent"] = [
        100.0 * (mean / static[key] - 1.0) if key in static.index else float("nan")
        for mean, key in zip(table["completion_mean"], keys)
    ]
    return table


def loop_schedules_figure(table: pd.DataFrame, title: str = "Loop schedules under load") -> Figure:
    """Top row: completion time (million cycles) against load; bottom row: SSR (%); one column per policy,
    one curve per schedule, a band of one standard deviation across seeds."""
    policies = list(dict.fromkeys(table[POLICY]))
    fig, axes = plt.subplots(2, len(policies), figsize=(5.5 * len(policies), 7.5), squeeze=False, sharex=True)
    for column, policy in enumerate(policies):
        for row, (mean, std, label) in enumerate(
            [("completion_mean", "completion_std", "completion time (Mcycles)"), ("ssr_mean", "ssr_std", "SSR (%)")]
        ):
            ax = axes[row][column]
            scale = 1e-6 if row == 0 else 1.0
            for schedule in [s for s in SCHEDULE_ORDER if s in set(table[SCHEDULE])]:
                part = table[(table[POLICY] == policy) & (table[SCHEDULE] == schedule)].sort_values(LOAD)
                x = part[LOAD].to_numpy()
                y = part[mean].to_numpy() * scale
                e = part[std].to_numpy() * scale
                colour = SCHEDULE_COLOURS.get(schedule)
                ax.plot(x, y, marker="o", markersize=3, label=schedule, color=colour)
                ax.fill_between(x, y - e, y + e, alpha=0.2, color=colour)
            ax.set_ylabel(label)
            ax.grid(True, alpha=0.3)
            if row == 0:
                ax.set_title(f"scheduler.policy: {policy}")
            else:
                ax.set_xlabel(f"{LOAD} (non-synchronizing threads)")
            ax.legend(title="schedule")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.loops", description=__doc__.splitlines()[0])
    parser.add_argument("sweep_dir", type=Path, help="a directory written by cosched sweep sweeps/loops-under-load.yaml")
    parser.add_argument("--out", type=Path, help="where loops.csv and loops.png go (default DIR/loops)")
    args = parser.parse_args(argv)
    out = args.out or args.sweep_dir / "loops"
    out.mkdir(parents=True, exist_ok=True)
    table = loop_table(load_results(args.sweep_dir))
    table.to_csv(out / "loops.csv", index=False)
    loop_schedules_figure(table).savefig(out / "loops.png", dpi=120)
    print(f"{out / 'loops.csv'}\n{out / 'loops.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
