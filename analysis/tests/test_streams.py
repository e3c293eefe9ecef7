"""The open-workload figures (analysis/streams.py) on a hand-made sweep folder shaped like a stream sweep's
output: results.csv over workload.stream.load (0.5, 0.9) x job_scheduler.policy/mpl (fcfs 1, gang 2) x
seeds 1 and 2, and runs/<run_id>/jobs.csv with the stream columns. Every value is set by a formula:
    bounded slowdown = 1 + 10 load k + seed / 10    (k = 1 fcfs, 0.5 gang)
    response = 100 load k + seed                    utilization = load k - seed / 100
"""

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from analysis import streams
from analysis.contract import load_results
from analysis.report import write_report

SCHEDULERS = [("fcfs", 1, 1.0), ("gang", 2, 0.5)]
JOBS_CSV = """name,copy,submit,start,end,wait,response,slowdown,bounded_slowdown,processors,class,workstations
job1,0,0,0,10,0,10,1,1,2,small,0;1
job2,0,1,2,6,1,5,1.25,1,1,small,2
job3,0,3,5,20,2,17,1.13,1.13,4,large,0;1;2;3
job4,0,4,30,40,26,36,3.6,3.6,1,small,3
"""


def run_id(policy, load, seed):
    return f"{'f' if policy == 'fcfs' else 'a'}{int(load * 10)}{seed}".ljust(16, "0")


@pytest.fixture
def sweep(tmp_path):
    rows = []
    for policy, mpl, k in SCHEDULERS:
        for load in (0.5, 0.9):
            for seed in (1, 2):
                rows.append({
                    "run_id": run_id(policy, load, seed), "seed": seed, "workload.stream.load": load,
                    "job_scheduler.policy": policy, "job_scheduler.mpl": mpl, "schema_version": 1,
                    "scenario": "stream", "model": "now", "time_unit": "s",
                    "stream.jobs": 4, "stream.skipped": 0, "stream.offered_load": load + 0.01 * seed,
                    "stream.mean_bounded_slowdown": 1 + 10 * load * k + seed / 10,
                    "stream.mean_response": 100 * load * k + seed,
                    "stream.utilization": load * k - seed / 100,
                    "stream.throughput": 0.01, "stream.arrival_scale": 1 / load, "stream.time_scale": 1,
                })
                folder = tmp_path / "runs" / run_id(policy, load, seed)
                folder.mkdir(parents=True)
                (folder / "jobs.csv").write_text(JOBS_CSV)
    pd.DataFrame(rows).to_csv(tmp_path / "results.csv", index=False)
    return tmp_path


def test_a_stream_sweep_is_told_by_its_summary_fields(sweep):
    assert streams.is_stream(load_results(sweep))
    assert not streams.is_stream(pd.DataFrame({"makespan": [1.0]}))


def test_bounded_slowdown_against_load_is_the_mean_over_seeds_with_a_min_max_band(sweep):
    table = streams.against_load(load_results(sweep), "mean_bounded_slowdown")
    assert list(table.columns) == ["scheduler", "load", "mean", "min", "max", "seeds"]
    assert list(table["scheduler"]) == ["fcfs", "fcfs", "gang mpl 2", "gang mpl 2"], "mpl named above 1 only"
    assert list(table["load"]) == [0.5, 0.9, 0.5, 0.9], "the axis's target load, not the load as applied"
    # fcfs at 0.9: 1 + 9 + 0.1 and 1 + 9 + 0.2; gang at 0.5: 1 + 2.5 + 0.1 and + 0.2.
    assert table["mean"].tolist() == pytest.approx([6.15, 10.15, 3.65, 5.65])
    assert table["min"].tolist() == pytest.approx([6.1, 10.1, 3.6, 5.6])
    assert table["max"].tolist() == pytest.approx([6.2, 10.2, 3.7, 5.7])
    assert table["seeds"].tolist() == [2, 2, 2, 2]


