"""Operating-system noise at scale (issue 34; sweeps/noise-ferreira.yaml, sweeps/noise-tsafrir-ticks.yaml;
docs/reproductions.md, "Operating-system noise (issue 34)"): a bulk-synchronous program's slowdown under noise
(summary.json `noise.slowdown`: makespan over the same run without noise) against the number of workstations,
one curve per noise signature, one panel per combination of the sweep's other axes (the network, the grain).

    .venv/bin/python -m analysis.noise DIR [--out OUT] [--excess] [--no-model]
        # OUT/noise.csv and OUT/noise.png (default DIR/noise); --excess plots slowdown - 1 (log-log)

The sweep's axes are read by their role: `platform.workstations` is the x axis; the axes whose path begins with
`noise` (a whole source, `noise.0: {kind: poisson, rate: 1000, duration: 25us}`, or its keys) name the curve;
`workload.jobs.0.processes` and `workload.jobs.0.barriers` go with the size and are not groups; every other axis
(`platform.latency`, `workload.jobs.0.sync_interval`, ...) makes a panel. The seeds are pooled: the mean, and
the band from the smallest to the largest.

**The per-node model** (`model_slowdown`, the `model` column and the dashed curves). Each workstation, at each
release, owes W of computation (the job's `sync_interval`) and is delayed by its own noise only: a detour in
progress at the release, then every detour that begins before its work is done (a periodic source's ticks at a
uniformly random phase; a Poisson source's arrivals, queued behind each other). The phases at each release are
taken as independent across workstations and iterations, and the barrier as free, so the iteration lasts
T0 + max over the N workstations of their delays, T0 the noise-free iteration (baseline_makespan / iterations),
and the slowdown is 1 + E[max_N D] / T0. E[max_N D] is exact on a fine grid of phases for periodic sources and
taken from a seeded Monte Carlo sample of 200,000 workstations for Poisson ones (so at 16,384 workstations it
rests on the sample's top few dozen delays). What the model leaves out, the simulation has: detours that hold
a message at a relay of the barrier's trees (an arrival or a release waits for the relay's detour to end), and
iterations whose length depends on the previous one. The model is computed only for detours of at most W / 10
(clock ticks, frequent short interrupts): a long detour that begins while a workstation waits at the barrier
is in progress at the release with a probability that depends on how long it waited, which depends on the
others' detours (at one workstation, which never waits, it is never in progress at the release), and the
independent-release model does not follow that."""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the Agg backend)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from .contract import axis_columns, load_results  # noqa: E402

SIZE = "platform.workstations"
SIZE_COMPANIONS = ("workload.jobs.0.processes", "workload.jobs.0.barriers", "seed")
SLOWDOWN = "noise.slowdown"
LOST = "noise.lost_per_iteration_s"
INJECTED = "noise.net_injected_mean"
ITERATIONS = "noise.iterations"
BASELINE = "noise.baseline_makespan"
MODEL_SAMPLES = 200_000
MODEL_SEED = 34
SHORT = 0.1  # the model is drawn for detours of at most SHORT x W only (see the module's docstring)

_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def parse_duration(text: object) -> float:
    """`25us` -> 2.5e-05 (seconds); a number is seconds; anything else (a distribution) is NaN."""
    if isinstance(text, (int, float)):
        return float(text)
    match = re.fullmatch(r"\s*([0-9.eE+-]+)\s*(ns|us|ms|s)\s*", str(text))
    return float(match[1]) * _UNITS[match[2]] if match else float("nan")


def parse_flow_mapping(text: str) -> dict[str, str] | None:
    """`{kind: poisson, rate: 1000, duration: 25us}` -> {'kind': 'poisson', ...}; None if it is not a flat
    flow mapping (results.csv holds an axis's value as flow YAML)."""
    text = str(text).strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    entries = {}
    for part in text[1:-1].split(","):
        if ":" not in part:
            return None
        key, value = part.split(":", 1)
        entries[key.strip()] = value.strip().strip("'\"")
    return entries


