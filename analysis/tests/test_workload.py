"""`python -m analysis workload lublin` (analysis/workload.py, analysis/lublin_generator.py): a Lublin-Feitelson
stream written as SWF 2.2, checked here by a Python restatement of the rules src/workload/swf.cpp applies
(18 fields; integers where the format has integers; -1 or >= 0; job numbers from 1; status -1..5; submit
times in order) and of what the model promises (sizes within the machine, positive run times)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from analysis import workload

REPO = Path(__file__).resolve().parents[2]
INTEGER_FIELDS = {1, 5, 8, 11, 12, 13, 14, 15, 16, 17}  # 1-based, as swf.cpp's kFields


def run(*args):
    return subprocess.run([sys.executable, "-m", "analysis", "workload", *map(str, args)], cwd=REPO,
                          capture_output=True, text=True)


def lublin(tmp_path, name="w.swf", jobs=300, procs=32, seed=1, *more):
    out = tmp_path / name
    done = run("lublin", "--jobs", jobs, "--procs", procs, "--seed", seed, "--out", out, *more)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"analysis: wrote {out} ({jobs} jobs, {procs} processors, seed {seed})\n"
    return out


def read_swf(path: Path):
    """(header, records): the swf.cpp rules restated; an AssertionError names the line that breaks one."""
    header, records, previous_submit = {}, [], None
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        content = line.strip()
        if not content:
            continue
        if content.startswith(";"):
            match = re.match(r"^;\s*([A-Za-z][A-Za-z0-9]*)\s*:\s*(.*)$", content)
            if match:
                key, value = match[1], match[2].strip()
                header[key] = f"{header[key]}\n{value}" if key in header else value
            continue
        fields = content.split()
        assert len(fields) == 18, f"line {number}: {len(fields)} fields"
        values = []
        for index, text in enumerate(fields, start=1):
            if index in INTEGER_FIELDS:
                assert re.fullmatch(r"-?\d+", text), f"line {number} field {index}: not an integer: {text}"
                value = int(text)
            else:
                value = float(text)
            assert value == -1 or value >= 0, f"line {number} field {index}: {text}"
            values.append(value)
        assert values[0] >= 1 and -1 <= values[10] <= 5, f"line {number}"
        if values[1] >= 0:
            assert previous_submit is None or values[1] >= previous_submit, f"line {number}: submit goes back"
            previous_submit = values[1]
        records.append(values)
    return header, records


def test_a_stream_is_an_swf_file_of_usable_jobs_within_the_machine(tmp_path):
    header, records = read_swf(lublin(tmp_path, jobs=500, procs=32, seed=3))
    assert len(records) == 500
    assert [r[0] for r in records] == list(range(1, 501)), "jobs numbered from 1 in submit order"
    sizes = [r[4] for r in records]
    assert min(sizes) >= 1 and max(sizes) <= 32, "allocated processors within --procs"
    assert max(sizes) > 8, "the batch jobs' sizes reach into the machine's upper half"
    assert all(r[3] > 0 for r in records), "every run time positive: cosched skips none"
    assert all(r[8] >= r[3] for r in records), "a Tsafrir 2005 estimate is an upper bound of the run time"
    assert {r[14] for r in records} == {0, 1}, "interactive (0) and batch (1) jobs"
    for index in (2, 5, 6, 7, 9, 11, 12, 13, 15, 16, 17):  # fields the model does not give (1-based - 1)
        assert {r[index] for r in records} == {-1}, f"field {index + 1} unknown"
    assert {r[10] for r in records} == {1}, "status: completed"


def test_header_names_the_generator_its_version_and_parameters(tmp_path):
    header, _ = read_swf(lublin(tmp_path, jobs=400, procs=64, seed=7))
    assert header["Version"] == "2.2"
    assert header["MaxProcs"] == "64" and header["MaxNodes"] == "64"
    assert header["MaxJobs"] == "400" and header["MaxRecords"] == "400"
    assert header["Conversion"] == "python -m analysis workload lublin --jobs 400 --procs 64 --seed 7 --estimates tsafrir05"
    pinned = re.search(r"^parallelworkloads==(\S+)$", workload.REQUIREMENTS.read_text(), re.M)[1]
    notes = header["Note"].splitlines()
    assert notes[0] == f"generator parallelworkloads {pinned} (lublin99), seed 7, interactive and batch jobs"
    # 64 processors: the model's uMed and uHi (interactive 3, 5.5; batch 5, 7) shifted by log2(64) - 7 = -1.
    assert notes[1] == ("job sizes, log2 two-stage uniform shifted to 64 processors: interactive uLow 1 uMed 2 "
                        "uHi 4.5 uProb 0.705; batch uLow 1.2 uMed 4 uHi 6 uProb 0.875")


def test_same_seed_same_file_another_seed_another(tmp_path):
    first = lublin(tmp_path, "a.swf", 300, 32, 11).read_bytes()
    again = lublin(tmp_path, "b.swf", 300, 32, 11).read_bytes()
    other = lublin(tmp_path, "c.swf", 300, 32, 12).read_bytes()
    assert first == again
    body = lambda text: [line for line in text.decode().splitlines() if not line.startswith(";")]  # noqa: E731
    assert body(first) != body(other)


def test_without_estimates_requested_time_is_unknown_and_few_jobs_are_allowed(tmp_path):
    header, records = read_swf(lublin(tmp_path, "n.swf", 20, 16, 2, "--estimates", "none"))
    assert len(records) == 20
    assert {r[8] for r in records} == {-1}
    assert max(r[4] for r in records) <= 16
    assert header["Note"].splitlines()[2] == "requested time (field 9): -1, none generated"


@pytest.mark.parametrize(
    "args, message",
    [
        (["--jobs", "10", "--procs", "32", "--seed", "1"],
         "--jobs: expected an integer in [200, 10000000] (tsafrir05 estimates need at least 200 jobs; "
         "--estimates none for fewer), got '10'"),
        (["--jobs", "many", "--procs", "32", "--seed", "1", "--estimates", "none"],
         "--jobs: expected an integer in [1, 10000000], got 'many'"),
        (["--jobs", "300", "--procs", "8", "--seed", "1"], "--procs: expected an integer in [16, 1048576], got '8'"),
        (["--jobs", "300", "--procs", "32", "--seed", "-4"], "--seed: expected an integer in [0, 2147483647], got '-4'"),
        (["--jobs", "300", "--procs", "32", "--seed", "1", "--estimates", "exact"],
         "--estimates: expected one of tsafrir05, none, got 'exact'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line_and_no_file(tmp_path, args, message):
    out = tmp_path / "bad.swf"
    done = run("lublin", *args, "--out", out)
    assert done.returncode == 2
    assert done.stderr == f"analysis: error: workload lublin: {message}\n"
    assert not out.exists()


def test_missing_argument_and_missing_directory_are_one_line_too(tmp_path):
    done = run("lublin", "--jobs", "300", "--procs", "32", "--out", tmp_path / "w.swf")
    assert done.returncode == 2
    assert done.stderr == "analysis: error: workload: the following arguments are required: --seed\n"
    done = run("lublin", "--jobs", "300", "--procs", "32", "--seed", "1", "--out", tmp_path / "no" / "w.swf")
    assert done.returncode == 2
    assert done.stderr == f"analysis: error: workload lublin: --out: expected a file in an existing directory, got '{tmp_path / 'no' / 'w.swf'}'\n"
    done = run("gauss")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