def test_without_the_load_axis_the_offered_load_as_applied_is_the_x(sweep):
    results = load_results(sweep).drop(columns=["workload.stream.load"])
    table = streams.against_load(results, "utilization")
    assert len(table) == 8, "each seed's offered load differs (0.51, 0.52, ...): a point each"
    assert table["seeds"].eq(1).all()


def test_the_curves_and_their_bands(sweep):
    table = streams.against_load(load_results(sweep), "mean_response")
    fig = streams.against_load_figure(table, "mean_response", "offered load")
    (ax,) = fig.axes
    assert [line.get_label() for line in ax.lines] == ["fcfs", "gang mpl 2"]
    assert list(ax.lines[0].get_ydata()) == pytest.approx([51.5, 91.5])
    assert len(ax.collections) == 2, "a band per curve: two seeds"
    assert ax.get_ylabel() == "mean response time (s)"
    plt.close(fig)


def test_gantt_window_is_the_first_jobs_to_start_clipped(sweep):
    jobs = pd.read_csv(sweep / "runs" / run_id("fcfs", 0.9, 1) / "jobs.csv", dtype={"workstations": str})
    table = streams.gantt_table(jobs, window_jobs=2, begin=0)
    # job1 and job2 start first; the window ends when job3 starts (5 s): job1 0-5 on 0 and 1, job2 2-5 on 2.
    assert table.to_dict("records") == [
        {"job": "job1", "workstation": 0, "start": 0, "end": 5},
        {"job": "job1", "workstation": 1, "start": 0, "end": 5},
        {"job": "job2", "workstation": 2, "start": 2, "end": 5},
    ]
    whole = streams.gantt_table(jobs, window_jobs=40, begin=0)
    assert len(whole) == 2 + 1 + 4 + 1 and whole["end"].max() == 40, "fewer jobs than the window: all of them"
    fig = streams.gantt_figure(whole, "t")
    assert len(fig.axes[0].patches) == 8
    plt.close(fig)


def test_gantt_window_opens_by_default_when_the_longest_waiting_job_was_submitted(sweep):
    jobs = pd.read_csv(sweep / "runs" / run_id("fcfs", 0.9, 1) / "jobs.csv", dtype={"workstations": str})
    # Waits 0, 1, 2, 26: job4, submitted at 4, waited longest. From 4, job3 (5) and job4 (30) start; with a
    # window of 1 job it ends when job4 starts (30): job1 4-10 on 0 and 1 (it ran before, clipped), job2 4-6
    # on 2, job3 5-20 on 0..3.
    assert streams.busiest_moment(jobs) == 4
    table = streams.gantt_table(jobs, window_jobs=1)
    assert table.to_dict("records") == [
        {"job": "job1", "workstation": 0, "start": 4, "end": 10},
        {"job": "job1", "workstation": 1, "start": 4, "end": 10},
        {"job": "job2", "workstation": 2, "start": 4, "end": 6},
        *({"job": "job3", "workstation": w, "start": 5, "end": 20} for w in range(4)),
    ]
    assert streams.busiest_moment(jobs.drop(columns=["submit"])) == 0, "without submit: the first start"


def test_gantt_needs_the_workstations_column(sweep):
    jobs = pd.read_csv(sweep / "runs" / run_id("fcfs", 0.9, 1) / "jobs.csv").drop(columns=["workstations"])
    with pytest.raises(Exception, match="jobs.csv: missing column\\(s\\) workstations"):
        streams.gantt_table(jobs)


def test_report_of_a_stream_sweep(sweep, tmp_path):
    out = tmp_path / "report"
    write_report(sweep, out)
    for stem in ["stream_bounded_slowdown_vs_load", "stream_response_vs_load", "stream_utilization_vs_load",
                 "stream_gantt_fcfs", "stream_gantt_gang-mpl-2"]:
        assert (out / f"{stem}.png").read_bytes()[:4] == b"\x89PNG", stem
        assert (out / f"{stem}.csv").is_file()
    report = (out / "report.md").read_text()
    assert f"Run {run_id('fcfs', 0.9, 1)} (its lowest seed at the highest load)" in report
    assert "## Mean bounded slowdown against offered load" in report


