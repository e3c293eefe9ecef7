"""The SSS-CORE study (numa sweeps): the parts of each run, the tables behind figures 5.1-5.4, the
breakdown, tables 5.4 and 5.5, and the claim checks, on two hand-made sweep folders.

Both fixtures are quick sweeps of the study's shape (w488 and w4444, policy0..policy4, strategy0 and
strategy1, one seed): `numa_agree` is set A (scenario nobukuni-set-a), `numa_disagree` set K. Their
numbers follow one rule, for network n (0 w488, 1 w4444), policy p and strategy s:
    net = 0.40 + 0.05 p + 0.04 s - 0.02 n     idle = 0.20 - 0.03 p     (breakdown.effective = net)
    calibrated = net (1 + idle)                maximum = net + idle
    sync = 0.4 (1 - maximum)                   comm = 0.6 (1 - maximum)      disk = 0.01 (5 - p)
    page_transfers.total = 100 (5 - p)(1 + n) + 20 (1 - s)
    pages_replaced, strategy1: other_copy (1000 + 100 p)(1 + n), the other classes 0;
                    strategy0: (500 + 10 p, 200, 50, 300, 20, 80) x (1 + n) in table 5.5's class order.
So in numa_agree every claim holds. numa_disagree changes five runs, each breaking one claim:
    w4444 policy2 strategy0: net 0.70   -> C1 fails there by all three rates, and C7 for w4444 policy2
    w488 policy3 strategy1: transfers 500 (policy2's is 300)                -> C5 fails there
    w488 policy2 strategy1: net 0.57, so sync + comm = 1 - 0.71 = 29% < policy3's 30%  -> C6 fails
    w488 policy4 strategy1: pages (400, 0, 300, 200, 50, 50): copies 40% of 1000   -> C8 fails
    w4444 policy4 strategy1: idle 0.28, so maximum 0.62 + 0.28 = 90%         -> C10 fails
"""

import shutil

import pandas as pd
import pytest

from analysis import figures, numa
from analysis.contract import ContractError, job_table, load_results, load_sweeps
from analysis.report import write_report


def study_of(fixtures, *names):
    results, _ = load_sweeps([fixtures / name for name in names])
    return numa.study(results)


def test_each_run_is_named_by_set_network_policy_and_strategy(fixtures):
    assert numa.set_name("nobukuni-set-a") == "A"
    assert numa.set_name("nobukuni-set-m") == "M"
    assert numa.set_name("my-study") == "my-study", "another scenario keeps its name"
    assert numa.network_name("/x/scenarios/nobukuni/../../platforms/numa-w4444.xml") == "w4444"
    assert numa.network_name("platforms/wide-1024.xml") == "wide-1024"
    study = study_of(fixtures, "numa_agree", "numa_disagree")
    assert study.values("set") == ["A", "K"]
    assert study.values("network") == ["w488", "w4444"]
    assert study.values("policy") == [f"policy{p}" for p in range(5)]
    assert study.values("strategy") == ["strategy0", "strategy1"]
    assert study.groups == [], "scheduler.slices does not vary; the three study axes are not groups"
    assert study.sources == {
        "set": "scenario",
        "network": "resolved.platform.file",
        "policy": "resolved.scheduler.policy",
        "strategy": "resolved.memory.replacement",
    }


