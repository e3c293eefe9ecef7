"""End-to-end tests of output.trace (docs/scenario-format.md, "Traces"), run by ctest as TracesMatchTimelines.

For a NOW, an SMP and a NUMA run, with timeline.csv and both traces on:
- pj_dump (Debian pajeng) parses trace.paje, and the state intervals it prints are timeline.csv's, each on
  the container of its place (NOW and SMP: every interval; NUMA: parsed and counted);
- trace.json is valid JSON, every complete event is on a track that metadata events name, times are
  monotone and never overlap on a track, and its intervals are timeline.csv's in microseconds;
- every other result file is byte for byte the same as without the traces (summary.json but wall_seconds);
- output.trace_window keeps exactly the timeline's intervals cut to the window.
- Messages (output.trace_messages, NOW and NUMA): pj_dump lists a link per message (NOW: as many as summary.json
  counts), each from a place container to a place container (NUMA: two different clusters), ending no earlier
  than it starts; trace.json has the same messages as flow pairs (ph "s" on the sender's place, ph "f" on the
  receiver's, one id each); a window keeps exactly the whole run's messages sent and arrived within it; with
  output.trace_messages false there is no link and no flow, and the other files are the same.
Bad values of the new keys (and a trace over its size limit) exit 2 with one located line and leave no results.
Standard library only, Debian's python3; usage: check_traces.py COSCHED SOURCE_DIR WORK_DIR.
"""

import csv
import json
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

COSCHED, SOURCE, WORK = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def run(scenario, out, *overrides, expect=0):
    args = [COSCHED, "run", str(scenario), "--out", str(out), "--quiet"]
    for o in overrides:
        args += ["--set", o]
    result = subprocess.run(args, capture_output=True, text=True, timeout=300)
    check(result.returncode == expect,
          f"{' '.join(args)}: expected exit {expect}, got {result.returncode}: {result.stderr.strip()}")
    return result


def timeline_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def without_wall(path):
    return [line for line in path.read_text().splitlines() if '"wall_seconds"' not in line]


def same_other_files(off, on, label):
    """Every result file of `off` is in `on` with the same content (summary.json but wall_seconds)."""
    for f in sorted(off.iterdir()):
        if f.name == "summary.json":
            check(without_wall(f) == without_wall(on / f.name), f"{label}: summary.json differs with traces on")
        else:
            check((on / f.name).exists() and f.read_bytes() == (on / f.name).read_bytes(),
                  f"{label}: {f.name} differs with traces on")


def place_name(kind, place):
    return f"{kind} {place}" if place != "" else f"no {kind}"


def expected_intervals(rows, per_second, kind, window=None):
    """timeline.csv's intervals as (container, state, start s, end s), cut to `window` (in its unit)."""
    out = []
    for r in rows:
        start, end = float(r["start"]), float(r["end"])
        if window:
            if end <= window[0] or start >= window[1]:
                continue
            start, end = max(start, window[0]), min(end, window[1])
        lane = f"{r['job']}/{r['copy']}/{r['rank']}"
        out.append((f"{lane} on {place_name(kind, r['place'])}", r["state"], start / per_second, end / per_second))
    return sorted(out)


def pj_dump_states(paje):
    result = subprocess.run(["pj_dump", "-l", "15", str(paje)], capture_output=True, text=True, timeout=300)
    check(result.returncode == 0 and not result.stderr.strip(),
          f"pj_dump {paje}: exit {result.returncode}: {result.stderr.strip()[:500]}")
    states = []
    for line in result.stdout.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if cells[0] == "State":
            states.append((cells[1], cells[7], float(cells[3]), float(cells[4])))
    return sorted(states)


def pj_dump_links(paje):
    """The links pj_dump prints, as (from container, to container, kind, start s, end s), sorted."""
    result = subprocess.run(["pj_dump", "-l", "15", str(paje)], capture_output=True, text=True, timeout=300)
    links = []
    for line in result.stdout.splitlines():
        cells = [c.strip() for c in line.split(",")]
        if cells[0] == "Link":
            links.append((cells[7], cells[8], cells[6], float(cells[3]), float(cells[4])))
    return sorted(links)


