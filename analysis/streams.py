"""Open workloads on the NOW model (issue 24; docs/models/now-streams.md): the figures of parallel job
scheduling research from a sweep of job streams over offered load and job-level scheduler.

What it reads (results.csv, flattened from each run's summary.json, and runs/<run_id>/jobs.csv):
  stream.{jobs, skipped, utilization, throughput, mean_response, mean_bounded_slowdown, offered_load,
  arrival_scale, time_scale}          per run (seconds for times)
  workload.stream.load                the sweep's load axis (the target offered load), else stream.offered_load
  job_scheduler.policy, job_scheduler.mpl
                                      the axes (else resolved.job_scheduler.*): one curve per policy and MPL,
                                      and per value of any other key of the policy that varies
  jobs.csv: submit, start, end, wait, response, slowdown, bounded_slowdown, processors, class (s, per job)
            and workstations, the job's ranks' workstations joined by ';' ("0;1;2;3"), for the Gantt chart.
  classes.csv (fcs) and pairs.csv (paired-gang): each process's changes of class, each row's changes of
            partner, for the figures of those policies over the Gantt chart's window; stream.mpl, the
            matrix's rows, for paired gang's.

Bands over seeds are min-max: every seed's run lies inside the band. With the handful of seeds a sweep runs
(3 to 5), a 95% confidence interval of the mean rests on a normality the slowdowns (heavy-tailed) do not
have, and is wider than the runs it summarises; min-max states what was seen.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .contract import ContractError, read_csv_strict  # noqa: E402

LOAD_AXIS = "workload.stream.load"
LOAD_RESULT = "stream.offered_load"
POLICY_SOURCES = ("job_scheduler.policy", "resolved.job_scheduler.policy")
MPL_SOURCES = ("job_scheduler.mpl", "resolved.job_scheduler.mpl")
# slurm-gang's level is its oversubscribe (OverSubscribe=FORCE:N), named so in the curves.
OVERSUBSCRIBE_SOURCES = ("job_scheduler.oversubscribe", "resolved.job_scheduler.oversubscribe")
FCS_CLASSES = ("CS", "F", "DC")  # flexible coscheduling's classes (now-streams.md 3.6), in its tie order
METRICS = {
    # summary.json's stream field -> (figure stem, y-axis title)
    "mean_bounded_slowdown": ("stream_bounded_slowdown_vs_load", "mean bounded slowdown"),
    "mean_response": ("stream_response_vs_load", "mean response time (s)"),
    "utilization": ("stream_utilization_vs_load", "utilization (fraction of workstation time)"),
}
GANTT_COLUMNS = ("start", "end", "workstations")
GANTT_JOBS = 40  # the Gantt chart's window: 40 jobs to start from its opening, until the next one starts


def is_stream(results: pd.DataFrame) -> bool:
    return "stream.mean_bounded_slowdown" in results.columns


def _first(frame: pd.DataFrame, columns: tuple[str, ...]) -> str | None:
    return next((c for c in columns if c in frame.columns), None)


def load_column(results: pd.DataFrame) -> str:
    """The x axis: the sweep's target load when it is a column, else each run's offered load as applied."""
    return LOAD_AXIS if LOAD_AXIS in results.columns else LOAD_RESULT


def scheduler_label(results: pd.DataFrame) -> pd.Series:
    """Each run's curve: the job scheduler's policy, with its multiprogramming level when it is above 1
    (`gang mpl 2`), or its oversubscribe under slurm-gang (`slurm-gang oversubscribe 4`); fcfs and easy run
    one job per workstation (mpl 1) and are named alone. Any other key of the policy that differs between
    its runs names them too, a duration by its seconds and a key left to its default as `default`
    (`paired-gang mpl 4 pair_limit 1`, `paired-gang mpl 4 pair_limit 1.8`; `buffered mpl 2 strobe default`,
    `buffered mpl 2 strobe 0.005 s`): runs that differ in a policy's keys are never one curve."""
    policy_column = _first(results, POLICY_SOURCES)
    policy = results[policy_column].astype(str) if policy_column else pd.Series("-", index=results.index)
    named = policy
    for sources, word in ((OVERSUBSCRIBE_SOURCES, "oversubscribe"), (MPL_SOURCES, "mpl")):
        column = _first(results, sources)
        if column is None:
            continue
        level = pd.to_numeric(results[column], errors="coerce")
        named = named.where(~(level.notna() & (level != 1)) | (named != policy),
                            policy + f" {word} " + level.map(lambda v: f"{v:g}"))
    for key, column in _policy_keys(results):
        value = results[column].map(_key_value)
        for name in policy.unique():
            runs = policy == name
            if value[runs].nunique() > 1:
                shown = key[:-2] if key.endswith("_s") else key
                unit = " s" if key.endswith("_s") else ""
                named = named.where(~runs, named + f" {shown} " + value.where(value == "default", value + unit))
    return named


