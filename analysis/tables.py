"""The tables behind the figures: what each figure shows, computed from results.csv.

Every table aggregates over seeds the same way: runs that differ only by their seed are repeats, and
a value is reported as its mean, its sample standard deviation (ddof=1; empty with one seed) and
the number of seeds. Figures draw mean +- one standard deviation; the deviation describes the spread
of the runs, which is what a reader comparing to a published curve needs (a 95% confidence interval
of the mean would shrink with more seeds while the runs' own variability does not).

Speedups are relative improvements in percent (Tsafrir thesis 7.7.2):
    speedup(X vs Y) = (T(Y) - T(X)) / T(Y) x 100,
positive when X is faster. They are computed per seed, pairing each run of X with the run of the
baseline Y that has the same seed and the same values of every other axis, and then aggregated.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .contract import axis_columns, class_table, job_table, varying
from .roles import Roles

STATES_NOW = ["compute", "communicate", "synchronize", "idle", "switch"]
TOTAL_THREADS = "total_threads"  # derived from runs/<run_id>/summary.json, not a results.csv column
SSR_THRESHOLD_PERCENT = 50.0  # thesis 4.6: at SSR <= 50% always-block would have used less CPU time


def cpus_column(results: pd.DataFrame) -> str | None:
    return next((c for c in ("resolved.platform.cpus", "platform.cpus") if c in results.columns), None)


def job_and_class_tables(results: pd.DataFrame, roles: Roles) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per (run, job instance) and per (run, job class) tables carrying the seed, the axes and the
    run-level columns the figures use. A sweep without job columns counts each run as one class
    named `(run)` with the run's own SSR."""
    run_level = ["model", "time_unit", "makespan", "scenario", roles.scheduler, cpus_column(results), TOTAL_THREADS]
    keep = ["seed"] + axis_columns(results) + [c for c in run_level if c and c in results.columns]
    keep = list(dict.fromkeys(keep))
    jobs = job_table(results, keep)
    if jobs.empty:
        classes = results[["run_id"] + keep].copy()
        classes["job_class"] = "(run)"
        classes["ssr"] = pd.to_numeric(results["ssr"], errors="coerce") if "ssr" in results.columns else np.nan
        return jobs, classes
    return jobs, class_table(jobs, keep)


def with_panel_and_group(frame: pd.DataFrame, groups: list[str], panel_from: int = 2) -> pd.DataFrame:
    """Adds `panel` and `group`. With at least `panel_from` grouping axes, the first one picks the
    panel (`axis=value`: thesis figure 4.1 draws one graph per job size, 7.7 one curve per wakeup
    scheme within each spin duration) and the others label the curves; else `panel` is `all`."""
    if len(groups) >= max(panel_from, 1):
        frame = with_group_label(frame, groups[:1]).rename(columns={"group": "panel"})
        return with_group_label(frame, groups[1:])
    frame = with_group_label(frame, groups)
    frame["panel"] = "all"
    return frame


def with_group_label(frame: pd.DataFrame, groups: list[str]) -> pd.DataFrame:
    """Adds `group`: `axis=value, ...` of the other varying axes, or `all`. With several axes, the
    dotted prefix they share is left out (`compute=1%, wait.spin=CS` for `workload.jobs.0.compute`
    and `workload.jobs.0.wait.spin`); report.md lists the full names. One axis is named by its last
    part (`compute=1%`)."""
    frame = frame.copy()
    if not groups:
        frame["group"] = "all"
        return frame
    shared = 0
    if len(groups) > 1:
        parts = [g.split(".") for g in groups]
        while all(len(p) > shared + 1 and p[shared] == parts[0][shared] for p in parts):
            shared += 1
    else:
        shared = len(groups[0].split(".")) - 1
    names = [".".join(g.split(".")[shared:]) for g in groups]
    frame["group"] = frame[groups].astype(str).apply(
        lambda row: ", ".join(f"{name}={value}" for name, value in zip(names, row)), axis=1
    )
    return frame


def value_label(value) -> str:
    """A shorter label for an axis value given as a flow mapping: `{algorithm: pairwise}` ->
    `pairwise`, `{algorithm: spin-fixed, spin: 300us}` -> `spin-fixed, spin: 300us`; others as they are."""
    text = str(value)
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1].strip()
        if text.startswith("algorithm:"):
            text = text[len("algorithm:"):].strip()
    return text