def chrome_flows(trace_json, label):
    """trace.json's message flows as (from place, to place, kind, send s, arrival s), sorted; checks each id has
    one "s" and one "f" of the same kind, each beside an instant naming the message, on a "messages" thread."""
    trace = json.loads(trace_json.read_text())
    processes, threads = {}, {}
    starts, finishes, instants = {}, {}, defaultdict(list)
    for event in trace["traceEvents"]:
        if event["ph"] == "M" and event["name"] == "process_name":
            processes[event["pid"]] = event["args"]["name"]
        elif event["ph"] == "M" and event["name"] == "thread_name":
            threads[(event["pid"], event["tid"])] = event["args"]["name"]
        elif event["ph"] in ("s", "f"):
            check(event["id"] not in (starts if event["ph"] == "s" else finishes), f"{label}: two {event}")
            (starts if event["ph"] == "s" else finishes)[event["id"]] = event
        elif event["ph"] == "i":
            instants[(event["pid"], event["tid"], event["ts"])].append(event["args"]["message"])
    check(starts.keys() == finishes.keys(), f"{label}: {len(starts)} flow starts, {len(finishes)} flow ends")
    flows = []
    for key, s in starts.items():
        f = finishes.get(key)
        if f is None:
            continue
        check(f.get("bp") == "e" and f["name"] == s["name"], f"{label}: flow end {f} for {s}")
        for e in (s, f):
            check(threads.get((e["pid"], e["tid"])) == "messages", f"{label}: flow on a track not named messages: {e}")
            check(key in instants[(e["pid"], e["tid"], e["ts"])], f"{label}: no instant of message {key} at {e}")
        check(f["ts"] >= s["ts"], f"{label}: message {key} arrives before it is sent")
        flows.append((processes.get(s["pid"]), processes.get(f["pid"]), s["name"], s["ts"] * 1e-6, f["ts"] * 1e-6))
    return sorted(flows)


def same_messages(got, expected, label):
    if not check(len(got) == len(expected), f"{label}: {len(got)} messages, expected {len(expected)}"):
        return
    for g, e in zip(got, expected):
        if not (g[:3] == e[:3] and close(g[3], e[3]) and close(g[4], e[4])):
            check(False, f"{label}: message {g}, expected {e}")
            return


def check_links(label, out, kind, count=None, network_only=False):
    """The links of out/trace.paje checked, and equal to trace.json's flows when there is one; returns them."""
    links = pj_dump_links(out / "trace.paje")
    if count is not None:
        check(len(links) == count, f"{label}: {len(links)} links, expected {count} (summary.json's messages)")
    check(len(links) > 0, f"{label}: no link")
    for source, dest, _, start, end in links:
        if not (source.startswith(kind + " ") and dest.startswith(kind + " ") and end >= start
                and (source != dest or not network_only)):
            check(False, f"{label}: link from {source} to {dest}, {start} to {end}")
            break
    if (out / "trace.json").exists():
        same_messages(chrome_flows(out / "trace.json", label), links, f"{label} trace.json flows")
    return links


def within(links, window):
    return [link for link in links if link[3] >= window[0] - 1e-12 and link[4] <= window[1] + 1e-12]


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


def same_intervals(got, expected, label):
    if not check(len(got) == len(expected), f"{label}: {len(got)} intervals, expected {len(expected)}"):
        return
    for g, e in zip(got, expected):
        if not (g[0] == e[0] and g[1] == e[1] and close(g[2], e[2]) and close(g[3], e[3])):
            check(False, f"{label}: interval {g}, expected {e}")
            return


def chrome_intervals(trace_json, label):
    """trace.json checked structurally; its intervals as (container, state, start s, end s)."""
    try:
        trace = json.loads(trace_json.read_text())
    except json.JSONDecodeError as e:
        check(False, f"{label}: trace.json is not JSON: {e}")
        return []
    processes, threads, tracks = {}, {}, defaultdict(list)
    for event in trace["traceEvents"]:
        if event["ph"] == "M" and event["name"] == "process_name":
            processes[event["pid"]] = event["args"]["name"]
        elif event["ph"] == "M" and event["name"] == "thread_name":
            threads[(event["pid"], event["tid"])] = event["args"]["name"]
        elif event["ph"] == "X":
            check(event["dur"] > 0, f"{label}: an event of no duration: {event}")
            tracks[(event["pid"], event["tid"])].append(event)
        elif event["ph"] in ("s", "f", "i"):
            check(event.get("cat") == "message", f"{label}: a flow or instant that is no message: {event}")
        elif event["ph"] != "M":
            check(False, f"{label}: unexpected event {event}")
    out = []
    for (pid, tid), events in tracks.items():
        if not check(pid in processes and (pid, tid) in threads, f"{label}: event on unnamed track {pid}/{tid}"):
            continue
        last_end = None
        for e in events:
            if last_end is not None:
                check(e["ts"] >= last_end - 1e-6, f"{label}: track {pid}/{tid} overlaps or goes back at {e}")
            last_end = e["ts"] + e["dur"]
            out.append((f"{threads[(pid, tid)]} on {processes[pid]}", e["name"], e["ts"] * 1e-6,
                        (e["ts"] + e["dur"]) * 1e-6))
    return sorted(out)


