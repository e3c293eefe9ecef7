"""Each figure function draws the table it is given, with labelled axes (units) and a legend."""

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.container import BarContainer
from matplotlib.figure import Figure

from analysis import figures, tables
from analysis.contract import axis_columns, load_results
from analysis.roles import find_roles


def check_axes(fig, x_part, y_part, bars=None):
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert x_part in ax.get_xlabel() and y_part in ax.get_ylabel()
    assert ax.get_legend() is not None and (ax.get_title() or fig.get_suptitle())
    if bars is not None:
        assert len(ax.patches) == bars


def test_curve_figures_draw_one_line_per_curve_and_a_band_with_several_seeds(fixtures):
    results = load_results(fixtures / "smp_load")
    roles = find_roles(results)
    _, classes = tables.job_and_class_tables(results, roles)
    ssr = figures.ssr_vs_load_figure(tables.ssr_vs_load(classes, roles), roles.load)
    check_axes(ssr, "workload.nosync", "SSR (%)")
    assert len(ssr.axes[0].lines) == 2 + 1, "two curves and the 50% line"
    assert len(ssr.axes[0].collections) == 2, "one std band per curve"
    speedup = figures.speedup_vs_load_figure(tables.speedup_vs_load(classes, roles, axis_columns(results)), roles.load)
    check_axes(speedup, "workload.nosync", "(%)")


def test_bar_figures_have_one_bar_per_value(fixtures):
    results = load_results(fixtures / "now_keep_alive")
    roles = find_roles(results)
    fig = figures.speedup_bars_figure(tables.speedup_bars(results, roles, axis_columns(results)))
    check_axes(fig, "scheduler / job length", "speedup in total execution time (%)", bars=8)
    results = load_results(fixtures / "now_waiting")
    roles = find_roles(results)
    breakdown = tables.state_breakdown(tables.job_and_class_tables(results, roles)[0], roles)
    check_axes(figures.state_breakdown_figure(breakdown), "scheduler", "share of job time (%)", bars=4 * 5)


def slowdown_table() -> pd.DataFrame:
    """Two schedulers against gang under two waiting algorithms: spin's slowdown is 100 times pairwise's."""
    rows = [("wait=pairwise", "ts", 1.1, 1.0, 1.2), ("wait=pairwise", "eevdf", 1.6, 1.5, 1.7),
            ("wait=spin", "ts", 0.99, 0.98, 1.0), ("wait=spin", "eevdf", 84.0, 80.0, 88.0)]
    return pd.DataFrame([{"setting": setting, "comparison": f"{x} vs gang", "variant": x, "baseline": "gang",
                          "slowdown_mean": mean, "slowdown_std": 0.1, "slowdown_min": low, "slowdown_max": high,
                          "seeds": 3} for setting, x, mean, low, high in rows])


def test_slowdown_bars_are_drawn_at_the_mean_with_the_range_as_error_bar():
    fig = figures.slowdown_bars_figure(slowdown_table())
    check_axes(fig, "setting", "slowdown T(X) / T(gang)", bars=4)
    ax = fig.axes[0]
    # One other axis: its values on the ticks, its name in the axis title.
    assert [t.get_text() for t in ax.get_xticklabels()] == ["pairwise", "spin"]
    assert ax.get_xlabel() == "setting: wait"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ts", "eevdf"]
    ts, eevdf = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [bar.get_height() for bar in ts] == pytest.approx([1.1, 0.99])
    assert [bar.get_height() for bar in eevdf] == pytest.approx([1.6, 84.0])
    # The error bars run from the least slowdown over the seeds to the largest, not mean +- std.
    ends = [sorted(y for _, y in segment) for segment in eevdf.errorbar.lines[2][0].get_segments()]
    assert ends == [pytest.approx([1.5, 1.7]), pytest.approx([80.0, 88.0])]
    assert ax.get_yscale() == "log", "0.98 to 88: more than a factor of 20"
    assert "mean over 3 seeds" in ax.get_title()


def test_slowdown_bars_stay_linear_over_a_small_range_and_name_each_baseline():
    table = slowdown_table()
    table = table[table["setting"] == "wait=pairwise"].copy()
    table.loc[table["variant"] == "ts", ["comparison", "baseline"]] = ["ts vs stride", "stride"]
    fig = figures.slowdown_bars_figure(table)
    ax = fig.axes[0]
    assert ax.get_yscale() == "linear"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["ts vs stride", "eevdf vs gang"]
    assert ax.get_ylabel() == "slowdown T(X) / T(baseline)"


def test_timeline_figure_labels_each_thread(fixtures):
    timeline = pd.read_csv(fixtures / "smp_load" / "runs" / "5eed000000000001" / "timeline.csv")
    fig = figures.state_timeline_figure(tables.thread_state_lanes(timeline), "cycles", "run")
    check_axes(fig, "simulated time (cycles)", "thread")
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["fine#0/0", "fine#0/1"]


