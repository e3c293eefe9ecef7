"""report.md on each fixture: which sections it has and in which order (headline tables, figures, the
figures' data, the runs in detail), and which figures it notes as not drawn. A change to the order or the
choice of sections fails here."""

import shutil

import pandas as pd
import pytest

from analysis.contract import axis_columns
from analysis.report import write_report

SMP_LOAD = [
    "Average SSR over the loads above the CPU count",
    "Average speedup over the loads above the CPU count: 2CS+ vs CS",
    "SSR against load",
    "Speedup against load: `workload.jobs.0.wait.spin`, 2CS+ vs CS",
    "Thread surplus with SSR > 50%",
    "Data of the figures",
    "Runs in detail",
    "Not drawn",
]
SMP_THREADS = [
    "Average SSR over the loads above the CPU count",
    "SSR against load",
    "Thread surplus with SSR > 50%",
    "Data of the figures",
    "Not drawn",
]
# The headline table (B&M's Table 1 layout) before the breakdown figure and its long-format data.
NOW_WAITING = ["Waiting algorithms", "Job-state breakdown", "Data of the figures", "Not drawn"]
NOW_KEEP_ALIVE = [
    "Speedup per scheduler and job length: `workload.jobs.0.barrier.keep_alive`, 0.75 vs off, 0.9 vs off",
    "Slowdown per setting: `workload.jobs.0.barrier.keep_alive`, 0.75 vs off, 0.9 vs off",
    "Data of the figures",
    "Not drawn",
]
NO_LOAD = "SSR / speedup against load, thread surplus: not drawn, no numeric axis varies (choose one with --load)."
NO_SECOND_AXIS = "speedup against load: not drawn, no second axis to compare (choose one with --variant)."
NO_STATES = "job-state breakdown: not drawn, no job.*.time.* columns (smp runs have none)."
NO_WAIT = "waiting-algorithm table: not drawn, no varying axis ending in `wait` or `wait.algorithm`."
NO_BARS = "speedup and slowdown bars: not drawn, no variant axis."
NO_TIMELINE = "state timelines: not drawn, no runs/<run_id>/timeline.csv (set output.timeline: true)."


def headings_and_notes(report: str) -> tuple[list[str], list[str]]:
    lines = report.splitlines()
    headings = [line[3:] for line in lines if line.startswith("## ")]
    notes_from = lines.index("## Not drawn") if "## Not drawn" in lines else len(lines)
    notes = [line[2:] for line in lines[notes_from:] if line.startswith("- ")]
    return headings, notes


@pytest.mark.parametrize(
    "fixture, options, headings, notes",
    [
        ("smp_load", {}, SMP_LOAD, [NO_STATES, NO_WAIT]),
        ("smp_threads", {}, SMP_THREADS, [NO_SECOND_AXIS, NO_STATES, NO_WAIT, NO_TIMELINE]),
        ("now_waiting", {}, NOW_WAITING, [NO_LOAD, NO_BARS, NO_TIMELINE]),
        ("now_keep_alive", {}, NOW_KEEP_ALIVE, [NO_LOAD, NO_STATES, NO_WAIT, NO_TIMELINE]),
        (
            "smp_load",
            {"variant": "none", "timelines": 0},
            ["Average SSR over the loads above the CPU count", "SSR against load", "Thread surplus with SSR > 50%",
             "Data of the figures", "Not drawn"],
            [NO_SECOND_AXIS, NO_STATES, NO_WAIT, "state timelines: 1 more runs have one (raise --timelines)."],
        ),
    ],
)
def test_report_sections_and_notes_in_order(fixtures, tmp_path, fixture, options, headings, notes):
    write_report(fixtures / fixture, tmp_path, **options)
    assert headings_and_notes((tmp_path / "report.md").read_text()) == (headings, notes)


def big_timeline_sweep(fixtures, tmp_path, lanes: int = 200, rows_per_lane: int = 1500):
    """The smp_load fixture with its run's timeline.csv replaced by a long one (lanes x rows_per_lane rows,
    about 9.5 MB): what a NOW sweep with output.timeline writes."""
    sweep = tmp_path / "sweep"
    shutil.copytree(fixtures / "smp_load", sweep)
    rows = ["job,copy,rank,state,start,end,place"]
    for lane in range(lanes):
        for i in range(rows_per_lane):
            rows.append(f"news,{lane // 8},{lane % 8},{'computing' if i % 2 else 'spinning'},{10 * i},{10 * i + 10},{lane % 8}")
    (sweep / "runs" / "5eed000000000001" / "timeline.csv").write_text("\n".join(rows) + "\n")
    return sweep


def test_a_report_stays_small_whatever_the_runs_wrote(fixtures, tmp_path):
    sweep = big_timeline_sweep(fixtures, tmp_path)
    assert (sweep / "runs" / "5eed000000000001" / "timeline.csv").stat().st_size > 9e6
    written = write_report(sweep, tmp_path / "report")
    report, page = tmp_path / "report" / "report.md", tmp_path / "report" / "report.html"
    for path in (report, page):
        assert path.stat().st_size < 5e6, f"{path.name}: {path.stat().st_size} bytes"
    text = report.read_text()
    # The timeline is linked, not inlined, and its figure draws the first 64 lanes and says so.
    assert "Data: [timeline_5eed000000000001.csv](timeline_5eed000000000001.csv) (" in text
    assert "rows, not shown here)" in text
    assert "the lanes of its first 64 threads" in text
    lanes = pd.read_csv(tmp_path / "report" / "timeline_5eed000000000001.csv")
    assert lanes["lane"].nunique() == 64
    assert all(len(line) < 2000 for line in text.splitlines()), "no table of thousands of cells on one line"
    assert tmp_path / "report" / "timeline_5eed000000000001.png" in written


def test_a_timeline_is_titled_with_the_runs_axis_values(fixtures, tmp_path):
    write_report(fixtures / "smp_load", tmp_path)
    text = (tmp_path / "report.md").read_text()
    heading = next(line for line in text.splitlines() if line.startswith("### State timeline: "))
    assert heading.startswith("### State timeline: ") and "=" in heading, heading
    assert "5eed000000000001" not in heading, "the run id is in the description, not the title"


def test_a_duplicated_column_is_no_axis(fixtures):
    results = pd.read_csv(fixtures / "now_waiting" / "results.csv")
    columns = list(results.columns)
    # What pandas makes of a results.csv with `seed` twice (before the axis over seed shared the column).
    results.insert(columns.index("schema_version"), "seed.1", results["seed"])
    assert "seed.1" not in axis_columns(results)
    assert axis_columns(results) == axis_columns(pd.read_csv(fixtures / "now_waiting" / "results.csv"))
