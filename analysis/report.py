"""`report`: picks the figures a sweep's data supports, and writes for each a PNG, the CSV it was
drawn from (same name) and a section of report.md showing both; report.html is the same report as one
self-contained web page. Several sweep directories of one study
(the same axes) are reported as one sweep. smp and now sweeps get the figures of SECTION_TABLE, numa
sweeps those of NUMA_SECTION_TABLE (the SSS-CORE study, numa.py)."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from . import figures, numa, streams, tables
from .contract import axis_columns, load_sweeps, load_timeline, load_total_threads, timeline_paths, varying
from .roles import Roles, find_roles


@dataclass
class Section:
    name: str  # file stem of the PNG and CSV
    title: str
    description: str
    table: pd.DataFrame
    figure: Figure | None  # None for a table-only section
    extra_tables: dict[str, pd.DataFrame] | None = None  # shown in report.md instead of `table`
    shown: pd.DataFrame | None = None  # a wider layout of `table`, shown in report.md instead of it
    per_run: bool = False  # a figure of one run (a timeline, a Gantt chart): among the details, after the rest


@dataclass
class Sweep:
    """What the section builders read: the sweep's tables, the roles of its axes, and the facts that
    decide which figures the data supports (computed once, shared by every builder)."""

    directories: list[Path]
    folders: dict[str, Path]  # run id -> the sweep directory holding its runs/<run_id>/
    results: pd.DataFrame
    axes: list[str]
    roles: Roles
    jobs: pd.DataFrame
    classes: pd.DataFrame
    cpus: str | None  # the column giving the CPU count
    threads: str | None  # the column counting a run's threads (None without a load axis)
    counted: str  # how report.md says the threads were counted
    has_ssr: bool
    above_cpus: bool  # some run has more threads than CPUs (only asked with a load axis)
    time_unit: str
    study: numa.Study | None = None  # numa runs: the SSS-CORE study's parts

    @property
    def has_load(self) -> bool:
        return self.roles.load is not None

    @property
    def has_variant(self) -> bool:
        return self.roles.variant is not None

    @property
    def has_wait(self) -> bool:
        return self.roles.wait is not None

    @property
    def has_states(self) -> bool:
        """Job-state times: now runs have them, smp runs do not."""
        return any(c.startswith("time.") for c in self.jobs.columns)

    @property
    def pairs(self) -> str:
        """The comparisons as section titles name them: `2CS+ vs CS, CS+ vs CS`."""
        return ", ".join(f"{x} vs {y}" for x, y in self.roles.comparisons)


def load_sweep(sweep_dirs: Path | list[Path], **role_choices) -> Sweep:
    """Reads the sweep (or the sweeps, as one), assigns the roles (RoleError for a choice the data
    cannot honour) and works out the facts the section table tests."""
    directories = [Path(sweep_dirs)] if isinstance(sweep_dirs, (str, Path)) else [Path(d) for d in sweep_dirs]
    results, folders = load_sweeps(directories)
    roles = find_roles(results, **role_choices)
    total_threads = load_total_threads(folders, list(results["run_id"]))
    if total_threads is not None:
        results[tables.TOTAL_THREADS] = total_threads.to_numpy()
    cpus = tables.cpus_column(results)
    jobs, classes = tables.job_and_class_tables(results, roles)
    threads = tables.TOTAL_THREADS if total_threads is not None else roles.load
    counted = "the total thread count (nosync + threads x copies, from runs/*/summary.json)"
    if threads == roles.load:
        counted = f"`{roles.load}` as the thread count (no runs/*/summary.json to count threads)"
    return Sweep(
        directories=directories,
        folders=folders,
        results=results,
        axes=axis_columns(results),
        roles=roles,
        jobs=jobs,
        classes=classes,
        cpus=cpus,
        threads=threads,
        counted=counted,
        has_ssr="ssr" in classes.columns and bool(classes["ssr"].notna().any()),
        above_cpus=roles.load is not None and _some_run_above_cpus(results, threads, cpus),
        time_unit=str(results["time_unit"].iloc[0]) if "time_unit" in results.columns else "time unit",
        study=numa.study(results) if numa.is_numa(results) else None,
    )


def _some_run_above_cpus(results: pd.DataFrame, threads: str, cpus: str | None) -> bool:
    """Whether the averages over the loads above the CPU count and the thread surplus have any run
    to measure: they are about more threads than CPUs (thesis 4.6, 7.7.1)."""
    counts = pd.to_numeric(results[threads], errors="coerce")
    return bool(cpus) and bool((counts > pd.to_numeric(results[cpus])).any())


def not_drawn(what: str, why: str) -> str:
    """The line of report.md's `Not drawn` list for a figure the data does not support."""
    return f"{what}: not drawn, {why}."