def _top_level_parts(text: str) -> list[str]:
    """`policy: eevdf, features: {A: false, B: true}` -> its parts at the top level, split on `, ` outside
    braces and brackets: `policy: eevdf` and `features: {A: false, B: true}`."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"{": 1, "[": 1, "}": -1, "]": -1}.get(char, 0)
        if depth == 0 and text.startswith(", ", index):
            parts.append(text[start:index])
            start = index + 2
    return parts + [text[start:]]


def distinct_labels(values: list[str]) -> dict[str, str]:
    """Each value's value_label without the parts every value shares: for the scheduler axis of
    `{policy: ts, context_switch: 100us}` and `{policy: eevdf, context_switch: 100us, features: {PLACE_LAG:
    false}}`, `policy: ts` and `policy: eevdf, features: {PLACE_LAG: false}`. A value left with no part
    keeps its full label."""
    parts = {value: _top_level_parts(value_label(value)) for value in values}
    shared = set.intersection(*(set(p) for p in parts.values())) if len(values) > 1 else set()
    return {value: ", ".join(p for p in parts[value] if p not in shared) or value_label(value) for value in values}


def mean_std_over_seeds(frame: pd.DataFrame, by: list[str], value: str, prefix: str) -> pd.DataFrame:
    """Mean, sample standard deviation and seed count of `value` per `by`, in first-seen order."""
    grouped = frame.dropna(subset=[value]).groupby(by, sort=False, dropna=False)[value]
    table = grouped.agg(["mean", "std", "count"]).reset_index()
    return table.rename(columns={"mean": f"{prefix}_mean", "std": f"{prefix}_std", "count": "seeds"})


def ssr_vs_load(classes: pd.DataFrame, roles: Roles) -> pd.DataFrame:
    """SSR per job class against load (thesis figures 3.x, 4.1, 7.x, 8.1); one curve per class and group.

    Columns: panel, group, job_class, <load>, ssr_mean, ssr_std, seeds (SSR in percent). With two or
    more axes separating curves, the first picks the panel (see with_panel_and_group).
    """
    frame = with_panel_and_group(classes, roles.curve_groups(classes) + ([roles.variant] if roles.variant else []))
    frame[roles.load] = pd.to_numeric(frame[roles.load])
    by = ["panel", "group", "job_class", roles.load]
    table = mean_std_over_seeds(frame, by, "ssr", "ssr")
    return sort_in_sweep_order(table, by)


def _paired_speedups(frame: pd.DataFrame, roles: Roles, time: str, key: list[str]) -> pd.DataFrame:
    """Per-seed speedup of X over Y for each comparison (X, Y) of the roles, paired on `key` (see
    module doc); a column `comparison` holds `X vs Y`."""
    frame = frame.copy()
    frame[roles.variant] = frame[roles.variant].astype(str)
    parts = []
    for x, y in roles.comparisons:
        base = frame[frame[roles.variant] == y][key + [time]]
        other = frame[frame[roles.variant] == x]
        paired = other.merge(base, on=key, suffixes=("", "_baseline"), validate="many_to_one")
        paired["comparison"] = f"{x} vs {y}"
        paired["speedup"] = (paired[f"{time}_baseline"] - paired[time]) / paired[f"{time}_baseline"] * 100.0
        parts.append(paired)
    if not parts:
        return frame.iloc[0:0].assign(comparison=pd.Series(dtype=str), speedup=pd.Series(dtype=float))
    return pd.concat(parts, ignore_index=True)


def _class_time(classes: pd.DataFrame) -> pd.Series:
    """A job class's time: its mean completion time, the run's makespan when that is null."""
    if "completion_time" in classes.columns:
        return classes["completion_time"].fillna(pd.to_numeric(classes["makespan"], errors="coerce"))
    return pd.to_numeric(classes["makespan"], errors="coerce")


def speedup_vs_load(classes: pd.DataFrame, roles: Roles, axes: list[str]) -> pd.DataFrame:
    """Speedup (percent) of each variant value over the baseline against load, per job class
    (thesis figures 7.9-7.12, 8.4-8.9), from the classes' completion times.

    Columns: panel, comparison, group, job_class, <load>, speedup_mean, speedup_std, seeds. With
    several comparisons, the first axis separating curves picks the panel (thesis figure 7.9: the
    three spin comparisons for each wakeup scheme); with one, as for ssr_vs_load.
    """
    frame = classes.copy()
    frame["class_time"] = _class_time(frame)
    key = [a for a in axes if a != roles.variant] + ["seed", "job_class"]
    panel_from = 1 if len(roles.comparisons) > 1 else 2
    paired = with_panel_and_group(
        _paired_speedups(frame, roles, "class_time", key), roles.curve_groups(classes), panel_from
    )
    paired[roles.load] = pd.to_numeric(paired[roles.load])
    by = ["panel", "comparison", "group", "job_class", roles.load]
    table = mean_std_over_seeds(paired, by, "speedup", "speedup")
    return sort_in_sweep_order(_in_comparison_order(table, roles), by).astype({"comparison": str})


def sort_in_sweep_order(table: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Sorts by `by`, each label column (panel, group, job class) in the order its values first
    appear (the sweep's order of axis values, e.g. CS, CS+, 2CS+), not alphabetically; the load last,
    by value. A categorical column keeps its own order."""
    keys = {}
    for column in by[:-1]:
        if isinstance(table[column].dtype, pd.CategoricalDtype):
            keys[column] = table[column].cat.codes
        else:
            first_seen = {value: rank for rank, value in enumerate(dict.fromkeys(table[column]))}
            keys[column] = table[column].map(first_seen)
    keys[by[-1]] = table[by[-1]]
    order = pd.DataFrame(keys).sort_values(by, kind="stable").index
    return table.loc[order].reset_index(drop=True)