def test_curve_figures_have_one_panel_per_panel_value_and_name_the_load():
    # Two panels (spin CS and 2CS+), two curves each (wakeup smart and silly), two loads.
    table = pd.DataFrame(
        {
            "panel": ["spin=CS"] * 4 + ["spin=2CS+"] * 4,
            "group": ["wakeup=smart", "wakeup=smart", "wakeup=silly", "wakeup=silly"] * 2,
            "job_class": "J",
            "workload.nosync": [30, 40] * 4,
            "ssr_mean": [50.0, 40, 30, 20, 90, 95, 85, 80],
            "ssr_std": float("nan"),
            "seeds": 1,
        }
    )
    fig = figures.ssr_vs_load_figure(table, "workload.nosync")
    panels = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["spin=CS", "spin=2CS+"]
    assert [len(ax.lines) for ax in panels] == [2 + 1, 2 + 1], "two curves and the 50% line in each panel"
    assert list(panels[1].lines[0].get_ydata()) == [90.0, 95.0]
    assert panels[0].get_xlabel() == "non-synchronizing threads (workload.nosync)"
    assert figures.load_label("workload.jobs.0.copies") == "jobs (copies of the profile) (workload.jobs.0.copies)"
    assert figures.load_label("seed") == "load: seed (count)"
    # A series run's x value is the total of its jobs' threads, not a job's size.
    assert figures.load_label("series.threads") == "threads of all jobs in the run (series.threads)"
    assert figures.load_label("workload.jobs.0.threads") == "threads per job (workload.jobs.0.threads)"


def test_timeline_figure_names_now_lanes_processes(fixtures):
    timeline = pd.read_csv(fixtures / "smp_load" / "runs" / "5eed000000000001" / "timeline.csv")
    fig = figures.state_timeline_figure(tables.thread_state_lanes(timeline), "s", "wait=block", "process")
    assert fig.axes[0].get_ylabel() == "process (job#copy/rank)"


def breakdown_table(bars: int) -> pd.DataFrame:
    """A job-state breakdown of `bars` bars with labels as long as a sweep's (`scheduler / job length`)."""
    rows = []
    for b in range(bars):
        for state, percent in [("compute", 40.0), ("communicate", 30.0), ("synchronize", 10.0), ("idle", 15.0),
                               ("switch", 5.0)]:
            rows.append({"scheduler": f"stride-credit-{b}", "job_length": f"medium-{b}", "group": "all",
                         "variant": "pairwise", "state": state, "percent_mean": percent, "percent_std": 1.0,
                         "seeds": 2})
    return pd.DataFrame(rows)


def speedup_table(bars: int) -> pd.DataFrame:
    return pd.DataFrame({"scheduler": [f"stride-credit-{b}" for b in range(bars)],
                         "job_length": [f"medium-{b}" for b in range(bars)], "group": "all",
                         "comparison": "pairwise vs block", "speedup_mean": 10.0, "speedup_std": 1.0, "seeds": 2})


def slowdown_bars_table(bars: int) -> pd.DataFrame:
    return pd.DataFrame({"setting": [f"wait=spin-fixed, spin: 300us, barriers={b}" for b in range(bars)],
                         "comparison": "eevdf vs gang", "variant": "eevdf", "baseline": "gang", "slowdown_mean": 1.5,
                         "slowdown_std": 0.1, "slowdown_min": 1.4, "slowdown_max": 1.6, "seeds": 3})


def surplus_table(bars: int) -> pd.DataFrame:
    return pd.DataFrame({"job_class": [f"coarse-grained-{b}" for b in range(bars)], "group": "all",
                         "surplus_mean": 4.0, "surplus_std": 1.0, "seeds": 2})


@pytest.mark.parametrize("bars", [4, 20])
@pytest.mark.parametrize("draw, table", [(figures.state_breakdown_figure, breakdown_table),
                                         (figures.speedup_bars_figure, speedup_table),
                                         (figures.slowdown_bars_figure, lambda bars: slowdown_bars_table(bars)),
                                         (figures.thread_surplus_figure, surplus_table)])
def test_bar_labels_never_overlap(bars, draw, table):
    # The labels are drawn and their boxes on the canvas compared: legible at 4 bars and at 20.
    fig = draw(table(bars))
    fig.canvas.draw()
    ax = fig.axes[0]
    assert len([t for t in ax.get_xticklabels() if t.get_text()]) == bars
    assert not figures._overlapping(ax)


def test_overlapping_labels_are_detected():
    # The check above can fail: 20 long labels laid flat on a narrow figure overlap.
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_xticks(range(20), [f"a long label {i}" for i in range(20)])
    fig.canvas.draw()
    assert figures._overlapping(ax)