def _policy_keys(results: pd.DataFrame) -> list[tuple[str, str]]:
    """The job scheduler's keys other than its policy and level, as (key, its column): the resolved
    scenario's (`resolved.job_scheduler.*`, durations in seconds: `strobe_s`) when results.csv has them,
    else the sweep's axes (`job_scheduler.*`) alone. Never both: an axis `strobe` and its resolved `strobe_s`
    are one key."""
    named = {"policy", "mpl", "oversubscribe"}
    resolved = any(column.startswith("resolved.job_scheduler.") for column in results.columns)
    prefix = "resolved.job_scheduler." if resolved else "job_scheduler."
    return sorted((column[len(prefix):], column) for column in results.columns
                  if column.startswith(prefix) and column[len(prefix):] not in named)


def _key_value(value) -> str:
    if value is None or value == "" or (isinstance(value, float) and pd.isna(value)):
        return "default"
    number = pd.to_numeric(value, errors="coerce")
    return f"{number:g}" if pd.notna(number) else str(value)


def against_load(results: pd.DataFrame, metric: str) -> pd.DataFrame:
    """`stream.<metric>` per scheduler and load: mean, min and max over seeds and the seed count.
    Columns: scheduler, load, mean, min, max, seeds; schedulers in the runs' order, loads increasing."""
    column = f"stream.{metric}"
    if column not in results.columns:
        raise ContractError(f"results.csv: no column '{column}' (a stream run's summary.json has stream.{metric})")
    frame = pd.DataFrame({
        "scheduler": scheduler_label(results),
        "load": pd.to_numeric(results[load_column(results)], errors="coerce"),
        "value": pd.to_numeric(results[column], errors="coerce"),
    })
    order = {name: i for i, name in enumerate(dict.fromkeys(frame["scheduler"]))}
    grouped = frame.groupby(["scheduler", "load"], sort=False)["value"]
    table = grouped.agg(["mean", "min", "max", "count"]).reset_index().rename(columns={"count": "seeds"})
    table = table.sort_values(["scheduler", "load"], key=lambda s: s.map(order) if s.name == "scheduler" else s,
                              kind="stable")
    return table.reset_index(drop=True)