def _in_comparison_order(table: pd.DataFrame, roles: Roles) -> pd.DataFrame:
    """Makes `comparison` sort in the order the comparisons were asked for, not alphabetically."""
    order = [f"{x} vs {y}" for x, y in roles.comparisons]
    return table.assign(comparison=pd.Categorical(table["comparison"], categories=order, ordered=True))


def _average_over_loads_above_cpus(
    frame: pd.DataFrame, by: list[str], load: str, value: str, cpus: str, threads: str
) -> pd.DataFrame:
    """Thesis 7.7.1-7.7.3: "the average ... and its absolute deviation (1/n sum |measurement_i - mu|)
    across all the different loads that are bigger than CPU#". A load counts when its runs have more
    threads (`threads`) than CPUs; with several seeds a load's measurement is its mean over the seeds,
    so every load weighs the same. Columns: by..., <value>_avg, <value>_absdev, loads (n), threads_min,
    threads_max (the range of thread counts averaged over)."""
    frame = frame.dropna(subset=[value])
    frame = frame[pd.to_numeric(frame[threads]) > pd.to_numeric(frame[cpus])]
    columns = by + [f"{value}_avg", f"{value}_absdev", "loads", "threads_min", "threads_max"]
    if frame.empty:
        return pd.DataFrame(columns=columns)
    frame = frame.assign(_threads=pd.to_numeric(frame[threads]), _load=pd.to_numeric(frame[load]))
    per_load = frame.groupby(by + ["_load"], sort=False, observed=True).agg(
        measurement=(value, "mean"), threads=("_threads", "mean")
    )
    rows = []
    for keys, part in per_load.groupby(level=list(range(len(by))), sort=False, observed=True):
        keys = keys if isinstance(keys, tuple) else (keys,)
        mean = part["measurement"].mean()
        rows.append([*keys, mean, (part["measurement"] - mean).abs().mean(), len(part),
                     part["threads"].min(), part["threads"].max()])
    return pd.DataFrame(rows, columns=columns)


def ssr_above_cpus(classes: pd.DataFrame, roles: Roles, cpus: str, threads: str) -> pd.DataFrame:
    """Average SSR (percent) and its absolute deviation over the loads above the CPU count, per job
    class and curve (the thesis's 7.7.1 table). Columns: panel, group, job_class, ssr_avg, ssr_absdev,
    loads, threads_min, threads_max."""
    frame = with_panel_and_group(classes, roles.curve_groups(classes) + ([roles.variant] if roles.variant else []))
    by = ["panel", "group", "job_class"]
    return _average_over_loads_above_cpus(frame, by, roles.load, "ssr", cpus, threads)


