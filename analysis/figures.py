"""One function per figure: each takes the table computed in tables.py (the CSV written beside the
PNG) and returns a matplotlib Figure. Mean +- one standard deviation across seeds is drawn as a band
(curves) or an error bar (bars) when there are several seeds."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the Agg backend)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from .tables import SSR_THRESHOLD_PERCENT  # noqa: E402

STATE_COLOURS = {
    # smp (thesis figure 2.1 states)
    "computing": "tab:green",
    "spinning": "tab:orange",
    "blocked": "tab:blue",
    "ready": "tab:red",
    "switching": "tab:gray",
    "wait4cs": "tab:pink",
    "finished": "whitesmoke",
    # now (B&M figure 4 states, idle split by reason)
    "compute": "tab:green",
    "communicate": "tab:purple",
    "synchronize": "tab:orange",
    "idle": "tab:blue",
    "blocked_read": "tab:cyan",
    "blocked_barrier": "tab:blue",
    "switch": "tab:gray",
    # numa: the execution-time breakdown (Nobukuni table 5.4) and the threads' timeline
    "effective": "tab:green",
    "sync": "tab:orange",
    "comm": "tab:purple",
    "running": "tab:green",
    "waiting": "tab:orange",
}


LINE_STYLES = [
    {"linestyle": "-", "marker": ".", "linewidth": 1.5},
    {"linestyle": "--", "marker": "x", "linewidth": 1.5, "markersize": 4},
    {"linestyle": ":", "marker": "+", "linewidth": 2.0},
    {"linestyle": "-.", "marker": "1", "linewidth": 1.5},
]


def _label(table: pd.DataFrame, columns: list[str]) -> pd.Series:
    """`a / b` from the columns' values, leaving out the placeholder `all` (a role not in the sweep)."""
    return table[columns].astype(str).apply(lambda row: " / ".join(v for v in row if v != "all") or "all", axis=1)


def _label_title(table: pd.DataFrame, columns: list[str], names: list[str]) -> str:
    """The x-axis title naming the parts `_label` kept: `scheduler / job length` without absent roles."""
    kept = [name for column, name in zip(columns, names) if (table[column].astype(str) != "all").any()]
    return " / ".join(kept) or names[0]


def _overlapping(ax) -> bool:
    """Whether two of the axes' x tick labels overlap, as drawn (their boxes on the canvas)."""
    renderer = ax.figure.canvas.get_renderer()
    boxes = sorted((t.get_window_extent(renderer) for t in ax.get_xticklabels() if t.get_text()), key=lambda b: b.x0)
    return any(a.x1 > b.x0 for a, b in zip(boxes, boxes[1:]))


def fit_x_labels(fig: Figure) -> None:
    """Turns each panel's x tick labels only as far as they need to stop overlapping: flat, then 30
    degrees, then upright. Call it once the figure is complete (titles and legends take room too)."""
    crowded = list(fig.axes)
    for rotation in (0, 30, 90):
        for ax in crowded:
            plt.setp(ax.get_xticklabels(), rotation=rotation, ha="right" if rotation else "center",
                     rotation_mode="anchor" if rotation else "default")
        fig.canvas.draw()  # lays the figure out, so that the labels' boxes are where they will be
        crowded = [ax for ax in crowded if _overlapping(ax)]
        if not crowded:
            break


def _curves(ax, table: pd.DataFrame, x: str, y: str, label_columns: list[str]) -> None:
    """One line per label, with a mean +- std band where the std is known (several seeds)."""
    for index, (label, curve) in enumerate(table.groupby(label_columns, sort=False)):
        label = ", ".join(str(part) for part in (label if isinstance(label, tuple) else (label,)) if part != "all")
        curve = curve.sort_values(x)
        # Line styles and markers vary too, so that curves that coincide (AIP and SILLY above 32
        # threads, thesis 7.7.1) stay visible one over the other.
        style = LINE_STYLES[index % len(LINE_STYLES)]
        (line,) = ax.plot(curve[x], curve[f"{y}_mean"], label=label, **style)
        spread = curve[f"{y}_std"]
        if spread.notna().any():
            ax.fill_between(
                curve[x],
                curve[f"{y}_mean"] - spread.fillna(0),
                curve[f"{y}_mean"] + spread.fillna(0),
                color=line.get_color(),
                alpha=0.2,
                linewidth=0,
            )