def against_load_figure(table: pd.DataFrame, metric: str, x_title: str) -> Figure:
    """One curve per scheduler, the mean over seeds, with a min-max band where there are several seeds."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5), layout="constrained")
    for scheduler, curve in table.groupby("scheduler", sort=False):
        (line,) = ax.plot(curve["load"], curve["mean"], marker=".", label=scheduler)
        if (curve["seeds"] > 1).any():
            ax.fill_between(curve["load"], curve["min"], curve["max"], color=line.get_color(), alpha=0.2, linewidth=0)
    ax.set_xlabel(x_title)
    ax.set_ylabel(METRICS[metric][1])
    ax.set_title(f"{METRICS[metric][1]} against offered load")
    ax.legend(title="job scheduler", fontsize="small", loc="upper left", bbox_to_anchor=(1, 1))
    ax.grid(alpha=0.3)
    return fig


def busiest_moment(jobs: pd.DataFrame) -> float:
    """Where a Gantt window opens by default: the submit time of the job that waited longest (ties: the
    first in jobs.csv), when the queue was at its longest. Without `submit`, the first start."""
    start = pd.to_numeric(jobs["start"])
    if "submit" not in jobs.columns or jobs.empty:
        return float(start.min())
    submit = pd.to_numeric(jobs["submit"])
    return float(submit.loc[(start - submit).idxmax()])


def gantt_table(jobs: pd.DataFrame, window_jobs: int = GANTT_JOBS, begin: float | None = None) -> pd.DataFrame:
    """Which job ran where over a short window: one row per job and workstation, for the jobs that ran
    within [begin, start of the (`window_jobs` + 1)-th job to start at or after begin) (to the last end when
    no more jobs ran), their times clipped to it. `begin` defaults to the busiest moment (`busiest_moment`):
    the start of a stream is quiet under every policy, its congested stretches are where policies differ.
    Columns: job, workstation, start, end (s)."""
    missing = [c for c in GANTT_COLUMNS if c not in jobs.columns]
    if missing:
        raise ContractError(f"jobs.csv: missing column(s) {', '.join(missing)}")
    ran = jobs.assign(start=pd.to_numeric(jobs["start"]), end=pd.to_numeric(jobs["end"]))
    ran = ran[ran["start"].notna() & ran["end"].notna()].sort_values("start", kind="stable")
    if ran.empty:
        return pd.DataFrame(columns=["job", "workstation", "start", "end"])
    if begin is None:
        begin = busiest_moment(ran)
    later = ran[ran["start"] >= begin]
    finish = later["start"].iloc[window_jobs] if len(later) > window_jobs else ran["end"].max()
    shown = ran[(ran["start"] < finish) & (ran["end"] > begin)]
    names = shown["name"].astype(str) if "name" in shown.columns else shown.index.astype(str)
    rows = []
    for name, (_, job) in zip(names, shown.iterrows()):
        for workstation in str(job["workstations"]).split(";"):
            rows.append({"job": name, "workstation": int(workstation), "start": max(job["start"], begin),
                         "end": min(job["end"], finish)})
    return pd.DataFrame(rows, columns=["job", "workstation", "start", "end"])


def gantt_figure(table: pd.DataFrame, title: str) -> Figure:
    """A lane per workstation, a bar per job on each of its workstations, one colour per job; jobs sharing a
    workstation (gang rows, time-sharing) overlap half-transparent."""
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.25 * max(1, table["workstation"].nunique())), layout="constrained")
    colours = plt.get_cmap("tab20").colors
    for index, (job, bars) in enumerate(table.groupby("job", sort=False)):
        ax.barh(bars["workstation"], bars["end"] - bars["start"], left=bars["start"], height=0.8,
                color=colours[index % len(colours)], alpha=0.7, edgecolor="black", linewidth=0.3, label=job)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("workstation")
    ax.invert_yaxis()
    ax.set_title(title)
    return fig


def _load_run_csv(run_folder, name: str, written_by: str) -> pd.DataFrame:
    path = run_folder / name
    if not path.is_file():
        raise ContractError(f"{path}: no such file ({written_by} writes one)")
    return read_csv_strict(path)


def load_jobs(run_folder) -> pd.DataFrame:
    return _load_run_csv(run_folder, "jobs.csv", "a stream run")


def gantt_runs(results: pd.DataFrame) -> list[tuple[str, str, float]]:
    """The runs the Gantt charts show: per scheduler, its run at the highest load with the lowest seed.
    (scheduler, run id, load) in the schedulers' order."""
    frame = pd.DataFrame({
        "scheduler": scheduler_label(results),
        "load": pd.to_numeric(results[load_column(results)], errors="coerce"),
        "seed": pd.to_numeric(results["seed"], errors="coerce"),
        "run_id": results["run_id"].astype(str),
    })
    chosen = []
    for scheduler, runs in frame.groupby("scheduler", sort=False):
        run = runs.sort_values(["load", "seed"], ascending=[False, True], kind="stable").iloc[0]
        chosen.append((scheduler, run["run_id"], float(run["load"])))
    return chosen


