"""report.md on each fixture: which sections it has and in which order, and which figures it notes
as not drawn. A change to the order or the choice of sections fails here."""

import pytest

from analysis.report import write_report

SMP_LOAD = [
    "SSR against load",
    "Speedup against load: `workload.jobs.0.wait.spin`, 2CS+ vs CS",
    "Average SSR over the loads above the CPU count",
    "Average speedup over the loads above the CPU count: 2CS+ vs CS",
    "Thread surplus with SSR > 50%",
    "State timeline of run 5eed000000000001",
    "Not drawn",
]
SMP_THREADS = [
    "SSR against load",
    "Average SSR over the loads above the CPU count",
    "Thread surplus with SSR > 50%",
    "Not drawn",
]
NOW_WAITING = ["Job-state breakdown", "Waiting algorithms", "Not drawn"]
NOW_KEEP_ALIVE = [
    "Speedup per scheduler and job length: `workload.jobs.0.barrier.keep_alive`, 0.75 vs off, 0.9 vs off",
    "Not drawn",
]
NO_LOAD = "SSR / speedup against load, thread surplus: not drawn, no numeric axis varies (choose one with --load)."
NO_SECOND_AXIS = "speedup against load: not drawn, no second axis to compare (choose one with --variant)."
NO_STATES = "job-state breakdown: not drawn, no job.*.time.* columns (smp runs have none)."
NO_WAIT = "waiting-algorithm table: not drawn, no varying axis ending in `wait` or `wait.algorithm`."
NO_BARS = "speedup bars: not drawn, no variant axis."
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
            ["SSR against load", "Average SSR over the loads above the CPU count", "Thread surplus with SSR > 50%",
             "Not drawn"],
            [NO_SECOND_AXIS, NO_STATES, NO_WAIT, "state timelines: 1 more runs have one (raise --timelines)."],
        ),
    ],
)
def test_report_sections_and_notes_in_order(fixtures, tmp_path, fixture, options, headings, notes):
    write_report(fixtures / fixture, tmp_path, **options)
    assert headings_and_notes((tmp_path / "report.md").read_text()) == (headings, notes)
