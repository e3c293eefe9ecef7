"""User-level task scheduling under load (issue 23 section 3; sweeps/tasks-under-load.yaml;
docs/reproductions.md, "User-level task scheduling under load"): a task-tree job's completion time, time
waiting for work, tasks per thread and steals against the number of non-synchronizing threads, one curve per
user-level policy (central-queue, work-stealing), one column of panels per kernel policy.

    .venv/bin/python -m analysis.tasks DIR [--out OUT]   # OUT/tasks.csv and OUT/tasks.png (default DIR/tasks)

thread_frame reads the per-thread figures of each run's summary.json (user_level_threads, which results.csv
does not carry); task_table aggregates them with results.csv over seeds; task_policies_figure draws it; the
command line only loads, calls and saves."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the Agg backend)
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .contract import load_results  # noqa: E402

POLICY = "scheduler.policy"
USER_POLICY = "workload.jobs.0.tasks.policy"
LOAD = "workload.nosync"
CPUS = "resolved.platform.cpus"
USER_POLICY_ORDER = ["central-queue", "work-stealing"]
USER_POLICY_COLOURS = {"central-queue": "tab:blue", "work-stealing": "tab:red"}


def thread_frame(summaries: Mapping[str, dict], job: str = "fib") -> pd.DataFrame:
    """One row per (run_id, thread) of job `job`'s first copy: tasks, dispatches, steals, waiting_for_work,
    from each run's summary.json (`summaries`: run_id -> the parsed file)."""
    rows = []
    for run_id, summary in summaries.items():
        for entry in summary.get("user_level_threads", []):
            if entry["job"] == job and entry["copy"] == 0:
                rows.append(
                    {
                        "run_id": run_id,
                        "thread": entry["thread"],
                        "tasks": entry["tasks"],
                        "dispatches": entry["dispatches"],
                        "steals": entry["steals"],
                        "waiting_for_work": entry["waiting_for_work"],
                    }
                )
    if not rows:
        raise ValueError(f"no user_level_threads of job '{job}' (expected a sweep of sweeps/tasks-under-load.yaml)")
    return pd.DataFrame(rows)


def task_table(results: pd.DataFrame, threads: pd.DataFrame, job: str = "fib") -> pd.DataFrame:
    """One row per (policy, user-level policy, load), means over the seeds: completion time (cycles, with its
    standard deviation), the fair-share completion (the load-0 completion x (threads + load) / CPUs, at least
    x 1) and the completion against it (%), against central-queue's at the same policy and load (%), the
    job's time waiting for work (cycles, summed over its threads), steals and dispatches (summed), and the
    fewest and most tasks a thread ran."""
    completion = f"job.{job}.completion_time"
    user = {f: f"job.{job}.user_level.{f}" for f in ("waiting_for_work", "steals", "dispatches", "switch_cycles")}
    for column in (POLICY, USER_POLICY, LOAD, CPUS, completion, *user.values()):
        if column not in results.columns:
            raise ValueError(f"results.csv has no column '{column}' (expected a sweep of sweeps/tasks-under-load.yaml)")
    frame = results[["run_id", POLICY, USER_POLICY, LOAD, CPUS, completion, *user.values()]].copy()
    frame = frame.rename(columns={completion: "completion", **{v: k for k, v in user.items()}})
    for column in ("completion", *user):
        frame[column] = pd.to_numeric(frame[column])
    per_run = threads.groupby("run_id").agg(
        tasks_min=("tasks", "min"), tasks_max=("tasks", "max"), threads=("thread", "count")
    )
    frame = frame.join(per_run, on="run_id", how="inner")
    grouped = frame.groupby([POLICY, USER_POLICY, LOAD], sort=True)
    table = pd.DataFrame(
        {
            "completion_mean": grouped["completion"].mean(),
            "completion_std": grouped["completion"].std().fillna(0.0),
            "waiting_for_work": grouped["waiting_for_work"].mean(),
            "steals": grouped["steals"].mean(),
            "dispatches": grouped["dispatches"].mean(),
            "switch_cycles": grouped["switch_cycles"].mean(),
            "tasks_min": grouped["tasks_min"].mean(),
            "tasks_max": grouped["tasks_max"].mean(),
            "threads": grouped["threads"].first(),
            "cpus": grouped[CPUS].first(),
            "seeds": grouped["completion"].count(),
        }
    ).reset_index()
    dedicated = table[table[LOAD] == 0].set_index([POLICY, USER_POLICY])["completion_mean"]
    share = [max(1.0, (t + load) / c) for t, load, c in zip(table["threads"], table[LOAD], table["cpus"])]
    table["fair_share"] = [
        dedicated[key] * s if key in dedicated.index else float("nan")
        for key, s in zip(zip(table[POLICY], table[USER_POLICY]), share)
    ]
    table["vs_fair_percent"] = 100.0 * (table["completion_mean"] / table["fair_share"] - 1.0)
    central = table[table[USER_POLICY] == "central-queue"].set_index([POLICY, LOAD])["completion_mean"]
    table["vs_central_percent"] = [
        100.0 * (mean / central[key] - 1.0) if key in central.index else float("nan")
        for mean, key in zip(table["completion_mean"], zip(table[POLICY], table[LOAD]))
    ]
    return table