def load_classes(run_folder) -> pd.DataFrame:
    return _load_run_csv(run_folder, "classes.csv", "a run under job_scheduler.policy fcs")


def fcs_class_table(jobs: pd.DataFrame, classes: pd.DataFrame, window_jobs: int = GANTT_JOBS,
                    begin: float | None = None) -> pd.DataFrame:
    """Flexible coscheduling: each job's class over time, for the jobs of the Gantt window (`gantt_table`'s
    jobs and times). A job's class at a moment is the one most of its processes are in then (ties: CS, F,
    DC, as jobs.csv's fcs_class); each process is CS from its start until classes.csv says otherwise.
    Columns: job, start, end (s), class: one row per stretch of one class."""
    for name, frame, columns in (("jobs.csv", jobs, ("name", "start", "end", "processors")),
                                 ("classes.csv", classes, ("time_s", "job", "rank", "class"))):
        missing = [c for c in columns if c not in frame.columns]
        if missing:
            raise ContractError(f"{name}: missing column(s) {', '.join(missing)}")
    window = gantt_table(jobs, window_jobs, begin)
    rows = []
    for job_name, bars in window.groupby("job", sort=False):
        job = jobs[jobs["name"].astype(str) == job_name].iloc[0]
        processes = int(job["processors"])
        shown_from, shown_to = float(bars["start"].min()), float(bars["end"].max())
        changes = classes[classes["job"].astype(str) == job_name].sort_values("time_s", kind="stable")
        current = {rank: "CS" for rank in range(processes)}
        states = []  # (from, class) after each change
        for time, group in [(float(job["start"]), None)] + list(changes.groupby("time_s", sort=True)):
            if group is not None:
                for _, change in group.iterrows():
                    current[int(change["rank"])] = str(change["class"])
            counts = {c: list(current.values()).count(c) for c in FCS_CLASSES}
            states.append((float(time), max(FCS_CLASSES, key=lambda c: counts[c])))
        for since, until, cls in _stretches(states, float(job["end"]), shown_from, shown_to):
            if rows and rows[-1]["job"] == job_name and rows[-1]["class"] == cls and rows[-1]["end"] == since:
                rows[-1]["end"] = until
            else:
                rows.append({"job": job_name, "start": since, "end": until, "class": cls})
    return pd.DataFrame(rows, columns=["job", "start", "end", "class"])


def _stretches(states: list, last_end: float, shown_from: float, shown_to: float):
    """(since, until, state) for each (time, state) of `states` (in time order), from its time to the next
    one's (the last to `last_end`), clipped to [shown_from, shown_to]; stretches outside it left out."""
    ends = [time for time, _ in states[1:]] + [last_end]
    for (since, state), until in zip(states, ends):
        since, until = max(since, shown_from), min(until, shown_to)
        if until > since:
            yield since, until, state


def fcs_class_figure(table: pd.DataFrame, title: str) -> Figure:
    """A lane per job, coloured by its class over time (CS, F, DC)."""
    jobs = list(dict.fromkeys(table["job"]))
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.25 * max(1, len(jobs))), layout="constrained")
    colours = {"CS": "tab:blue", "F": "tab:orange", "DC": "tab:green"}
    lane = {job: i for i, job in enumerate(jobs)}
    for cls in FCS_CLASSES:
        bars = table[table["class"] == cls]
        # No edges: a process reclassified at every slot makes thousands of stretches, whose edges would
        # paint the lane black.
        ax.barh(bars["job"].map(lane), bars["end"] - bars["start"], left=bars["start"], height=0.8,
                color=colours[cls], linewidth=0, label=cls)
    _label_lanes(ax, jobs, "job", "class", title)
    return fig


