"""`python -m analysis report` end to end, as a user runs it."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis import figures

REPO = Path(__file__).resolve().parents[2]


def run_report(*args):
    return subprocess.run(
        [sys.executable, "-m", "analysis", "report", *map(str, args)], cwd=REPO, capture_output=True, text=True
    )


def test_report_writes_every_supported_figure_with_its_table(fixtures, tmp_path):
    done = run_report(fixtures / "smp_load", "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    for stem in ["ssr_vs_load", "speedup_vs_load", "thread_surplus", "timeline_5eed000000000001"]:
        png = tmp_path / f"{stem}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{png} is a PNG"
        assert (tmp_path / f"{stem}.csv").is_file()
        assert f"]({stem}.png)" in (tmp_path / "report.md").read_text()
    table = pd.read_csv(tmp_path / "ssr_vs_load.csv")
    assert len(table) == 8, "2 spins x 4 loads"
    redrawn = figures.ssr_vs_load_figure(table, "workload.nosync")
    assert len(redrawn.axes[0].lines) == 2 + 1, "the CSV beside the PNG is enough to draw the figure again"
    report = (tmp_path / "report.md").read_text()
    assert "job-state breakdown: not drawn" in report


def test_report_of_a_now_sweep_has_table_1_and_figure_4(fixtures, tmp_path):
    done = run_report(fixtures / "now_waiting", "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text()
    assert "| algorithm | stride s | stride slowdown | ts s | ts slowdown |" in report
    assert "| block | 6.3 | 3 | 8 | 1.75 |" in report
    assert (tmp_path / "state_breakdown.png").is_file() and (tmp_path / "waiting_algorithms.csv").is_file()


def test_default_output_is_dir_report(fixtures, tmp_path):
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    (sweep / "results.csv").write_text((fixtures / "now_keep_alive" / "results.csv").read_text())
    done = run_report(sweep)
    assert done.returncode == 0, done.stderr
    assert (sweep / "report" / "speedup_bars.png").is_file()


def test_unknown_schema_version_exits_2_with_one_line(fixtures, tmp_path):
    done = run_report(fixtures / "bad_schema", "--out", tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("analysis: error: ")
    assert "schema_version 2 is not supported (this analysis package reads version 1)" in done.stderr
    assert not (tmp_path / "report.md").exists()


SPIN_VALUES = "not a value of workload.jobs.0.wait.spin (values: CS, 2CS+)"


@pytest.mark.parametrize(
    "fixture, options, message",
    [
        ("smp_load", ["--variant", "workload.typo"],
         "--variant workload.typo: not an axis of this sweep (axes: workload.nosync, workload.jobs.0.wait.spin)"),
        ("smp_load", ["--load", "nope"],
         "--load nope: not an axis of this sweep (axes: workload.nosync, workload.jobs.0.wait.spin)"),
        ("smp_load", ["--load", "workload.jobs.0.wait.spin"],
         "--load workload.jobs.0.wait.spin: expected an axis of numbers, got values such as 'CS'"),
        ("smp_load", ["--variant", "none", "--baseline", "CS"],
         "--variant none: --baseline and --compare need a variant axis"),
        ("smp_load", ["--variant", "none", "--compare", "CS vs 2CS+"],
         "--variant none: --baseline and --compare need a variant axis"),
        ("smp_threads", ["--compare", "2 vs 3"],
         "--compare: this sweep has no variant axis (choose one with --variant)"),
        ("smp_load", ["--baseline", "3CS"], f"--baseline 3CS: {SPIN_VALUES}"),
        ("smp_load", ["--compare", "CS vs 3CS"], f"--compare 3CS: {SPIN_VALUES}"),
        ("smp_load", ["--compare", "CS versus 2CS+"],
         "--compare CS versus 2CS+: expected 'X vs Y', two values of workload.jobs.0.wait.spin"),
        ("smp_load", ["--compare", "CS vs CS"], "--compare CS vs CS: X and Y are the same value"),
    ],
)
def test_a_bad_option_value_exits_2_naming_the_option(fixtures, tmp_path, fixture, options, message):
    done = run_report(fixtures / fixture, "--out", tmp_path, *options)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"analysis: error: {message}\n")
    assert not (tmp_path / "report.md").exists()


def test_thread_surplus_counts_all_threads_when_the_run_folders_give_them(fixtures, tmp_path):
    # nosync 2, 3, 4 never exceeds the 4 CPUs, but with the job's 2 threads the runs have 4, 5 and 6
    # threads: SSR 60% at 5 threads passes, 40% at 6 fails, so the surplus is 1.
    done = run_report(fixtures / "smp_threads", "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    table = pd.read_csv(tmp_path / "thread_surplus.csv")
    assert table[["job_class", "surplus_mean", "ssr_avg"]].values.tolist() == [["pair", 1.0, 60.0]]
    assert "the total thread count" in (tmp_path / "report.md").read_text()


def test_a_study_of_several_sweeps_is_one_report(fixtures, tmp_path):
    # The SSS-CORE study is four sweeps, one per process set, with the same axes: one report draws
    # each set's figures, and tables 5.5 and the claims over the sets together.
    done = run_report(fixtures / "numa_agree", fixtures / "numa_disagree", "--out", tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"analysis: wrote 13 files to {tmp_path}/ (report.md, report.html)\n"
    for stem in ["numa_rates_A", "numa_rates_K", "numa_breakdown_A", "numa_breakdown_K"]:
        assert (tmp_path / f"{stem}.png").is_file() and (tmp_path / f"{stem}.csv").is_file()
    claims = pd.read_csv(tmp_path / "numa_claims.csv", keep_default_na=False)
    assert claims["agree"].tolist() == ["21 of 24", "7 of 8", "1 of 2", "57 of 60", "1 of 2", "3 of 4"]
    replaced = pd.read_csv(tmp_path / "numa_table_5_5.csv")
    assert replaced["set"].tolist() == ["A", "A", "K", "K"] * 2


@pytest.mark.parametrize(
    "dirs, options, message",
    [
        (["numa_agree", "numa_disagree"], [], "--out: required with several sweep directories"),
        (["numa_agree", "smp_load"], ["--out", "OUT"],
         "{fixtures}/smp_load/results.csv:1: axes workload.nosync, workload.jobs.0.wait.spin differ from "
         "{fixtures}/numa_agree/results.csv's platform.file, scheduler.policy, memory.replacement, scheduler.slices "
         "(a report of several sweeps needs the same axes)"),
    ],
)
def test_several_sweeps_need_an_output_and_the_same_axes(fixtures, tmp_path, dirs, options, message):
    options = [str(tmp_path) if o == "OUT" else o for o in options]
    done = run_report(*[fixtures / d for d in dirs], *options)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"analysis: error: {message.format(fixtures=fixtures)}\n"
    assert not (tmp_path / "report.md").exists()
