"""Beyond the thesis: the figures of sweeps/nobukuni-consistency.yaml (the rates per policy under sequential
and release consistency) and sweeps/nobukuni-write-share.yaml (rates and breakdown against the shared write
share, a line per consistency), on two hand-made sweep folders of set A on w488 with strategy1.

`numa_consistency` varies memory.consistency (c: 0 sequential, 1 release) and scheduler.policy (p):
    net = 0.30 + 0.05 p + 0.10 c     idle = 0.20 - 0.03 p     calibrated = net (1 + idle)
    maximum = net + idle              sync = 0.4 (1 - maximum)  comm = 0.6 (1 - maximum)   disk = 0.01
`numa_write_share` (policy4) varies memory.consistency and workload.shared_table.write w, zipped with
workload.shared_table.read = 0.5 - w, w in 0, 0.01, 0.05, 0.15; with k = 3 (sequential) or 1 (release):
    net = 0.70 - k w    idle = 0.10    sync = 0.05    comm = 0.15 + k w    disk = 0.02
    (calibrated = 1.1 net, maximum = net + 0.10; effective + sync + comm + idle = 1)
"""

import pandas as pd
import pytest

from analysis import figures, numa
from analysis.contract import load_results
from analysis.report import write_report


def study_of(fixtures, name):
    return numa.study(load_results(fixtures / name))


def test_consistency_rates_table_puts_the_two_models_side_by_side_per_policy(fixtures):
    study = study_of(fixtures, "numa_consistency")
    assert study.groups == ["memory.consistency"] and numa.varies_consistency(study)
    assert not numa.varies_write_share(study)
    table = numa.consistency_rates_table(study)
    assert len(table) == 5 * 2 * 3
    assert set(table["group"]) == {"all"}, "the consistency is drawn as bars, not as a group of its own"
    assert set(table["strategy"]) == {"strategy1"} and set(table["network"]) == {"w488"}
    first = table.head(6)
    assert list(zip(first["consistency"], first["rate"])) == [
        ("sequential", "net"), ("sequential", "calibrated"), ("sequential", "maximum"),
        ("release", "net"), ("release", "calibrated"), ("release", "maximum"),
    ]
    # policy4: idle 0.08; sequential net 0.50, calibrated 0.50 x 1.08, maximum 0.58; release net 0.60.
    cell = table[table["policy"] == "policy4"]
    assert cell["percent_mean"].tolist() == pytest.approx([50, 54, 58, 60, 64.8, 68])
    assert cell["seeds"].tolist() == [1] * 6 and cell["percent_std"].isna().all()


def test_consistency_is_read_from_the_resolved_scenario_first(fixtures):
    results = load_results(fixtures / "numa_consistency")
    results["resolved.memory.consistency"] = "release"
    table = numa.consistency_rates_table(numa.study(results))
    assert set(table["consistency"]) == {"release"}, "the value the run used, not the axis's spelling"
    without = numa.study(load_results(fixtures / "numa_consistency").drop(
        columns=["resolved.memory.consistency", "memory.consistency"]))
    assert set(numa.consistency_rates_table(without)["consistency"]) == {"sequential"}, "the thesis's, by default"


def test_consistency_figure_is_figure_5_1_with_the_models_in_the_strategies_place(fixtures):
    table = numa.consistency_rates_table(study_of(fixtures, "numa_consistency"))
    fig = figures.numa_rates_figure(table, "Process set A", series="consistency")
    (panel,) = fig.axes
    assert panel.get_title() == "network w488"
    assert len(panel.patches) == 5 * 6
    legend = panel.get_legend()
    assert legend.get_title().get_text() == "consistency, rate"
    assert [t.get_text() for t in legend.get_texts()] == [
        "sequential net", "sequential calibrated", "sequential maximum",
        "release net", "release calibrated", "release maximum",
    ]
    # Bars are drawn series by series: the 5 sequential net bars, then the calibrated ones ...; the 4th
    # series (release net) of policy4 is patch 3 x 5 + 4, 60%; sequential maximum of policy0 is 30 + 20.
    assert panel.patches[3 * 5 + 4].get_height() == pytest.approx(60)
    assert panel.patches[2 * 5].get_height() == pytest.approx(50)


