"""The SSS-CORE study (Nobukuni 1997, chapter 5) from numa sweeps: which column is the process set, the
network, the allocation policy and the replacement strategy; the tables behind figures 5.1-5.4 (the three
effective execution rates), the execution-time breakdown (table 5.4's rows and more), table 5.5 (pages
replaced by class, beside the thesis's own numbers), and the check of the thesis's claims C1, C5, C6, C7,
C8 and C10 (statements of the thesis's chapter 5, numbered and quoted in docs/reproductions.md, "The seed
claims, and cosched").

The quantities are the run's summary.json fields (src/metrics/run_record.cpp, summary_json of a
NumaRunRecord), read from results.csv: `rates.{net,calibrated,maximum}` and
`breakdown.{effective,sync,comm,idle,disk}` are fractions of T' = E + S + M + I, the processor time
without disk time (table 5.4's footnote, A26): net = E / T', calibrated = net (1 + I / T'), maximum =
(E + I) / T', and effective + sync + comm + idle = 1 with disk over the same T' beside them.
`pages_replaced.<class>` counts evictions by the victim's class (4.4), `page_transfers.total` the page
messages (copies fetched and local pages migrated).

Every value is first averaged over the runs that differ only by their seed (the thesis reports one run
per configuration, A27; more seeds give mean +- standard deviation as elsewhere in the package).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

import pandas as pd

from .contract import axis_columns, varying
from .tables import mean_std_over_seeds, with_group_label

RATES = ["net", "calibrated", "maximum"]  # chapter 5 paragraph 3, in the thesis's order
STATES = ["effective", "sync", "comm", "idle"]  # T' (A26); disk is over T' but not part of it
DISK = "disk"
# Table 5.5's columns, the page classes of 4.4 in Strategy1's order (summary.json's keys, the thesis's labels).
PAGE_CLASSES = [
    ("other_copy", "other's copy"),
    ("own_copy", "own copy"),
    ("other_last", "other's last"),
    ("other_local", "other's local"),
    ("own_last", "own last"),
    ("own_local", "own local"),
]
COPY_CLASSES = ["other_copy", "own_copy"]

THESIS_NETWORK = "w488"  # tables 5.4 and 5.5 are of the w488 system
POLICY4 = "policy4"
STRATEGY0, STRATEGY1 = "strategy0", "strategy1"
THESIS_LABEL = "thesis (Nobukuni 1997, Table 5.5)"

# Table 5.5, "Replaced times for each class of pages (Policy4, w488)", verbatim (thesis L401-412; the
# specification's section 7.4): strategy -> set -> counts in PAGE_CLASSES order. Published numbers, shown
# beside cosched's for comparison and never used to set a parameter.
THESIS_TABLE_5_5 = {
    STRATEGY0: {
        "A": [10944, 4770, 723, 4763, 303, 1130],
        "K": [33105, 10487, 830, 22598, 65, 3803],
        "L": [92253, 18063, 4911, 63885, 136, 9978],
        "M": [46394, 23581, 6873, 11725, 4054, 6577],
    },
    STRATEGY1: {
        "A": [38976, 0, 0, 0, 0, 0],
        "K": [77665, 0, 0, 0, 0, 0],
        "L": [414287, 0, 0, 0, 0, 0],
        "M": [245705, 11578, 0, 0, 0, 0],
    },
}

C5_ORDER = ["policy2", "policy3", POLICY4]  # 5.1 paragraph 4: page transfers (and C6's time) in this order
C10_RANGE = (0.65, 0.85)  # 5.3: "roughly between 65% to 85%", read as the closed interval

# The columns each part of the study is read from, the resolved scenario's first (it holds the value
# every run used, given by an axis or not), then the sweep's axis.
SOURCES = {
    "network": ("resolved.platform.file", "platform.file"),
    "policy": ("resolved.scheduler.policy", "scheduler.policy"),
    "strategy": ("resolved.memory.replacement", "memory.replacement"),
}
STUDY_AXES = ("platform.file", "scheduler.policy", "memory.replacement")
CELL = ["set", "group", "network", "policy", "strategy"]  # one configuration of the study


def is_numa(results: pd.DataFrame) -> bool:
    return "model" in results.columns and bool((results["model"].astype(str) == "numa").all())


def set_name(scenario: str) -> str:
    """The process set a scenario runs: `nobukuni-set-a` -> `A` (tables 5.2-5.3 name the sets by one
    letter); any other scenario name as it is."""
    match = re.search(r"(?:^|[-_.])set[-_]?([A-Za-z])$", scenario)
    return match[1].upper() if match else scenario


def network_name(platform_file: str) -> str:
    """The network a platform file describes, by its file name: `.../numa-w488.xml` -> `w488` (the
    thesis's names, chapter 5 paragraph 1); another file by its name without `.xml`."""
    stem = PurePath(str(platform_file)).name
    stem = stem[: -len(".xml")] if stem.endswith(".xml") else stem
    return stem[len("numa-"):] if stem.startswith("numa-") else stem


@dataclass
class Study:
    """The study's runs, one row per run, with the columns set, network, policy, strategy and group
    (the other varying axes, `axis=value`, or `all`) beside results.csv's, and where each came from."""

    frame: pd.DataFrame
    sources: dict[str, str]  # part -> the results.csv column it was read from
    groups: list[str]  # the other varying axes

    def values(self, part: str) -> list[str]:
        return list(dict.fromkeys(self.frame[part]))

    def described(self) -> list[str]:
        """The lines of report.md's header saying which column plays which part."""

        def listed(part: str) -> str:
            return ", ".join(f"`{v}`" for v in self.values(part))

        return [
            f"process set: the scenario's name (`{self.sources['set']}`): {listed('set')}",
            f"network: the platform file's name (`{self.sources['network']}`): {listed('network')}",
            f"allocation policy: `{self.sources['policy']}`: {listed('policy')}",
            f"replacement strategy: `{self.sources['strategy']}`: {listed('strategy')}",
            "other varying axes: " + (", ".join(f"`{g}`" for g in self.groups) or "none"),
        ]


def study(results: pd.DataFrame) -> Study:
    """Names each run's process set, network, policy and strategy (see SOURCES) and labels the other
    varying axes; a part no column gives is `-`."""
    frame = results.copy()
    sources = {"set": "scenario" if "scenario" in frame.columns else "none"}
    frame["set"] = frame["scenario"].astype(str).map(set_name) if "scenario" in frame.columns else "-"
    for part, columns in SOURCES.items():
        column = next((c for c in columns if c in frame.columns), None)
        sources[part] = column or "none"
        frame[part] = frame[column].astype(str) if column else "-"
    frame["network"] = frame["network"].map(network_name)
    axes = axis_columns(results)
    groups = [a for a in varying(results, axes) if a not in STUDY_AXES]
    frame = with_group_label(frame, groups)
    return Study(frame, sources, groups)


def _numbers(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    frame = frame.copy()
    for column in columns:
        frame[column] = pd.to_numeric(frame[column], errors="coerce") if column in frame.columns else float("nan")
    return frame


def _in_order(table: pd.DataFrame, frame: pd.DataFrame, by: list[str], last: str, order: list[str]) -> pd.DataFrame:
    """Rows in the study's order: each of `by` in the order its values first appear in the runs (the
    sweep's order: w488 before w4444, policy0 to policy4), then `last` in the given order."""
    keys = {c: table[c].map({v: i for i, v in enumerate(dict.fromkeys(frame[c]))}) for c in by}
    keys[last] = table[last].map({v: i for i, v in enumerate(order)})
    return table.loc[pd.DataFrame(keys).sort_values(by + [last], kind="stable").index].reset_index(drop=True)


def _percent_long(frame: pd.DataFrame, prefix: str, names: list[str], key: str) -> pd.DataFrame:
    """`<prefix>.<name>` of every run in percent, one row per run and name, averaged over seeds per
    configuration: columns set, group, network, policy, strategy, <key>, percent_mean, percent_std, seeds."""
    columns = [f"{prefix}.{n}" for n in names]
    runs = _numbers(frame, columns)
    long = runs.melt(id_vars=CELL + ["seed"], value_vars=columns, var_name=key, value_name="percent")
    long[key] = long[key].str[len(prefix) + 1:]
    long["percent"] = 100.0 * long["percent"]
    table = mean_std_over_seeds(long, CELL + [key], "percent", "percent")
    return _in_order(table, frame, CELL, key, names)


def rates_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Figures 5.1-5.4: net, calibrated and maximum effective execution rates (percent of T') per set,
    network, policy and strategy (chapter 5 paragraph 3). Columns: set, group, network, policy,
    strategy, rate, percent_mean, percent_std, seeds."""
    return _percent_long(frame, "rates", RATES, "rate")


def breakdown_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The execution-time breakdown (table 5.4's quantities for every network and strategy): the share of
    T' (percent) spent effective, in synchronization, in communication and idle, which add up to 100, and
    disk time over the same T' beside them (table 5.4's footnote: "Disk assessing time is not included").
    Columns: set, group, network, policy, strategy, state, percent_mean, percent_std, seeds."""
    return _percent_long(frame, "breakdown", STATES + [DISK], "state")


def wide(table: pd.DataFrame, rows: list[str], columns: list[str]) -> pd.DataFrame:
    """A long table's means laid out for reading: a row per `rows`, a column per value of `columns`
    (joined by a space: `strategy0 net`), in the table's order. For report.md; the CSV stays long."""
    frame = table.assign(column=table[columns].astype(str).agg(" ".join, axis=1))
    layout = frame.pivot_table(index=rows, columns="column", values="percent_mean", sort=False)
    layout = layout.reindex(columns=list(dict.fromkeys(frame["column"])))
    layout.columns.name = None
    return layout.reset_index()


def table_5_4(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 5.4's layout, "Execution Time Breakdown(%) (w488, Strategy1 replacement)": per set (and
    group) the rows Max, Sync and Comm, a column per policy; Max = (E + I) / T' (the maximum rate),
    Sync = S / T', Comm = M / T' (A26), mean over seeds. Empty without w488 strategy1 runs."""
    runs = frame[(frame["network"] == THESIS_NETWORK) & (frame["strategy"] == STRATEGY1)]
    runs = _numbers(runs, ["rates.maximum", "breakdown.sync", "breakdown.comm"])
    policies = list(dict.fromkeys(runs["policy"]))
    means = runs.groupby(["set", "group", "policy"], sort=False)[["rates.maximum", "breakdown.sync", "breakdown.comm"]].mean()
    rows = []
    for set_, group in dict.fromkeys(zip(runs["set"], runs["group"])):
        for row, column in (("Max", "rates.maximum"), ("Sync", "breakdown.sync"), ("Comm", "breakdown.comm")):
            cells = {p: 100.0 * means[column].get((set_, group, p), float("nan")) for p in policies}
            rows.append({"set": set_label(set_, group), "row": row, **cells})
    return pd.DataFrame(rows, columns=["set", "row", *policies])


def set_label(set_: str, group: str) -> str:
    return set_ if group == "all" else f"{set_}, {group}"


def table_5_5(frame: pd.DataFrame) -> pd.DataFrame:
    """Table 5.5's layout, "Replaced times for each class of pages (Policy4, w488)": a row per strategy
    and set (and group) with cosched's eviction counts by class (mean over seeds), the set's rows followed
    by the thesis's own row for that set and strategy when the thesis has one (sets A, K, L, M), labelled
    as the thesis's.
    Columns: strategy, set, source, the six classes (the thesis's labels), total, copies_percent (the
    share of copy pages, classes 1 and 2, among the evictions), seeds. Empty without policy4 w488 runs."""
    keys = [key for key, _ in PAGE_CLASSES]
    runs = frame[(frame["network"] == THESIS_NETWORK) & (frame["policy"] == POLICY4)]
    runs = _numbers(runs, [f"pages_replaced.{k}" for k in keys])
    grouped = runs.groupby(["strategy", "set", "group"], sort=False)
    means = grouped[[f"pages_replaced.{k}" for k in keys]].mean()
    seeds = grouped["seed"].count()
    rows = []
    strategies = [s for s in (STRATEGY0, STRATEGY1) if s in set(runs["strategy"])]
    strategies += [s for s in dict.fromkeys(runs["strategy"]) if s not in strategies]
    for strategy in strategies:
        for set_ in dict.fromkeys(runs["set"]):
            groups = [g for g in dict.fromkeys(runs["group"]) if (strategy, set_, g) in means.index]
            for group in groups:
                counts = [means.loc[(strategy, set_, group), f"pages_replaced.{k}"] for k in keys]
                rows.append(_replaced_row(strategy, set_label(set_, group), "cosched", counts, seeds[(strategy, set_, group)]))
            thesis = THESIS_TABLE_5_5.get(strategy, {}).get(set_)
            if groups and thesis is not None:
                rows.append(_replaced_row(strategy, set_, THESIS_LABEL, thesis, float("nan")))
    columns = ["strategy", "set", "source", *[label for _, label in PAGE_CLASSES], "total", "copies_percent", "seeds"]
    return pd.DataFrame(rows, columns=columns)


def _replaced_row(strategy: str, set_: str, source: str, counts: list[float], seeds: float) -> dict:
    total = float(sum(counts))
    copies = float(counts[0] + counts[1])
    row = {"strategy": strategy, "set": set_, "source": source}
    row.update({label: float(count) for (_, label), count in zip(PAGE_CLASSES, counts)})
    row.update({"total": total, "copies_percent": 100.0 * copies / total if total > 0 else float("nan"), "seeds": seeds})
    return row


# ---- the claims ----

CLAIM_COLUMNS = ["claim", "thesis", "check", "agree", "verdict", "detail"]
HOLDS, FAILS, NOT_CHECKED = "holds", "fails", "not checked"
# Chapter 5: each run "carried on until one of the processes in a set stops execution or 100 time slices has
# passed". The claims are about such runs: on shorter ones (a --quick sweep's 10 slices, most of them loading
# pages from disk) a verdict is only indicative, and says so.
THESIS_SLICES = 100
SHORT = " on short runs"


def short_runs(frame: pd.DataFrame) -> str | None:
    """The note that the runs are shorter than the thesis's (`--quick`), or None for full-length runs."""
    column = next((c for c in ("resolved.scheduler.slices", "scheduler.slices") if c in frame.columns), None)
    if column is None:
        return None
    slices = pd.to_numeric(frame[column], errors="coerce")
    if not (slices < THESIS_SLICES).any():
        return None
    counts = "/".join(f"{s:g}" for s in sorted(slices.dropna().unique()))
    return (f"these runs have {counts} time slices, the thesis's {THESIS_SLICES} (a --quick sweep?): a verdict on "
            "them is indicative only; run the sweep without --quick to check the claims")
SHOWN_FAILURES = 4  # failing cells listed in a claim's detail; the count says how many there are


@dataclass
class _Tally:
    """The comparisons one claim makes: how many, how many agreed, the ones that did not (by the
    configuration they were made in) and, for a claim about values, the values that agreed."""

    compared: int = 0
    agreed: int = 0
    failures: dict[str, list[str]] = field(default_factory=dict)
    agreeing: list[str] = field(default_factory=list)

    def add(self, agrees: bool, cell: str, text: str, show_agreeing: bool = False) -> None:
        self.compared += 1
        self.agreed += int(agrees)
        if not agrees:
            self.failures.setdefault(cell, []).append(text)
        elif show_agreeing:
            self.agreeing.append(f"{cell}: {text}")

    def row(self, claim: str, thesis: str, check: str, missing: str, notes: list[str] | None = None) -> dict:
        if self.compared == 0:
            return {"claim": claim, "thesis": thesis, "check": check, "agree": "", "verdict": NOT_CHECKED,
                    "detail": "; ".join([missing, *(notes or [])])}
        failures = [f"{cell}: {', '.join(texts)}" for cell, texts in self.failures.items()]
        shown = "; ".join(failures[:SHOWN_FAILURES])
        if len(failures) > SHOWN_FAILURES:
            shown += f"; and {len(failures) - SHOWN_FAILURES} more"
        parts = [f"disagree: {shown}" if failures else "", f"agree: {'; '.join(self.agreeing)}" if self.agreeing else ""]
        return {"claim": claim, "thesis": thesis, "check": check, "agree": f"{self.agreed} of {self.compared}",
                "verdict": HOLDS if self.agreed == self.compared else FAILS,
                "detail": " / ".join(filter(None, [*parts, *(notes or [])]))}


def _means(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Each configuration's values, mean over seeds, with the configuration's parts as columns."""
    runs = _numbers(frame, columns)
    return runs.groupby(CELL, sort=False)[columns].mean().reset_index()


def _cell(row: pd.Series | dict, parts: list[str]) -> str:
    """`set A, w488, strategy1`: a configuration named by its parts (the group when there is one)."""
    names = []
    for part in parts:
        value = row[part]
        if part == "group" and value == "all":
            continue
        names.append(f"set {value}" if part == "set" else str(value))
    return ", ".join(names)


def _pct(value: float) -> str:
    return f"{100.0 * value:.1f}%"


def claim_c1(frame: pd.DataFrame) -> dict:
    means = _means(frame, [f"rates.{r}" for r in RATES])
    tally = _Tally()
    parts = ["set", "group", "network", "strategy"]
    for _, cell in means.groupby(parts, sort=False):
        if POLICY4 not in set(cell["policy"]) or cell["policy"].nunique() < 2:
            continue
        mine = cell[cell["policy"] == POLICY4].iloc[0]
        others = cell[cell["policy"] != POLICY4]
        for rate in RATES:
            if pd.isna(mine[f"rates.{rate}"]) or others[f"rates.{rate}"].isna().all():
                continue
            best = others.loc[others[f"rates.{rate}"].idxmax()]
            tally.add(mine[f"rates.{rate}"] > best[f"rates.{rate}"], _cell(mine, parts),
                      f"{rate} {best['policy']} {_pct(best[f'rates.{rate}'])} against policy4 {_pct(mine[f'rates.{rate}'])}")
    return tally.row(
        "C1", "Policy4 performs best, even by net effective execution rate (5.1 paragraph 1)",
        "per set, network and strategy: policy4's net, calibrated and maximum rate each above every other "
        "policy's (one comparison per rate)",
        "no set, network and strategy with policy4 and another policy")


def _ordered_c5_c6(means: pd.DataFrame, value: str, parts: list[str], tally: _Tally, show) -> None:
    """Policy2 > Policy3 > Policy4 by `value` in each configuration of `parts` that has the three."""
    order = C5_ORDER
    for _, cell in means.groupby(parts, sort=False):
        by_policy = cell.set_index("policy")[value]
        if not all(p in by_policy.index for p in order):
            continue
        values = [by_policy[p] for p in order]
        tally.add(values[0] > values[1] > values[2], _cell(cell.iloc[0], parts),
                  ", ".join(f"{p} {show(v)}" for p, v in zip(order, values)))


def claim_c5(frame: pd.DataFrame) -> dict:
    means = _means(frame, ["page_transfers.total"])
    tally = _Tally()
    _ordered_c5_c6(means, "page_transfers.total", ["set", "group", "network", "strategy"], tally, lambda v: f"{v:g}")
    return tally.row(
        "C5", "The quantity of page transfer is larger among Policy2, 3, 4 in the order (5.1 paragraph 4)",
        "per set, network and strategy: page transfers (copies fetched + local pages migrated, "
        "page_transfers.total) policy2 > policy3 > policy4",
        "no set, network and strategy with policy2, policy3 and policy4")


def claim_c6(frame: pd.DataFrame) -> dict:
    means = _means(frame, ["breakdown.sync", "breakdown.comm"])
    means["sync_comm"] = means["breakdown.sync"] + means["breakdown.comm"]
    means = means[(means["network"] == THESIS_NETWORK) & (means["strategy"] == STRATEGY1)]
    tally = _Tally()
    _ordered_c5_c6(means, "sync_comm", ["set", "group", "network", "strategy"], tally, _pct)
    return tally.row(
        "C6", "Table 5.4 shows that the time spent in synchronization or communication gets larger for "
        "policies in the same order (5.1 paragraph 4)",
        "in table 5.4's setting (w488, strategy1), per set: (sync + comm) / T' policy2 > policy3 > policy4",
        "no w488 strategy1 runs with policy2, policy3 and policy4 (table 5.4's setting)")


def claim_c7(frame: pd.DataFrame) -> dict:
    means = _means(frame, [f"rates.{r}" for r in RATES])
    tally = _Tally()
    parts = ["set", "group", "network", "policy"]
    for _, cell in means.groupby(parts, sort=False):
        by_strategy = cell.set_index("strategy")
        if not {STRATEGY0, STRATEGY1} <= set(by_strategy.index):
            continue
        for rate in RATES:
            one, zero = by_strategy.loc[STRATEGY1, f"rates.{rate}"], by_strategy.loc[STRATEGY0, f"rates.{rate}"]
            tally.add(one > zero, _cell(cell.iloc[0], parts), f"{rate} strategy1 {_pct(one)} against strategy0 {_pct(zero)}")
    return tally.row(
        "C7", "Strategy1 always outperforms Strategy0 (5.2 paragraph 1)",
        "per set, network and policy: strategy1's net, calibrated and maximum rate each above strategy0's "
        "(one comparison per rate)",
        "no set, network and policy run with both strategies")


def claim_c8(frame: pd.DataFrame) -> dict:
    keys = [f"pages_replaced.{k}" for k, _ in PAGE_CLASSES]
    means = _means(frame, keys)
    means = means[(means["network"] == THESIS_NETWORK) & (means["policy"] == POLICY4) & (means["strategy"] == STRATEGY1)]
    tally, notes = _Tally(), []
    for _, row in means.iterrows():
        total = sum(row[k] for k in keys)
        if not total > 0:
            notes.append(f"{_cell(row, ['set', 'group'])}: no eviction, not counted")
            continue
        share = (row["pages_replaced.other_copy"] + row["pages_replaced.own_copy"]) / total
        # The thesis's finer statement, for sets A and K: "only copy pages of not running processes".
        class_1 = ", all of other processes (class 1)" if row["pages_replaced.other_copy"] == total else ""
        tally.add(share > 0.5, _cell(row, ["set", "group"]), f"copies {_pct(share)} of {total:g} evictions{class_1}",
                  show_agreeing=True)
    return tally.row(
        "C8", "As for Strategy1, mostly copy pages are replaced (5.2 paragraph 2, table 5.5: Policy4, w488)",
        "in table 5.5's setting (policy4, w488), per set: copy pages (other's and own copy) are more than "
        "half of strategy1's evictions",
        "no policy4 w488 strategy1 run (table 5.5's setting)" if means.empty
        else "no eviction in table 5.5's setting (policy4, w488, strategy1)", notes)


def claim_c10(frame: pd.DataFrame) -> dict:
    means = _means(frame, ["rates.maximum"])
    means = means[(means["policy"] == POLICY4) & (means["strategy"] == STRATEGY1)]
    low, high = C10_RANGE
    tally = _Tally()
    for _, row in means.iterrows():
        value = row["rates.maximum"]
        tally.add(low <= value <= high, _cell(row, ["set", "group", "network"]), f"maximum {_pct(value)}",
                  show_agreeing=True)
    return tally.row(
        "C10", "Maximum efficiencies are roughly between 65% and 85% for Policy4 and Strategy1 (5.3 paragraph 1)",
        "per set and network: policy4 + strategy1's maximum rate in [65%, 85%]",
        "no policy4 strategy1 run")


CLAIMS = [claim_c1, claim_c5, claim_c6, claim_c7, claim_c8, claim_c10]


def claims_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per claim: claim, thesis (its words and section), check (what is compared), agree (`k of
    n` comparisons that agree), verdict (`holds` when all n agree, `fails` when one does not, `not
    checked` when the runs have nothing to compare; `holds on short runs` and `fails on short runs` when
    some run has fewer time slices than the thesis's 100, short_runs) and detail (`disagree:` the
    comparisons that did not agree, by configuration; for C8 and C10 also `agree:` the values that did;
    first the short-run note when there is one)."""
    table = pd.DataFrame([claim(frame) for claim in CLAIMS], columns=CLAIM_COLUMNS)
    note = short_runs(frame)
    if note:
        checked = table["verdict"] != NOT_CHECKED
        table.loc[checked, "verdict"] += SHORT
        table.loc[checked, "detail"] = [f"{note}. {d}" if d else note for d in table.loc[checked, "detail"]]
    return table


# ---- beyond the thesis: the consistency model and the shared write share ----
#
# Two sweeps go past chapter 5 (sweeps/nobukuni-consistency.yaml, sweeps/nobukuni-write-share.yaml):
# `memory.consistency: release`, the relaxed memory model of the future work (5.3, chapter 6;
# docs/models/numa.md 6.7), against the thesis's sequential consistency, per policy; and the rates and the
# breakdown against the share of writes among the shared-space references, `workload.shared_table.write`,
# the access mix the thesis does not give (A5). Their figures are drawn when a sweep varies those axes.

CONSISTENCY = "memory.consistency"
CONSISTENCY_SOURCES = ("resolved.memory.consistency", CONSISTENCY)
SEQUENTIAL = "sequential"  # the thesis's model (4.2.4), the scenario default
WRITE_SHARE = "workload.shared_table.write"
# The rest of the shared table's mix: an axis that takes one value per write share (zipped with it so that
# the mix adds up to 1, as in nobukuni-write-share.yaml) moves with it and separates no line of its own.
WRITE_SHARE_MIX = ("workload.shared_table.read", "workload.shared_table.compute")
WRITE_SHARE_STATES = ["sync", "comm"]  # the breakdown the write share moves: waiting at barriers, for the DSM


def varies_consistency(study_: Study) -> bool:
    return CONSISTENCY in study_.groups


def varies_write_share(study_: Study) -> bool:
    return WRITE_SHARE in study_.groups


def _consistency(frame: pd.DataFrame) -> pd.Series:
    """Each run's memory model: the resolved scenario's, else the axis's, else the thesis's (the default)."""
    column = next((c for c in CONSISTENCY_SOURCES if c in frame.columns), None)
    return frame[column].astype(str) if column else pd.Series(SEQUENTIAL, index=frame.index)


def _regrouped(study_: Study, shown_apart: list[str]) -> pd.DataFrame:
    """The study's runs with `group` relabelled from the other varying axes but `shown_apart` (the axes a
    figure draws as bars or lines rather than as figures of their own), and `consistency`."""
    frame = with_group_label(study_.frame, [g for g in study_.groups if g not in shown_apart])
    frame["consistency"] = _consistency(frame)
    return frame


def consistency_rates_table(study_: Study) -> pd.DataFrame:
    """The three rates (percent of T', chapter 5 paragraph 3) per set, group (the varying axes other than
    the consistency), network, strategy, policy and consistency, consistencies in the runs' order (the
    sweep gives sequential first), mean over seeds. Columns: set, group, network, strategy, policy,
    consistency, rate, percent_mean, percent_std, seeds."""
    frame = _regrouped(study_, [CONSISTENCY])
    cell = ["set", "group", "network", "strategy", "policy", "consistency"]
    long = _numbers(frame, [f"rates.{r}" for r in RATES]).melt(
        id_vars=cell + ["seed"], value_vars=[f"rates.{r}" for r in RATES], var_name="rate", value_name="percent")
    long["rate"] = long["rate"].str[len("rates."):]
    long["percent"] = 100.0 * long["percent"]
    table = mean_std_over_seeds(long, cell + ["rate"], "percent", "percent")
    return _in_order(table, frame, cell, "rate", RATES)


def _moving_with_write_share(study_: Study) -> list[str]:
    """The mix axes that take one value per write share (zipped with it): they move with it and are no
    group of their own."""
    frame = study_.frame
    return [a for a in WRITE_SHARE_MIX if a in study_.groups and frame.groupby(WRITE_SHARE)[a].nunique().max() == 1]


def _write_share_frame(study_: Study) -> pd.DataFrame:
    """The runs with `write_share` (a number) and `group` from the varying axes other than the consistency,
    the write share and the mix axes that move with it (one value per write share)."""
    frame = study_.frame.copy()
    frame["write_share"] = pd.to_numeric(frame[WRITE_SHARE], errors="coerce")
    return _regrouped(Study(frame, study_.sources, study_.groups),
                      [CONSISTENCY, WRITE_SHARE, *_moving_with_write_share(study_)])


def _against_write_share(study_: Study, prefix: str, names: list[str], key: str) -> pd.DataFrame:
    frame = _write_share_frame(study_)
    cell = ["set", "group", "network", "policy", "strategy", "consistency"]
    columns = [f"{prefix}.{n}" for n in names]
    long = _numbers(frame, columns).melt(id_vars=cell + ["write_share", "seed"], value_vars=columns, var_name=key,
                                          value_name="percent")
    long[key] = long[key].str[len(prefix) + 1:]
    long["percent"] = 100.0 * long["percent"]
    table = mean_std_over_seeds(long, cell + [key, "write_share"], "percent", "percent")
    # Each line's points by increasing write share, lines in the runs' order and then by `names`.
    table = table.sort_values("write_share", kind="stable")
    return _in_order(table, frame, cell, key, names)


def write_share_rates_table(study_: Study) -> pd.DataFrame:
    """The three rates (percent of T') against the shared write share (`workload.shared_table.write`, a
    fraction of the shared-space references), per set, group, network, policy, strategy and consistency,
    mean over seeds. Columns: set, group, network, policy, strategy, consistency, rate, write_share,
    percent_mean, percent_std, seeds; a line's points by increasing write share."""
    return _against_write_share(study_, "rates", RATES, "rate")


def write_share_breakdown_table(study_: Study) -> pd.DataFrame:
    """The breakdown (percent of T': effective, sync, comm and idle adding up to 100, disk beside them)
    against the shared write share, as write_share_rates_table. The figure draws sync and comm
    (WRITE_SHARE_STATES); the CSV holds every state. Columns as write_share_rates_table's with `state`."""
    return _against_write_share(study_, "breakdown", STATES + [DISK], "state")


# ---- the sensitivity map: the shared write share against the shared hot set ----
#
# sweeps/nobukuni-sensitivity-a.yaml varies the two values the thesis does not give and the specification
# chose (docs/models/numa.md section 8): the share of writes among the shared-space references (A5) and the
# share of a process's shared pages its threads' references go to (the hot set, A3), under each allocation
# policy. The map says, cell by cell, what policy4 gives and which of the thesis's claims hold there.

HOT_SET = "workload.shared_table.hot_pages"
MAP_COLUMNS = ["set", "group", "network", "strategy", "write_share", "hot_pages", "policy4_maximum", "policy4_comm",
               "best_policy", "C1", "C5", "C10"]


def varies_hot_set(study_: Study) -> bool:
    return HOT_SET in study_.groups


def sensitivity_map(study_: Study) -> pd.DataFrame:
    """One row per set, group (the other varying axes but the write share's mix, such as the share of the
    shared references on the hot set), network, strategy, shared write share and shared hot set (fractions,
    as the axes give them), mean over seeds: policy4's maximum rate and communication share (percent of T'), the
    policy with the highest maximum rate, and whether, in that cell, C1 holds by the maximum rate (policy4's
    above every other policy's), C5 (page transfers policy2 > policy3 > policy4) and C10 (policy4's maximum
    rate within 65-85%); a claim the cell cannot check (a policy missing) is None. Rows by increasing write
    share, then hot set. Columns: MAP_COLUMNS."""
    frame = _numbers(study_.frame, [WRITE_SHARE, HOT_SET])
    frame = _regrouped(Study(frame, study_.sources, study_.groups),
                       [WRITE_SHARE, HOT_SET, *_moving_with_write_share(study_)])
    frame = _numbers(frame, ["rates.maximum", "breakdown.comm", "page_transfers.total"])
    frame = frame.rename(columns={WRITE_SHARE: "write_share", HOT_SET: "hot_pages"})
    keys = ["set", "group", "network", "strategy", "write_share", "hot_pages"]
    means = frame.groupby(keys + ["policy"], sort=False)[["rates.maximum", "breakdown.comm", "page_transfers.total"]].mean()
    rows = []
    for key, cell in means.groupby(level=keys, sort=False):
        cell = cell.droplevel(keys)
        maximum, transfers = cell["rates.maximum"], cell["page_transfers.total"]
        has4 = POLICY4 in cell.index
        others = maximum.drop(POLICY4) if has4 else maximum
        order = C5_ORDER
        low, high = C10_RANGE
        rows.append(dict(zip(keys, key)) | {
            "policy4_maximum": 100.0 * maximum[POLICY4] if has4 else float("nan"),
            "policy4_comm": 100.0 * cell["breakdown.comm"][POLICY4] if has4 else float("nan"),
            "best_policy": maximum.idxmax(),
            "C1": bool(maximum[POLICY4] > others.max()) if has4 and len(others) else None,
            "C5": bool(transfers[order[0]] > transfers[order[1]] > transfers[order[2]])
            if all(p in cell.index for p in order) else None,
            "C10": bool(low <= maximum[POLICY4] <= high) if has4 else None,
        })
    table = pd.DataFrame(rows, columns=MAP_COLUMNS)
    return table.sort_values(keys, kind="stable").reset_index(drop=True)
