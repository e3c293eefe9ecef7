#!/usr/bin/env python3
"""Checks the durations the documents state for shipped commands against how long the commands take here.

The markdown is the single source: README.md and docs/**/*.md. A stated duration that a reader may rely on
("the demo takes about 40 s") carries a marker right after it, an HTML comment that readers of the rendered
page do not see:

    takes about 40 s <!-- duration: scripts/brim-miller-demo.sh short = 40 s -->

The marker names the command (as the reader would type it from the repository's root; without "--", which
an HTML comment cannot hold) and the duration the prose states, in `s` or `min`. The prose before the marker, in the same paragraph, must state that duration
in the same words ("40 s"), so that the figure a reader sees and the one tested cannot drift apart.

Each marked command runs with `bash -c` in a fresh scratch directory (copies of scenarios/, platforms/,
sweeps/, data/ and scripts/, with `build/cosched` the binary under test and a `cosched` on PATH that binary
too), one after the other so that they do not slow each other down, and its wall time is measured. The
example fails when the measured time is more than FACTOR (3) times the stated one, or less than a third of
it: the documents' figures are then stale. Times are compared with a floor of FLOOR seconds on both sides
(a process's start on a loaded machine), so that a stated 0.1 s is not failed for taking 0.4 s. A command
that exits with an error fails too, and one still running at FACTOR times its stated duration is killed.

Mark only commands that take well under a minute or two: this runs in the test suite. Longer figures are
stated in the documents as measured on a named machine at a date, not marked.

Exit 0 when every marked duration holds, 1 when one does not, 2 when a document is malformed (a marker that
cannot be read, or a figure the prose does not state) or the binary is missing.

Usage: durations.py [--cosched BIN] [--list] [FILE.md...]
BIN defaults to the repository's build/cosched, the FILEs to its README.md and docs/**/*.md; --list prints the
markers without running them. ctest runs it as DocDurations (tests/CMakeLists.txt).
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# What the scratch directory holds: copies of these repository directories (the commands' inputs).
INPUTS = ["scenarios", "platforms", "sweeps", "data", "scripts"]

sys.path.insert(0, os.path.join(ROOT, "tests", "transcripts"))
from transcripts import make_scratch  # noqa: E402  (the scratch checkout the transcripts run in)

FACTOR = 3.0  # a measured time off by more than this, either way, fails
FLOOR = 0.5  # seconds; shorter times, stated or measured, count as this

MARKER = re.compile(r"<!--\s*duration:(.*?)-->", re.S)
STATED = re.compile(r"^(.*\S)\s*=\s*([0-9]+(?:\.[0-9]+)?)\s*(s|min)\s*$", re.S)
UNIT_SECONDS = {"s": 1.0, "min": 60.0}


class DocError(Exception):
    pass


class Marker:
    def __init__(self, path, line, command, figure, seconds):
        self.path, self.line, self.command, self.figure, self.seconds = path, line, command, figure, seconds

    def where(self):
        return f"{os.path.relpath(self.path, ROOT)}:{self.line}"


def paragraph_before(text, at):
    """The text of the paragraph that holds offset `at`, up to `at` (a blank line ends a paragraph)."""
    start = text.rfind("\n\n", 0, at)
    return text[start + 2 if start >= 0 else 0 : at]


def markers_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    markers, errors = [], []
    for m in MARKER.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        where = f"{os.path.relpath(path, ROOT)}:{line}"
        stated = STATED.match(" ".join(m.group(1).split()))
        if not stated:
            errors.append(f"{where}: a duration marker reads '<!-- duration: COMMAND = NUMBER s|min -->', got: {m.group(0)}")
            continue
        command, number, unit = stated.groups()
        if "--" in command:
            # Markdown ends an inline HTML comment at "--", so the rest would show on the rendered page.
            errors.append(f"{where}: a duration marker's command cannot hold '--' (an HTML comment cannot): mark "
                          f"a command without options, or state the duration as measured on a machine and date")
            continue
        figure = f"{number} {unit}"
        # The prose states the figure in its own words just before the marker (earlier markers removed).
        prose = " ".join(MARKER.sub(" ", paragraph_before(text, m.start())).split())
        if not re.search(r"(?<![0-9.])" + re.escape(figure) + r"\b", prose):
            errors.append(f"{where}: the paragraph before the marker does not state '{figure}' (the marker's figure)")
            continue
        markers.append(Marker(path, line, command, figure, float(number) * UNIT_SECONDS[unit]))
    return markers, errors


def measure(marker, binary):
    """(seconds taken, None) or (seconds taken, why the command failed)."""
    scratch = make_scratch(binary, INPUTS, "cosched-duration-")
    env = dict(os.environ)
    env["PATH"] = os.path.join(scratch, "bin") + os.pathsep + env.get("PATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    limit = FACTOR * max(marker.seconds, FLOOR)
    started = time.monotonic()
    try:
        result = subprocess.run(
            ["bash", "-c", marker.command],
            cwd=scratch,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=limit,
        )
    except subprocess.TimeoutExpired:
        return time.monotonic() - started, f"still running after {limit:g} s, killed"
    finally:
        seconds = time.monotonic() - started
        shutil.rmtree(scratch, ignore_errors=True)
    if result.returncode != 0:
        last = result.stderr.decode("utf-8", errors="replace").strip().splitlines()[-1:]
        return seconds, f"exit status {result.returncode}" + (f": {last[0]}" if last else "")
    return seconds, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cosched", default=os.path.join(ROOT, "build", "cosched"), help="the binary under test")
    parser.add_argument("--list", action="store_true", help="print the markers, run nothing")
    parser.add_argument("files", nargs="*", help="markdown files (default: README.md docs/**/*.md)")
    args = parser.parse_args()

    files = [os.path.abspath(f) for f in args.files] or [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
    )
    markers, errors = [], []
    for path in files:
        found, wrong = markers_of(path)
        markers += found
        errors += wrong
    if errors:
        for error in errors:
            print(f"durations: {error}", file=sys.stderr)
        return 2
    if args.list:
        for marker in markers:
            print(f"{marker.where()}: {marker.command} = {marker.figure}")
        return 0
    binary = os.path.abspath(args.cosched)
    if not os.access(binary, os.X_OK):
        print(f"durations: {binary}: no such executable (build cosched first)", file=sys.stderr)
        return 2

    failed = 0
    for marker in markers:
        seconds, failure = measure(marker, binary)
        ratio = max(seconds, FLOOR) / max(marker.seconds, FLOOR)
        line = f"{marker.where()}: {marker.command}: stated {marker.figure}, measured {seconds:.2f} s"
        if failure is None and 1 / FACTOR <= ratio <= FACTOR:
            print(f"ok    {line} (x{ratio:.2f})")
            continue
        failed += 1
        why = failure or f"x{ratio:.2f}, more than {FACTOR:g} times {'longer' if ratio > 1 else 'shorter'}: update the figure"
        print(f"FAIL  {line}: {why}")
    print(f"durations: {len(markers)} checked, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