def signature_label(values: Mapping[str, object]) -> str:
    """A noise signature's name from its axis values: a whole source (`noise.0` -> 'Poisson 1000/s x 25us',
    'periodic 1000 Hz x 25us', with ' aligned' for aligned phases) or, for axes over a source's keys, the
    keys and values."""
    parts = []
    for column, value in values.items():
        source = parse_flow_mapping(str(value))
        if source is None:
            parts.append(f"{column.split('.')[-1]}={value}")
            continue
        kind = source.get("kind", "?")
        duration = source.get("duration", "?")
        if kind == "poisson":
            label = f"Poisson {source.get('rate', '?')}/s x {duration}"
        elif kind == "periodic":
            period = parse_duration(source.get("period", ""))
            hz = f"{1.0 / period:g} Hz" if period > 0 else source.get("period", "?")
            label = f"periodic {hz} x {duration}"
        else:
            label = str(value)
        if source.get("phase", "random") != "random":
            label += f" {source['phase']}"
        parts.append(label)
    return ", ".join(parts) if parts else "noise"


def run_parameters(summaries: Mapping[str, dict]) -> pd.DataFrame:
    """One row per run: the grain W (s) and the first noise source's kind, rate (per s), period (s) and
    duration (s), from each summary.json's `resolved` (results.csv does not carry lists)."""
    rows = []
    for run_id, summary in summaries.items():
        resolved = summary.get("resolved", {})
        jobs = resolved.get("workload", {}).get("jobs", [])
        sources = resolved.get("noise", [])
        source = sources[0] if len(sources) == 1 else {}
        rows.append(
            {
                "run_id": run_id,
                "work_s": jobs[0].get("sync_interval_s", float("nan")) if len(jobs) == 1 else float("nan"),
                "kind": source.get("kind", ""),
                "rate_per_s": source.get("rate_per_s", float("nan")),
                "period_s": source.get("period_s", float("nan")),
                "duration_s": parse_duration(source.get("duration", "")),
            }
        )
    return pd.DataFrame(rows, columns=["run_id", "work_s", "kind", "rate_per_s", "period_s", "duration_s"])


def _periodic_delays(work: float, period: float, duration: float, points: int) -> np.ndarray:
    """Each phase's delay on a grid of `points` phases: ticks of `duration` every `period`, the first of them
    beginning at u - duration from the release (u uniform in [0, period)), a tick in progress at the release
    included; work that ends as a tick begins does not wait for it."""
    start = (np.arange(points) + 0.5) / points * period - duration
    return _delays(work, duration, lambda k, active: start + k * period, points, queue=False)


def _poisson_delays(work: float, rate: float, duration: float, samples: int, seed: int) -> np.ndarray:
    """A Monte Carlo sample of delays: in a detour at the release with probability rate x duration (the share
    of time the source takes), its remainder uniform; then Poisson arrivals from the release, queued."""
    rng = np.random.default_rng(seed)
    busy = min(rate * duration, 1.0)
    residual = np.where(rng.random(samples) < busy, rng.random(samples) * duration, 0.0)
    arrivals = np.zeros(samples)

    def next_arrival(k: int, active: np.ndarray) -> np.ndarray:
        arrivals[active] += rng.exponential(1.0 / rate, int(active.sum()))
        return arrivals

    return _delays(work, duration, next_arrival, samples, queue=True, residual=residual)


def _delays(work, duration, detour_start, count, queue, residual=None) -> np.ndarray:
    """The delay (completion - work) of `count` workstations that owe `work` from time 0, free from
    `residual` on, their k-th detour beginning at detour_start(k, active). A detour that begins before the
    CPU is free ends at its own start + duration (a tick in progress at the release) or, with `queue`, waits
    for the CPU and then takes its duration (a Poisson arrival during another detour)."""
    cur = np.zeros(count) if residual is None else residual.copy()
    remaining = np.full(count, float(work))
    end = np.zeros(count)
    done = np.zeros(count, dtype=bool)
    k = 0
    while not done.all():
        active = ~done
        s = detour_start(k, active)
        queued = active & (s < cur)  # begins before the CPU is free
        cur = np.where(queued, cur + duration if queue else np.maximum(cur, s + duration), cur)
        finishes = active & ~queued & (cur + remaining <= s)
        end = np.where(finishes, cur + remaining, end)
        done |= finishes
        hit = active & ~queued & ~finishes
        remaining = np.where(hit, remaining - (s - cur), remaining)
        cur = np.where(hit, s + duration, cur)
        k += 1
    return end - work