def speedup_above_cpus(classes: pd.DataFrame, roles: Roles, axes: list[str], cpus: str, threads: str) -> pd.DataFrame:
    """Average speedup (percent, 7.7.2's definition, paired by seed) and its absolute deviation over
    the loads above the CPU count, per comparison, job class and curve (the thesis's 7.7.2 and 7.7.3
    tables). Columns: comparison, group, job_class, speedup_avg, speedup_absdev, loads, threads_min,
    threads_max."""
    frame = classes.copy()
    frame["class_time"] = _class_time(frame)
    key = [a for a in axes if a != roles.variant] + ["seed", "job_class"]
    paired = with_group_label(_paired_speedups(frame, roles, "class_time", key), roles.curve_groups(classes))
    by = ["comparison", "group", "job_class"]
    return _average_over_loads_above_cpus(paired, by, roles.load, "speedup", cpus, threads)


def thread_surplus(classes: pd.DataFrame, roles: Roles, cpus: str, threads: str) -> pd.DataFrame:
    """Thread surplus with SSR > 50% (thesis 4.6 and 8.3, figures 4.6 and 8.2), per job class.

    `threads` is the column counting the run's threads (total_threads when the run folders give it,
    else the load axis). For one seed, the surplus N is the largest n such that every measured
    thread count in (CPUs, CPUs + n] has SSR > 50% -- the reading of figure 4.6, whose 'avg' and
    'min' are taken over the simulations of [CPU# + 1 .. CPU# + N] threads; N is 0 when the first
    count above the CPUs already fails. Columns: group, job_class, surplus_mean, surplus_std, seeds,
    first_measured (the smallest surplus measured: the resolution of a sweep that skips loads),
    ssr_avg, ssr_min (the last two over [CPUs + 1 .. CPUs + N], pooled over seeds).
    """
    frame = with_group_label(classes, roles.curve_groups(classes) + ([roles.variant] if roles.variant else []))
    frame["load"] = pd.to_numeric(frame[threads])
    frame["cpus"] = pd.to_numeric(frame[cpus])
    rows = []
    for (group, job, seed), runs in frame.groupby(["group", "job_class", "seed"], sort=False):
        above = runs[runs["load"] > runs["cpus"]].sort_values("load")
        if above.empty:
            continue
        failing = (above["ssr"].isna() | (above["ssr"] <= SSR_THRESHOLD_PERCENT)).to_numpy()
        kept = above.iloc[: int(failing.argmax())] if failing.any() else above
        surplus = float(kept["load"].max() - kept["cpus"].max()) if len(kept) else 0.0
        first = float(above["load"].min() - above["cpus"].max())
        rows.append(
            {"group": group, "job_class": job, "seed": seed, "surplus": surplus, "ssrs": list(kept["ssr"]), "first": first}
        )
    per_seed = pd.DataFrame(rows, columns=["group", "job_class", "seed", "surplus", "ssrs", "first"])
    table = mean_std_over_seeds(per_seed, ["group", "job_class"], "surplus", "surplus")
    # The surplus is only known to the sampled thread counts: 0 means SSR <= 50% already at the first
    # count measured above the CPUs, which is `first_measured` threads above them.
    first = per_seed.groupby(["group", "job_class"], sort=False)["first"].min()
    table["first_measured"] = [first[(g, j)] for g, j in zip(table.group, table.job_class)]
    pooled = per_seed.groupby(["group", "job_class"], sort=False)["ssrs"].sum()
    table["ssr_avg"] = [np.mean(pooled[(g, j)]) if pooled[(g, j)] else np.nan for g, j in zip(table.group, table.job_class)]
    table["ssr_min"] = [np.min(pooled[(g, j)]) if pooled[(g, j)] else np.nan for g, j in zip(table.group, table.job_class)]
    return table


def _scheduler_and_length(frame: pd.DataFrame, roles: Roles, with_wait: bool = False) -> pd.DataFrame:
    """Adds scheduler, job_length and group (the other varying axes) columns for the bar charts. With
    `with_wait`, a waiting-algorithm axis that is not the variant is one of those other axes, so that a
    figure comparing the variant's values keeps the algorithms apart rather than pooling them as seeds.
    An axis named `scheduler` is overwritten by the label: pair runs on the axes before calling this."""
    waits = [roles.wait] if with_wait and roles.wait and roles.wait != roles.variant else []
    frame = with_group_label(frame, roles.groups + waits)
    frame["scheduler"] = _scheduler_label(frame, roles)
    frame["job_length"] = frame[roles.length].astype(str) if roles.length else "all"
    return frame


