"""`python -m analysis workload lublin --jobs N --procs P --seed S [--estimates tsafrir05|none] --out FILE.swf`:
a Lublin-Feitelson stream (Lublin and Feitelson 2003, through the `parallelworkloads` package) written as an
SWF 2.2 file that `cosched` reads (src/workload/swf.cpp). docs/models/now-streams.md section 2.

The package publishes its model only as CPython 3.8-3.10 wheels (analysis/requirements-lublin.txt), so the
generator (analysis/lublin_generator.py) runs in an environment of its own, .venv/lublin/, which this module
creates on first use from a CPython 3.8-3.10 interpreter: $COSCHED_LUBLIN_PYTHON, else python3.10, python3.9 or
python3.8 on PATH, else one of pyenv's ($PYENV_ROOT or ~/.pyenv). Each file is made by a fresh process, so
that the model's random stream (the C library's drand48) starts from the seed alone.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REQUIREMENTS = Path(__file__).with_name("requirements-lublin.txt")
GENERATOR = Path(__file__).with_name("lublin_generator.py")
ENVIRONMENT = REPO / ".venv" / "lublin"
SUPPORTED = ("3.10", "3.9", "3.8")  # the CPython versions parallelworkloads 0.1.3 has wheels for
ESTIMATES = ("tsafrir05", "none")
MIN_PROCS = 16  # below, the interactive jobs' shifted uMed (3 + log2(P) - 7) falls under 0
MAX_PROCS = 1 << 20
MIN_JOBS_TSAFRIR = 200  # "For the model to work, it needs at least 200 jobs" (the package's README)
MAX_JOBS = 10_000_000
MAX_SEED = (1 << 31) - 1


class WorkloadError(Exception):
    """A bad argument; the message is one line, exit code 2."""


class GeneratorEnvironmentError(Exception):
    """The generator's environment cannot be made or run; one line, exit code 1."""


@dataclass
class LublinRequest:
    jobs: int
    procs: int
    seed: int
    estimates: str
    out: Path


def _integer(flag: str, text: str, low: int, high: int, why: str = "") -> int:
    try:
        value = int(text, 10)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise WorkloadError(f"{flag}: expected an integer in [{low}, {high}]{why}, got '{text}'")
    return value


def check(jobs: str, procs: str, seed: str, estimates: str, out: str) -> LublinRequest:
    """The arguments as given (strings), checked; WorkloadError names the first bad one."""
    if estimates not in ESTIMATES:
        raise WorkloadError(f"--estimates: expected one of {', '.join(ESTIMATES)}, got '{estimates}'")
    low = MIN_JOBS_TSAFRIR if estimates == "tsafrir05" else 1
    why = " (tsafrir05 estimates need at least 200 jobs; --estimates none for fewer)" if low > 1 else ""
    request = LublinRequest(
        jobs=_integer("--jobs", jobs, low, MAX_JOBS, why),
        procs=_integer("--procs", procs, MIN_PROCS, MAX_PROCS),
        seed=_integer("--seed", seed, 0, MAX_SEED),
        estimates=estimates,
        out=Path(out),
    )
    if not out or request.out.is_dir():
        raise WorkloadError(f"--out: expected a file name, got '{out}'")
    if not request.out.resolve().parent.is_dir():
        raise WorkloadError(f"--out: expected a file in an existing directory, got '{out}'")
    return request


def _version(python: str) -> str | None:
    try:
        done = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def find_interpreter() -> str:
    """A CPython 3.8-3.10 to build the generator's environment with (see the module's docstring)."""
    given = os.environ.get("COSCHED_LUBLIN_PYTHON")
    candidates = [given] if given else []
    candidates += [shutil.which(f"python{v}") for v in SUPPORTED]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    for v in SUPPORTED:
        candidates += sorted(glob.glob(str(pyenv / "versions" / f"{v}.*" / "bin" / "python")), reverse=True)
    for python in filter(None, candidates):
        if _version(python) in SUPPORTED:
            return python
    raise GeneratorEnvironmentError(
        "workload lublin: no CPython 3.8-3.10 found (parallelworkloads 0.1.3 has wheels for those only); "
        "set COSCHED_LUBLIN_PYTHON to one")


def generator_python() -> Path:
    """.venv/lublin/bin/python with the pinned requirements, made or remade when they changed (a stamp
    holds the requirements' checksum, as scripts/install-deps.sh does for .venv/)."""
    python = ENVIRONMENT / "bin" / "python"
    stamp = ENVIRONMENT / ".requirements.sha256"
    wanted = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if python.exists() and stamp.exists() and stamp.read_text().strip() == wanted:
        return python
    interpreter = find_interpreter()
    print(f"analysis: making the generator's environment {ENVIRONMENT} with {interpreter}", file=sys.stderr)
    shutil.rmtree(ENVIRONMENT, ignore_errors=True)
    steps = [
        [interpreter, "-m", "venv", str(ENVIRONMENT)],
        # Wheels only: on another interpreter pip would build the source archive, an empty package.
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--only-binary=:all:",
         "--requirement", str(REQUIREMENTS)],
    ]
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["failed"])[-1]
            raise GeneratorEnvironmentError(f"workload lublin: {' '.join(step[:3])} ...: {last}")
    stamp.write_text(wanted + "\n")
    return python


def write_lublin(request: LublinRequest) -> Path:
    """Runs the generator in its environment; the file is written whole or not at all."""
    python = generator_python()
    command = [str(python), str(GENERATOR), "--jobs", str(request.jobs), "--procs", str(request.procs),
               "--seed", str(request.seed), "--estimates", request.estimates, "--out", str(request.out)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        raise GeneratorEnvironmentError(f"workload lublin: the generator failed: {last}")
    return request.out
