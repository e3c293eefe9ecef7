"""Long curve labels (several zipped scheduler axes: `scheduler.wakeup=smart, scheduler.params=linux22,
resolved.scheduler.policy=linux24`) are wrapped and their legend goes below the panel, so that the plot
keeps its width and the legend stays inside the figure."""

import pandas as pd

from analysis import figures

LONG = [
    "J, scheduler.wakeup=smart, scheduler.params=linux22, resolved.scheduler.policy=linux24",
    "J, scheduler.wakeup=~, scheduler.params=~, resolved.scheduler.policy=eevdf",
]


def test_a_long_label_is_wrapped_after_its_commas():
    assert figures._wrapped(LONG[0]) == (
        "J, scheduler.wakeup=smart,\nscheduler.params=linux22,\nresolved.scheduler.policy=linux24"
    )
    assert figures._wrapped("J, wakeup=smart") == "J, wakeup=smart"
    # a part longer than the width keeps its own line
    assert figures._wrapped("J, " + "x" * 50 + ", y") == "J,\n" + "x" * 50 + ",\ny"


def _table(groups: list[str]) -> pd.DataFrame:
    rows = []
    for panel in ("spin=CS", "spin=2CS+"):
        for group in groups:
            for load in (0, 100, 200):
                rows.append({"panel": panel, "job_class": "J", "group": group, "workload.nosync": load,
                             "ssr_mean": 50.0 + load / 10, "ssr_std": float("nan"), "seeds": 1})
    return pd.DataFrame(rows)


def test_long_labels_leave_the_panels_their_width_and_the_legend_inside_the_figure():
    groups = [label.removeprefix("J, ") for label in LONG]
    fig = figures.ssr_vs_load_figure(_table(groups), "workload.nosync")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    figure_box = fig.bbox
    for ax in fig.axes:
        legend = ax.get_legend()
        assert [t.get_text() for t in legend.get_texts()] == [figures._wrapped(label) for label in LONG]
        box = legend.get_window_extent(renderer)
        assert box.y1 <= ax.get_window_extent(renderer).y0, "the legend is below the plot"
        assert box.y0 >= figure_box.y0 and box.x0 >= figure_box.x0 and box.x1 <= figure_box.x1, (
            "the legend is inside the figure")
        assert ax.get_window_extent(renderer).width > 0.35 * figure_box.width, "each of two panels keeps its width"
    assert fig.get_figheight() > 5.0, "the figure grew to hold the legend below its panels"


def test_short_labels_keep_their_legend_inside_each_panel():
    fig = figures.ssr_vs_load_figure(_table(["wakeup=smart", "wakeup=aip"]), "workload.nosync")
    assert fig.get_figheight() == 5.0, "a row of panels is 1.5 + 3.5 inches high, as before"
    for ax in fig.axes:
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["J, wakeup=smart", "J, wakeup=aip"]