def test_write_share_tables_give_a_line_per_consistency_with_the_read_share_moving_along(fixtures):
    study = study_of(fixtures, "numa_write_share")
    assert numa.varies_write_share(study)
    rates = numa.write_share_rates_table(study)
    assert len(rates) == 2 * 3 * 4
    assert set(rates["group"]) == {"all"}, "read = 0.5 - write takes one value per write share: no group"
    assert list(rates.columns) == ["set", "group", "network", "policy", "strategy", "consistency", "rate",
                                   "write_share", "percent_mean", "percent_std", "seeds"]

    def line(table, consistency, key, value):
        part = table[(table["consistency"] == consistency) & (table[key] == value)]
        return part["write_share"].tolist(), part["percent_mean"].tolist()

    shares = [0, 0.01, 0.05, 0.15]
    # sequential: net = 70 - 300 w; release: maximum = 70 - 100 w + 10.
    assert line(rates, "sequential", "rate", "net") == (shares, pytest.approx([70, 67, 55, 25]))
    assert line(rates, "release", "rate", "maximum") == (shares, pytest.approx([80, 79, 75, 65]))
    assert line(rates, "sequential", "rate", "calibrated")[1] == pytest.approx([77, 73.7, 60.5, 27.5])
    assert list(dict.fromkeys(rates["consistency"])) == ["sequential", "release"], "the runs' order"
    breakdown = numa.write_share_breakdown_table(study)
    assert list(dict.fromkeys(breakdown["state"])) == ["effective", "sync", "comm", "idle", "disk"]
    # comm = 15 + 300 w (sequential), 15 + 100 w (release); sync 5 throughout.
    assert line(breakdown, "sequential", "state", "comm") == (shares, pytest.approx([15, 18, 30, 60]))
    assert line(breakdown, "release", "state", "comm")[1] == pytest.approx([15, 16, 20, 30])
    assert line(breakdown, "release", "state", "sync")[1] == pytest.approx([5] * 4)
    in_t = breakdown[breakdown["state"] != "disk"].groupby(["consistency", "write_share"])["percent_mean"].sum()
    assert in_t.tolist() == pytest.approx([100] * 8)


def test_write_share_points_are_sorted_and_an_independent_read_share_stays_a_group(fixtures):
    results = load_results(fixtures / "numa_write_share")
    shuffled = results.iloc[[3, 0, 2, 1, 7, 4, 6, 5]].reset_index(drop=True)
    rates = numa.write_share_rates_table(numa.study(shuffled))
    net = rates[(rates["consistency"] == "sequential") & (rates["rate"] == "net")]
    assert net["write_share"].tolist() == [0, 0.01, 0.05, 0.15], "by write share, whatever the runs' order"
    # The release runs given read 0.3 throughout: write 0 then has reads 0.5 and 0.3, so the read share
    # is an axis of its own, whose values label the groups.
    results.loc[results["memory.consistency"] == "release", "workload.shared_table.read"] = 0.3
    rates = numa.write_share_rates_table(numa.study(results))
    assert list(dict.fromkeys(rates["group"])) == ["read=0.5", "read=0.49", "read=0.45", "read=0.35", "read=0.3"]


def test_write_share_figures_draw_each_line_against_the_write_share(fixtures):
    study = study_of(fixtures, "numa_write_share")
    fig = figures.numa_write_share_rates_figure(numa.write_share_rates_table(study), "Process set A")
    (panel,) = fig.axes
    assert panel.get_title() == "w488 / policy4 / strategy1"
    assert [line.get_label() for line in panel.get_lines()] == [
        "sequential net", "sequential calibrated", "sequential maximum",
        "release net", "release calibrated", "release maximum",
    ]
    first = panel.get_lines()[0]
    assert first.get_xdata().tolist() == [0, 0.01, 0.05, 0.15]
    assert first.get_ydata().tolist() == pytest.approx([70, 67, 55, 25])
    assert panel.get_xscale() == "symlog"
    assert [t.get_text() for t in panel.get_xticklabels()] == ["0", "0.01", "0.05", "0.15"]
    assert "workload.shared_table.write" in panel.get_xlabel() and "(% of T′)" in panel.get_ylabel()
    assert panel.get_ylim() == (0, 90), "up to the ten above 1.1 x the highest value, 80"
    fig = figures.numa_write_share_breakdown_figure(numa.write_share_breakdown_table(study), "Process set A",
                                                    ["sync", "comm"])
    lines = fig.axes[0].get_lines()
    assert [line.get_label() for line in lines] == ["sequential sync", "sequential comm", "release sync", "release comm"]
    assert lines[3].get_ydata().tolist() == pytest.approx([15, 16, 20, 30])
    assert lines[0].get_linestyle() != lines[2].get_linestyle(), "a line style per consistency"
    assert lines[0].get_color() == lines[2].get_color(), "a colour per state"
    assert fig.axes[0].get_ylim() == (0, 70), "the highest drawn, comm 60%: the disk and effective shares do not count"


