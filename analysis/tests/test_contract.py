"""The contract reader: schema_version check, axes, job columns, copies pooled into classes."""

import pytest

from analysis.contract import (
    ContractError,
    axis_columns,
    class_table,
    job_table,
    load_results,
    load_total_threads,
)


def test_axes_are_the_columns_between_seed_and_schema_version(fixtures):
    results = load_results(fixtures / "smp_load")
    assert axis_columns(results) == ["workload.nosync", "workload.jobs.0.wait.spin"]
    assert results["run_id"].iloc[0] == "5eed000000000001", "run ids stay strings of 16 hex digits"

def test_unknown_schema_version_is_refused_naming_file_and_line(fixtures):
    with pytest.raises(ContractError) as error:
        load_results(fixtures / "bad_schema")
    assert str(error.value) == (
        f"{fixtures / 'bad_schema' / 'results.csv'}:3: schema_version 2 is not supported "
        "(this analysis package reads version 1)"
    )

def test_missing_results_and_missing_columns_are_refused(tmp_path):
    with pytest.raises(ContractError, match="results.csv: no such file"):
        load_results(tmp_path)
    (tmp_path / "results.csv").write_text("run_id,seed,makespan\nab,1,3\n")
    with pytest.raises(ContractError, match=r"results.csv:1: missing column 'schema_version'"):
        load_results(tmp_path)
    (tmp_path / "results.csv").write_text("run_id,seed,schema_version\n")
    with pytest.raises(ContractError, match="no runs"):
        load_results(tmp_path)

def test_copies_of_a_profile_are_one_class_with_pooled_ssr(fixtures):
    results = load_results(fixtures / "now_waiting")
    jobs = job_table(results, ["seed"])
    assert sorted(jobs["instance"].unique()) == ["news#0", "news#1"]
    assert set(jobs["job_class"]) == {"news"}
    first = jobs[jobs["run_id"] == "b0a7000000000001"].set_index("instance")
    assert first.loc["news#0", "time.synchronize"] == 0.4
    assert first.loc["news#1", "idle_detail.blocked_barrier"] == 0.1
    classes = class_table(jobs, ["seed"]).set_index("run_id")
    # news#0 spun 3/4 successfully and news#1 1/2: pooled 4/6, not the mean of 75% and 50%.
    assert classes.loc["b0a7000000000001", "ssr"] == pytest.approx(100 * 4 / 6)
    assert classes.loc["b0a7000000000001", "completion_time"] == pytest.approx((2.0 + 1.8) / 2)

def test_a_job_absent_from_a_run_has_no_row(tmp_path):
    (tmp_path / "results.csv").write_text(
        "run_id,seed,schema_version,makespan,job.a.ssr,job.a.completion_time,job.b.ssr,job.b.completion_time\n"
        "r1,1,1,10,50,10,,\n"
        "r2,1,1,12,40,12,30,11\n"
    )
    jobs = job_table(load_results(tmp_path), ["seed"])
    assert list(zip(jobs["run_id"], jobs["instance"])) == [("r1", "a"), ("r2", "a"), ("r2", "b")]
    assert jobs.set_index(["run_id", "instance"]).loc[("r1", "a"), "ssr"] == 50


def test_total_threads_come_from_the_run_summaries(fixtures, tmp_path):
    sweep = fixtures / "smp_threads"
    run_ids = list(load_results(sweep)["run_id"])
    # nosync 2, 3, 4 plus one job of 2 threads.
    assert list(load_total_threads(sweep, run_ids)) == [4, 5, 6]
    assert load_total_threads(tmp_path, run_ids) is None, "no run folders: no count"