def check_run(label, scenario, kind, per_second_of, overrides=(), compare=True):
    off, on, alone = WORK / f"{label}-off", WORK / f"{label}-on", WORK / f"{label}-traces-only"
    run(scenario, off, "output.timeline=true", *overrides)
    run(scenario, on, "output.timeline=true", "output.trace=[paje, chrome]", *overrides)
    run(scenario, alone, "output.trace=paje", *overrides)
    same_other_files(off, on, label)
    check(not (alone / "timeline.csv").exists() and not (alone / "trace.json").exists(),
          f"{label}: output.trace=paje alone wrote timeline.csv or trace.json")
    check((alone / "trace.paje").read_bytes() == (on / "trace.paje").read_bytes(),
          f"{label}: trace.paje differs without output.timeline")
    per_second = per_second_of(json.loads((on / "summary.json").read_text()))
    rows = timeline_rows(on / "timeline.csv")
    expected = expected_intervals(rows, per_second, kind)
    states = pj_dump_states(on / "trace.paje")
    if compare:
        same_intervals(states, expected, f"{label} pj_dump")
    else:
        check(len(states) == len(expected), f"{label}: pj_dump printed {len(states)} states, expected {len(expected)}")
    same_intervals(chrome_intervals(on / "trace.json", label), expected, f"{label} trace.json")
    return rows, per_second


def check_window(label, scenario, kind, window, window_set, per_second, rows):
    out = WORK / f"{label}-window"
    run(scenario, out, "output.trace=[paje, chrome]", f"output.trace_window={window_set}")
    expected = expected_intervals(rows, per_second, kind, window)
    check(0 < len(expected) < len(rows), f"{label}: the window keeps {len(expected)} of {len(rows)} intervals")
    same_intervals(pj_dump_states(out / "trace.paje"), expected, f"{label} window pj_dump")
    same_intervals(chrome_intervals(out / "trace.json", label), expected, f"{label} window trace.json")


def check_bad_values():
    smp = SOURCE / "scenarios" / "quickstart.yaml"
    base = smp.read_text()
    bad = {
        "trace: vite": "output.trace: expected paje, chrome or a list of them",
        "trace: []": "output.trace: expected paje, chrome or a list of them",
        "trace: [paje, pdf]": "output.trace[1]: expected paje, chrome or a list of them",
        "trace: {paje: 1}": "output.trace: expected paje, chrome or a list of them",
        "trace: paje\n  trace_window: [5, 1]": "output.trace_window[1]: expected [start, end]",
        "trace: paje\n  trace_window: [3]": "output.trace_window: expected [start, end]",
        "trace: paje\n  trace_window: [-1, 5]": "output.trace_window[0]: expected [start, end]",
        "trace: paje\n  trace_window: 5": "output.trace_window: expected [start, end]",
        "trace: paje\n  trace_limit_mb: 0": "output.trace_limit_mb: expected a positive integer",
        "trace: paje\n  trace_limit_mb: 9000": "output.trace_limit_mb: expected a positive integer",
        "trace: paje\n  trace_limit_mb: many": "output.trace_limit_mb: expected a positive integer",
        "trace: paje\n  trace_sizes: 1": "output.trace_sizes: unknown key",
        "trace: paje\n  trace_messages: maybe": "output.trace_messages: expected true or false",
        "trace: paje\n  trace_messages: [1]": "output.trace_messages: expected true or false",
    }
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        for i, (output, message) in enumerate(bad.items()):
            scenario = Path(tmp) / f"bad{i}.yaml"
            scenario.write_text(base + f"output:\n  {output}\n")
            out = Path(tmp) / f"out{i}"
            result = run(scenario, out, expect=2)
            lines = result.stderr.strip().splitlines()
            check(len(lines) == 1 and lines[0].startswith(f"cosched: error: {scenario}:") and message in lines[0],
                  f"{output!r}: expected one line '{scenario}:LINE:COL: {message}...', got {lines}")
            check(not out.exists(), f"{output!r}: left {out}")
        # NOW windows are durations; a trace over its limit is refused before the run, naming output.trace.
        now = (SOURCE / "scenarios" / "now-quickstart.yaml").read_text()
        for i, (text, output, message) in enumerate([
            (now, "trace: chrome\n  trace_window: [0, 10]", "output.trace_window[1]: expected [start, end], two durations"),
            (base.replace("barriers: 50", "barriers: 500000"), "trace: paje\n  trace_limit_mb: 1",
             "output.trace: the trace would be about"),
        ]):
            scenario = Path(tmp) / f"limit{i}.yaml"
            scenario.write_text(text + f"output:\n  {output}\n")
            out = Path(tmp) / f"limit-out{i}"
            result = run(scenario, out, expect=2)
            lines = result.stderr.strip().splitlines()
            check(len(lines) == 1 and message in lines[0] and ":" in lines[0].split(" output.")[0],
                  f"{output!r}: expected one located line with '{message}', got {lines}")
            check(not out.exists(), f"{output!r}: left {out}")