def expected_max(delays: np.ndarray, n: int) -> float:
    """E[max of n independent draws] from the empirical distribution of `delays` (each value equally likely)."""
    ordered = np.sort(np.asarray(delays, dtype=float))
    m = len(ordered)
    k = np.arange(1, m + 1, dtype=float)
    weights = (k / m) ** n - ((k - 1) / m) ** n
    return float((ordered * weights).sum())


def node_delays(kind: str, work: float, duration: float, rate: float = float("nan"), period: float = float("nan"),
                samples: int = MODEL_SAMPLES, seed: int = MODEL_SEED) -> np.ndarray | None:
    """The per-node model's delays for one source (None for a kind or a duration it cannot take)."""
    if not (work > 0 and 0 < duration <= work * SHORT):
        return None
    if kind == "periodic" and period > duration:
        return _periodic_delays(work, period, duration, samples)
    if kind == "poisson" and rate > 0 and rate * duration < 1:
        return _poisson_delays(work, rate, duration, samples, seed)
    return None


def model_slowdown(n: int, iteration: float, delays: np.ndarray | None) -> float:
    """The per-node model's slowdown: 1 + E[max over n workstations of their delay] / the noise-free
    iteration."""
    if delays is None or not iteration > 0:
        return float("nan")
    return 1.0 + expected_max(delays, int(n)) / iteration


def read_summaries(sweep_dir: Path, run_ids) -> dict[str, dict]:
    return {run_id: json.loads((Path(sweep_dir) / "runs" / run_id / "summary.json").read_text()) for run_id in run_ids}


def _roles(results: pd.DataFrame) -> tuple[list[str], list[str]]:
    axes = axis_columns(results)
    signature = [a for a in axes if a == "noise" or a.startswith("noise.")]
    panel = [a for a in axes if a not in signature and a != SIZE and a not in SIZE_COMPANIONS]
    return signature, panel


def panel_label(values: Mapping[str, object]) -> str:
    return ", ".join(f"{column.split('.')[-1]}={value}" for column, value in values.items()) or "all runs"


def noise_scaling_table(results: pd.DataFrame, parameters: pd.DataFrame | None = None, model: bool = True) -> pd.DataFrame:
    """One row per (panel, signature, workstations), pooling the seeds: the slowdown's mean, smallest and
    largest, the time lost per iteration (us, mean), the injected net noise (mean over runs of the mean over
    workstations), the iterations, and with `parameters` (run_parameters) and `model`, the per-node model's
    slowdown at the first run's settings."""
    for column in ("run_id", SIZE, SLOWDOWN, LOST, INJECTED, ITERATIONS, BASELINE):
        if column not in results.columns:
            raise ValueError(f"results.csv has no column '{column}' (expected a NOW sweep with noise over {SIZE})")
    signature, panel = _roles(results)
    frame = results.copy()
    frame["signature"] = [signature_label({c: row[c] for c in signature}) for _, row in frame.iterrows()]
    frame["panel"] = [panel_label({c: row[c] for c in panel}) for _, row in frame.iterrows()]
    frame["workstations"] = pd.to_numeric(frame[SIZE]).astype(int)
    for column in (SLOWDOWN, LOST, INJECTED, ITERATIONS, BASELINE):
        frame[column] = pd.to_numeric(frame[column])
    frame["iteration_s"] = frame[BASELINE] / frame[ITERATIONS]
    order = {"panel": list(dict.fromkeys(frame["panel"])), "signature": list(dict.fromkeys(frame["signature"]))}
    grouped = frame.groupby(["panel", "signature", "workstations"], sort=False)
    table = pd.DataFrame(
        {
            "slowdown_mean": grouped[SLOWDOWN].mean(),
            "slowdown_min": grouped[SLOWDOWN].min(),
            "slowdown_max": grouped[SLOWDOWN].max(),
            "lost_per_iteration_us": grouped[LOST].mean() * 1e6,
            "net_injected": grouped[INJECTED].mean(),
            "iterations": grouped[ITERATIONS].first().astype(int),
            "baseline_iteration_us": grouped["iteration_s"].mean() * 1e6,
            "seeds": grouped[SLOWDOWN].count(),
            "run_id": grouped["run_id"].first(),
        }
    ).reset_index()
    table["panel"] = pd.Categorical(table["panel"], categories=order["panel"], ordered=True)
    table["signature"] = pd.Categorical(table["signature"], categories=order["signature"], ordered=True)
    table = table.sort_values(["panel", "signature", "workstations"]).reset_index(drop=True)
    table["panel"] = table["panel"].astype(str)
    table["signature"] = table["signature"].astype(str)
    table["model"] = float("nan")
    if model and parameters is not None and not parameters.empty:
        params = parameters.set_index("run_id")
        cache: dict[tuple, np.ndarray | None] = {}
        values = []
        for _, row in table.iterrows():
            if row["run_id"] not in params.index:
                values.append(float("nan"))
                continue
            p = params.loc[row["run_id"]]
            key = (p["kind"], p["work_s"], p["duration_s"], p["rate_per_s"], p["period_s"])
            if key not in cache:
                cache[key] = node_delays(p["kind"], p["work_s"], p["duration_s"], p["rate_per_s"], p["period_s"])
            values.append(model_slowdown(row["workstations"], row["baseline_iteration_us"] * 1e-6, cache[key]))
        table["model"] = values
    return table.drop(columns=["run_id"])