def _ssr_vs_load(sweep: Sweep) -> Section:
    table = tables.ssr_vs_load(sweep.classes, sweep.roles)
    return Section(
        "ssr_vs_load", "SSR against load",
        f"Successful-spin rate (percent) of each job class against `{sweep.roles.load}` "
        "(Tsafrir figures 3.x, 4.1, 7.x, 8.1). The dotted line is the 50% threshold (thesis 4.6).",
        table, figures.ssr_vs_load_figure(table, sweep.roles.load))


def _speedup_vs_load(sweep: Sweep) -> Section:
    table = tables.speedup_vs_load(sweep.classes, sweep.roles, sweep.axes)
    return Section(
        "speedup_vs_load", f"Speedup against load: `{sweep.roles.variant}`, {sweep.pairs}",
        "Relative improvement in completion time (Tsafrir 7.7.2): (T(Y) - T(X)) / T(Y) "
        "x 100 for each comparison `X vs Y`, positive when X is faster; per job class, paired by seed.",
        table, figures.speedup_vs_load_figure(table, sweep.roles.load))


def _ssr_above_cpus(sweep: Sweep) -> Section:
    table = tables.ssr_above_cpus(sweep.classes, sweep.roles, sweep.cpus, sweep.threads)
    return Section(
        "ssr_above_cpus", "Average SSR over the loads above the CPU count",
        "Per curve, the mean over the loads with more threads than CPUs of the load's SSR (percent; "
        "its mean over seeds), and the absolute deviation (1/n) sum |SSR_i - avg| over those loads "
        f"(Tsafrir 7.7.1), with {sweep.counted}.",
        table, None)


def _speedup_above_cpus(sweep: Sweep) -> Section:
    table = tables.speedup_above_cpus(sweep.classes, sweep.roles, sweep.axes, sweep.cpus, sweep.threads)
    return Section(
        "speedup_above_cpus", f"Average speedup over the loads above the CPU count: {sweep.pairs}",
        "Per comparison and curve, the mean over the loads with more threads than CPUs of the load's "
        "speedup (percent, paired by seed, then its mean over seeds), and its absolute deviation "
        f"(Tsafrir 7.7.2, 7.7.3), with {sweep.counted}.",
        table, None)


def _thread_surplus(sweep: Sweep) -> Section:
    table = tables.thread_surplus(sweep.classes, sweep.roles, sweep.cpus, sweep.threads)
    return Section(
        "thread_surplus", "Thread surplus with SSR > 50%",
        "Largest n such that every thread count in (CPUs, CPUs + n] has SSR > 50% (Tsafrir 4.6, 8.3), "
        f"with {sweep.counted}; ssr_avg and ssr_min over those runs.",
        table, figures.thread_surplus_figure(table))


def _speedup_bars(sweep: Sweep) -> Section:
    table = tables.speedup_bars(sweep.results, sweep.roles, sweep.axes)
    return Section(
        "speedup_bars", f"Speedup per scheduler and job length: `{sweep.roles.variant}`, {sweep.pairs}",
        "Relative improvement in total execution time (makespan) over the baseline, paired by seed "
        "(Brim & Miller figure 3).",
        table, figures.speedup_bars_figure(table))


def _slowdown_bars(sweep: Sweep) -> Section:
    table = tables.slowdown_bars(sweep.results, sweep.roles, sweep.axes)
    return Section(
        "slowdown_bars", f"Slowdown per setting: `{sweep.roles.variant}`, {sweep.pairs}",
        "Total execution time (makespan) of X over that of Y, T(X) / T(Y), for each comparison `X vs Y`, "
        "per setting of the other varying axes, paired by seed: the mean over seeds, with the range (least "
        "to largest) as the error bar (Brim & Miller's slowdowns against gang scheduling).",
        table, figures.slowdown_bars_figure(table))


def _state_breakdown(sweep: Sweep) -> Section:
    table = tables.state_breakdown(sweep.jobs, sweep.roles)
    return Section(
        "state_breakdown", "Job-state breakdown",
        "Share of the jobs' time in each state (Brim & Miller figure 4): per run, each state's "
        "per-process time summed over the job instances, over the sum of the five states.",
        table, figures.state_breakdown_figure(table))


def _waiting_algorithms(sweep: Sweep) -> Section:
    table = tables.waiting_algorithms(sweep.results, sweep.roles, sweep.axes)
    return Section(
        "waiting_algorithms", "Waiting algorithms",
        f"Execution time (makespan, {sweep.time_unit}) and slowdown T(algorithm) / T({sweep.roles.wait_baseline}) "
        "under the same scheduler, job length and seed, mean over seeds (Brim & Miller Table 1 layout). "
        "waiting_algorithms.csv has the standard deviations.",
        table, None, tables.waiting_algorithms_layout(table))