def _scheduler_label(frame: pd.DataFrame, roles: Roles) -> pd.Series | str:
    """The scheduler's name, its policy; but a scheduler axis's value (shortened as distinct_labels does) when
    that axis has more values than the runs have policies, so that two settings of one policy (EEVDF with a
    feature off and with its defaults) are not pooled as if they were seeds of one."""
    if not roles.scheduler:
        return "all"
    policies = frame[roles.scheduler].astype(str)
    for axis in ("scheduler", "scheduler.policy"):
        if axis in frame.columns and frame[axis].nunique() > policies.nunique():
            values = frame[axis].astype(str)
            return values.map(distinct_labels(list(dict.fromkeys(values))))
    return policies


def speedup_bars(results: pd.DataFrame, roles: Roles, axes: list[str]) -> pd.DataFrame:
    """Speedup (percent) of the run's total execution time (makespan) of each variant value over the
    baseline, per scheduler and job length: Brim & Miller figure 3 (keep-alive levels vs `orig`).

    Columns: group, scheduler, job_length, comparison, speedup_mean, speedup_std, seeds.
    """
    frame = results.copy()
    frame["makespan"] = pd.to_numeric(frame["makespan"])
    key = [a for a in axes if a != roles.variant] + ["seed"]
    paired = _scheduler_and_length(_paired_speedups(frame, roles, "makespan", key), roles, with_wait=True)
    return mean_std_over_seeds(paired, ["group", "scheduler", "job_length", "comparison"], "speedup", "speedup")


def slowdown_bars(results: pd.DataFrame, roles: Roles, axes: list[str]) -> pd.DataFrame:
    """Slowdown T(X) / T(Y) of the run's total execution time (makespan) for each comparison `X vs Y` of
    the variant's values, per combination of the other varying axes (`setting`: the waiting algorithm,
    the job length, ...), paired by seed: the slowdowns against gang scheduling that Brim & Miller
    measure every local scheduler by, or those of Table 1 against pairwise. Axis values given as flow
    mappings are shortened as value_label does, and X and Y (columns variant and baseline) as
    distinct_labels does. Columns: setting, comparison, variant, baseline, slowdown_mean, slowdown_std,
    slowdown_min, slowdown_max, seeds.
    """
    frame = results.copy()
    frame["makespan"] = pd.to_numeric(frame["makespan"])
    others = [a for a in varying(results, axes) if a != roles.variant]
    frame[others] = frame[others].astype(str).map(value_label)
    frame = with_group_label(frame, others).rename(columns={"group": "setting"})
    key = [a for a in axes if a != roles.variant] + ["seed"]
    paired = _paired_speedups(frame, roles, "makespan", key)
    paired["slowdown"] = paired["makespan"] / paired["makespan_baseline"] if roles.comparisons else np.nan
    by = ["setting", "comparison"]
    table = mean_std_over_seeds(paired, by, "slowdown", "slowdown")
    spread = paired.groupby(by, sort=False)["slowdown"].agg(slowdown_min="min", slowdown_max="max").reset_index()
    table = table.merge(spread, on=by, how="left")
    short = distinct_labels(list(dict.fromkeys(v for pair in roles.comparisons for v in pair)))
    names = {f"{x} vs {y}": (short[x], short[y]) for x, y in roles.comparisons}
    table["variant"] = table["comparison"].map(lambda c: names[c][0])
    table["baseline"] = table["comparison"].map(lambda c: names[c][1])
    columns = by + ["variant", "baseline", "slowdown_mean", "slowdown_std", "slowdown_min", "slowdown_max", "seeds"]
    return table[columns]


