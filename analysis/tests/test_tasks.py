"""The task-policy study (analysis/tasks.py) on synthetic results: per-thread figures read from summaries,
the table's means over seeds, its fair share and its comparison with central-queue, and the figure's panels."""

import math

import pandas as pd
import pytest
from matplotlib.figure import Figure

from analysis import tasks


def synthetic():
    # rr only, 2 threads on 2 CPUs, loads 0 and 2, two seeds. central-queue completes in 100 (load 0) and
    # 210 then 230 (load 2, seeds 1 and 2); work-stealing in 80 and 176 (both seeds). Threads run 3 and 5
    # tasks (central-queue) or 4 and 4 (work-stealing).
    rows, summaries = [], {}
    for user, done0, done2, split in (
        ("central-queue", (100, 100), (210, 230), (3, 5)),
        ("work-stealing", (80, 80), (176, 176), (4, 4)),
    ):
        for seed in (1, 2):
            for load, done in ((0, done0[seed - 1]), (2, done2[seed - 1])):
                run_id = f"{user}-{load}-{seed}"
                rows.append(
                    {
                        "run_id": run_id,
                        "seed": seed,
                        tasks.POLICY: "rr",
                        tasks.USER_POLICY: user,
                        tasks.LOAD: load,
                        "schema_version": 1,
                        tasks.CPUS: 2,
                        "job.fib.completion_time": done,
                        "job.fib.user_level.waiting_for_work": 10 * load + seed,
                        "job.fib.user_level.steals": 0 if user == "central-queue" else 3,
                        "job.fib.user_level.dispatches": 12,
                        "job.fib.user_level.switch_cycles": 600,
                    }
                )
                summaries[run_id] = {
                    "user_level_threads": [
                        {"job": "fib", "copy": 0, "thread": t, "tasks": split[t], "dispatches": 6, "steals": 0,
                         "waiting_for_work": 5}
                        for t in (0, 1)
                    ]
                    + [{"job": "other", "copy": 0, "thread": 0, "tasks": 99, "dispatches": 0, "steals": 0,
                        "waiting_for_work": 0}]
                }
    return pd.DataFrame(rows), summaries


def test_thread_frame_keeps_the_jobs_threads_only():
    _, summaries = synthetic()
    frame = tasks.thread_frame(summaries)
    assert len(frame) == 2 * len(summaries)
    assert set(frame["tasks"]) == {3, 4, 5}
    with pytest.raises(ValueError, match="no user_level_threads of job 'absent'"):
        tasks.thread_frame(summaries, job="absent")


def test_table_means_fair_share_and_comparison_with_central_queue():
    results, summaries = synthetic()
    table = tasks.task_table(results, tasks.thread_frame(summaries))
    assert len(table) == 2 * 2

    def row(user, load):
        return table[(table[tasks.USER_POLICY] == user) & (table[tasks.LOAD] == load)].iloc[0]

    central = row("central-queue", 2)
    assert central["completion_mean"] == 220
    assert math.isclose(central["completion_std"], math.sqrt(200))  # sample std of 210 and 230
    # Fair share: the load-0 completion x (2 threads + 2) / 2 CPUs = 200; 220 is 10% above it.
    assert central["fair_share"] == 200
    assert math.isclose(central["vs_fair_percent"], 10.0)
    assert central["waiting_for_work"] == 21.5
    assert (central["tasks_min"], central["tasks_max"], central["threads"]) == (3, 5, 2)
    stealing = row("work-stealing", 2)
    assert math.isclose(stealing["vs_central_percent"], -20.0)  # 176 against 220
    assert stealing["steals"] == 3
    assert row("work-stealing", 0)["vs_fair_percent"] == 0.0


def test_table_refuses_results_of_another_sweep():
    results, summaries = synthetic()
    with pytest.raises(ValueError, match=tasks.USER_POLICY):
        tasks.task_table(results.drop(columns=[tasks.USER_POLICY]), tasks.thread_frame(summaries))


def test_figure_has_four_rows_per_policy_and_a_curve_per_user_policy():
    results, summaries = synthetic()
    fig = tasks.task_policies_figure(tasks.task_table(results, tasks.thread_frame(summaries)))
    assert isinstance(fig, Figure)
    assert len(fig.axes) == 4, "completion, waiting, tasks per thread, steals for the one kernel policy"
    top = fig.axes[0]
    assert "completion time (Mcycles" in top.get_ylabel()
    assert "workload.nosync" in fig.axes[3].get_xlabel()
    assert len(top.lines) == 4, "each user-level policy's completion and its dashed fair share"
    assert [t.get_text() for t in top.get_legend().get_texts()][:2] == ["central-queue", "work-stealing"]
    assert math.isclose(top.lines[0].get_ydata()[1], 220e-6), "central-queue's mean at load 2, Mcycles"
    assert math.isclose(top.lines[1].get_ydata()[1], 200e-6), "its fair share"