def _noted(what: str, why: str) -> Callable[[Sweep], str]:
    """A builder giving the `Not drawn` line of a figure the data does not support."""
    return lambda sweep: not_drawn(what, why)


# The figures and tables in report.md's order: each entry is (when, build), and build gives the
# section, or the `Not drawn` line saying why a figure is missing. Every entry whose `when` holds
# contributes, so a figure has one entry for when it is drawn and one for when its absence is noted.
SECTION_TABLE: list[tuple[Callable[[Sweep], bool], Callable[[Sweep], Section | str]]] = [
    (lambda s: not s.has_load,
     _noted("SSR / speedup against load, thread surplus", "no numeric axis varies (choose one with --load)")),
    (lambda s: s.has_load and s.has_ssr, _ssr_vs_load),
    (lambda s: s.has_load and not s.has_ssr, _noted("SSR against load", "no run has an SSR (nothing spun)")),
    (lambda s: s.has_load and s.has_variant, _speedup_vs_load),
    (lambda s: s.has_load and not s.has_variant,
     _noted("speedup against load", "no second axis to compare (choose one with --variant)")),
    (lambda s: s.has_load and s.above_cpus and s.has_ssr, _ssr_above_cpus),
    (lambda s: s.has_load and s.above_cpus and s.has_variant, _speedup_above_cpus),
    (lambda s: s.has_load and not s.above_cpus,
     _noted("averages over the loads above the CPU count", "no run with more threads than CPUs")),
    (lambda s: s.has_load and s.has_ssr and s.above_cpus, _thread_surplus),
    (lambda s: s.has_load and not (s.has_ssr and s.above_cpus),
     _noted("thread surplus", "no run with more threads than CPUs, or no SSR")),
    (lambda s: not s.has_load and s.has_variant, _speedup_bars),
    (lambda s: not s.has_load and s.has_variant, _slowdown_bars),
    (lambda s: not s.has_load and not s.has_variant, _noted("speedup and slowdown bars", "no variant axis")),
    (lambda s: s.has_states, _state_breakdown),
    (lambda s: not s.has_states, _noted("job-state breakdown", "no job.*.time.* columns (smp runs have none)")),
    (lambda s: s.has_wait, _waiting_algorithms),
    (lambda s: not s.has_wait,
     _noted("waiting-algorithm table", "no varying axis ending in `wait` or `wait.algorithm`")),
]


def _slug(label: str) -> str:
    """A file-name stem from a label: `A, network=shared` -> `A_network-shared`."""
    return re.sub(r"[^A-Za-z0-9._+-]+", "-", label.replace(", ", "_")).strip("-")