def state_breakdown(jobs: pd.DataFrame, roles: Roles) -> pd.DataFrame:
    """Share of time in each job state (Brim & Miller figure 4), per scheduler, job length and variant.

    Per run, the job instances' time.<state> (per-process averages, s) are summed over instances and
    divided by the sum over the five states: compute, communicate, synchronize, idle, switch
    ('swapping' in B&M). Columns: scheduler, job_length, variant, state, percent_mean, percent_std,
    seeds.
    """
    states = [s for s in STATES_NOW if f"time.{s}" in jobs.columns]
    if not states:
        return pd.DataFrame()
    frame = _scheduler_and_length(jobs, roles, with_wait=roles.variant is not None)
    compared = roles.variant or roles.wait
    frame["variant"] = frame[compared].map(value_label) if compared else "all"
    labels = ["group", "scheduler", "job_length", "variant"]
    by_run = frame.groupby(["run_id"] + labels, sort=False)
    totals = by_run[[f"time.{s}" for s in states]].sum().reset_index()
    overall = totals[[f"time.{s}" for s in states]].sum(axis=1)
    long = []
    for state in states:
        part = totals[["run_id"] + labels].copy()
        part["state"] = state
        part["percent"] = 100.0 * totals[f"time.{state}"] / overall.where(overall > 0)
        long.append(part)
    frame = pd.concat(long, ignore_index=True)
    return mean_std_over_seeds(frame, labels + ["state"], "percent", "percent")


def waiting_algorithms(results: pd.DataFrame, roles: Roles, axes: list[str]) -> pd.DataFrame:
    """Brim & Miller Table 1: each waiting algorithm's execution time (makespan, in time_unit) and its slowdown
    relative to pairwise under the same scheduler, job length and seed (T(alg) / T(pairwise)).

    Columns: group, job_length, algorithm, scheduler, seconds_mean, seconds_std, slowdown_mean,
    slowdown_std, seeds.
    """
    frame = results.copy()
    frame["algorithm"] = frame[roles.wait].astype(str)
    frame["makespan"] = pd.to_numeric(frame["makespan"])
    key = [a for a in axes if a != roles.wait] + ["seed"]
    base = frame[frame["algorithm"] == roles.wait_baseline][key + ["makespan"]]
    paired = frame.merge(base, on=key, suffixes=("", "_baseline"), how="left", validate="many_to_one")
    paired = _scheduler_and_length(paired, roles)
    paired["slowdown"] = paired["makespan"] / paired["makespan_baseline"]
    paired["algorithm"] = paired["algorithm"].map(value_label)
    by = ["group", "job_length", "algorithm", "scheduler"]
    seconds = mean_std_over_seeds(paired, by, "makespan", "seconds")
    slowdown = mean_std_over_seeds(paired, by, "slowdown", "slowdown").drop(columns="seeds")
    return seconds.merge(slowdown, on=by, how="left")[
        by + ["seconds_mean", "seconds_std", "slowdown_mean", "slowdown_std", "seeds"]
    ]


def waiting_algorithms_layout(table: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Table 1's layout, one table per (group, job length): a row per algorithm, per scheduler two
    columns, seconds and slowdown vs pairwise (mean over seeds)."""
    layouts = {}
    for (group, length), part in table.groupby(["group", "job_length"], sort=False):
        wide = part.pivot(index="algorithm", columns="scheduler", values=["seconds_mean", "slowdown_mean"])
        wide = wide.reindex(index=list(dict.fromkeys(part["algorithm"])))
        columns = []
        for scheduler in dict.fromkeys(part["scheduler"]):
            columns += [("seconds_mean", scheduler), ("slowdown_mean", scheduler)]
        wide = wide[columns]
        wide.columns = [f"{scheduler} {'s' if what == 'seconds_mean' else 'slowdown'}" for what, scheduler in columns]
        layouts[length if group == "all" else f"{length}, {group}"] = wide
    return layouts


def thread_state_lanes(timeline: pd.DataFrame) -> pd.DataFrame:
    """The intervals of timeline.csv with a lane per thread or process (job, copy, rank order):
    columns lane, thread (label `job#copy/rank`), state, start, end, duration."""
    frame = timeline.copy()
    frame["thread"] = frame["job"].astype(str) + "#" + frame["copy"].astype(str) + "/" + frame["rank"].astype(str)
    order = frame[["job", "copy", "rank", "thread"]].drop_duplicates().sort_values(["job", "copy", "rank"], kind="stable")
    lanes = {thread: lane for lane, thread in enumerate(order["thread"])}
    frame["lane"] = frame["thread"].map(lanes)
    frame["duration"] = frame["end"] - frame["start"]
    return frame[["lane", "thread", "state", "start", "end", "duration"]].sort_values(["lane", "start"], ignore_index=True)