def test_report_draws_each_rows_partner_for_a_run_with_pairs_csv(sweep, tmp_path):
    # The gang curve's Gantt run (load 0.9, seed 1) as if it had run under paired gang: pairs.csv and the
    # matrix's rows (stream.mpl) give its section; the fcfs run, with no pairs.csv, gets none.
    results = pd.read_csv(sweep / "results.csv")
    results["stream.mpl"] = results["job_scheduler.mpl"]
    results.to_csv(sweep / "results.csv", index=False)
    (sweep / "runs" / run_id("gang", 0.9, 1) / "pairs.csv").write_text(PAIRS_CSV)
    out = tmp_path / "report"
    write_report(sweep, out)
    assert (out / "stream_paired_rows_gang-mpl-2.png").read_bytes()[:4] == b"\x89PNG"
    table = pd.read_csv(out / "stream_paired_rows_gang-mpl-2.csv")
    assert list(table["partner"]) == ["row 1", "alone", "row 0", "alone"]  # the window: 4 to 40 s
    assert not (out / "stream_paired_rows_fcfs.png").exists()
    with pytest.raises(streams.ContractError, match="no column 'stream.mpl'"):
        streams.matrix_rows(results.drop(columns=["stream.mpl"]), run_id("gang", 0.9, 1))


def test_a_durations_axis_and_its_resolved_seconds_are_one_key():
    # A sweep over job_scheduler.strobe has both the axis (`5ms`) and the resolved `strobe_s`: the name takes
    # the resolved value once.
    results = pd.DataFrame({
        "job_scheduler.policy": ["buffered", "buffered"],
        "job_scheduler.strobe": ["5ms", "10ms"],
        "resolved.job_scheduler.policy": ["buffered", "buffered"],
        "resolved.job_scheduler.mpl": [2, 2],
        "resolved.job_scheduler.strobe_s": [0.005, 0.01],
    })
    assert list(streams.scheduler_label(results)) == ["buffered mpl 2 strobe 0.005 s", "buffered mpl 2 strobe 0.01 s"]


def test_slurm_gang_is_named_by_its_oversubscribe():
    results = pd.DataFrame({
        "resolved.job_scheduler.policy": ["fcfs", "gang", "slurm-gang", "slurm-gang"],
        "resolved.job_scheduler.mpl": [1, 2, None, None],
        "resolved.job_scheduler.oversubscribe": [None, None, 2, 4],
    })
    assert list(streams.scheduler_label(results)) == [
        "fcfs", "gang mpl 2", "slurm-gang oversubscribe 2", "slurm-gang oversubscribe 4"]


def test_a_policys_runs_that_differ_in_another_key_are_other_curves():
    # Two paired-gang limits and two buffered strobes (one left to its default, the slot) in one results.csv:
    # each is a curve of its own; gang, whose keys agree across its runs, keeps its short name.
    results = pd.DataFrame({
        "resolved.job_scheduler.policy": ["gang", "paired-gang", "paired-gang", "buffered", "buffered", "gang"],
        "resolved.job_scheduler.mpl": [4, 4, 4, 2, 2, 4],
        "resolved.job_scheduler.pair_limit": [None, 1, 1.8, None, None, None],
        "resolved.job_scheduler.strobe_s": [None, None, None, None, 0.005, None],
        "resolved.job_scheduler.exchange_s": [None, None, None, 0, 0, None],
    })
    assert list(streams.scheduler_label(results)) == [
        "gang mpl 4", "paired-gang mpl 4 pair_limit 1", "paired-gang mpl 4 pair_limit 1.8",
        "buffered mpl 2 strobe default", "buffered mpl 2 strobe 0.005 s", "gang mpl 4"]
    table = streams.against_load(results.assign(**{"workload.stream.load": 0.7, "stream.mean_bounded_slowdown": 1.0}),
                                 "mean_bounded_slowdown")
    assert len(table) == 5