def _per_set(table: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The table's part for each process set (and group of the other varying axes), in the runs' order."""
    return [
        (numa.set_label(set_, group), part.reset_index(drop=True))
        for (set_, group), part in table.groupby(["set", "group"], sort=False)
    ]


NUMA_RATES = (
    "Nobukuni figures 5.1-5.4 (5.1 set A, 5.2 K, 5.3 L, 5.4 M): a panel per network (w488 upper, w4444 "
    "lower), a group per allocation policy; in each group strategy0's net, calibrated and maximum effective "
    "execution rates, then strategy1's (chapter 5 paragraph 3; which bar shows which rate the thesis does not "
    "say: the legend names them). Percent of T', the processor time without disk time (A26): net = E / T', "
    "calibrated = net x (1 + I / T'), maximum = (E + I) / T'."
)


def _numa_rates(sweep: Sweep) -> list[Section]:
    table = numa.rates_table(sweep.study.frame)
    return [
        Section(f"numa_rates_{_slug(label)}", f"Effective execution rates: process set {label}", NUMA_RATES, part,
                figures.numa_rates_figure(part, f"Process set {label}: effective execution rates"),
                shown=numa.wide(part, ["network", "policy"], ["strategy", "rate"]))
        for label, part in _per_set(table)
    ]


NUMA_BREAKDOWN = (
    "The execution-time breakdown (Nobukuni table 5.4's quantities, here for every network and strategy): "
    "the share of T' each policy and strategy spends effective, in synchronization, in communication and "
    "idle (adding up to 100%); disk time is not part of T' (table 5.4's footnote, \"Disk assessing time is "
    "not included\") and its share of T' is written above each bar and listed as `disk`."
)


def _numa_breakdown(sweep: Sweep) -> list[Section]:
    table = numa.breakdown_table(sweep.study.frame)
    return [
        Section(f"numa_breakdown_{_slug(label)}", f"Execution-time breakdown: process set {label}", NUMA_BREAKDOWN,
                part, figures.numa_breakdown_figure(part, f"Process set {label}: execution-time breakdown"),
                shown=numa.wide(part, ["network", "policy", "strategy"], ["state"]))
        for label, part in _per_set(table)
    ]


def _numa_table_5_4(sweep: Sweep) -> Section | str:
    table = numa.table_5_4(sweep.study.frame)
    if table.empty:
        return not_drawn("table 5.4 layout", "no w488 strategy1 runs (the table's setting)")
    return Section(
        "numa_table_5_4", "Execution-time breakdown, table 5.4 layout (w488, strategy1)",
        "Nobukuni table 5.4's layout: per process set the rows Max = (E + I) / T' (the maximum rate), "
        "Sync = S / T' and Comm = M / T' in percent, a column per allocation policy; disk time is not "
        "included (the table's footnote). The thesis's numbers are withheld from our copy.",
        table, None)


def _numa_table_5_5(sweep: Sweep) -> Section | str:
    table = numa.table_5_5(sweep.study.frame)
    if table.empty:
        return not_drawn("table 5.5", "no policy4 run on w488 (the table's setting)")
    return Section(
        "numa_table_5_5", "Pages replaced by class, table 5.5 layout (policy4, w488)",
        "Evictions by the victim's class (Nobukuni 4.4, table 5.5), per replacement strategy and process set: "
        "cosched's runs (mean over seeds) and, below each, the thesis's own row for that set and strategy, "
        f"labelled `{numa.THESIS_LABEL}`. copies_percent: the copy pages' share (other's and own copy) of the "
        "evictions. The thesis's runs last 100 slices or until a process finishes; a run with fewer slices "
        "(a --quick sweep) evicts fewer pages.",
        table, None)


def _numa_claims(sweep: Sweep) -> Section:
    short = numa.short_runs(sweep.study.frame)
    return Section(
        "numa_claims", "The thesis's claims against these runs" + (" (short runs: indicative only)" if short else ""),
        ("**Short runs:** " + short + ". " if short else "")
        + "Claims C1, C5, C6, C7, C8 and C10 (statements of Nobukuni's thesis, chapter 5, quoted in "
        "docs/reproductions.md, \"The seed claims, and cosched\"), each checked on the runs (values averaged over seeds first): `agree` counts the comparisons "
        "that agree, `verdict` is `holds` when all do, `fails` when one does not, `not checked` when the "
        "runs have nothing to compare (`on short runs` when the runs are shorter than the thesis's 100 time "
        "slices); `detail` lists the comparisons that disagree (and C8's and C10's values).",
        numa.claims_table(sweep.study.frame), None)


NUMA_CONSISTENCY_RATES = (
    "Beyond the thesis (its future work, 5.3 and chapter 6; docs/models/numa.md 6.7): the net, calibrated and "
    "maximum effective execution rates (percent of T', chapter 5 paragraph 3) of each allocation policy under "
    "the thesis's sequential consistency and under release consistency (`memory.consistency`), as figures "
    "5.1-5.4 lay out the two strategies: a panel per network, a group per policy, in each group the three "
    "rates of each consistency model, in the runs' order."
)


def _numa_consistency_rates(sweep: Sweep) -> list[Section]:
    table = numa.consistency_rates_table(sweep.study)
    sections = []
    for (set_, group, strategy), part in table.groupby(["set", "group", "strategy"], sort=False):
        label = f"{numa.set_label(set_, group)}, {strategy}"
        part = part.reset_index(drop=True)
        sections.append(Section(
            f"numa_consistency_rates_{_slug(label)}", f"Effective execution rates by consistency: process set {label}",
            NUMA_CONSISTENCY_RATES, part,
            figures.numa_rates_figure(part, f"Process set {label}: sequential against release consistency",
                                      series="consistency"),
            shown=numa.wide(part, ["network", "policy"], ["consistency", "rate"])))
    return sections


NUMA_WRITE_SHARE = (
    "Beyond the thesis: the {what} against the share of writes among the shared-space references "
    "(`workload.shared_table.write`; the thesis gives no access mix, A5), a line per consistency model "
    "(`memory.consistency`: sequential, the thesis's, where each shared write to a page with other copies "
    "waits for every acknowledgement, 4.2.4; release, the future work of 5.3). Percent of T', the processor "
    "time without disk time (A26). The mix axes that take one value per write share (the read share zipped "
    "with it) move with it and draw no lines of their own."
)


def _numa_write_share(sweep: Sweep) -> list[Section]:
    rates = numa.write_share_rates_table(sweep.study)
    breakdown = numa.write_share_breakdown_table(sweep.study)
    sections = []
    for (set_, group), part in rates.groupby(["set", "group"], sort=False):
        label = numa.set_label(set_, group)
        part = part.reset_index(drop=True)
        sections.append(Section(
            f"numa_write_share_rates_{_slug(label)}", f"Effective execution rates against the write share: process set {label}",
            NUMA_WRITE_SHARE.format(what="net, calibrated and maximum effective execution rates (chapter 5 paragraph 3)"),
            part, figures.numa_write_share_rates_figure(part, f"Process set {label}: rates against the shared write share"),
            shown=numa.wide(part, ["network", "policy", "strategy", "write_share"], ["consistency", "rate"])))
    for (set_, group), part in breakdown.groupby(["set", "group"], sort=False):
        label = numa.set_label(set_, group)
        part = part.reset_index(drop=True)
        states = numa.WRITE_SHARE_STATES
        sections.append(Section(
            f"numa_write_share_breakdown_{_slug(label)}", f"Synchronization and communication against the write share: process set {label}",
            NUMA_WRITE_SHARE.format(what="shares of T' spent in synchronization and in communication (table 5.4's "
                                    "Sync and Comm)") + " The CSV also holds the effective, idle and disk shares.",
            part, figures.numa_write_share_breakdown_figure(
                part, f"Process set {label}: synchronization and communication against the shared write share", states),
            shown=numa.wide(part[part["state"].isin(states)], ["network", "policy", "strategy", "write_share"],
                            ["consistency", "state"])))
    return sections


NUMA_SENSITIVITY = (
    "The sensitivity map (issue 32; `sweeps/nobukuni-sensitivity-a.yaml`): the two values the thesis does not "
    "give, the share of writes among the shared-space references (`workload.shared_table.write`, A5) and the "
    "share of a process's shared pages its references go to (`workload.shared_table.hot_pages`, A3), against "
    "policy4's maximum rate and communication share (percent of T', mean over seeds), the policy with the "
    "highest maximum rate, and, cell by cell, whether C1 holds by the maximum rate (policy4 above every other "
    "policy), C5 (page transfers policy2 > policy3 > policy4) and C10 (policy4's maximum rate within 65-85%)."
)


def _numa_sensitivity(sweep: Sweep) -> list[Section]:
    table = numa.sensitivity_map(sweep.study)
    sections = []
    for (set_, group, network, strategy), part in table.groupby(["set", "group", "network", "strategy"], sort=False):
        label = f"{numa.set_label(set_, group)}, {network}, {strategy}"
        part = part.reset_index(drop=True)
        sections.append(Section(
            f"numa_sensitivity_{_slug(label)}", f"Sensitivity map: process set {label}", NUMA_SENSITIVITY, part,
            figures.numa_sensitivity_figure(part, f"Process set {label}")))
    return sections


def _per_configuration_figures(sweep: Sweep) -> bool:
    """The study's rates and breakdown figures, one per set and group: not when the write share varies,
    where each write share would be a group of its own (its write-share figures draw them as lines)."""
    return not numa.varies_write_share(sweep.study)


# The SSS-CORE study's figures and tables (numa runs), in report.md's order, as SECTION_TABLE.
NUMA_SECTION_TABLE: list[tuple[Callable[[Sweep], bool], Callable[[Sweep], Section | list[Section] | str]]] = [
    (_per_configuration_figures, _numa_rates),
    (_per_configuration_figures, _numa_breakdown),
    (lambda s: not _per_configuration_figures(s),
     _noted("rates and breakdown per process set and group",
            f"`{numa.WRITE_SHARE}` varies: its write-share figures draw each group's values as lines")),
    (lambda s: numa.varies_consistency(s.study) and not numa.varies_write_share(s.study), _numa_consistency_rates),
    (lambda s: not numa.varies_consistency(s.study),
     _noted("rates by consistency", f"`{numa.CONSISTENCY}` does not vary")),
    (lambda s: numa.varies_consistency(s.study) and numa.varies_write_share(s.study),
     _noted("rates by consistency", f"`{numa.WRITE_SHARE}` varies too: its figures draw a line per consistency")),
    (lambda s: numa.varies_write_share(s.study), _numa_write_share),
    (lambda s: not numa.varies_write_share(s.study),
     _noted("rates and breakdown against the write share", f"`{numa.WRITE_SHARE}` does not vary")),
    (lambda s: numa.varies_write_share(s.study) and numa.varies_hot_set(s.study), _numa_sensitivity),
    (lambda s: not (numa.varies_write_share(s.study) and numa.varies_hot_set(s.study)),
     _noted("sensitivity map", f"`{numa.WRITE_SHARE}` and `{numa.HOT_SET}` do not both vary")),
    (lambda s: True, _numa_table_5_4),
    (lambda s: True, _numa_table_5_5),
    (lambda s: True, _numa_claims),
]


STREAM_AGAINST_LOAD = (
    "{what} of the stream's jobs against offered load (`{load}`), one curve per job scheduler (and "
    "multiprogramming level), mean over seeds with a min-max band (docs/models/now-streams.md)."
)


def _stream_against_load(sweep: Sweep) -> list[Section]:
    load = streams.load_column(sweep.results)
    sections = []
    for metric, (stem, what) in streams.METRICS.items():
        table = streams.against_load(sweep.results, metric)
        sections.append(Section(stem, f"{what[0].upper()}{what[1:]} against offered load",
                                STREAM_AGAINST_LOAD.format(what=what[0].upper() + what[1:], load=load), table,
                                streams.against_load_figure(table, metric, f"offered load ({load})")))
    return sections


def _gantt_run_folders(sweep: Sweep, needs: str | None = None):
    """(scheduler, run id, load, run folder) of each Gantt chart's run (streams.gantt_runs), those whose folder
    has the file `needs` when it is given (classes.csv: fcs's runs; pairs.csv: paired gang's)."""
    for scheduler, run_id, load in streams.gantt_runs(sweep.results):
        folder = sweep.folders[run_id] / "runs" / run_id
        if needs is None or (folder / needs).is_file():
            yield scheduler, run_id, load, folder


def _stream_gantt(sweep: Sweep) -> list[Section]:
    sections = []
    for scheduler, run_id, load, folder in _gantt_run_folders(sweep):
        table = streams.gantt_table(streams.load_jobs(folder))
        sections.append(Section(
            f"stream_gantt_{_slug(scheduler)}", f"Which job ran where: {scheduler}, load {load:g}",
            f"Run {run_id} (its lowest seed at the highest load): each job's bars on its workstations (jobs.csv "
            f"`workstations`) from the submit of the job that waited longest, the busiest moment, over the "
            f"{streams.GANTT_JOBS} jobs to start from then, until the next one starts.",
            table, streams.gantt_figure(table, f"{scheduler}, load {load:g}, run {run_id}"), per_run=True))
    return sections


def _stream_fcs_classes(sweep: Sweep) -> list[Section]:
    sections = []
    for scheduler, run_id, load, folder in _gantt_run_folders(sweep, needs="classes.csv"):
        table = streams.fcs_class_table(streams.load_jobs(folder), streams.load_classes(folder))
        sections.append(Section(
            f"stream_fcs_classes_{_slug(scheduler)}", f"Each job's class over time: {scheduler}, load {load:g}",
            f"Run {run_id}, the Gantt chart's jobs and window: the class most of each job's processes were in "
            f"(classes.csv; every process starts CS), CS needing coscheduling, F frustrated, DC don't-care.",
            table, streams.fcs_class_figure(table, f"{scheduler}, load {load:g}, run {run_id}"), per_run=True))
    return sections


def _stream_paired_rows(sweep: Sweep) -> list[Section]:
    sections = []
    for scheduler, run_id, load, folder in _gantt_run_folders(sweep, needs="pairs.csv"):
        rows = streams.matrix_rows(sweep.results, run_id)
        table = streams.paired_rows_table(streams.load_jobs(folder), streams.load_pairs(folder), rows)
        sections.append(Section(
            f"stream_paired_rows_{_slug(scheduler)}", f"Each row's partner over time: {scheduler}, load {load:g}",
            f"Run {run_id}, the Gantt chart's window: each matrix row's partner as decided at each cycle's start "
            f"(pairs.csv), grey while alone; the CSV gives the utilizations the pairing compared.",
            table, streams.paired_rows_figure(table, rows, f"{scheduler}, load {load:g}, run {run_id}"),
            per_run=True))
    return sections


# Open workloads (stream runs, streams.py), in report.md's order, as SECTION_TABLE.
STREAM_SECTION_TABLE: list[tuple[Callable[[Sweep], bool], Callable[[Sweep], Section | list[Section] | str]]] = [
    (lambda s: True, _stream_against_load),
    (lambda s: True, _stream_gantt),
    (lambda s: True, _stream_fcs_classes),
    (lambda s: True, _stream_paired_rows),
]


# A timeline figure draws at most this many lanes (threads or processes): a run of thousands would make a
# figure no one can read and a file no report should hold.
TIMELINE_LANES = 64


def run_label(sweep: Sweep, run_id: str) -> str:
    """A run named by its values of the sweep's varying axes (`wait.algorithm=block, scheduler.policy=gang`;
    the last two parts of each axis's path) and its seed when there are several."""
    row = sweep.results[sweep.results["run_id"].astype(str) == run_id].iloc[0]
    shown = varying(sweep.results, sweep.axes) + (["seed"] if sweep.results["seed"].nunique() > 1 else [])
    return ", ".join(f"{'.'.join(str(axis).split('.')[-2:])}={row[axis]}" for axis in shown) or f"run {run_id}"


def timeline_sections(sweep: Sweep, timelines: int) -> tuple[list[Section], list[str]]:
    """A section for each of the first `timelines` runs with a timeline.csv (at most TIMELINE_LANES lanes
    each, read from the file's start), and the note saying there are none, or how many more there are."""
    found = timeline_paths(sweep.folders, list(sweep.results["run_id"].astype(str)))
    lane_kind = "process" if "now" in set(sweep.results.get("model", pd.Series(dtype=str)).astype(str)) else "thread"
    sections = []
    for run_id, path in list(found.items())[:timelines]:
        timeline, cut = load_timeline(path, max_lanes=TIMELINE_LANES)
        lanes = tables.thread_state_lanes(timeline)
        label = run_label(sweep, run_id)
        plural = {"process": "processes", "thread": "threads"}[lane_kind]
        shown = f"the lanes of its first {TIMELINE_LANES} {plural}" if cut else f"one lane per {lane_kind}"
        sections.append(Section(
            f"timeline_{run_id}", f"State timeline: {label}",
            f"Run {run_id}: {shown} (job#copy/rank), from runs/{run_id}/timeline.csv (Tsafrir figures 4.2, 7.3; "
            "Brim & Miller's processes likewise).",
            lanes, figures.state_timeline_figure(lanes, sweep.time_unit, label, lane_kind), per_run=True))
    if not found:
        return sections, [not_drawn("state timelines", "no runs/<run_id>/timeline.csv (set output.timeline: true)")]
    if len(found) > timelines:
        return sections, [f"state timelines: {len(found) - timelines} more runs have one (raise --timelines)."]
    return sections, []


def report_header(sweep: Sweep) -> list[str]:
    """The lines that open report.md: the sweep, its axes and the roles they play."""
    results = sweep.results
    named = ", ".join(f"`{d}`" for d in sweep.directories)
    return [
        f"{'Sweep' if len(sweep.directories) == 1 else 'Sweeps'} {named}: {len(results)} runs, "
        f"{results['seed'].nunique()} seed(s), axes {', '.join(f'`{a}`' for a in sweep.axes) or 'none'}.",
        *(sweep.study.described() if sweep.study is not None else sweep.roles.described()),
        "Values over seeds are mean ± sample standard deviation (ddof=1).",
    ]


def build_sections(sweep_dir: Path | list[Path], load=None, variant=None, baseline=None, compare=None,
                   timelines: int = 4):
    """Returns (sections, notes, header): the figures this sweep (or these sweeps, as one) supports,
    a line for each one it does not, and the lines that open report.md (the sweep and the roles of
    its axes)."""
    sweep = load_sweep(sweep_dir, load=load, variant=variant, baseline=baseline, compare=compare)
    table = NUMA_SECTION_TABLE if sweep.study is not None else SECTION_TABLE
    if streams.is_stream(sweep.results):
        table = STREAM_SECTION_TABLE
    built = []
    for when, build in table:
        if when(sweep):
            item = build(sweep)
            built += item if isinstance(item, list) else [item]
    sections = [item for item in built if isinstance(item, Section)]
    notes = [item for item in built if isinstance(item, str)]
    more_sections, more_notes = timeline_sections(sweep, timelines)
    return sections + more_sections, notes + more_notes, report_header(sweep)


def table_number(value: float) -> str:
    """A table's number: 4 significant digits, empty for null; counts such as table 5.5's (414287 pages) in
    full rather than as 4.143e+05. markdown_table and html_table both write their numbers with it."""
    if pd.isna(value):
        return ""
    return f"{value:.0f}" if abs(value) >= 1e4 else f"{value:.4g}"


def markdown_table(table: pd.DataFrame, index: bool = False) -> str:
    """A GitHub-flavoured markdown table; numbers with 4 significant digits, empty for null."""
    if index:
        table = table.reset_index()

    def cell(value) -> str:
        if isinstance(value, float):
            return table_number(value)
        return str(value).replace("|", "\\|")

    lines = ["| " + " | ".join(str(c) for c in table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


def inline_html(text: str) -> str:
    """A line of report.md's inline markdown (`code`, **bold**, [text](link)) as HTML, escaped."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]*)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", out)
    return re.sub(r"\[([^\]]*)\]\(([^)\s]*)\)", r'<a href="\2">\1</a>', out)


def html_table(table: pd.DataFrame, index: bool = False) -> str:
    """An HTML table with the cells of markdown_table (4 significant digits, empty for null)."""
    if index:
        table = table.reset_index()

    def cell(value) -> str:
        if isinstance(value, float):
            return table_number(value)
        return html.escape(str(value))

    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.columns)
    rows = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>\n"
                   for row in table.itertuples(index=False))
    return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>"


# report.html's style: readable offline, no external resource.
HTML_STYLE = """body { font-family: sans-serif; max-width: 72rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
img { max-width: 100%; height: auto; border: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: right; }
th { background: #f3f3f3; }
code { background: #f3f3f3; padding: 0 0.2rem; }"""


# A table of more rows than this is linked (its CSV beside report.md), not shown: a report stays small and
# opens quickly whatever the runs wrote (timelines, long-format breakdowns).
MAX_SHOWN_ROWS = 40


def _parts(section: Section) -> list[tuple[str | None, pd.DataFrame, bool]]:
    """What report.md shows of a section's data: (caption, table, index) for each table, as
    write_report lays them out."""
    if section.extra_tables:
        return [(f"Job length `{caption}`:", table, True) for caption, table in section.extra_tables.items()]
    if section.shown is not None:
        return [("Mean over seeds (percent):", section.shown, False)]
    return [(None, section.table, False)]


def _too_long(section: Section) -> bool:
    return any(len(table) > MAX_SHOWN_ROWS for _, table, _ in _parts(section))


def write_report(sweep_dir: Path | list[Path], out_dir: Path, **options) -> list[Path]:
    """Writes the PNGs, CSVs, report.md and report.html of a sweep directory (or of several, as one
    sweep); returns the files written. Both pages lay the sections out headline first: the tables that are
    sections of their own, then the figures, then the figures' data, then each run's figures (timelines,
    Gantt charts). A table longer than MAX_SHOWN_ROWS is linked, never inlined. report.html holds the same
    sections as report.md, with every figure embedded (a base64 data URI) and every shown table an HTML
    table, so that it reads offline alone (with the CSVs beside it for the linked ones)."""
    sections, notes, header = build_sections(sweep_dir, **options)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    lines = ["# cosched sweep report", "", *[f"- {line}" for line in header], ""]
    page = ["<h1>cosched sweep report</h1>", "<ul>", *[f"<li>{inline_html(line)}</li>" for line in header],
            "</ul>"]
    csvs = {}
    for section in sections:
        csv = out_dir / f"{section.name}.csv"
        section.table.to_csv(csv, index=False)
        written.append(csv)
        csvs[section.name] = csv

    def data(section: Section) -> None:
        """The section's tables, or the link to its CSV when they are too long to show."""
        csv = csvs[section.name]
        if _too_long(section):
            rows = len(section.table)
            lines.extend([f"Data: [{csv.name}]({csv.name}) ({rows} rows, not shown here)", ""])
            page.append(f'<p>Data: <a href="{html.escape(csv.name)}">{html.escape(csv.name)}</a> '
                        f"({rows} rows, beside this page; not shown here)</p>")
            return
        lines.extend([f"Data: [{csv.name}]({csv.name})", ""])
        page.append(f'<p>Data: <a href="{html.escape(csv.name)}">{html.escape(csv.name)}</a> (beside this page)</p>')
        for caption, table, index in _parts(section):
            if caption:
                lines.extend([caption, ""])
                page.append(f"<p>{inline_html(caption)}</p>")
            lines.extend([markdown_table(table, index=index), ""])
            page.append(html_table(table, index=index))

    def heading(title: str, description: str | None, level: int = 2) -> None:
        lines.extend([f"{'#' * level} {title}", ""] + ([description, ""] if description else []))
        page.append(f"<h{level}>{inline_html(title)}</h{level}>")
        if description:
            page.append(f"<p>{inline_html(description)}</p>")

    def figure(section: Section) -> None:
        png = out_dir / f"{section.name}.png"
        section.figure.savefig(png, dpi=120)
        plt.close(section.figure)
        written.append(png)
        lines.extend([f"![{section.title}]({png.name})", ""])
        encoded = base64.b64encode(png.read_bytes()).decode("ascii")
        page.append(f'<p><img alt="{html.escape(section.title)}" src="data:image/png;base64,{encoded}"></p>')

    headline = [s for s in sections if s.figure is None]
    drawn = [s for s in sections if s.figure is not None and not s.per_run]
    per_run = [s for s in sections if s.figure is not None and s.per_run]
    for section in headline:
        heading(section.title, section.description)
        data(section)
    for section in drawn:
        heading(section.title, section.description)
        figure(section)
    if drawn:
        heading("Data of the figures", None)
        for section in drawn:
            heading(section.title, None, level=3)
            data(section)
    if per_run:
        heading("Runs in detail", None)
        for section in per_run:
            heading(section.title, section.description, level=3)
            figure(section)
            data(section)
    if notes:
        lines += ["## Not drawn", "", *[f"- {note}" for note in notes], ""]
        page += ["<h2>Not drawn</h2>", "<ul>", *[f"<li>{inline_html(note)}</li>" for note in notes], "</ul>"]
    report = out_dir / "report.md"
    report.write_text("\n".join(lines))
    written.append(report)
    report_html = out_dir / "report.html"
    report_html.write_text("\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        "<title>cosched sweep report</title>", f"<style>\n{HTML_STYLE}\n</style>", "</head>", "<body>",
        *page, "</body>", "</html>", ""]))
    written.append(report_html)
    return written
