"""The data behind each figure, against values worked out by hand from the fixtures.

smp_load: job `fine` on 4 CPUs, load workload.nosync in {2, 4, 6, 8}, spin CS or 2CS+, seeds 1 and 2;
each run spins 10 times. now_waiting: stride and ts, pairwise and block, seeds 1 and 2, two copies of
`news`. now_keep_alive: stride and ts, 10 and 50 barriers, keep-alive off / 0.75 / 0.9, seeds 1 and 2.
"""

import math

import pandas as pd
import pytest

from analysis import tables
from analysis.contract import axis_columns, load_results
from analysis.roles import RoleError, find_roles

STD_OF_TWO_10_APART = math.sqrt(50)  # sample std of {x, x + 10}: 7.0711


def smp_classes(fixtures):
    results = load_results(fixtures / "smp_load")
    _, classes = tables.job_and_class_tables(results, find_roles(results))
    return results, axis_columns(results), classes


def test_roles_of_the_smp_sweep(fixtures):
    results = load_results(fixtures / "smp_load")
    roles = find_roles(results)
    assert roles.load == "workload.nosync"
    assert (roles.variant, roles.baseline) == ("workload.jobs.0.wait.spin", "CS")
    assert roles.wait is None and roles.groups == []


def test_ssr_vs_load_is_the_mean_and_std_over_seeds(fixtures):
    results, _, classes = smp_classes(fixtures)
    table = tables.ssr_vs_load(classes, find_roles(results))
    cs = table[table["group"] == "spin=CS"].set_index("workload.nosync")
    # seeds 1 and 2 at load 2: 9/10 and 8/10 successful spins.
    assert cs.loc[2, "ssr_mean"] == pytest.approx(85.0)
    assert cs.loc[2, "ssr_std"] == pytest.approx(STD_OF_TWO_10_APART)
    assert cs.loc[8, "ssr_mean"] == pytest.approx(25.0)  # 3/10 and 2/10
    assert list(cs["seeds"]) == [2, 2, 2, 2]
    spin = table[table["group"] == "spin=2CS+"].set_index("workload.nosync")
    assert spin.loc[2, "ssr_mean"] == pytest.approx(100.0) and spin.loc[2, "ssr_std"] == pytest.approx(0.0)


def test_speedup_is_the_relative_improvement_paired_by_seed(fixtures):
    results, axes, classes = smp_classes(fixtures)
    table = tables.speedup_vs_load(classes, find_roles(results), axes).set_index("workload.nosync")
    assert set(table["comparison"]) == {"2CS+ vs CS"}
    # load 4: (200 - 150) / 200 and (220 - 165) / 220, both 25%.
    assert table.loc[4, "speedup_mean"] == pytest.approx(25.0)
    assert table.loc[4, "speedup_std"] == pytest.approx(0.0)
    # load 8: (400 - 400) / 400 = 0% and (440 - 352) / 440 = 20%.
    assert table.loc[8, "speedup_mean"] == pytest.approx(10.0)
    assert table.loc[8, "speedup_std"] == pytest.approx(math.sqrt(200))


def test_baseline_can_be_chosen(fixtures):
    results, axes, classes = smp_classes(fixtures)
    roles = find_roles(results, baseline="2CS+")
    table = tables.speedup_vs_load(classes, roles, axes).set_index("workload.nosync")
    # load 2, CS vs 2CS+: (80 - 100) / 80 and (88 - 110) / 88, both -25%.
    assert table.loc[2, "speedup_mean"] == pytest.approx(-25.0)
    with pytest.raises(RoleError, match="baseline '3CS': not a value of the variant workload.jobs.0.wait.spin"):
        find_roles(results, baseline="3CS")
    with pytest.raises(RoleError, match="load column 'nope': not an axis"):
        find_roles(results, load="nope")
    with pytest.raises(RoleError, match="load column 'workload.jobs.0.wait.spin': expected an axis of numbers"):
        find_roles(results, load="workload.jobs.0.wait.spin")


def test_thread_surplus_is_the_first_run_of_loads_above_the_cpus_with_ssr_over_50(fixtures):
    results, _, classes = smp_classes(fixtures)
    table = tables.thread_surplus(classes, find_roles(results), "resolved.platform.cpus", "workload.nosync")
    table = table.set_index("group")
    # CS: seed 1 fails at load 6 (40%): 0; seed 2 passes 6 (60%) and fails 8 (20%): 2.
    cs = table.loc["spin=CS"]
    assert (cs["surplus_mean"], cs["ssr_avg"], cs["ssr_min"]) == pytest.approx((1.0, 60.0, 60.0))
    assert cs["surplus_std"] == pytest.approx(math.sqrt(2))
    # 2CS+: seed 1 passes 6 (70%), fails 8 (40%): 2; seed 2 passes 6 and 8 (60%, 60%): 4.
    spin = table.loc["spin=2CS+"]
    assert (spin["surplus_mean"], spin["ssr_avg"], spin["ssr_min"]) == pytest.approx((3.0, 190 / 3, 60.0))
    # The first load above the 4 CPUs is 6: surpluses are measured from 2 up.
    assert list(table["first_measured"]) == [2.0, 2.0]


