"""Speedup pairs (`--compare`), no variant (`--variant none`) and the averages over the loads above
the CPU count (thesis 7.7.1-7.7.3), on the smp_load fixture, against values worked out by hand.

smp_load: job `fine` on 4 CPUs, loads (workload.nosync) 2, 4, 6, 8, spin CS or 2CS+, seeds 1 and 2.
Its run folders have no summary.json, so the load axis is the thread count: loads 6 and 8 are above
the 4 CPUs. Completion times and SSRs (seed 1 / seed 2):

    load   CS time    2CS+ time   CS SSR   2CS+ SSR
    6      300 / 330  240 / 264   40 / 60  70 / 60
    8      400 / 440  400 / 352   30 / 20  40 / 60
"""

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis import tables
from analysis.contract import axis_columns, job_table, load_results
from analysis.roles import RoleError, find_roles

REPO = Path(__file__).resolve().parents[2]
CPUS = "resolved.platform.cpus"
LOAD = "workload.nosync"
SPIN = "workload.jobs.0.wait.spin"


def setup(fixtures, **options):
    results = load_results(fixtures / "smp_load")
    roles = find_roles(results, **options)
    _, classes = tables.job_and_class_tables(results, roles)
    return results, roles, classes


def test_compare_gives_the_pairs_asked_for_in_their_order(fixtures):
    results, roles, classes = setup(fixtures, compare=["CS vs 2CS+", "2CS+ vs CS"])
    assert roles.comparisons == [("CS", "2CS+"), ("2CS+", "CS")]
    table = tables.speedup_vs_load(classes, roles, axis_columns(results))
    assert list(dict.fromkeys(table["comparison"])) == ["CS vs 2CS+", "2CS+ vs CS"]
    cell = table.set_index(["comparison", LOAD])["speedup_mean"]
    # load 6: CS vs 2CS+ is (240 - 300) / 240 = -25% for seed 1 and (264 - 330) / 264 = -25% for seed 2;
    # 2CS+ vs CS is (300 - 240) / 300 = 20% and (330 - 264) / 330 = 20%.
    assert cell[("CS vs 2CS+", 6)] == pytest.approx(-25.0)
    assert cell[("2CS+ vs CS", 6)] == pytest.approx(20.0)


def test_default_comparisons_are_every_value_against_the_baseline(fixtures):
    _, roles, _ = setup(fixtures)
    assert roles.comparisons == [("2CS+", "CS")]
    _, roles, _ = setup(fixtures, baseline="2CS+")
    assert roles.comparisons == [("CS", "2CS+")]


@pytest.mark.parametrize(
    "pairs, message",
    [
        (["2CS+ versus CS"],
         "comparison '2CS+ versus CS': expected 'X vs Y', two values of the variant workload.jobs.0.wait.spin"),
        (["3CS vs CS"], "comparison '3CS': not a value of the variant workload.jobs.0.wait.spin (values: CS, 2CS+)"),
        (["CS vs CS"], "comparison 'CS vs CS': X and Y are the same value"),
    ],
)
def test_bad_comparisons_are_refused(fixtures, pairs, message):
    with pytest.raises(RoleError, match=re.escape(message)):
        setup(fixtures, compare=pairs)


def test_variant_none_leaves_the_variant_out(fixtures):
    results, roles, classes = setup(fixtures, variant="none")
    assert roles.variant is None and roles.comparisons == [] and roles.groups == [SPIN]
    table = tables.ssr_vs_load(classes, roles)
    assert set(table["group"]) == {"spin=CS", "spin=2CS+"}, "the spin still separates the curves"
    with pytest.raises(RoleError, match="variant 'none' leaves no variant axis, which a baseline and comparisons need"):
        setup(fixtures, variant="none", compare=["CS vs 2CS+"])


def test_ssr_above_cpus_is_the_mean_over_loads_and_its_absolute_deviation(fixtures):
    _, roles, classes = setup(fixtures)
    table = tables.ssr_above_cpus(classes, roles, CPUS, LOAD).set_index("group")
    # CS: load 6 (40 + 60) / 2 = 50, load 8 (30 + 20) / 2 = 25: avg 37.5, |50 - 37.5| = |25 - 37.5| = 12.5.
    cs = table.loc["spin=CS"]
    assert (cs["ssr_avg"], cs["ssr_absdev"], cs["loads"]) == pytest.approx((37.5, 12.5, 2))
    assert (cs["threads_min"], cs["threads_max"]) == (6, 8), "loads 2 and 4 are not above the 4 CPUs"
    # 2CS+: load 6 (70 + 60) / 2 = 65, load 8 (40 + 60) / 2 = 50: avg 57.5, deviation 7.5.
    spin = table.loc["spin=2CS+"]
    assert (spin["ssr_avg"], spin["ssr_absdev"]) == pytest.approx((57.5, 7.5))


