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


def test_slowdown_bars_are_the_makespan_ratio_per_setting_paired_by_seed(fixtures):
    # The schedulers compared (ts against stride) under each waiting algorithm, as B&M compare each local
    # scheduler with gang scheduling.
    results = load_results(fixtures / "now_waiting")
    roles = find_roles(results, variant="scheduler.policy")
    assert (roles.baseline, roles.wait) == ("stride", "workload.jobs.0.wait.algorithm")
    table = tables.slowdown_bars(results, roles, axis_columns(results)).set_index("setting")
    assert list(table.index) == ["algorithm=pairwise", "algorithm=block"]
    assert set(table["comparison"]) == {"ts vs stride"}
    assert (table.loc["algorithm=pairwise", "variant"], table.loc["algorithm=pairwise", "baseline"]) == ("ts", "stride")
    # pairwise: 4 / 2 = 2 (seed 1) and 5 / 2.2 = 2.2727 (seed 2).
    pairwise = table.loc["algorithm=pairwise"]
    assert pairwise["slowdown_mean"] == pytest.approx((2.0 + 5 / 2.2) / 2)
    assert (pairwise["slowdown_min"], pairwise["slowdown_max"]) == pytest.approx((2.0, 5 / 2.2))
    assert pairwise["seeds"] == 2
    # block: 6 / 6 = 1 and 10 / 6.6 = 1.5152.
    block = table.loc["algorithm=block"]
    assert block["slowdown_mean"] == pytest.approx((1.0 + 10 / 6.6) / 2)
    assert block["slowdown_std"] == pytest.approx((10 / 6.6 - 1.0) / math.sqrt(2))
    assert (block["slowdown_min"], block["slowdown_max"]) == pytest.approx((1.0, 10 / 6.6))


def test_slowdown_bars_shorten_flow_mapping_values_and_keep_each_other_axis(fixtures):
    # Axis values written as flow mappings (a sweep's `scheduler` and `workload.jobs.0.wait` axes), a job
    # length that varies too: one setting per (algorithm, length), labelled with the short values.
    rows = []
    for seed, scale in ((1, 1.0), (2, 2.0)):
        for barriers, length in ((10, 1.0), (50, 5.0)):
            for wait, gang, eevdf in (("{algorithm: pairwise}", 10.0, 16.0), ("{algorithm: spin}", 10.0, 800.0)):
                for scheduler, time in (("{policy: gang, quantum: 10ms}", gang), ("{policy: eevdf}", eevdf)):
                    rows.append({"seed": seed, "scheduler": scheduler, "workload.jobs.0.wait": wait,
                                 "workload.jobs.0.barriers": barriers, "makespan": time * length * scale})
    results = pd.DataFrame(rows)
    results.insert(0, "run_id", [f"{i:016x}" for i in range(len(results))])
    results.insert(list(results.columns).index("makespan"), "schema_version", 1)
    roles = find_roles(results, variant="scheduler")
    table = tables.slowdown_bars(results, roles, axis_columns(results)).set_index("setting")
    assert list(table.index) == ["wait=pairwise, barriers=10", "wait=spin, barriers=10",
                                 "wait=pairwise, barriers=50", "wait=spin, barriers=50"]
    assert list(table["variant"].unique()) == ["policy: eevdf"]
    assert list(table["baseline"].unique()) == ["policy: gang, quantum: 10ms"]
    # The same ratio at both seeds and lengths: 16 / 10 and 800 / 10.
    assert list(table["slowdown_mean"]) == pytest.approx([1.6, 80.0, 1.6, 80.0])
    assert list(table["slowdown_min"]) == pytest.approx([1.6, 80.0, 1.6, 80.0])
    assert list(table["seeds"]) == [2, 2, 2, 2]


def test_speedup_bars_and_breakdown_keep_the_waiting_algorithms_apart(fixtures):
    # With the scheduler as the variant, the waiting algorithm is one more axis: pairwise's and block's runs
    # are not pooled as if they were seeds of one bar.
    results = load_results(fixtures / "now_waiting")
    roles = find_roles(results, variant="scheduler.policy")
    table = tables.speedup_bars(results, roles, axis_columns(results)).set_index("group")
    assert list(table.index) == ["algorithm=pairwise", "algorithm=block"]
    assert list(table["seeds"]) == [2, 2]
    # pairwise, ts vs stride: (2 - 4) / 2 = -100% and (2.2 - 5) / 2.2 = -127.27%.
    assert table.loc["algorithm=pairwise", "speedup_mean"] == pytest.approx((-100.0 - 2.8 / 2.2 * 100) / 2)
    # block: 0% and (6.6 - 10) / 6.6 = -51.52%.
    assert table.loc["algorithm=block", "speedup_mean"] == pytest.approx(-3.4 / 6.6 * 100 / 2)
    jobs, _ = tables.job_and_class_tables(results, roles)
    breakdown = tables.state_breakdown(jobs, roles)
    assert set(breakdown["group"]) == {"algorithm=pairwise", "algorithm=block"}
    assert set(breakdown["seeds"]) == {2}


def test_two_settings_of_one_policy_are_two_schedulers(fixtures):
    # A `scheduler` axis with EEVDF twice (its defaults, PLACE_LAG off): the resolved policy is `eevdf` for
    # both, and Table 1's layout must not pool them as if they were seeds of one scheduler.
    rows = []
    for seed in (1, 2):
        for scheduler, pairwise, block in (("{policy: eevdf}", 10.0, 30.0),
                                           ("{policy: eevdf, features: {PLACE_LAG: false}}", 10.0, 20.0)):
            for wait, time in (("{algorithm: pairwise}", pairwise), ("{algorithm: block}", block)):
                rows.append({"run_id": f"{len(rows):016x}", "seed": seed, "scheduler": scheduler,
                             "workload.jobs.0.wait": wait, "schema_version": 1, "makespan": time * seed,
                             "resolved.scheduler.policy": "eevdf"})
    results = pd.DataFrame(rows)
    roles = find_roles(results)
    table = tables.waiting_algorithms(results, roles, axis_columns(results)).set_index(["algorithm", "scheduler"])
    assert table.loc[("block", "policy: eevdf"), "slowdown_mean"] == pytest.approx(3.0)
    # Labelled by what tells them apart (distinct_labels): the second's shared `policy: eevdf` is left out.
    assert table.loc[("block", "features: {PLACE_LAG: false}"), "slowdown_mean"] == pytest.approx(2.0)
    assert set(table["seeds"]) == {2}
    # One setting per policy keeps the policy's own name (B&M Table 1's sweeps).
    results = load_results(fixtures / "now_waiting")
    assert set(tables.waiting_algorithms(results, find_roles(results), axis_columns(results))["scheduler"]) == {
        "stride", "ts"}


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


def test_distinct_labels_leave_out_what_every_value_shares():
    labels = tables.distinct_labels(["{policy: gang, quantum: 10ms, context_switch: 100us}",
                                     "{policy: eevdf, context_switch: 100us, features: {A: false, B: true}}"])
    assert list(labels.values()) == ["policy: gang, quantum: 10ms", "policy: eevdf, features: {A: false, B: true}"]
    # Nothing shared, or a single value: the labels as value_label gives them.
    assert tables.distinct_labels(["{algorithm: pairwise}"]) == {"{algorithm: pairwise}": "pairwise"}
    assert list(tables.distinct_labels(["{policy: ts}", "{policy: ts}"]).values()) == ["policy: ts"]