def test_waiting_algorithm_table_gives_seconds_and_slowdown_vs_pairwise(fixtures):
    results = load_results(fixtures / "now_waiting")
    roles = find_roles(results)
    assert (roles.wait, roles.wait_baseline) == ("workload.jobs.0.wait.algorithm", "pairwise")
    table = tables.waiting_algorithms(results, roles, axis_columns(results))
    cell = table.set_index(["algorithm", "scheduler"])
    # stride: block 6.0 and 6.6 s against pairwise 2.0 and 2.2 s: slowdown 3 for both seeds.
    assert cell.loc[("block", "stride"), "seconds_mean"] == pytest.approx(6.3)
    assert cell.loc[("block", "stride"), "slowdown_mean"] == pytest.approx(3.0)
    # ts: 6/4 and 10/5.
    assert cell.loc[("block", "ts"), "slowdown_mean"] == pytest.approx(1.75)
    assert cell.loc[("block", "ts"), "slowdown_std"] == pytest.approx(math.sqrt(0.125))
    assert cell.loc[("pairwise", "ts"), "slowdown_mean"] == pytest.approx(1.0)
    layout = tables.waiting_algorithms_layout(table)["all"]
    assert list(layout.index) == ["pairwise", "block"]
    assert list(layout.columns) == ["stride s", "stride slowdown", "ts s", "ts slowdown"]
    assert layout.loc["block", "ts s"] == pytest.approx(8.0)


def test_state_breakdown_shares_sum_to_100_and_match_the_hand_sums(fixtures):
    results = load_results(fixtures / "now_waiting")
    roles = find_roles(results)
    jobs, _ = tables.job_and_class_tables(results, roles)
    table = tables.state_breakdown(jobs, roles)
    stride_pairwise = table[(table["scheduler"] == "stride") & (table["variant"] == "pairwise")].set_index("state")
    assert stride_pairwise["percent_mean"].sum() == pytest.approx(100.0)
    # Seed 1: compute (1.0 + 1.2) / 4.0 = 55%, synchronize (0.4 + 0.2) / 4.0 = 15%;
    # seed 2: synchronize (0.2 + 0.2) / 4.0 = 10%, idle (0.5 + 0.3) / 4.0 = 20%.
    assert stride_pairwise.loc["compute", "percent_mean"] == pytest.approx(55.0)
    assert stride_pairwise.loc["synchronize", "percent_mean"] == pytest.approx(12.5)
    assert stride_pairwise.loc["idle", "percent_mean"] == pytest.approx(17.5)
    assert stride_pairwise.loc["idle", "percent_std"] == pytest.approx(math.sqrt(12.5))
    assert list(stride_pairwise.index) == ["compute", "communicate", "synchronize", "idle", "switch"]


def test_keep_alive_speedup_bars_per_scheduler_and_job_length(fixtures):
    results = load_results(fixtures / "now_keep_alive")
    roles = find_roles(results)
    assert roles.length == "workload.jobs.0.barriers"
    assert (roles.variant, roles.baseline) == ("workload.jobs.0.barrier.keep_alive", "off")
    table = tables.speedup_bars(results, roles, axis_columns(results))
    bars = table.set_index(["scheduler", "job_length", "comparison"])["speedup_mean"]
    assert len(bars) == 8
    assert bars[("stride", "10", "0.75 vs off")] == pytest.approx(7.5)  # 10 -> 9 and 20 -> 19
    assert bars[("ts", "10", "0.75 vs off")] == pytest.approx(-7.5)  # 10 -> 11 and 10 -> 10.5
    assert bars[("ts", "50", "0.9 vs off")] == pytest.approx(10.0)  # 40 -> 36 and 50 -> 45
    assert bars[("stride", "50", "0.9 vs off")] == pytest.approx(0.0)


def test_timeline_lanes_one_per_thread_in_job_copy_rank_order(fixtures):
    timeline = pd.read_csv(fixtures / "smp_load" / "runs" / "5eed000000000001" / "timeline.csv")
    lanes = tables.thread_state_lanes(timeline)
    assert list(lanes.drop_duplicates("lane")["thread"]) == ["fine#0/0", "fine#0/1"]
    per_state = lanes[lanes["lane"] == 0].set_index("state")["duration"]
    assert per_state.to_dict() == {"switching": 3, "computing": 10, "spinning": 6, "blocked": 21}
    assert lanes.groupby("lane")["duration"].sum().tolist() == [40, 40]


def test_flow_mapping_values_get_short_labels():
    assert tables.value_label("{algorithm: pairwise}") == "pairwise"
    assert tables.value_label("{algorithm: spin-fixed, spin: 300us}") == "spin-fixed, spin: 300us"
    assert tables.value_label("{policy: ts}") == "policy: ts"
    assert tables.value_label("2CS+") == "2CS+"