def task_policies_figure(table: pd.DataFrame, title: str = "Task-tree policies under load") -> Figure:
    """Rows: completion time (million cycles, the fair share dashed), time waiting for work (million cycles,
    summed over the threads), tasks per thread (the fewest to the most, shaded), steals; one column per
    kernel policy, one colour per user-level policy."""
    policies = list(dict.fromkeys(table[POLICY]))
    fig, axes = plt.subplots(4, len(policies), figsize=(5.5 * len(policies), 13), squeeze=False, sharex=True)
    users = [u for u in USER_POLICY_ORDER if u in set(table[USER_POLICY])]
    for column, policy in enumerate(policies):
        for user in users:
            part = table[(table[POLICY] == policy) & (table[USER_POLICY] == user)].sort_values(LOAD)
            x = part[LOAD].to_numpy()
            colour = USER_POLICY_COLOURS.get(user)
            ax = axes[0][column]
            ax.plot(x, part["completion_mean"].to_numpy() * 1e-6, marker="o", markersize=3, label=user, color=colour)
            ax.plot(x, part["fair_share"].to_numpy() * 1e-6, linestyle="--", linewidth=1, color=colour)
            axes[1][column].plot(
                x, part["waiting_for_work"].to_numpy() * 1e-6, marker="o", markersize=3, label=user, color=colour
            )
            ax = axes[2][column]
            low, high = part["tasks_min"].to_numpy(), part["tasks_max"].to_numpy()
            ax.fill_between(x, low, high, alpha=0.3, color=colour, label=user)
            ax.plot(x, (low + high) / 2.0, linewidth=1, color=colour)
            axes[3][column].plot(x, part["steals"].to_numpy(), marker="o", markersize=3, label=user, color=colour)
        labels = [
            "completion time (Mcycles; dashed: fair share)",
            "waiting for work (Mcycles, all threads)",
            "tasks per thread (fewest to most)",
            "steals (all threads)",
        ]
        for row, label in enumerate(labels):
            ax = axes[row][column]
            ax.set_ylabel(label)
            ax.grid(True, alpha=0.3)
            ax.legend(title="tasks.policy")
        axes[0][column].set_title(f"scheduler.policy: {policy}")
        axes[3][column].set_xlabel(f"{LOAD} (non-synchronizing threads)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def load_summaries(sweep_dir: Path, run_ids) -> dict:
    """run_id -> the run's summary.json, for the runs of results.csv."""
    return {run_id: json.loads((sweep_dir / "runs" / run_id / "summary.json").read_text()) for run_id in run_ids}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.tasks", description=__doc__.splitlines()[0])
    parser.add_argument("sweep_dir", type=Path, help="a directory written by cosched sweep sweeps/tasks-under-load.yaml")
    parser.add_argument("--out", type=Path, help="where tasks.csv and tasks.png go (default DIR/tasks)")
    args = parser.parse_args(argv)
    out = args.out or args.sweep_dir / "tasks"
    out.mkdir(parents=True, exist_ok=True)
    results = load_results(args.sweep_dir)
    table = task_table(results, thread_frame(load_summaries(args.sweep_dir, results["run_id"])))
    table.to_csv(out / "tasks.csv", index=False)
    task_policies_figure(table).savefig(out / "tasks.png", dpi=120)
    print(f"{out / 'tasks.csv'}\n{out / 'tasks.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
