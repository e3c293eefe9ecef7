"""The noise-at-scale study (analysis/noise.py) on the hand-made sweep `fixtures/now_noise`: two signatures
(Poisson 1000/s x 25us, periodic 1 Hz x 25ms), 1 and 4 workstations, seeds 1 and 2, L = 5us, o = 1us, W = 1 ms,
1000 then 500 iterations of exactly 1 ms without noise. Slowdowns: Poisson 1.025 and 1.027 (N = 1), 1.05 and
1.06 (N = 4); periodic 1.02 and 1.03, then 1.1 and 1.3; the time lost per iteration is (slowdown - 1) x 1 ms.
Also the per-node model against what it must give in its limits, and the command line end to end."""

import math

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from analysis import noise
from analysis.contract import load_results

POISSON = "Poisson 1000/s x 25us"
PERIODIC = "periodic 1 Hz x 25ms"


@pytest.fixture
def sweep(fixtures):
    return fixtures / "now_noise"


def table_of(sweep, model=True):
    results = load_results(sweep)
    parameters = noise.run_parameters(noise.read_summaries(sweep, results["run_id"]))
    return noise.noise_scaling_table(results, parameters, model=model)


def test_table_pools_seeds_per_signature_and_size(sweep):
    table = table_of(sweep, model=False)
    assert list(table["signature"]) == [POISSON, POISSON, PERIODIC, PERIODIC], "sweep order, then by size"
    assert set(table["panel"]) == {"latency=5us, overhead=1us"}
    row = table[(table["signature"] == PERIODIC) & (table["workstations"] == 4)].iloc[0]
    assert math.isclose(row["slowdown_mean"], 1.2)
    assert (row["slowdown_min"], row["slowdown_max"]) == (1.1, 1.3)
    assert math.isclose(row["lost_per_iteration_us"], 200.0), "(0.1 + 0.3) / 2 ms"
    assert row["seeds"] == 2 and row["iterations"] == 500
    assert math.isclose(row["baseline_iteration_us"], 1000.0)
    assert table["model"].isna().all()


def test_model_is_drawn_for_short_detours_only(sweep):
    table = table_of(sweep)
    poisson = table[table["signature"] == POISSON].set_index("workstations")["model"]
    # One workstation loses its share: 1 / (1 - 0.025), up to the Monte Carlo sample's error.
    assert poisson[1] == pytest.approx(1 / 0.975, rel=2e-3)
    assert poisson[4] > poisson[1]
    assert table[table["signature"] == PERIODIC]["model"].isna().all(), "25 ms is longer than W / 10"


def test_tick_model_limits():
    work, cost = 1e-3, 10e-6
    for period in (10e-3, 4e-3):
        delays = noise.node_delays("periodic", work, cost, period=period)
        # One node loses its share of the CPU; many lose one tick per iteration, no more (period > W + 2c).
        assert noise.model_slowdown(1, work, delays) == pytest.approx(1 / (1 - cost / period), rel=1e-5)
        assert noise.model_slowdown(16384, work, delays) == pytest.approx(1 + cost / work, rel=1e-6)
    delays = noise.node_delays("periodic", work, cost, period=10e-3)
    # While N q is small the excess grows linearly: q = (W + c) / P of the nodes are hit, each by c.
    excess = [noise.model_slowdown(n, work, delays) - 1 for n in (1, 2)]
    assert excess[1] / excess[0] == pytest.approx(2 - (work + cost) / 10e-3, rel=0.02)


def test_expected_max_of_a_two_point_distribution():
    delays = np.array([0.0, 0.0, 0.0, 1.0])
    assert noise.expected_max(delays, 1) == pytest.approx(0.25)
    assert noise.expected_max(delays, 2) == pytest.approx(1 - 0.75**2)


def test_labels():
    assert noise.signature_label({"noise.0": "{kind: periodic, period: 4ms, duration: 10us, phase: random}"}) == (
        "periodic 250 Hz x 10us"
    )
    assert noise.signature_label({"noise.0": "{kind: poisson, rate: 1, duration: 25ms, phase: aligned}"}) == (
        "Poisson 1/s x 25ms aligned"
    )
    assert noise.signature_label({"noise.0.rate": 100}) == "rate=100"
    assert noise.parse_duration("2500us") == pytest.approx(2.5e-3)
    assert math.isnan(noise.parse_duration("10us-40us:3, 1ms:1"))


def test_table_refuses_a_sweep_without_noise(sweep):
    results = load_results(sweep).drop(columns=[noise.SLOWDOWN])
    with pytest.raises(ValueError, match="noise.slowdown"):
        noise.noise_scaling_table(results)


def test_figure_has_a_curve_and_a_band_per_signature(sweep):
    table = table_of(sweep)
    fig = noise.noise_scaling_figure(table)
    assert isinstance(fig, Figure) and len(fig.axes) == 1
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert len(ax.collections) == 2, "one band per signature"
    assert len(ax.lines) == 3, "two curves and the Poisson signature's model"
    assert list(ax.lines[0].get_ydata()) == pytest.approx([1.026, 1.055])
    excess = noise.noise_scaling_figure(table, excess=True, show_model=False).axes[0]
    assert list(excess.lines[1].get_ydata()) == pytest.approx([0.025, 0.2])
    assert excess.get_ylabel() == "slowdown - 1"


def test_command_line_writes_the_table_and_the_figure(sweep, tmp_path):
    assert noise.main([str(sweep), "--out", str(tmp_path)]) == 0
    written = pd.read_csv(tmp_path / "noise.csv")
    assert len(written) == 4 and "model" in written.columns
    assert (tmp_path / "noise.png").stat().st_size > 0