def test_rates_table_has_six_bars_per_policy_in_the_thesis_order(fixtures):
    table = numa.rates_table(study_of(fixtures, "numa_agree").frame)
    assert len(table) == 2 * 5 * 2 * 3
    first = table.head(6)
    assert list(zip(first["strategy"], first["rate"])) == [
        ("strategy0", "net"), ("strategy0", "calibrated"), ("strategy0", "maximum"),
        ("strategy1", "net"), ("strategy1", "calibrated"), ("strategy1", "maximum"),
    ]
    assert set(first["policy"]) == {"policy0"} and set(first["network"]) == {"w488"}
    # w488, policy4: net 0.60 + 0.04 s; idle 0.08; calibrated net x 1.08; maximum net + 0.08.
    cell = table[(table["network"] == "w488") & (table["policy"] == "policy4")]
    assert cell["percent_mean"].tolist() == pytest.approx([60, 64.8, 68, 64, 69.12, 72])
    assert cell["seeds"].tolist() == [1] * 6 and cell["percent_std"].isna().all()
    assert table["network"].tolist()[60 // 2] == "w4444", "w488's 30 rows first, as the sweep runs them"


def test_breakdown_adds_up_to_100_with_disk_beside(fixtures):
    table = numa.breakdown_table(study_of(fixtures, "numa_agree").frame)
    wide = numa.wide(table, ["network", "policy", "strategy"], ["state"])
    assert list(wide.columns) == ["network", "policy", "strategy", "effective", "sync", "comm", "idle", "disk"]
    assert (wide[["effective", "sync", "comm", "idle"]].sum(axis=1)).tolist() == pytest.approx([100] * 20)
    # w488, policy0, strategy0: net 40, idle 20, the other 40 split 0.4 / 0.6; disk 5 over the same T'.
    assert wide.iloc[0, 3:].tolist() == pytest.approx([40, 16, 24, 20, 5])


def test_table_5_4_layout_is_w488_strategy1(fixtures):
    table = numa.table_5_4(study_of(fixtures, "numa_agree", "numa_disagree").frame)
    assert list(table.columns) == ["set", "row", "policy0", "policy1", "policy2", "policy3", "policy4"]
    rows = {(s, r): values for s, r, *values in table.itertuples(index=False)}
    # maximum = 0.64 + 0.02 p on w488 with strategy1; sync 0.4 and comm 0.6 of the rest.
    assert rows[("A", "Max")] == pytest.approx([64, 66, 68, 70, 72])
    assert rows[("A", "Sync")] == pytest.approx([14.4, 13.6, 12.8, 12.0, 11.2])
    assert rows[("A", "Comm")] == pytest.approx([21.6, 20.4, 19.2, 18.0, 16.8])
    assert rows[("K", "Max")][2] == pytest.approx(71), "set K's policy2 (net 0.57, idle 0.14)"


def test_table_5_5_sets_each_row_beside_the_thesis(fixtures):
    table = numa.table_5_5(study_of(fixtures, "numa_agree", "numa_disagree").frame)
    assert list(table.columns) == [
        "strategy", "set", "source", "other's copy", "own copy", "other's last", "other's local", "own last",
        "own local", "total", "copies_percent", "seeds",
    ]
    assert list(zip(table["strategy"], table["set"], table["source"])) == [
        ("strategy0", "A", "cosched"), ("strategy0", "A", numa.THESIS_LABEL),
        ("strategy0", "K", "cosched"), ("strategy0", "K", numa.THESIS_LABEL),
        ("strategy1", "A", "cosched"), ("strategy1", "A", numa.THESIS_LABEL),
        ("strategy1", "K", "cosched"), ("strategy1", "K", numa.THESIS_LABEL),
    ]
    rows = table.set_index(["strategy", "set", "source"])
    classes = table.columns[3:9]
    # policy4 on w488: strategy0 (500 + 40, 200, 50, 300, 20, 80), total 1190, copies 740 of it.
    assert rows.loc[("strategy0", "A", "cosched"), classes].tolist() == [540, 200, 50, 300, 20, 80]
    assert rows.loc[("strategy0", "A", "cosched"), "total"] == 1190
    assert rows.loc[("strategy0", "A", "cosched"), "copies_percent"] == pytest.approx(100 * 740 / 1190)
    assert rows.loc[("strategy1", "A", "cosched"), classes].tolist() == [1400, 0, 0, 0, 0, 0]
    # The thesis's rows are its Table 5.5, verbatim.
    assert rows.loc[("strategy0", "K", numa.THESIS_LABEL), classes].tolist() == [33105, 10487, 830, 22598, 65, 3803]
    assert rows.loc[("strategy1", "K", numa.THESIS_LABEL), "total"] == 77665
    assert pd.isna(rows.loc[("strategy1", "K", numa.THESIS_LABEL), "seeds"])


def verdicts(claims: pd.DataFrame) -> list[tuple[str, str, str]]:
    return list(zip(claims["claim"], claims["agree"], claims["verdict"]))


def full(frame: pd.DataFrame) -> pd.DataFrame:
    """The fixture's runs (10 time slices, a --quick sweep's) as if they had the thesis's 100."""
    return frame.assign(**{"resolved.scheduler.slices": numa.THESIS_SLICES})


def test_every_claim_holds_on_runs_that_agree(fixtures):
    claims = numa.claims_table(full(study_of(fixtures, "numa_agree").frame))
    # C1: 2 networks x 2 strategies x 3 rates; C5: 4 cells; C6: w488 strategy1 only; C7: 2 networks x
    # 5 policies x 3 rates; C8: policy4 w488 strategy1; C10: policy4 strategy1 on each network.
    assert verdicts(claims) == [
        ("C1", "12 of 12", "holds"), ("C5", "4 of 4", "holds"), ("C6", "1 of 1", "holds"),
        ("C7", "30 of 30", "holds"), ("C8", "1 of 1", "holds"), ("C10", "2 of 2", "holds"),
    ]
    detail = claims.set_index("claim")["detail"]
    assert detail["C1"] == "" and detail["C7"] == ""
    assert detail["C8"] == "agree: set A: copies 100.0% of 1400 evictions, all of other processes (class 1)"
    assert detail["C10"] == "agree: set A, w488: maximum 72.0%; set A, w4444: maximum 70.0%"


def test_every_claim_fails_where_the_runs_disagree(fixtures):
    claims = numa.claims_table(full(study_of(fixtures, "numa_disagree").frame))
    assert verdicts(claims) == [
        ("C1", "9 of 12", "fails"), ("C5", "3 of 4", "fails"), ("C6", "0 of 1", "fails"),
        ("C7", "27 of 30", "fails"), ("C8", "0 of 1", "fails"), ("C10", "1 of 2", "fails"),
    ]
    detail = claims.set_index("claim")["detail"]
    assert detail["C1"] == (
        "disagree: set K, w4444, strategy0: net policy2 70.0% against policy4 58.0%, "
        "calibrated policy2 79.8% against policy4 62.6%, maximum policy2 84.0% against policy4 66.0%"
    )
    assert detail["C5"] == "disagree: set K, w488, strategy1: policy2 300, policy3 500, policy4 100"
    assert detail["C6"] == "disagree: set K, w488, strategy1: policy2 29.0%, policy3 30.0%, policy4 28.0%"
    assert detail["C7"].startswith("disagree: set K, w4444, policy2: net strategy1 52.0% against strategy0 70.0%")
    assert detail["C8"] == "disagree: set K: copies 40.0% of 1000 evictions"
    assert detail["C10"] == "disagree: set K, w4444: maximum 90.0% / agree: set K, w488: maximum 72.0%"


def test_claims_on_runs_shorter_than_the_thesiss_are_indicative(fixtures):
    # The fixtures are 10-slice runs: every verdict says so, and each detail opens with why.
    claims = numa.claims_table(study_of(fixtures, "numa_disagree").frame)
    assert [v for _, _, v in verdicts(claims)] == ["fails on short runs"] * 6
    note = ("these runs have 10 time slices, the thesis's 100 (a --quick sweep?): a verdict on them is indicative "
            "only; run the sweep without --quick to check the claims")
    assert all(detail.startswith(note) for detail in claims["detail"])
    agree = numa.claims_table(study_of(fixtures, "numa_agree").frame).set_index("claim")
    assert agree.loc["C1", "verdict"] == "holds on short runs" and agree.loc["C1", "detail"] == note
    # A claim with nothing to compare stays `not checked`, whatever the runs' length.
    frame = study_of(fixtures, "numa_agree").frame
    assert numa.claims_table(frame[frame["policy"] != "policy2"]).set_index("claim").loc["C5", "verdict"] == "not checked"
    assert numa.short_runs(full(frame)) is None


def test_claims_over_two_sets_count_both(fixtures):
    claims = numa.claims_table(full(study_of(fixtures, "numa_agree", "numa_disagree").frame))
    assert verdicts(claims) == [
        ("C1", "21 of 24", "fails"), ("C5", "7 of 8", "fails"), ("C6", "1 of 2", "fails"),
        ("C7", "57 of 60", "fails"), ("C8", "1 of 2", "fails"), ("C10", "3 of 4", "fails"),
    ]


def test_a_claim_the_runs_cannot_test_is_not_checked(fixtures):
    frame = full(study_of(fixtures, "numa_agree").frame)
    without_policy2 = numa.claims_table(frame[frame["policy"] != "policy2"])
    assert verdicts(without_policy2)[1:3] == [("C5", "", "not checked"), ("C6", "", "not checked")]
    assert without_policy2["detail"][1] == "no set, network and strategy with policy2, policy3 and policy4"
    w4444 = numa.claims_table(frame[frame["network"] == "w4444"]).set_index("claim")
    assert w4444.loc["C6", "verdict"] == "not checked" and w4444.loc["C8", "verdict"] == "not checked"
    assert w4444.loc["C6", "detail"] == "no w488 strategy1 runs with policy2, policy3 and policy4 (table 5.4's setting)"
    assert (w4444.loc["C10", "agree"], w4444.loc["C10", "verdict"]) == ("1 of 1", "holds")
    strategy0 = numa.claims_table(frame[frame["strategy"] == "strategy0"]).set_index("claim")
    assert strategy0.loc["C7", "verdict"] == "not checked" and strategy0.loc["C10", "verdict"] == "not checked"
    # Runs in table 5.5's setting that evicted nothing: C8 is not checked, and says why (not that a run is missing).
    no_eviction = frame.copy()
    for column in [c for c in no_eviction.columns if c.startswith("pages_replaced.")]:
        no_eviction[column] = 0
    c8 = numa.claims_table(no_eviction).set_index("claim").loc["C8"]
    assert c8["verdict"] == "not checked"
    assert c8["detail"] == "no eviction in table 5.5's setting (policy4, w488, strategy1); set A: no eviction, not counted"


def test_claims_compare_means_over_seeds(fixtures):
    # A second seed of set A whose policy4 strategy1 run on w488 reaches a maximum of 90% (idle 0.26):
    # alone it is outside 65-85%, but the mean over the two seeds, (72 + 90) / 2 = 81%, is inside.
    frame = full(study_of(fixtures, "numa_agree").frame)
    second = frame.copy()
    second["seed"] = 2
    run = (second["network"] == "w488") & (second["policy"] == "policy4") & (second["strategy"] == "strategy1")
    second.loc[run, "rates.maximum"] = 0.90
    assert numa.claims_table(second).set_index("claim").loc["C10", "verdict"] == "fails"
    claims = numa.claims_table(pd.concat([frame, second], ignore_index=True)).set_index("claim")
    assert (claims.loc["C10", "agree"], claims.loc["C10", "verdict"]) == ("2 of 2", "holds")
    assert claims.loc["C10", "detail"] == "agree: set A, w488: maximum 81.0%; set A, w4444: maximum 70.0%"
    rates = numa.rates_table(pd.concat([frame, second], ignore_index=True))
    cell = rates[(rates["network"] == "w488") & (rates["policy"] == "policy4") & (rates["strategy"] == "strategy1")]
    maximum = cell[cell["rate"] == "maximum"].iloc[0]
    assert (maximum["percent_mean"], maximum["seeds"]) == (pytest.approx(81), 2)
    assert maximum["percent_std"] == pytest.approx(pd.Series([72.0, 90.0]).std())


def test_numa_process_columns_are_job_columns(fixtures):
    jobs = job_table(load_results(fixtures / "numa_agree"), ["seed"])
    assert list(dict.fromkeys(jobs["instance"])) == ["p16", "p50#0", "p50#1"]
    assert set(jobs["job_class"]) == {"p16", "p50"}
    assert {"threads", "rates.net"} <= set(jobs.columns)


def test_rates_figure_has_a_panel_per_network_and_six_bars_per_policy(fixtures):
    table = numa.rates_table(study_of(fixtures, "numa_agree").frame)
    fig = figures.numa_rates_figure(table, "Process set A")
    panels = fig.axes
    assert [ax.get_title() for ax in panels] == ["network w488", "network w4444"]
    assert [len(ax.patches) for ax in panels] == [5 * 6, 5 * 6]
    assert [t.get_text() for t in panels[0].get_xticklabels()] == [f"policy{p}" for p in range(5)]
    assert [t.get_text() for t in panels[0].get_legend().get_texts()] == [
        "strategy0 net", "strategy0 calibrated", "strategy0 maximum",
        "strategy1 net", "strategy1 calibrated", "strategy1 maximum",
    ]
    # The first bar of policy4's group on w488 is strategy0's net rate, 60%.
    assert panels[0].patches[4].get_height() == pytest.approx(60)
    assert "(% of T′)" in panels[0].get_ylabel()


def test_breakdown_figure_stacks_four_states_and_writes_disk_apart(fixtures):
    table = numa.breakdown_table(study_of(fixtures, "numa_agree").frame)
    fig = figures.numa_breakdown_figure(table, "Process set A")
    panels = fig.axes
    assert [len(ax.patches) for ax in panels] == [5 * 2 * 4, 5 * 2 * 4], "policies x strategies x states"
    # One label per bar, strategy0's bars first: disk 0.01 (5 - p) of T'.
    texts = [t.get_text() for t in panels[0].texts]
    assert len(texts) == 5 * 2 and texts[:5] == ["disk 5.0%", "disk 4.0%", "disk 3.0%", "disk 2.0%", "disk 1.0%"]
    legend = [t.get_text() for t in panels[0].get_legend().get_texts()]
    assert legend[:4] == ["effective", "sync", "comm", "idle"]


def test_report_of_a_numa_sweep_has_the_study_figures_and_tables(fixtures, tmp_path):
    write_report(fixtures / "numa_agree", tmp_path)
    report = (tmp_path / "report.md").read_text()
    headings = [line[3:] for line in report.splitlines() if line.startswith("## ")]
    # Headline tables first, then the figures, then the figures' data (the fixture's runs are 10-slice ones).
    assert headings == [
        "Execution-time breakdown, table 5.4 layout (w488, strategy1)",
        "Pages replaced by class, table 5.5 layout (policy4, w488)",
        "The thesis's claims against these runs (short runs: indicative only)",
        "Effective execution rates: process set A",
        "Execution-time breakdown: process set A",
        "Data of the figures",
        "Not drawn",
    ]
    for stem in ["numa_rates_A", "numa_breakdown_A"]:
        assert (tmp_path / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        table = pd.read_csv(tmp_path / f"{stem}.csv")
        assert len(table) == 2 * 5 * 2 * (3 if "rates" in stem else 5)
        draw = figures.numa_rates_figure if "rates" in stem else figures.numa_breakdown_figure
        assert len(draw(table, "again").axes) == 2, "the CSV beside the PNG is enough to draw the figure again"
    assert "| w488 | policy4 | 60 | 64.8 | 68 | 64 | 69.12 | 72 |" in report
    assert "| strategy1 | A | thesis (Nobukuni 1997, Table 5.5) | 38976 | 0 | 0 | 0 | 0 | 0 | 38976 | 100 |  |" in report
    assert "| C10 | " in report and "| 2 of 2 | holds on short runs |" in report
    assert "- process set: the scenario's name (`scenario`): `A`" in report
    assert "SSR against load" not in report, "the smp and now figures are not asked of numa runs"


def test_report_without_the_thesis_settings_says_why(fixtures, tmp_path):
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    results = (fixtures / "numa_agree" / "results.csv").read_text().splitlines()
    (sweep / "results.csv").write_text("\n".join([results[0], *(r for r in results[1:] if "w488" not in r.split(",")[2])]))
    write_report(sweep, tmp_path / "out")
    report = (tmp_path / "out" / "report.md").read_text()
    assert "- table 5.4 layout: not drawn, no w488 strategy1 runs (the table's setting)." in report
    assert "- table 5.5: not drawn, no policy4 run on w488 (the table's setting)." in report
    assert (tmp_path / "out" / "numa_rates_A.png").is_file()


def test_several_sweeps_are_read_as_one(fixtures, tmp_path):
    results, folders = load_sweeps([fixtures / "numa_agree", fixtures / "numa_disagree"])
    assert len(results) == 40 and folders["d000000000000001"] == fixtures / "numa_disagree"
    assert results.columns[-2:].tolist() == ["job.p256.threads", "job.p256.rates.net"], "set K's own processes"
    again, _ = load_sweeps([fixtures / "numa_agree", fixtures / "numa_agree"])
    assert len(again) == 20, "a run found twice is one run"
    with pytest.raises(ContractError) as error:
        load_sweeps([fixtures / "numa_agree", fixtures / "smp_load"])
    assert str(error.value) == (
        f"{fixtures / 'smp_load' / 'results.csv'}:1: axes workload.nosync, workload.jobs.0.wait.spin differ from "
        f"{fixtures / 'numa_agree' / 'results.csv'}'s platform.file, scheduler.policy, memory.replacement, "
        "scheduler.slices (a report of several sweeps needs the same axes)"
    )
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(fixtures / "numa_agree" / "results.csv", other / "results.csv")
    text = (other / "results.csv").read_text().replace(",numa,", ",smp,").replace("a0000", "b0000")
    (other / "results.csv").write_text(text)
    with pytest.raises(ContractError, match="model smp differs from .*'s numa"):
        load_sweeps([fixtures / "numa_agree", other])


def test_another_varying_axis_gives_each_of_its_values_figures_of_their_own(fixtures, tmp_path):
    # The set A sweep run under both network models: platform.network [hops, shared] as a fourth axis.
    results = load_results(fixtures / "numa_agree")
    hops = results.copy()
    hops.insert(hops.columns.get_loc("schema_version"), "platform.network", "hops")
    shared = hops.assign(**{"platform.network": "shared", "run_id": hops["run_id"].str.replace("a0", "5a", n=1)})
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    pd.concat([hops, shared]).to_csv(sweep / "results.csv", index=False)
    written = {path.name for path in write_report(sweep, tmp_path / "out")}
    assert {"numa_rates_A_network-hops.png", "numa_rates_A_network-shared.png",
            "numa_breakdown_A_network-shared.png"} <= written
    report = (tmp_path / "out" / "report.md").read_text()
    assert "## Effective execution rates: process set A, network=shared" in report
    assert "- other varying axes: `platform.network`" in report
    claims = pd.read_csv(tmp_path / "out" / "numa_claims.csv", keep_default_na=False)
    assert claims["agree"].tolist()[0] == "24 of 24", "C1 per set, group, network and strategy"
    replaced = pd.read_csv(tmp_path / "out" / "numa_table_5_5.csv")
    assert list(zip(replaced["set"], replaced["source"]))[:3] == [
        ("A, network=hops", "cosched"), ("A, network=shared", "cosched"), ("A", numa.THESIS_LABEL),
    ]