def headings(report: str) -> list[str]:
    return [line[3:] for line in report.splitlines() if line.startswith("## ")]


def test_report_of_the_consistency_sweep_adds_its_figure(fixtures, tmp_path):
    write_report(fixtures / "numa_consistency", tmp_path)
    report = (tmp_path / "report.md").read_text()
    assert headings(report) == [
        "Execution-time breakdown, table 5.4 layout (w488, strategy1)",
        "Pages replaced by class, table 5.5 layout (policy4, w488)",
        "The thesis's claims against these runs (short runs: indicative only)",
        "Effective execution rates: process set A, consistency=sequential",
        "Effective execution rates: process set A, consistency=release",
        "Execution-time breakdown: process set A, consistency=sequential",
        "Execution-time breakdown: process set A, consistency=release",
        "Effective execution rates by consistency: process set A, strategy1",
        "Data of the figures",
        "Not drawn",
    ]
    stem = "numa_consistency_rates_A_strategy1"
    assert (tmp_path / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = pd.read_csv(tmp_path / f"{stem}.csv")
    assert len(figures.numa_rates_figure(table, "again", series="consistency").axes[0].patches) == 30, \
        "the CSV beside the PNG is enough to draw the figure again"
    # The wide layout: network, policy, then sequential's three rates and release's.
    assert "| w488 | policy4 | 50 | 54 | 58 | 60 | 64.8 | 68 |" in report
    assert "- rates and breakdown against the write share: not drawn, `workload.shared_table.write` does not vary." in report


def test_report_of_the_write_share_sweep_draws_lines_instead_of_a_figure_per_point(fixtures, tmp_path):
    written = {path.name for path in write_report(fixtures / "numa_write_share", tmp_path)}
    report = (tmp_path / "report.md").read_text()
    assert headings(report) == [
        "Execution-time breakdown, table 5.4 layout (w488, strategy1)",
        "Pages replaced by class, table 5.5 layout (policy4, w488)",
        "The thesis's claims against these runs (short runs: indicative only)",
        "Effective execution rates against the write share: process set A",
        "Synchronization and communication against the write share: process set A",
        "Data of the figures",
        "Not drawn",
    ]
    assert not any(name.startswith(("numa_rates_", "numa_breakdown_")) for name in written)
    assert {"numa_write_share_rates_A.png", "numa_write_share_breakdown_A.png"} <= written
    assert ("- rates and breakdown per process set and group: not drawn, `workload.shared_table.write` varies: its "
            "write-share figures draw each group's values as lines.") in report
    assert ("- rates by consistency: not drawn, `workload.shared_table.write` varies too: its figures draw a line "
            "per consistency.") in report
    # Rates at write share 0.05: sequential 55, 60.5, 65; release 65, 71.5, 75. Sync and comm at 0.15.
    assert "| w488 | policy4 | strategy1 | 0.05 | 55 | 60.5 | 65 | 65 | 71.5 | 75 |" in report
    assert "| w488 | policy4 | strategy1 | 0.15 | 5 | 60 | 5 | 30 |" in report
    breakdown = pd.read_csv(tmp_path / "numa_write_share_breakdown_A.csv")
    again = figures.numa_write_share_breakdown_figure(breakdown, "again", numa.WRITE_SHARE_STATES)
    assert len(again.axes[0].get_lines()) == 4


def test_the_study_report_notes_both_figures_as_not_drawn(fixtures, tmp_path):
    write_report(fixtures / "numa_agree", tmp_path)
    report = (tmp_path / "report.md").read_text()
    assert "- rates by consistency: not drawn, `memory.consistency` does not vary." in report
    assert "- rates and breakdown against the write share: not drawn, `workload.shared_table.write` does not vary." in report
    assert not list(tmp_path.glob("numa_consistency_*")) and not list(tmp_path.glob("numa_write_share_*"))


def sensitivity_results():
    """A hand-made map: set A on w488 with strategy1, write share w in 0, 0.15 and hot set h in 0.1, 1.0,
    policies 2, 3, 4. Policy p's maximum rate is 0.86 + 0.01 p - 2 w (5 - p) - (h == 1.0) x 0.05 (5 - p):
    policy4 best everywhere but at (0.15, 1.0), where policy2 is given 0.9 by hand; comm = 1 - maximum;
    page transfers 300, 200, 100 for policies 2, 3, 4, but policy3 500 at w 0.15."""
    rows = []
    for w in (0.0, 0.15):
        for h in (0.1, 1.0):
            for p in (2, 3, 4):
                maximum = 0.86 + 0.01 * p - 2 * w * (5 - p) - (0.05 * (5 - p) if h == 1.0 else 0)
                if (w, h, p) == (0.15, 1.0, 2):
                    maximum = 0.9
                transfers = {2: 300, 3: 500 if w == 0.15 else 200, 4: 100}[p]
                rows.append({"run_id": f"r{w}{h}{p}", "seed": 1, "workload.shared_table.write": w,
                             "workload.shared_table.hot_pages": h, "scheduler.policy": f"policy{p}",
                             "schema_version": 1, "scenario": "nobukuni-set-a", "model": "numa",
                             "resolved.platform.file": "platforms/numa-w488.xml",
                             "resolved.memory.replacement": "strategy1", "rates.maximum": maximum,
                             "breakdown.comm": 1 - maximum, "page_transfers.total": transfers})
    return pd.DataFrame(rows)


def test_sensitivity_map_says_per_cell_what_policy4_gives_and_which_claims_hold():
    study = numa.study(sensitivity_results())
    assert numa.varies_write_share(study) and numa.varies_hot_set(study)
    table = numa.sensitivity_map(study)
    assert list(table.columns) == numa.MAP_COLUMNS
    assert list(zip(table["write_share"], table["hot_pages"])) == [(0.0, 0.1), (0.0, 1.0), (0.15, 0.1), (0.15, 1.0)]
    # policy4: 0.9 - 2w - (h = 1: 0.05): 90, 85, 60, 55%; comm the rest.
    assert table["policy4_maximum"].tolist() == pytest.approx([90, 85, 60, 55])
    assert table["policy4_comm"].tolist() == pytest.approx([10, 15, 40, 45])
    assert table["best_policy"].tolist() == ["policy4", "policy4", "policy4", "policy2"]
    assert table["C1"].tolist() == [True, True, True, False]
    assert table["C5"].tolist() == [True, True, False, False], "policy3's 500 transfers break the order at w 0.15"
    assert table["C10"].tolist() == [False, True, False, False], "only 85% is within 65-85%"


def test_sensitivity_map_figure_has_two_annotated_panels_and_frames_the_c10_cells():
    table = numa.sensitivity_map(numa.study(sensitivity_results()))
    fig = figures.numa_sensitivity_figure(table, "Process set A, w488, strategy1")
    maximum, comm = fig.axes[0], fig.axes[1]  # then their two colour bars
    assert [t.get_text() for t in maximum.texts] == ["90*", "85*", "60*", "55"]
    assert [t.get_text() for t in comm.texts] == ["10", "15", "40", "45"]
    assert len(maximum.patches) == 1, "one cell within 65-85%"
    assert [t.get_text() for t in maximum.get_xticklabels()] == ["10%", "100%"]


def test_sensitivity_map_keeps_another_varying_axis_as_a_group():
    results = sensitivity_results()
    results["workload.shared_table.hot_refs"] = 0.95
    other = results.copy()
    other["workload.shared_table.hot_refs"] = 1.0
    other["rates.maximum"] = 0.5
    other["run_id"] = other["run_id"] + "b"
    both = pd.concat([results, other], ignore_index=True)
    axes = ["run_id", "seed", "workload.shared_table.write", "workload.shared_table.hot_pages",
            "workload.shared_table.hot_refs"]  # results.csv's axes come between seed and schema_version
    both = both[axes + [c for c in both.columns if c not in axes]]
    table = numa.sensitivity_map(numa.study(both))
    assert table["group"].unique().tolist() == ["hot_refs=0.95", "hot_refs=1.0"]
    first = table[table["group"].str.endswith("0.95")]
    assert first["policy4_maximum"].tolist() == pytest.approx([90, 85, 60, 55]), "not averaged with the other group"
    assert (table[table["group"].str.endswith("1.0")]["policy4_maximum"] == 50).all()
