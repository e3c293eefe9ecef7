"""The loop-schedule study (analysis/loops.py) on synthetic results: the table's aggregation over seeds and
its comparison with static, and the figure's panels, curves and labels."""

import math

import pandas as pd
from matplotlib.figure import Figure

from analysis import loops


def synthetic_results() -> pd.DataFrame:
    # Two policies, three schedules, loads 0 and 4, two seeds. Static: 100 then 150 (seed 1) and 110 then
    # 170 (seed 2); dynamic 5% above static's mean at load 0 and 10% below at load 4; guided equal to static.
    rows = []
    for policy in ("rr", "linux24"):
        for seed, (s0, s4) in ((1, (100, 150)), (2, (110, 170))):
            for schedule, factor0, factor4 in (("static", 1.0, 1.0), ("dynamic", 1.05, 0.9), ("guided", 1.0, 1.0)):
                for load, value, factor in ((0, s0, factor0), (4, s4, factor4)):
                    rows.append(
                        {
                            "run_id": f"{policy}-{schedule}-{load}-{seed}",
                            "seed": seed,
                            "schema_version": 1,
                            loops.POLICY: policy,
                            loops.SCHEDULE: schedule,
                            loops.LOAD: load,
                            "job.loop.completion_time": value * factor,
                            "job.loop.ssr": 50.0 + seed,
                        }
                    )
    return pd.DataFrame(rows)


def test_table_averages_over_seeds_and_compares_with_static():
    table = loops.loop_table(synthetic_results())
    assert len(table) == 2 * 3 * 2
    row = table[(table[loops.POLICY] == "rr") & (table[loops.SCHEDULE] == "static") & (table[loops.LOAD] == 4)].iloc[0]
    assert row["completion_mean"] == 160
    assert math.isclose(row["completion_std"], math.sqrt(200))  # sample std of 150 and 170
    assert row["ssr_mean"] == 51.5
    assert row["seeds"] == 2
    dynamic = table[(table[loops.POLICY] == "rr") & (table[loops.SCHEDULE] == "dynamic")].set_index(loops.LOAD)
    assert math.isclose(dynamic.loc[0, "vs_static_percent"], 5.0)
    assert math.isclose(dynamic.loc[4, "vs_static_percent"], -10.0)


def test_table_refuses_results_of_another_sweep():
    try:
        loops.loop_table(synthetic_results().drop(columns=[loops.SCHEDULE]))
    except ValueError as error:
        assert loops.SCHEDULE in str(error)
    else:
        raise AssertionError("expected a ValueError naming the missing column")


def test_figure_has_a_column_per_policy_and_a_curve_per_schedule():
    fig = loops.loop_schedules_figure(loops.loop_table(synthetic_results()))
    assert isinstance(fig, Figure)
    assert len(fig.axes) == 4, "completion and SSR for each of the two policies"
    top, bottom = fig.axes[0], fig.axes[2]
    assert "completion time (Mcycles)" in top.get_ylabel()
    assert "SSR (%)" in bottom.get_ylabel() and "workload.nosync" in bottom.get_xlabel()
    assert len(top.lines) == 3 and len(top.collections) == 3, "three schedules, each with its band"
    assert [t.get_text() for t in top.get_legend().get_texts()] == ["static", "dynamic", "guided"]
    assert math.isclose(top.lines[0].get_ydata()[1], 160e-6), "static's mean at load 4, in million cycles"
