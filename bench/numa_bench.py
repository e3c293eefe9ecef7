#!/usr/bin/env python3
"""NUMA model speed (issue 22, section 5): the cost of one `cosched run` of the numa model against the
processor count, and its memory against the pages per cluster, printed as one markdown report.

    python3 bench/numa_bench.py [--cosched build/cosched] [--runs R] [--slices N] [--max-wait SECONDS]

1. One run against the processor count: process set A (scenarios/nobukuni/set-a.yaml, Nobukuni tables
   5.2-5.3) on platforms/numa-64.xml (fan-out 4, 4, 4: 64 clusters), numa-w488.xml (4, 8, 8: 256) and
   numa-1024.xml (4, 4, 8, 8: 1024), the set scaled to the machine: every process's parallelism times
   clusters / 256, rounded half up, at least 2 (so that the load, threads per cluster, stays about set
   A's 4.1), the local and shared page counts per thread and process unchanged. The scaled scenario is
   written to a temporary folder with the platform file's absolute path. Each run is cut to
   `scheduler.slices` (--slices, default 20) so that the three sizes finish in seconds.
2. Memory against pages: the 256-cluster run (set A as shipped) with memory.pages_per_cluster 400 (the
   run of 1), 800 and 1600.

Measured per run of the `cosched` child process: wall seconds (from start to exit), CPU seconds (user +
system: the deltas of resource.getrusage(RUSAGE_CHILDREN) around the run), its peak resident set (ru_maxrss
of the child as os.wait4 reports it: RUSAGE_CHILDREN's ru_maxrss is the largest of every child so far and
cannot be taken as a difference). From the run's summary.json: simulated clocks, clusters and `events`, giving
processor-clocks (clocks x clusters) per CPU second and events per CPU second. Every configuration runs R
times (--runs, default 1), the configurations taken in turn in each round so that a change in the
machine's load during the benchmark touches them alike, and the median of each figure is reported, with
its ratio to the 256-cluster (or 400-page) row.

Another study on the machine would make the figures meaningless: before each run the script waits until
no other `cosched` process is running (`pgrep -x cosched` every 10 s, for at most --max-wait seconds,
default 1800, saying on stderr that it waits), and it says in the report if it gave up waiting or if another
cosched process was running when a run ended. The figures are from one machine at one time; the report
names its CPU count and model.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SET_A = REPO / "scenarios" / "nobukuni" / "set-a.yaml"
PLATFORMS = REPO / "platforms"
REFERENCE_CLUSTERS = 256  # set A's machine (table 5.1); every ratio is to its row
MACHINES = [("numa-64.xml", 64), ("numa-w488.xml", 256), ("numa-1024.xml", 1024)]
PAGES_PER_CLUSTER = [400, 800, 1600]  # table 5.1's 400, then twice and four times as many frames
REFERENCE_PAGES = 400
POLL_SECONDS = 10


def scaled_threads(threads: int, clusters: int) -> int:
    """A process's parallelism on a machine of `clusters`: set A's, times clusters / 256, rounded half up
    (12.5 -> 13, where Python's round would give 12), and at least 2, so that a process still has
    threads to synchronize."""
    return max(2, int(threads * clusters / REFERENCE_CLUSTERS + 0.5))


# Set A's process lines are flow mappings, `- {name: p16, threads: 16, ...}`; its platform file is the one
# `file:` key. The scaling edits those numbers in place and checks that it found every process.
PROCESS_LINE = re.compile(r"^(\s*- \{name: [^,]+, threads: )(\d+)(,.*)$")
FILE_LINE = re.compile(r"^(\s+file: ).*$")
NAME_LINE = re.compile(r"^name: (\S+)$")


def scaled_scenario(text: str, clusters: int, platform_file: Path) -> str:
    """Set A's scenario text for a machine of `clusters` clusters on `platform_file` (scaled_threads)."""
    lines, processes, files, names = [], 0, 0, 0
    for line in text.splitlines():
        if match := PROCESS_LINE.match(line):
            line = f"{match[1]}{scaled_threads(int(match[2]), clusters)}{match[3]}"
            processes += 1
        elif FILE_LINE.match(line):
            line = f"{FILE_LINE.match(line)[1]}{platform_file}"
            files += 1
        elif match := NAME_LINE.match(line):
            line = f"name: {match[1]}-{clusters}"
            names += 1
        lines.append(line)
    expected = sum(1 for line in text.splitlines() if re.search(r"\bthreads: \d", line))
    if processes == 0 or processes != expected or files != 1 or names != 1:
        raise SystemExit(f"numa_bench: {SET_A}: expected flow-mapping process lines, one platform `file:` and one "
                         f"`name:`; found {processes} of {expected} process lines, {files} file lines, {names} names")
    return "\n".join(lines) + "\n"


def other_cosched_processes() -> list[str]:
    """The pids of the `cosched` processes running now (this script's own child has exited by then)."""
    found = subprocess.run(["pgrep", "-x", "cosched"], capture_output=True, text=True)
    return found.stdout.split()


@dataclass
class Waiting:
    """How long the benchmark waited for the machine, whether it gave up, and the runs that ended with
    another cosched process running."""

    max_seconds: float
    waited_seconds: float = 0.0
    gave_up: int = 0
    overlapped: list[str] = field(default_factory=list)

    def until_idle(self) -> None:
        start = time.monotonic()
        while others := other_cosched_processes():
            waited = time.monotonic() - start
            if waited >= self.max_seconds:
                print(f"numa_bench: still {len(others)} other cosched process(es) after {waited:.0f} s; timing anyway",
                      file=sys.stderr, flush=True)
                self.gave_up += 1
                break
            print(f"numa_bench: waiting for {len(others)} other cosched process(es) to end (pids {' '.join(others)}; "
                  f"{waited:.0f} s of at most {self.max_seconds:.0f} s)", file=sys.stderr, flush=True)
            time.sleep(POLL_SECONDS)
        self.waited_seconds += time.monotonic() - start


@dataclass
class Measure:
    wall_seconds: float
    cpu_seconds: float
    max_rss_kib: int
    clocks: int
    clusters: int
    events: int
    threads: int
    processes: int
    fanout: list[int]

    @property
    def processor_clocks_per_cpu_second(self) -> float:
        return self.clocks * self.clusters / self.cpu_seconds

    @property
    def events_per_cpu_second(self) -> float:
        return self.events / self.cpu_seconds


def run_once(cosched: Path, scenario: Path, out: Path, sets: list[str], label: str, waiting: Waiting) -> Measure:
    """One `cosched run`, timed as the module says."""
    waiting.until_idle()
    command = [str(cosched), "run", str(scenario), "--out", str(out), "--quiet"]
    for assignment in sets:
        command += ["--set", assignment]
    with tempfile.TemporaryFile() as stderr:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        if child.returncode != 0:
            stderr.seek(0)
            tail = stderr.read().decode(errors="replace").strip().splitlines()[-5:]
            raise SystemExit(f"numa_bench: {label}: {' '.join(command)} exited with {child.returncode}:\n  "
                             + "\n  ".join(tail))
    if other_cosched_processes():
        waiting.overlapped.append(label)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = json.loads((out / "summary.json").read_text())
    return Measure(
        wall_seconds=wall,
        cpu_seconds=cpu,
        max_rss_kib=usage.ru_maxrss,
        clocks=int(summary["clocks"]),
        clusters=int(summary["platform"]["clusters"]),
        events=int(summary["events"]),
        threads=sum(int(job["threads"]) for job in summary["jobs"]),
        processes=len(summary["jobs"]),
        fanout=list(summary["platform"]["fanout"]),
    )


@dataclass
class Configuration:
    label: str
    scenario: Path
    sets: list[str]
    measures: list[Measure] = field(default_factory=list)

    def median(self, name: str) -> float:
        return statistics.median(getattr(m, name) for m in self.measures)


FIGURES = [  # (attribute, heading, format)
    ("wall_seconds", "wall s", "{:.3f}"),
    ("cpu_seconds", "CPU s", "{:.3f}"),
    ("max_rss_kib", "max RSS MiB", None),
    ("processor_clocks_per_cpu_second", "processor-clocks per CPU s", None),
    ("events_per_cpu_second", "events per CPU s", None),
]


def cell(configuration: Configuration, reference: Configuration, name: str, form: str | None) -> str:
    value, base = configuration.median(name), reference.median(name)
    if name == "max_rss_kib":
        text = f"{value / 1024:.1f}"
    elif form is None:
        text = f"{value:.3g}"
    else:
        text = form.format(value)
    return f"{text} ({value / base:.2f}x)"


def machine_line() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " ".join(f"{v:.2f}" for v in os.getloadavg())
    return (f"{os.cpu_count()} CPUs ({model or platform.processor() or 'model unknown'}), {platform.system()} "
            f"{platform.release()}, load average {load} at the start")


def commit_of(path: Path) -> str:
    found = subprocess.run(["git", "-C", str(path), "describe", "--always", "--dirty"], capture_output=True, text=True)
    return found.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="NUMA model speed: one run against the processor count and the "
                                     "pages per cluster (a markdown report on stdout).")
    parser.add_argument("--cosched", type=Path, default=REPO / "build" / "cosched", help="the cosched binary "
                        "(default: build/cosched of this repository)")
    parser.add_argument("--runs", type=int, default=1, metavar="R", help="runs per configuration; the median is "
                        "reported (default 1)")
    parser.add_argument("--slices", type=int, default=20, metavar="N", help="scheduler.slices of every run "
                        "(default 20)")
    parser.add_argument("--max-wait", type=float, default=1800, metavar="SECONDS", help="how long to wait for other "
                        "cosched processes to end before each run (default 1800; 0: do not wait)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.slices < 1:
        parser.error("--runs and --slices must be at least 1")
    cosched = args.cosched.resolve()
    if not os.access(cosched, os.X_OK):
        parser.error(f"--cosched {args.cosched}: not an executable file (build cosched first)")

    waiting = Waiting(args.max_wait)
    machine = machine_line()
    with tempfile.TemporaryDirectory(prefix="numa_bench-") as folder:
        folder = Path(folder)
        text = SET_A.read_text()
        slices = f"scheduler.slices={args.slices}"
        machines = []
        for file, clusters in MACHINES:
            scenario = folder / f"set-a-{clusters}.yaml"
            scenario.write_text(scaled_scenario(text, clusters, PLATFORMS / file))
            machines.append(Configuration(file, scenario, [slices]))
        reference = machines[[c for _, c in MACHINES].index(REFERENCE_CLUSTERS)]
        pages = {REFERENCE_PAGES: reference}
        for count in PAGES_PER_CLUSTER:
            if count != REFERENCE_PAGES:
                pages[count] = Configuration(f"pages {count}", reference.scenario,
                                             [slices, f"memory.pages_per_cluster={count}"])
        configurations = machines + [c for n, c in pages.items() if n != REFERENCE_PAGES]
        for round_ in range(args.runs):
            for index, configuration in enumerate(configurations):
                print(f"numa_bench: round {round_ + 1} of {args.runs}: {configuration.label}", file=sys.stderr, flush=True)
                out = folder / f"out-{index}-{round_}"
                configuration.measures.append(run_once(cosched, configuration.scenario, out, configuration.sets,
                                                       configuration.label, waiting))

    lines = [
        "## NUMA model speed (bench/numa_bench.py)",
        "",
        f"- Machine: {machine}. The figures are from this one machine, at one time.",
        f"- cosched: `{args.cosched}` (repository at {commit_of(REPO)}); process set A "
        f"(`scenarios/nobukuni/set-a.yaml`), seed 1, policy4, strategy1, `--set {slices}`; "
        f"{args.runs} run(s) per configuration, median shown; (Nx): the ratio to the 256-cluster row.",
        "- CPU s: user + system time of the cosched child (RUSAGE_CHILDREN deltas); max RSS: its ru_maxrss; "
        "processor-clocks: simulated clocks x clusters.",
    ]
    if waiting.waited_seconds >= POLL_SECONDS:
        lines.append(f"- Waited {waiting.waited_seconds:.0f} s in all for other cosched processes to end.")
    if waiting.gave_up:
        lines.append(f"- **Gave up waiting before {waiting.gave_up} run(s)**: other cosched processes were running; "
                     "these figures are not those of an idle machine.")
    if waiting.overlapped:
        counts = {label: waiting.overlapped.count(label) for label in dict.fromkeys(waiting.overlapped)}
        ended = ", ".join(f"{label} ({count} of {args.runs})" for label, count in counts.items())
        lines.append(f"- **Another cosched process was running when runs ended**: {ended}.")

    lines += ["", "### One run against the processor count", "",
              "| platform | fan-out | clusters | processes / threads | simulated clocks | events | "
              + " | ".join(heading for _, heading, _ in FIGURES) + " |",
              "|" + "---|" * (6 + len(FIGURES))]
    for configuration in machines:
        first = configuration.measures[0]
        lines.append(f"| `{configuration.label}` | {', '.join(map(str, first.fanout))} | {first.clusters} | "
                     f"{first.processes} / {first.threads} | {first.clocks} | {first.events} | "
                     + " | ".join(cell(configuration, reference, n, f) for n, _, f in FIGURES) + " |")
    lines += ["", f"### Memory against pages per cluster ({REFERENCE_CLUSTERS} clusters, set A)", "",
              "| pages per cluster | page frames | events | wall s | CPU s | max RSS MiB |", "|---|---|---|---|---|---|"]
    for count, configuration in pages.items():
        first = configuration.measures[0]
        lines.append(f"| {count} | {count * first.clusters} | {first.events} | "
                     + " | ".join(cell(configuration, reference, n, f) for n, _, f in FIGURES[:3]) + " |")
    lines.append("")
    lines.append(f"(Nx) in the memory table: the ratio to the {REFERENCE_PAGES}-page row, the 256-cluster run above.")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