FCS_JOBS_CSV = """name,start,end,processors,workstations
a,0,10,3,0;1;2
b,2,6,1,3
"""
# a: ranks 0 and 1 become F at 2 (a majority of 3), rank 0 goes back to CS at 4 (CS 2 of 3 again), all three
# are DC at 8. b: DC at 3.
FCS_CLASSES_CSV = """time_s,job,rank,workstation,class
2,a,0,0,F
2,a,1,1,F
3,b,0,3,DC
4,a,0,0,CS
8,a,0,0,DC
8,a,1,1,DC
8,a,2,2,DC
"""


def test_fcs_class_table_is_each_jobs_majority_class_over_time(tmp_path):
    (tmp_path / "jobs.csv").write_text(FCS_JOBS_CSV)
    (tmp_path / "classes.csv").write_text(FCS_CLASSES_CSV)
    table = streams.fcs_class_table(streams.load_jobs(tmp_path), streams.load_classes(tmp_path), begin=0)
    rows = [tuple(r) for r in table[["job", "start", "end", "class"]].itertuples(index=False)]
    assert rows == [("a", 0, 2, "CS"), ("a", 2, 4, "F"), ("a", 4, 8, "CS"), ("a", 8, 10, "DC"),
                    ("b", 2, 3, "CS"), ("b", 3, 6, "DC")]
    fig = streams.fcs_class_figure(table, "t")
    assert len(fig.axes[0].patches) == 6
    plt.close(fig)


def test_fcs_class_table_needs_classes_csv(tmp_path):
    (tmp_path / "jobs.csv").write_text(FCS_JOBS_CSV)
    with pytest.raises(streams.ContractError, match="classes.csv: no such file"):
        streams.load_classes(tmp_path)


# Two rows: rows 0 and 1 pair at 2 and part at 6 (row 1 emptied); the window is job a's 0-10.
PAIRS_CSV = """time_s,row,partner,utilization,partner_utilization
2,0,1,0.900000,0.100000
2,1,0,0.100000,0.900000
6,0,,0.950000,
6,1,,,
"""


def test_paired_rows_table_is_each_rows_partner_over_time(tmp_path):
    (tmp_path / "jobs.csv").write_text(FCS_JOBS_CSV)
    (tmp_path / "pairs.csv").write_text(PAIRS_CSV)
    table = streams.paired_rows_table(streams.load_jobs(tmp_path), streams.load_pairs(tmp_path), 2, begin=0)
    rows = [tuple(r) for r in table[["row", "start", "end", "partner"]].itertuples(index=False)]
    assert rows == [(0, 0, 2, "alone"), (0, 2, 6, "row 1"), (0, 6, 10, "alone"),
                    (1, 0, 2, "alone"), (1, 2, 6, "row 0"), (1, 6, 10, "alone")]
    assert table["utilization"].iloc[1] == 0.9 and table["partner_utilization"].iloc[1] == 0.1
    fig = streams.paired_rows_figure(table, 2, "t")
    assert len(fig.axes[0].patches) == 6
    plt.close(fig)


def test_paired_rows_without_any_pair_are_alone_throughout(tmp_path):
    (tmp_path / "jobs.csv").write_text(FCS_JOBS_CSV)
    (tmp_path / "pairs.csv").write_text(PAIRS_CSV.splitlines()[0] + "\n")
    table = streams.paired_rows_table(streams.load_jobs(tmp_path), streams.load_pairs(tmp_path), 3, begin=0)
    assert list(table["partner"]) == ["alone"] * 3
    assert list(table["end"] - table["start"]) == [10, 10, 10]