def test_speedup_above_cpus_per_comparison(fixtures):
    results, roles, classes = setup(fixtures, compare=["2CS+ vs CS", "CS vs 2CS+"])
    table = tables.speedup_above_cpus(classes, roles, axis_columns(results), CPUS, LOAD).set_index("comparison")
    # 2CS+ vs CS: load 6 20% (both seeds); load 8 (400 - 400) / 400 = 0% and (440 - 352) / 440 = 20%, mean 10%.
    # Average 15%, deviation 5.
    assert (table.loc["2CS+ vs CS", "speedup_avg"], table.loc["2CS+ vs CS", "speedup_absdev"]) == pytest.approx((15, 5))
    # CS vs 2CS+: load 6 -25%; load 8 0% and (352 - 440) / 352 = -25%, mean -12.5%. Average -18.75, deviation 6.25.
    assert (table.loc["CS vs 2CS+", "speedup_avg"], table.loc["CS vs 2CS+", "speedup_absdev"]) == pytest.approx(
        (-18.75, 6.25)
    )
    assert list(table["loads"]) == [2, 2]


def test_smp_job_metrics_are_job_fields():
    results = pd.DataFrame(
        {"run_id": ["a"], "seed": [1], "job.J.transition_point": [864], "job.J.context_switches": [40],
         "job.J.spin_cycles": [123], "job.J.completion_time": [1000]}
    )
    jobs = job_table(results, ["seed"])
    assert jobs.loc[0, ["transition_point", "context_switches", "spin_cycles"]].tolist() == [864, 40, 123]


def test_report_with_variant_none_and_with_compare(fixtures, tmp_path):
    def report(out, *args):
        return subprocess.run(
            [sys.executable, "-m", "analysis", "report", str(fixtures / "smp_load"), "--out", str(out), *args],
            cwd=REPO, capture_output=True, text=True,
        )

    done = report(tmp_path / "none", "--variant", "none")
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "none" / "speedup_vs_load.png").exists()
    assert "speedup against load: not drawn" in (tmp_path / "none" / "report.md").read_text()
    assert len(pd.read_csv(tmp_path / "none" / "ssr_above_cpus.csv")) == 2
    done = report(tmp_path / "pairs", "--compare", "CS vs 2CS+", "--compare", "2CS+ vs CS")
    assert done.returncode == 0, done.stderr
    averages = pd.read_csv(tmp_path / "pairs" / "speedup_above_cpus.csv")
    assert averages["comparison"].tolist() == ["CS vs 2CS+", "2CS+ vs CS"]
    done = report(tmp_path / "bad", "--compare", "CS versus 2CS+")
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_panels_come_from_the_first_of_two_grouping_axes():
    frame = pd.DataFrame({"scheduler.wakeup": ["smart", "silly"], "workload.jobs.0.wait.spin": ["CS", "2CS+"]})
    both = tables.with_panel_and_group(frame, ["workload.jobs.0.wait.spin", "scheduler.wakeup"])
    assert both[["panel", "group"]].values.tolist() == [["spin=CS", "wakeup=smart"], ["spin=2CS+", "wakeup=silly"]]
    one = tables.with_panel_and_group(frame, ["scheduler.wakeup"])
    assert one[["panel", "group"]].values.tolist() == [["all", "wakeup=smart"], ["all", "wakeup=silly"]]
    forced = tables.with_panel_and_group(frame, ["scheduler.wakeup"], panel_from=1)
    assert forced[["panel", "group"]].values.tolist() == [["wakeup=smart", "all"], ["wakeup=silly", "all"]]


def test_several_comparisons_get_one_panel_per_curve_group(fixtures):
    results, roles, classes = setup(fixtures, variant=LOAD, load=None)
    # No numeric axis is left for the load once the load axis is the variant: nothing to draw.
    assert roles.load is None
    results, roles, classes = setup(fixtures, compare=["2CS+ vs CS", "CS vs 2CS+"])
    table = tables.speedup_vs_load(classes, roles, axis_columns(results))
    assert set(table["panel"]) == {"all"}, "no other axis separates curves: one panel"


def test_curves_keep_the_sweep_order_of_values_not_the_alphabet():
    table = pd.DataFrame(
        {"panel": ["spin=CS", "spin=CS+", "spin=2CS+", "spin=CS"], "group": "all", "job_class": "J",
         "workload.nosync": [20, 10, 10, 10]}
    )
    ordered = tables.sort_in_sweep_order(table, ["panel", "group", "job_class", "workload.nosync"])
    assert ordered[["panel", "workload.nosync"]].values.tolist() == [
        ["spin=CS", 10], ["spin=CS", 20], ["spin=CS+", 10], ["spin=2CS+", 10]
    ]


def test_partitioned_and_now_diagnostic_job_fields_are_job_fields():
    # A job name with a dot: the field is matched against the contract's fields, not split at the first dot.
    results = pd.DataFrame(
        {"run_id": ["a"], "seed": [1], "job.K.W.barrier_overhead_per_phase": [17.5],
         "job.K.W.reads.partner_blocked.count": [3], "job.K.W.wake_to_dispatch.mean_s": [0.0002],
         "job.K.W.barriers.mean_length_s": [0.004], "job.K.W.completion_time": [1000]}
    )
    jobs = job_table(results, ["seed"])
    assert list(jobs["instance"]) == ["K.W"]
    row = jobs.loc[0]
    assert row["barrier_overhead_per_phase"] == 17.5
    assert row["reads.partner_blocked.count"] == 3
    assert row["wake_to_dispatch.mean_s"] == 0.0002
    assert row["barriers.mean_length_s"] == 0.004