def _seed_note(table: pd.DataFrame) -> str:
    seeds = table["seeds"]
    if seeds.max() <= 1:
        return "one seed per point"
    return f"mean ± std over {seeds.min()}–{seeds.max()} seeds" if seeds.min() != seeds.max() else f"mean ± std over {seeds.max()} seeds"


LOAD_NAMES = {
    # what the thesis's x axes count, by the last part of the load axis's path
    "nosync": "non-synchronizing threads",
    "copies": "jobs (copies of the profile)",
    "threads": "threads per job",
}


# Whole paths whose meaning differs from their last part's.
LOAD_PATH_NAMES = {
    "series.threads": "threads of all jobs in the run",  # a series prefix's total (thesis 5.1.5's x value)
}


def load_label(load_axis: str) -> str:
    """The x-axis title of a curve figure: what the load counts, and the axis's path."""
    name = LOAD_PATH_NAMES.get(load_axis) or LOAD_NAMES.get(load_axis.rsplit(".", 1)[-1])
    return f"{name} ({load_axis})" if name else f"load: {load_axis} (count)"


def _panels(table: pd.DataFrame, title: str) -> tuple[Figure, list, list[str]]:
    """One subplot per value of the table's `panel` column (one when it has none or only `all`),
    side by side, sharing the y axis."""
    names = list(dict.fromkeys(table["panel"])) if "panel" in table.columns else ["all"]
    columns = min(len(names), 3)
    rows = -(-len(names) // columns)
    fig, axes = plt.subplots(
        rows, columns, figsize=(6 + 4 * columns, 1.5 + 3.5 * rows), layout="constrained", sharey=True, squeeze=False
    )
    axes = list(axes.flat)
    for ax in axes[len(names):]:
        ax.set_visible(False)
    fig.suptitle(title)
    return fig, axes[: len(names)], names


def _panel_part(table: pd.DataFrame, name: str) -> pd.DataFrame:
    return table[table["panel"] == name] if "panel" in table.columns else table


# A curve label longer than this many characters is wrapped (at its ", ") and its panel's legend goes below
# the plot: inside or beside the panel, a legend wider than the plot shrinks it to a sliver (constrained
# layout makes room for the legend), as the labels of several zipped scheduler axes do.
LEGEND_LABEL_WIDTH = 40


def _wrapped(label: str, width: int = LEGEND_LABEL_WIDTH) -> str:
    """`label` on lines of at most `width` characters, broken after its ", " (a longer part keeps its line)."""
    lines: list[str] = []
    for part in label.split(", "):
        if lines and len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += ", " + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return "\n".join(lines)


def _room_below(fig: Figure, labels: list[str], columns: int) -> None:
    """Makes the figure taller by what a legend of `labels` in `columns` columns below a row of panels
    needs (matplotlib fills a legend's columns one after the other; about 0.2 inch a line of small text
    and 0.1 between entries, and its title), so that the panels keep their height; several legends in one
    row of panels take the room once."""
    per_column = -(-len(labels) // columns)
    heights = [sum(0.2 * (label.count("\n") + 1) + 0.1 for label in labels[i:i + per_column])
               for i in range(0, len(labels), per_column)]
    base = getattr(fig, "_height_before_legends", fig.get_figheight())
    fig._height_before_legends = base
    fig.set_figheight(max(fig.get_figheight(), base + 1.2 + max(heights)))


def _legend(ax, panels: int, title: str) -> None:
    """Beside a single panel, where it hides no point; inside each panel when there are several; below the
    panel, with wrapped labels, when a label is longer than LEGEND_LABEL_WIDTH."""
    handles, labels = ax.get_legend_handles_labels()
    if any(len(label) > LEGEND_LABEL_WIDTH for label in labels):
        wrapped = [_wrapped(label) for label in labels]
        columns = 2 if len(wrapped) > 2 and panels <= 2 else 1  # three panels a row leave room for one
        ax.legend(handles, wrapped, title=title, fontsize="small", loc="upper center",
                  bbox_to_anchor=(0.5, -0.12), ncols=columns)
        _room_below(ax.figure, wrapped, columns)
        return
    if panels == 1:
        ax.legend(title=title, fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    else:
        ax.legend(title=title, fontsize="small", loc="best")


def ssr_vs_load_figure(table: pd.DataFrame, load_axis: str) -> Figure:
    """SSR (%) against load, one curve per job class and group, one panel per value of `panel`
    (thesis figures 3.x, 4.1, 7.x, 8.1)."""
    fig, axes, names = _panels(table, f"SSR against load per job class ({_seed_note(table)})")
    for ax, name in zip(axes, names):
        _curves(ax, _panel_part(table, name), load_axis, "ssr", ["job_class", "group"])
        ax.axhline(SSR_THRESHOLD_PERCENT, color="black", linewidth=0.6, linestyle=":")
        ax.set_xlabel(load_label(load_axis))
        ax.set_ylabel("successful-spin rate, SSR (%)")
        ax.set_ylim(-2, 102)
        if name != "all":
            ax.set_title(name)
        _legend(ax, len(names), "job class, group")
    return fig


def speedup_vs_load_figure(table: pd.DataFrame, load_axis: str) -> Figure:
    """Speedup (relative improvement, %) of X over Y for each comparison `X vs Y` against load, per
    job class, one panel per value of `panel` (thesis 7.7.2; figures 7.9-7.12, 8.4-8.9)."""
    fig, axes, names = _panels(table, f"Completion-time speedup against load ({_seed_note(table)})")
    for ax, name in zip(axes, names):
        _curves(ax, _panel_part(table, name), load_axis, "speedup", ["comparison", "job_class", "group"])
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xlabel(load_label(load_axis))
        ax.set_ylabel("speedup of X vs Y: (T(Y) − T(X)) / T(Y) (%)")
        if name != "all":
            ax.set_title(name)
        _legend(ax, len(names), "X vs Y, job class, group")
    return fig


def _grouped_bars(ax, table: pd.DataFrame, categories: list[str], series: str, y: str) -> None:
    """Bars of `y` with categories on the x axis and one bar per `series` value in each."""
    table = table.copy()
    table["category"] = _label(table, categories)
    names = list(dict.fromkeys(table["category"]))
    series_values = list(dict.fromkeys(table[series]))
    width = 0.8 / len(series_values)
    for index, value in enumerate(series_values):
        part = table[table[series] == value].set_index("category").reindex(names)
        positions = np.arange(len(names)) + (index - (len(series_values) - 1) / 2) * width
        errors = part[f"{y}_std"] if part[f"{y}_std"].notna().any() else None
        ax.bar(positions, part[f"{y}_mean"], width, yerr=errors, capsize=3, label=str(value))
    ax.set_xticks(np.arange(len(names)), names)


def thread_surplus_figure(table: pd.DataFrame) -> Figure:
    """Largest thread surplus over the CPU count with SSR > 50%, per job class (thesis 4.6, 8.2)."""
    fig, ax = plt.subplots(figsize=(10, 5), layout="constrained")
    _grouped_bars(ax, table, ["job_class"], "group", "surplus")
    ax.set_xlabel("job class")
    ax.set_ylabel("thread surplus with SSR > 50% (threads above CPU count)")
    top = pd.to_numeric(table["surplus_mean"] + table["surplus_std"].fillna(0)).max()
    ax.set_ylim(0, max(1.0, 1.1 * top) if pd.notna(top) else 1.0)  # a surplus is never negative
    ax.set_title(f"Thread surplus ({_seed_note(table)})")
    _legend(ax, 1, "group")
    fit_x_labels(fig)
    return fig


def speedup_bars_figure(table: pd.DataFrame) -> Figure:
    """Speedup (%) of each variant over the baseline per scheduler and job length (B&M figure 3)."""
    fig, ax = plt.subplots(figsize=(9, 5), layout="constrained")
    _grouped_bars(ax, table, ["scheduler", "job_length", "group"], "comparison", "speedup")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.set_xlabel(_label_title(table, ["scheduler", "job_length", "group"], ["scheduler", "job length", "other axes"]))
    ax.set_ylabel("speedup in total execution time (%)")
    ax.set_title(f"Speedup over the baseline ({_seed_note(table)})")
    ax.legend(title="X vs baseline", fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    fit_x_labels(fig)
    return fig


# Above this ratio of the largest slowdown to the smallest, slowdown_bars_figure's y axis is logarithmic:
# spinning under a time-sharing scheduler can be 200 times gang's makespan where pairwise is 1.1 times.
SLOWDOWN_LOG_RATIO = 20.0


def slowdown_bars_figure(table: pd.DataFrame) -> Figure:
    """Slowdown T(X) / T(Y) of each variant value X against its baseline Y, per setting of the other
    varying axes (B&M's slowdowns against gang scheduling; Table 1's against pairwise): a group of bars per
    setting, a bar per comparison at the mean over seeds, its error bar the range over seeds (least to
    largest); the y axis logarithmic when the slowdowns span more than SLOWDOWN_LOG_RATIO."""
    settings = list(dict.fromkeys(table["setting"]))
    # Room for each group of bars and its label (`wait=variance-with-proc-count`), and for the legend.
    fig, ax = plt.subplots(figsize=(max(10.0, 5 + 1.5 * len(settings)), 5.5), layout="constrained")
    comparisons = list(dict.fromkeys(table["comparison"]))
    baselines = list(dict.fromkeys(table["baseline"]))
    width = 0.8 / max(len(comparisons), 1)
    for index, comparison in enumerate(comparisons):
        part = table[table["comparison"] == comparison].set_index("setting").reindex(settings)
        positions = np.arange(len(settings)) + (index - (len(comparisons) - 1) / 2) * width
        mean = part["slowdown_mean"].to_numpy(dtype=float)
        errors = None
        if (part["seeds"] > 1).any():
            # Lists, not a 2 x N array: matplotlib reads a 2 x 1 array's first row as a scalar (a
            # deprecated conversion) when there is one setting.
            errors = [list(mean - part["slowdown_min"].to_numpy(dtype=float)),
                      list(part["slowdown_max"].to_numpy(dtype=float) - mean)]
        first = part.dropna(subset=["variant"]).iloc[0]
        label = first["variant"] if len(baselines) == 1 else f"{first['variant']} vs {first['baseline']}"
        ax.bar(positions, mean, width, yerr=errors, capsize=2, label=label,
               hatch="//" if index >= 10 else None)  # the colour cycle repeats after ten
    ax.axhline(1, color="black", linewidth=0.6)
    # One other axis (`wait=pairwise`, `wait=block`): its name goes to the axis title, its values to the ticks.
    names = {setting.split("=", 1)[0] for setting in settings}
    single = len(names) == 1 and all(setting.count("=") == 1 for setting in settings)
    ax.set_xticks(np.arange(len(settings)), [s.split("=", 1)[1] for s in settings] if single else settings)
    low, high = table["slowdown_min"].min(), table["slowdown_max"].max()
    if pd.notna(low) and low > 0 and high / low > SLOWDOWN_LOG_RATIO:
        ax.set_yscale("log")
    ax.set_xlabel(f"setting: {names.pop()}" if single else "setting (the other varying axes)")
    against = baselines[0] if len(baselines) == 1 else "baseline"
    ax.set_ylabel(f"slowdown T(X) / T({against})" if len(against) <= 12 else "slowdown T(X) / T(baseline)")
    seeds = table["seeds"]
    spread = f"mean over {seeds.max()} seeds, error bars least to largest" if seeds.max() > 1 else "one seed"
    if seeds.min() != seeds.max():
        spread = f"mean over {seeds.min()}–{seeds.max()} seeds, error bars least to largest"
    ax.set_title(f"Slowdown against {'the baseline' if against == 'baseline' else against} ({spread})")
    ax.legend(title="X" if len(baselines) == 1 else "X vs Y", fontsize="small", loc="upper left",
              bbox_to_anchor=(1, 1))
    fit_x_labels(fig)
    return fig


def state_breakdown_figure(table: pd.DataFrame) -> Figure:
    """Stacked share of time per job state, per scheduler, job length and variant (B&M figure 4);
    each segment's error bar is that state's std across seeds."""
    fig, ax = plt.subplots(figsize=(9, 5), layout="constrained")
    table = table.copy()
    table["bar"] = _label(table, ["scheduler", "job_length", "group", "variant"])
    bars = list(dict.fromkeys(table["bar"]))
    bottom = np.zeros(len(bars))
    for state in dict.fromkeys(table["state"]):
        part = table[table["state"] == state].set_index("bar").reindex(bars)
        heights = part["percent_mean"].fillna(0).to_numpy()
        ax.bar(bars, heights, bottom=bottom, label=state, color=STATE_COLOURS.get(state))
        spread = part["percent_std"].fillna(0).to_numpy()
        shown = spread > 0  # no cap drawn for a state that does not vary across seeds
        if shown.any():
            positions = np.arange(len(bars))[shown]
            ax.errorbar(positions, (bottom + heights)[shown], yerr=spread[shown], fmt="none", ecolor="black", capsize=2, linewidth=0.8)
        bottom += heights
    ax.set_xlabel(
        _label_title(
            table, ["scheduler", "job_length", "group", "variant"], ["scheduler", "job length", "other axes", "variant"]
        )
    )
    ax.set_ylabel("share of job time (%)")
    ax.set_ylim(0, 105)
    ax.set_title(f"Job-state breakdown ({_seed_note(table)})")
    ax.legend(title="state", fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    fit_x_labels(fig)
    return fig


def state_timeline_figure(lanes: pd.DataFrame, time_unit: str, title: str, lane_kind: str = "thread") -> Figure:
    """Per-thread (smp) or per-process (now, `lane_kind`) state timeline: one lane each, coloured by
    state (thesis figures 4.2 and 7.3 show the same data counted per state)."""
    threads = lanes.drop_duplicates("lane").sort_values("lane")
    fig, ax = plt.subplots(figsize=(10, max(3, 0.25 * len(threads) + 1.5)), layout="constrained")
    for (lane, state), part in lanes.groupby(["lane", "state"], sort=False):
        ax.broken_barh(
            list(zip(part["start"], part["duration"])),
            (lane - 0.4, 0.8),
            facecolors=STATE_COLOURS.get(state, "black"),
            edgecolor="none",
        )
    ax.set_yticks(threads["lane"], threads["thread"], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel(f"simulated time ({time_unit})")
    ax.set_ylabel(f"{lane_kind} (job#copy/rank)")
    ax.set_title(title)
    states = list(dict.fromkeys(lanes["state"]))
    ax.legend(
        handles=[Patch(color=STATE_COLOURS.get(s, "black"), label=s) for s in states],
        title="state",
        fontsize="small",
        loc="upper left",
        bbox_to_anchor=(1, 1),
    )
    return fig


# Nobukuni figures 5.1-5.4: a colour per rate, strategy0's bars light and plain, strategy1's (and any
# further strategy's) full and hatched, so that the six bars of a group read left to right as the
# thesis orders them (chapter 5 paragraph 3: "Three left bars of a group are the results of Strategy0").
RATE_COLOURS = {"net": "tab:blue", "calibrated": "tab:orange", "maximum": "tab:green"}
STRATEGY_LOOKS = [{"alpha": 0.55, "hatch": ""}, {"alpha": 1.0, "hatch": "//"}, {"alpha": 1.0, "hatch": ".."}]


def _network_panels(table: pd.DataFrame, title: str) -> tuple[Figure, list, list[str]]:
    """One panel per network, stacked (Nobukuni chapter 5 paragraph 2: "Graphs on the upper rows are
    results of w488 system, and on the lower are of w4444 system"), in the runs' order."""
    networks = list(dict.fromkeys(table["network"]))
    fig, axes = plt.subplots(
        len(networks), 1, figsize=(11, 1.2 + 3.4 * len(networks)), layout="constrained", sharey=True, squeeze=False
    )
    fig.suptitle(title)
    return fig, list(axes[:, 0]), networks


def numa_rates_figure(table: pd.DataFrame, title: str, series: str = "strategy") -> Figure:
    """Nobukuni figures 5.1-5.4 for one process set: a panel per network, a group per allocation policy,
    in each group the net, calibrated and maximum effective execution rates (percent of T') of each
    replacement strategy, strategy by strategy (the thesis does not say which bar is which rate: the
    legend does). Error bars: one standard deviation over seeds, when there are several. `series` names
    the column whose values take the strategies' place (`consistency`: sequential against release)."""
    fig, axes, networks = _network_panels(table, f"{title} ({_seed_note(table)})")
    policies = list(dict.fromkeys(table["policy"]))
    strategies = list(dict.fromkeys(table[series]))
    rates = list(dict.fromkeys(table["rate"]))
    bars = [(strategy, rate) for strategy in strategies for rate in rates]
    width = 0.84 / len(bars)
    for ax, network in zip(axes, networks):
        part = table[table["network"] == network]
        for index, (strategy, rate) in enumerate(bars):
            values = part[(part[series] == strategy) & (part["rate"] == rate)].set_index("policy").reindex(policies)
            positions = np.arange(len(policies)) + (index - (len(bars) - 1) / 2) * width
            errors = values["percent_std"] if values["percent_std"].notna().any() else None
            look = STRATEGY_LOOKS[min(strategies.index(strategy), len(STRATEGY_LOOKS) - 1)]
            ax.bar(positions, values["percent_mean"].fillna(0), width, yerr=errors, capsize=2,
                   color=RATE_COLOURS.get(rate), alpha=look["alpha"], hatch=look["hatch"],
                   edgecolor="black", linewidth=0.4, label=f"{strategy} {rate}")
        ax.set_xticks(np.arange(len(policies)), policies)
        ax.set_xlabel("allocation policy")
        ax.set_ylabel("effective execution rate (% of T′)")
        ax.set_ylim(0, 100)
        ax.set_title(f"network {network}")
    axes[0].legend(title=f"{series}, rate", fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    fit_x_labels(fig)
    return fig


def numa_breakdown_figure(table: pd.DataFrame, title: str) -> Figure:
    """The execution-time breakdown of one process set (Nobukuni table 5.4's quantities): a panel per
    network, a group per allocation policy with a bar per replacement strategy, each bar the shares of
    T' effective, in synchronization, in communication and idle (adding up to 100%). Disk time is not
    part of T' (table 5.4's footnote): its share of T' is written above each bar."""
    fig, axes, networks = _network_panels(table, f"{title} ({_seed_note(table)})")
    policies = list(dict.fromkeys(table["policy"]))
    strategies = list(dict.fromkeys(table["strategy"]))
    states = [s for s in dict.fromkeys(table["state"]) if s != "disk"]
    width = 0.8 / len(strategies)
    for ax, network in zip(axes, networks):
        part = table[table["network"] == network]
        for index, strategy in enumerate(strategies):
            mine = part[part["strategy"] == strategy]
            positions = np.arange(len(policies)) + (index - (len(strategies) - 1) / 2) * width
            look = STRATEGY_LOOKS[min(index, len(STRATEGY_LOOKS) - 1)]
            bottom = np.zeros(len(policies))
            for state in states:
                heights = mine[mine["state"] == state].set_index("policy").reindex(policies)["percent_mean"].fillna(0)
                ax.bar(positions, heights, 0.92 * width, bottom=bottom, color=STATE_COLOURS.get(state), hatch=look["hatch"],
                       edgecolor="black", linewidth=0.4)
                bottom += heights.to_numpy()
            disk = mine[mine["state"] == "disk"].set_index("policy").reindex(policies)["percent_mean"]
            for x, top, value in zip(positions, bottom, disk):
                if pd.notna(value):
                    ax.text(x, top + 1, f"disk {value:.1f}%", ha="center", va="bottom", rotation=90, fontsize="x-small")
        ax.set_xticks(np.arange(len(policies)), policies)
        ax.set_xlabel("allocation policy")
        ax.set_ylabel("share of T′ (%)")
        ax.set_ylim(0, 125)
        ax.set_title(f"network {network}")
    handles = [Patch(color=STATE_COLOURS.get(s, "black"), label=s) for s in states]
    handles += [Patch(facecolor="white", edgecolor="black", hatch=STRATEGY_LOOKS[min(i, len(STRATEGY_LOOKS) - 1)]["hatch"],
                      label=f"bar {i + 1} of a group: {s}") for i, s in enumerate(strategies)]
    axes[0].legend(handles=handles, title="state (disk apart: not in T′)", fontsize="small", loc="upper left",
                   bbox_to_anchor=(1, 1))
    fit_x_labels(fig)
    return fig


WRITE_SHARE_AXIS = "workload.shared_table.write"  # the x axis of the write-share figures (analysis/numa.py)


def _write_share_figure(table: pd.DataFrame, title: str, key: str, shown: list[str], colours: dict[str, str],
                        ylabel: str) -> Figure:
    """Values of `key` (the rates, or the breakdown's states in `shown`) against the shared write share, a
    panel per network, policy and strategy in the table, a line per consistency (its line style) and value
    of `key` (its colour), with a mean +- std band over seeds. The x axis is linear up to the smallest
    write share above 0 and logarithmic beyond (symlog), so that the small shares are not crowded at 0."""
    table = table[table[key].isin(shown)]
    table = table.assign(panel=_label(table, ["network", "policy", "strategy"]))
    fig, axes, names = _panels(table, f"{title} ({_seed_note(table)})")
    consistencies = list(dict.fromkeys(table["consistency"]))
    shares = sorted(set(table["write_share"]))
    positive = [s for s in shares if s > 0]
    for ax, name in zip(axes, names):
        part = table[table["panel"] == name]
        for index, consistency in enumerate(consistencies):
            style = LINE_STYLES[index % len(LINE_STYLES)]
            for value in shown:
                line = part[(part["consistency"] == consistency) & (part[key] == value)].sort_values("write_share")
                if line.empty:
                    continue
                ax.plot(line["write_share"], line["percent_mean"], color=colours.get(value), label=f"{consistency} {value}",
                        **style)
                if line["percent_std"].notna().any():
                    spread = line["percent_std"].fillna(0)
                    ax.fill_between(line["write_share"], line["percent_mean"] - spread, line["percent_mean"] + spread,
                                    color=colours.get(value), alpha=0.15, linewidth=0)
        if positive:
            ax.set_xscale("symlog", linthresh=positive[0], linscale=0.5)
        ax.set_xticks(shares, [f"{s:g}" for s in shares])
        ax.minorticks_off()
        ax.set_xlabel(f"writes among shared-space references ({WRITE_SHARE_AXIS}, fraction)")
        ax.set_ylabel(ylabel)
        # From 0 (a share of T'), up to the highest line's next ten above it: the figure is about how the
        # values move with the write share, which a fixed 0-100 axis flattens when they are small.
        top = (part["percent_mean"] + part["percent_std"].fillna(0)).max()
        ax.set_ylim(0, min(100.0, 10.0 * np.ceil(1.1 * top / 10.0)) if pd.notna(top) and top > 0 else 100.0)
        ax.set_title(name)
        _legend(ax, len(names), "consistency, " + ("rate" if key == "rate" else "state"))
    fit_x_labels(fig)
    return fig


def numa_write_share_rates_figure(table: pd.DataFrame, title: str) -> Figure:
    """The net, calibrated and maximum effective execution rates (percent of T', Nobukuni chapter 5
    paragraph 3) against the shared write share, a line per consistency model and rate."""
    rates = list(dict.fromkeys(table["rate"]))
    return _write_share_figure(table, title, "rate", rates, RATE_COLOURS, "effective execution rate (% of T′)")


def numa_write_share_breakdown_figure(table: pd.DataFrame, title: str, states: list[str]) -> Figure:
    """The shares of T' spent in `states` (synchronization and communication: where the update protocol's
    waits go, Nobukuni 4.2.4) against the shared write share, a line per consistency model and state."""
    return _write_share_figure(table, title, "state", states, STATE_COLOURS, "share of T′ (%)")


def numa_sensitivity_figure(table: pd.DataFrame, title: str) -> Figure:
    """The sensitivity map (analysis/numa.py, sensitivity_map): policy4's maximum rate and communication
    share (percent of T') over the shared write share (rows) and the shared hot set (columns), one panel
    each, each cell annotated with its value; a cell where C10 holds (maximum within 65-85%) is framed in the
    first panel, and one where C1 holds (policy4 best by maximum rate) is marked with *."""
    writes = sorted(table["write_share"].unique())
    hots = sorted(table["hot_pages"].unique())
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), squeeze=False)
    for ax, (column, name) in zip(axes[0], (("policy4_maximum", "policy4 maximum rate (% of T′)"),
                                            ("policy4_comm", "policy4 communication (% of T′)"))):
        grid = table.pivot_table(index="write_share", columns="hot_pages", values=column).reindex(index=writes, columns=hots)
        image = ax.imshow(grid.to_numpy(), origin="lower", aspect="auto", cmap="viridis", vmin=0, vmax=100)
        for i, w in enumerate(writes):
            for j, h in enumerate(hots):
                row = table[(table["write_share"] == w) & (table["hot_pages"] == h)]
                if row.empty or pd.isna(row[column].iloc[0]):
                    continue
                text = f"{row[column].iloc[0]:.0f}" + ("*" if column == "policy4_maximum" and row["C1"].iloc[0] else "")
                ax.text(j, i, text, ha="center", va="center", fontsize=8,
                        color="white" if row[column].iloc[0] < 50 else "black")
                if column == "policy4_maximum" and row["C10"].iloc[0]:
                    ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=2))
        ax.set_xticks(range(len(hots)), [f"{100 * h:g}%" for h in hots])
        ax.set_yticks(range(len(writes)), [f"{100 * w:g}%" for w in writes])
        ax.set_xlabel("shared hot set (share of a process's shared pages)")
        ax.set_ylabel("shared write share (share of shared references)")
        ax.set_title(name)
        fig.colorbar(image, ax=ax, fraction=0.046)
    fig.suptitle(title + " (framed: C10 holds; *: C1 holds by the maximum rate)")
    fig.tight_layout()
    return fig
