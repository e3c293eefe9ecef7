"""`report`: picks the figures a sweep's data supports, and writes for each a PNG, the CSV it was
drawn from (same name) and a section of report.md showing both."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.figure import Figure

from . import figures, tables
from .roles import find_roles
from .contract import axis_columns, load_results, load_timelines, load_total_threads


@dataclass
class Section:
    name: str  # file stem of the PNG and CSV
    title: str
    description: str
    table: pd.DataFrame
    figure: Figure | None  # None for a table-only section
    extra_tables: dict[str, pd.DataFrame] | None = None  # shown in report.md instead of `table`


def build_sections(sweep_dir: Path, load=None, variant=None, baseline=None, compare=None, timelines: int = 4):
    """Returns (sections, notes, header): the figures this sweep supports, a line for each one it
    does not, and the lines that open report.md (the sweep and the roles of its axes)."""
    results = load_results(sweep_dir)
    axes = axis_columns(results)
    roles = find_roles(results, load=load, variant=variant, baseline=baseline, compare=compare)
    total_threads = load_total_threads(sweep_dir, list(results["run_id"]))
    if total_threads is not None:
        results[tables.TOTAL_THREADS] = total_threads.to_numpy()
    cpus = tables.cpus_column(results)
    jobs, classes = tables.job_and_class_tables(results, roles)
    time_unit = str(results["time_unit"].iloc[0]) if "time_unit" in results.columns else "time unit"
    sections: list[Section] = []
    notes: list[str] = []

    def skip(what: str, why: str) -> None:
        notes.append(f"{what}: not drawn, {why}.")

    pairs = ", ".join(f"{x} vs {y}" for x, y in roles.comparisons)
    has_ssr = "ssr" in classes.columns and classes["ssr"].notna().any()
    if roles.load is None:
        skip("SSR / speedup against load, thread surplus", "no numeric axis varies (choose one with --load)")
    else:
        if has_ssr:
            table = tables.ssr_vs_load(classes, roles)
            sections.append(Section(
                "ssr_vs_load", "SSR against load",
                f"Successful-spin rate (percent) of each job class against `{roles.load}` "
                "(Tsafrir figures 3.x, 4.1, 7.x, 8.1). The dotted line is the 50% threshold (thesis 4.6).",
                table, figures.ssr_vs_load_figure(table, roles.load)))
        else:
            skip("SSR against load", "no run has an SSR (nothing spun)")
        if roles.variant is not None:
            table = tables.speedup_vs_load(classes, roles, axes)
            sections.append(Section(
                "speedup_vs_load", f"Speedup against load: `{roles.variant}`, {pairs}",
                "Relative improvement in completion time (Tsafrir 7.7.2): (T(Y) - T(X)) / T(Y) "
                "x 100 for each comparison `X vs Y`, positive when X is faster; per job class, paired by seed.",
                table, figures.speedup_vs_load_figure(table, roles.load)))
        else:
            skip("speedup against load", "no second axis to compare (choose one with --variant)")
        threads = tables.TOTAL_THREADS if total_threads is not None else roles.load
        counted = "the total thread count (nosync + threads x copies, from runs/*/summary.json)"
        if threads == roles.load:
            counted = f"`{roles.load}` as the thread count (no runs/*/summary.json to count threads)"
        counts = pd.to_numeric(results[threads], errors="coerce")
        above = bool(cpus) and (counts > pd.to_numeric(results[cpus])).any()
        if above and has_ssr:
            table = tables.ssr_above_cpus(classes, roles, cpus, threads)
            sections.append(Section(
                "ssr_above_cpus", "Average SSR over the loads above the CPU count",
                "Per curve, the mean over the loads with more threads than CPUs of the load's SSR (percent; "
                "its mean over seeds), and the absolute deviation (1/n) sum |SSR_i - avg| over those loads "
                f"(Tsafrir 7.7.1), with {counted}.",
                table, None))
        if above and roles.variant is not None:
            table = tables.speedup_above_cpus(classes, roles, axes, cpus, threads)
            sections.append(Section(
                "speedup_above_cpus", f"Average speedup over the loads above the CPU count: {pairs}",
                "Per comparison and curve, the mean over the loads with more threads than CPUs of the load's "
                "speedup (percent, paired by seed, then its mean over seeds), and its absolute deviation "
                f"(Tsafrir 7.7.2, 7.7.3), with {counted}.",
                table, None))
        if not above:
            skip("averages over the loads above the CPU count", "no run with more threads than CPUs")
        if has_ssr and above:
            table = tables.thread_surplus(classes, roles, cpus, threads)
            sections.append(Section(
                "thread_surplus", "Thread surplus with SSR > 50%",
                "Largest n such that every thread count in (CPUs, CPUs + n] has SSR > 50% (Tsafrir 4.6, 8.3), "
                f"with {counted}; ssr_avg and ssr_min over those runs.",
                table, figures.thread_surplus_figure(table)))
        else:
            skip("thread surplus", "no run with more threads than CPUs, or no SSR")
    if roles.variant is not None and roles.load is None:
        table = tables.speedup_bars(results, roles, axes)
        sections.append(Section(
            "speedup_bars", f"Speedup per scheduler and job length: `{roles.variant}`, {pairs}",
            "Relative improvement in total execution time (makespan) over the baseline, paired by seed "
            "(Brim & Miller figure 3).",
            table, figures.speedup_bars_figure(table)))
    elif roles.load is None:
        skip("speedup bars", "no variant axis")
    if any(c.startswith("time.") for c in jobs.columns):
        table = tables.state_breakdown(jobs, roles)
        sections.append(Section(
            "state_breakdown", "Job-state breakdown",
            "Share of the jobs' time in each state (Brim & Miller figure 4): per run, each state's "
            "per-process time summed over the job instances, over the sum of the five states.",
            table, figures.state_breakdown_figure(table)))
    else:
        skip("job-state breakdown", "no job.*.time.* columns (smp runs have none)")
    if roles.wait is not None:
        table = tables.waiting_algorithms(results, roles, axes)
        sections.append(Section(
            "waiting_algorithms", "Waiting algorithms",
            f"Execution time (makespan, {time_unit}) and slowdown T(algorithm) / T({roles.wait_baseline}) "
            "under the same scheduler, job length and seed, mean over seeds (Brim & Miller Table 1 layout). "
            "waiting_algorithms.csv has the standard deviations.",
            table, None, tables.waiting_algorithms_layout(table)))
    else:
        skip("waiting-algorithm table", "no varying axis ending in `wait` or `wait.algorithm`")
    found = load_timelines(sweep_dir, list(results["run_id"].astype(str)))
    for run_id, timeline in list(found.items())[:timelines]:
        lanes = tables.thread_state_lanes(timeline)
        sections.append(Section(
            f"timeline_{run_id}", f"State timeline of run {run_id}",
            f"One lane per thread or process, from runs/{run_id}/timeline.csv (Tsafrir figures 4.2, 7.3).",
            lanes, figures.state_timeline_figure(lanes, time_unit, f"Run {run_id}")))
    if not found:
        skip("state timelines", "no runs/<run_id>/timeline.csv (set output.timeline: true)")
    elif len(found) > timelines:
        notes.append(f"state timelines: {len(found) - timelines} more runs have one (raise --timelines).")
    header = [
        f"Sweep `{sweep_dir}`: {len(results)} runs, {results['seed'].nunique()} seed(s), "
        f"axes {', '.join(f'`{a}`' for a in axes) or 'none'}.",
        *roles.described(),
        "Values over seeds are mean ± sample standard deviation (ddof=1).",
    ]
    return sections, notes, header


def markdown_table(table: pd.DataFrame, index: bool = False) -> str:
    """A GitHub-flavoured markdown table; numbers with 4 significant digits, empty for null."""
    if index:
        table = table.reset_index()

    def cell(value) -> str:
        if isinstance(value, float):
            return "" if pd.isna(value) else f"{value:.4g}"
        return str(value).replace("|", "\\|")

    lines = ["| " + " | ".join(str(c) for c in table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return "\n".join(lines)


def write_report(sweep_dir: Path, out_dir: Path, **options) -> list[Path]:
    """Writes the PNGs, CSVs and report.md; returns the files written."""
    sections, notes, header = build_sections(Path(sweep_dir), **options)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    lines = ["# cosched sweep report", "", *[f"- {line}" for line in header], ""]
    for section in sections:
        csv = out_dir / f"{section.name}.csv"
        section.table.to_csv(csv, index=False)
        written.append(csv)
        lines += [f"## {section.title}", "", section.description, ""]
        if section.figure is not None:
            png = out_dir / f"{section.name}.png"
            section.figure.savefig(png, dpi=120)
            plt.close(section.figure)
            written.append(png)
            lines += [f"![{section.title}]({png.name})", ""]
        lines += [f"Data: [{csv.name}]({csv.name})", ""]
        if section.extra_tables:
            for caption, table in section.extra_tables.items():
                lines += [f"Job length `{caption}`:", "", markdown_table(table, index=True), ""]
        else:
            lines += [markdown_table(section.table), ""]
    if notes:
        lines += ["## Not drawn", "", *[f"- {note}" for note in notes], ""]
    report = out_dir / "report.md"
    report.write_text("\n".join(lines))
    written.append(report)
    return written
