from pathlib import Path

import matplotlib.pyplot as plt
import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def pytest_configure(config):
    # A figure left open is memory held until the process ends: matplotlib's warning about it fails the run.
    config.addinivalue_line("filterwarnings", "error:More than 20 figures have been opened:RuntimeWarning")


@pytest.fixture(autouse=True)
def close_figures():
    """Every test's figures are closed after it (write_report closes those it saves; the others are the
    tests' own)."""
    yield
    plt.close("all")


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