def check_default_sizes(now):
    """The NOW quick start's traces in their default (compact) form stay small enough to open: trace.json
    under 10 MB and trace.paje under 4 MB for its 0.17 simulated seconds (docs/scenario-format.md, "Traces")."""
    out = WORK / "now-default-sizes"
    run(now, out, "output.trace=[paje, chrome]")
    for name, limit_mb in (("trace.json", 10), ("trace.paje", 4)):
        size = (out / name).stat().st_size
        check(size < limit_mb * 1e6, f"now quick start: {name} is {size / 1e6:.1f} MB, expected under {limit_mb} MB")


def main():
    if shutil.which("pj_dump") is None:
        print("pj_dump (Debian pajeng) is missing: run scripts/install-deps.sh", file=sys.stderr)
        return 1
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    smp_rows, smp_hz = check_run("smp", SOURCE / "scenarios" / "quickstart.yaml", "cpu",
                                 lambda s: s["platform"]["cycles_per_second"])
    check_window("smp", SOURCE / "scenarios" / "quickstart.yaml", "cpu", (1000, 2000), "[1000, 2000]", smp_hz,
                 smp_rows)
    now = SOURCE / "scenarios" / "now-quickstart.yaml"
    now_rows, _ = check_run("now", now, "workstation", lambda s: 1.0,
                            ("workload.jobs.0.barriers=2", "output.trace_messages=true"))
    now_links = check_links("now", WORK / "now-on", "workstation",
                            json.loads((WORK / "now-on" / "summary.json").read_text())["messages"])
    # timeline.csv's NOW times are seconds already: the window in its own unit is a duration.
    nanos = 1e9
    rows_ns = [dict(r, start=str(float(r["start"]) * nanos), end=str(float(r["end"]) * nanos)) for r in now_rows]
    out = WORK / "now-window"
    run(now, out, "output.trace=[paje, chrome]", "output.trace_window=[5ms, 12ms]", "workload.jobs.0.barriers=2",
        "output.trace_messages=true")
    expected = expected_intervals(rows_ns, nanos, "workstation", (5e6, 12e6))
    check(0 < len(expected) < len(rows_ns), f"now: the window keeps {len(expected)} of {len(rows_ns)} intervals")
    same_intervals(pj_dump_states(out / "trace.paje"), expected, "now window pj_dump")
    same_intervals(chrome_intervals(out / "trace.json", "now"), expected, "now window trace.json")
    kept = within(now_links, (5e-3, 12e-3))
    check(0 < len(kept) < len(now_links), f"now: the window keeps {len(kept)} of {len(now_links)} messages")
    same_messages(check_links("now window", out, "workstation"), kept, "now window links")
    # output.trace_messages false, the default: no link, no flow, the same states and the same other files.
    off = WORK / "now-no-messages"
    run(now, off, "output.timeline=true", "output.trace=[paje, chrome]", "workload.jobs.0.barriers=2")
    check(pj_dump_links(off / "trace.paje") == [] and "PajeStartLink" not in (off / "trace.paje").read_text(),
          "now: links with output.trace_messages false")
    check('"cat": "message"' not in (off / "trace.json").read_text(), "now: flows with output.trace_messages false")
    same_other_files(WORK / "now-off", off, "now no messages")
    same_intervals(pj_dump_states(off / "trace.paje"), pj_dump_states(WORK / "now-on" / "trace.paje"),
                   "now no messages pj_dump")
    check_run("numa", SOURCE / "scenarios" / "nobukuni" / "set-a.yaml", "cluster",
              lambda s: s["platform"]["clock_hz"], ("scheduler.slices=3",), compare=True)
    # Messages: 2 slices, the whole run and a window of 40,000 clocks in the second slice.
    numa_scenario = SOURCE / "scenarios" / "nobukuni" / "set-a.yaml"
    whole, cut = WORK / "numa-messages", WORK / "numa-messages-window"
    run(numa_scenario, whole, "output.trace=[paje, chrome]", "scheduler.slices=2", "output.trace_messages=true")
    run(numa_scenario, cut, "output.trace=[paje, chrome]", "scheduler.slices=2",
        "output.trace_window=[120000, 160000]", "output.trace_messages=true")
    numa_links = check_links("numa", whole, "cluster", network_only=True)
    kept = within(numa_links, (120000 / 1e9, 160000 / 1e9))
    check(0 < len(kept) < len(numa_links), f"numa: the window keeps {len(kept)} of {len(numa_links)} messages")
    same_messages(check_links("numa window", cut, "cluster", network_only=True), kept, "numa window links")
    check_bad_values()
    check_default_sizes(now)
    for f in failures:
        print("FAIL:", f)
    print(f"check_traces: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