def _label_lanes(ax, lanes: list[str], y_title: str, legend_title: str, title: str) -> None:
    """A figure of lanes over time (lane i at y = i, top down), named, with its legend beside it."""
    ax.set_yticks(range(len(lanes)), lanes, fontsize="small")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(y_title)
    ax.invert_yaxis()
    ax.legend(title=legend_title, loc="upper left", bbox_to_anchor=(1, 1))
    ax.set_title(title)


def load_pairs(run_folder) -> pd.DataFrame:
    return _load_run_csv(run_folder, "pairs.csv", "a run under job_scheduler.policy paired-gang")


def matrix_rows(results: pd.DataFrame, run_id: str) -> int:
    """A run's multiprogramming level, the rows of its matrix (summary.json's stream.mpl)."""
    if "stream.mpl" not in results.columns:
        raise ContractError("results.csv: no column 'stream.mpl' (a stream run's summary.json has stream.mpl)")
    return int(results.loc[results["run_id"].astype(str) == run_id, "stream.mpl"].iloc[0])


def paired_rows_table(jobs: pd.DataFrame, pairs: pd.DataFrame, rows: int, window_jobs: int = GANTT_JOBS,
                      begin: float | None = None) -> pd.DataFrame:
    """Paired gang: each row's partner as decided at each cycle's start, over the Gantt window (`gantt_table`'s
    span). A row is alone until pairs.csv pairs it, and keeps a partner until pairs.csv changes it (a
    partner whose row empties mid-cycle leaves it alone until the next cycle, which pairs.csv then records).
    Columns: row, start, end (s), partner (`alone` or `row k`), utilization, partner_utilization (as the
    pairing compared them; empty while alone): one row per stretch."""
    missing = [c for c in ("time_s", "row", "partner", "utilization", "partner_utilization")
               if c not in pairs.columns]
    if missing:
        raise ContractError(f"pairs.csv: missing column(s) {', '.join(missing)}")
    window = gantt_table(jobs, window_jobs, begin)
    columns = ["row", "start", "end", "partner", "utilization", "partner_utilization"]
    if window.empty:
        return pd.DataFrame(columns=columns)
    shown_from, shown_to = float(window["start"].min()), float(window["end"].max())
    changes = pairs.assign(time_s=pd.to_numeric(pairs["time_s"]), row=pd.to_numeric(pairs["row"]).astype(int),
                           partner=pd.to_numeric(pairs["partner"], errors="coerce"))
    alone = ("alone", None, None)
    table = []
    for row in range(rows):
        mine = changes[changes["row"] == row].sort_values("time_s", kind="stable")
        states = [(float("-inf"), alone)] + [
            (c.time_s, alone if pd.isna(c.partner) else (f"row {int(c.partner)}", c.utilization, c.partner_utilization))
            for c in mine.itertuples(index=False)]
        for since, until, (partner, use, partner_use) in _stretches(states, float("inf"), shown_from, shown_to):
            table.append({"row": row, "start": since, "end": until, "partner": partner, "utilization": use,
                          "partner_utilization": partner_use})
    return pd.DataFrame(table, columns=columns)


def paired_rows_figure(table: pd.DataFrame, rows: int, title: str) -> Figure:
    """A lane per row, coloured by its partner over time (grey while it runs alone)."""
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.4 * max(1, rows)), layout="constrained")
    colours = plt.get_cmap("tab20").colors  # a colour per row (mpl is at most 16)

    def row_of(partner: str) -> int:  # `row k` -> k; alone first
        return -1 if partner == "alone" else int(partner.split()[1])

    for partner in sorted(table["partner"].unique(), key=row_of):
        bars = table[table["partner"] == partner]
        colour = "lightgrey" if partner == "alone" else colours[row_of(partner)]
        ax.barh(bars["row"], bars["end"] - bars["start"], left=bars["start"], height=0.8, color=colour,
                linewidth=0, label=f"with {partner}" if partner != "alone" else "alone")
    _label_lanes(ax, [f"row {r}" for r in range(rows)], "matrix row", "partner", title)
    return fig