def noise_scaling_figure(table: pd.DataFrame, excess: bool = False, show_model: bool = True,
                         title: str = "Slowdown under operating-system noise") -> Figure:
    """One panel per panel group: slowdown (or slowdown - 1 with `excess`) against workstations, both axes
    logarithmic, one curve per signature with a band from the smallest to the largest seed, and the per-node
    model dashed in the same colour where it has a value."""
    panels = list(dict.fromkeys(table["panel"]))
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 5.0), squeeze=False, sharey=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    signatures = list(dict.fromkeys(table["signature"]))
    for ax, panel in zip(axes[0], panels):
        for index, signature in enumerate(signatures):
            part = table[(table["panel"] == panel) & (table["signature"] == signature)].sort_values("workstations")
            if part.empty:
                continue
            shift = 1.0 if excess else 0.0
            colour = colours[index % len(colours)]
            x = part["workstations"].to_numpy()
            ax.plot(x, part["slowdown_mean"] - shift, marker="o", markersize=3, color=colour, label=signature)
            ax.fill_between(x, part["slowdown_min"] - shift, part["slowdown_max"] - shift, alpha=0.2, color=colour)
            if show_model and part["model"].notna().any():
                ax.plot(x, part["model"] - shift, linestyle="--", linewidth=1, color=colour)
        ax.set_xscale("log", base=2)
        sizes = sorted(set(table.loc[table["panel"] == panel, "workstations"]))
        ax.set_xticks(sizes, [str(n) for n in sizes], rotation=45 if len(sizes) > 8 else 0)
        ax.set_yscale("log")
        ax.set_xlabel("workstations (N)")
        ax.set_title(panel)
        ax.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("slowdown - 1" if excess else "slowdown (makespan / noise-free makespan)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    if show_model and table["model"].notna().any():
        handles.append(plt.Line2D([], [], linestyle="--", color="grey"))
        labels.append("per-node model")
    axes[0][-1].legend(handles, labels, title="noise signature", fontsize="small")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.noise", description=__doc__.splitlines()[0])
    parser.add_argument("sweep_dir", type=Path, help="a directory written by cosched sweep of a noise sweep over platform.workstations")
    parser.add_argument("--out", type=Path, help="where noise.csv and noise.png go (default DIR/noise)")
    parser.add_argument("--excess", action="store_true", help="plot slowdown - 1 rather than the slowdown")
    parser.add_argument("--no-model", action="store_true", help="leave out the per-node model")
    args = parser.parse_args(argv)
    out = args.out or args.sweep_dir / "noise"
    out.mkdir(parents=True, exist_ok=True)
    results = load_results(args.sweep_dir)
    parameters = None if args.no_model else run_parameters(read_summaries(args.sweep_dir, results["run_id"]))
    table = noise_scaling_table(results, parameters, model=not args.no_model)
    table.to_csv(out / "noise.csv", index=False)
    noise_scaling_figure(table, excess=args.excess, show_model=not args.no_model).savefig(out / "noise.png", dpi=120)
    print(f"{out / 'noise.csv'}\n{out / 'noise.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
