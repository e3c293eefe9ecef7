"""Reading a sweep directory: the result contract (schema_version 1).

A sweep directory DIR, written by `cosched sweep`, holds:

DIR/results.csv -- one row per completed run. Columns, in this order:
  run_id           16 hex digits, stable, derived from the run's resolved scenario and seed.
  seed             the run's seed.
  <axis>...        one column per sweep axis, named by its dotted scenario path exactly as in the
                   sweep file (`workload.nosync`, `scheduler.policy`, `workload.jobs.0.wait.spin`),
                   holding the value given (`2CS+`, `10%`, `{algorithm: block}`, ...).
  schema_version   integer; this package reads version 1 only (SUPPORTED_SCHEMA_VERSION).
  ...              every other scalar of the run's summary.json flattened with '.' (lists skipped):
                   scenario, model (smp|now|numa), makespan (in time_unit), ssr (percent), spins.successful,
                   spins.total, events, messages (now), time_unit (cycles|s|clocks), platform.*, wall_seconds,
                   resolved.* (e.g. resolved.platform.cpus, resolved.scheduler.policy).
                   numa runs have no makespan, ssr or spins; they have clocks, slices, ended_by,
                   rates.{net,calibrated,maximum} and breakdown.{effective,sync,comm,idle,disk} (fractions
                   of T' = processor time without disk time), processor_clocks.*, pages_replaced.{other_copy,
                   own_copy,other_last,other_local,own_last,own_local}, page_transfers.{total,copies,
                   migrations,hops}, messages.{page,update,communication}, disk_accesses, copies_dropped,
                   placements.{threads,on_page_clusters,stayed}, resolved.platform.file,
                   resolved.scheduler.policy, resolved.memory.replacement...
  job.<instance>.<field>
                   job-level values. <instance> is the job's name, or `<name>#<copy>` when its profile
                   has several copies. Fields: completion_time (time_unit), ssr (percent),
                   spins.successful, spins.total, barriers_completed, blocks; for smp also
                   transition_point (time_unit), context_switches, spin_cycles; for now: time.compute,
                   time.communicate, time.synchronize, time.idle, time.switch (s, per-process
                   average), idle_detail.{ready,blocked_read,blocked_barrier,finished} (s),
                   read_spins.{successful,total}, blocks; for numa (a process): threads, finished,
                   effective_per_thread, slices_run, rates.*, breakdown.*, processor_clocks.*,
                   pages_replaced.*, page_transfers.*, disk_accesses, writes, barriers, copies_dropped,
                   placements.*.
  An empty cell is null (e.g. the ssr of a run that never spun).

DIR/runs/<run_id>/ -- each run's own result folder (summary.json, jobs.csv, workstations.csv) and,
when the scenario has `output.timeline: true`, timeline.csv with the columns
  job, copy, rank, state, start, end, place
  rank   thread index (smp) or process rank (now);
  state  smp: computing, spinning, blocked, ready, switching, finished;
         now: compute, communicate, synchronize, ready, blocked_read, blocked_barrier, switch, finished;
  start, end in the summary's time_unit; place: cpu index (smp, empty off CPU) or workstation (now).

The axis columns are the ones between `seed` and `schema_version`; that is how this package tells
the sweep's axes from the results.

Several sweep directories can be read as one (load_sweeps): the sweeps of one study, such as the four
process sets of the SSS-CORE study, each a sweep of its own base scenario over the same axes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

SUPPORTED_SCHEMA_VERSION = 1

# job.<instance>.<field>: the field is matched against the contract's job fields, so a job name
# may itself contain dots.
_JOB_COLUMN = re.compile(
    r"^job\.(?P<instance>.+?)\."
    r"(?P<field>completion_time|ssr|spins\.successful|spins\.total|barriers_completed|blocks"
    r"|transition_point|context_switches|spin_cycles|barrier_overhead_per_phase"
    r"|time\.[a-z_]+|idle_detail\.[a-z_]+|read_spins\.[a-z_]+|reads\.[a-z_]+\.[a-z_]+|wake_to_dispatch\.[a-z_]+"
    r"|wakeups\.[a-z_]+|arrival_replies|keepalives\.[a-z_]+"
    r"|barriers\.[a-z_]+"
    # numa processes (src/metrics/run_record.cpp, numa_process_json)
    r"|threads|finished|effective_per_thread|slices_run|rates\.[a-z_]+|breakdown\.[a-z_]+"
    r"|processor_clocks\.[a-z_]+|pages_replaced\.[a-z_]+|page_transfers\.[a-z_]+|disk_accesses|writes"
    r"|barriers|copies_dropped|placements\.[a-z_]+)$"
)
_COPY_SUFFIX = re.compile(r"#\d+$")


class ContractError(Exception):
    """A sweep directory that does not follow the contract; the message is one line."""


def read_csv_strict(path: Path) -> pd.DataFrame:
    """Reads a contract CSV: only an empty cell is null (a job named `NA` stays a string)."""
    return pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"run_id": str})


def load_results(sweep_dir: Path) -> pd.DataFrame:
    """Reads DIR/results.csv and checks it against the contract."""
    path = Path(sweep_dir) / "results.csv"
    if not path.is_file():
        raise ContractError(f"{path}: no such file (expected the results.csv of `cosched sweep`)")
    try:
        results = read_csv_strict(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        message = str(error).strip().splitlines()[-1] if str(error).strip() else "unreadable"
        raise ContractError(f"{path}: not a CSV file: {message}") from None
    for column in ("run_id", "seed", "schema_version"):
        if column not in results.columns:
            raise ContractError(f"{path}:1: missing column '{column}'")
    for index, version in results["schema_version"].items():
        if str(version) != str(SUPPORTED_SCHEMA_VERSION):
            raise ContractError(
                f"{path}:{index + 2}: schema_version {version} is not supported "
                f"(this analysis package reads version {SUPPORTED_SCHEMA_VERSION})"
            )
    if results.empty:
        raise ContractError(f"{path}: no runs (the file has a header only)")
    return results


def load_sweeps(sweep_dirs: list[Path]) -> tuple[pd.DataFrame, dict[str, Path]]:
    """Reads the results.csv of one or several sweep directories as one table, in the order given,
    and returns it with each run's sweep directory (run id -> directory, where its runs/<run_id>/
    is). Several sweeps must have the same axes in the same order (the axes are told by their place
    in the header) and runs of one model. A run id found in two of them is one run (the id is
    derived from the resolved scenario and the seed): it is read from the first."""
    frames: list[pd.DataFrame] = []
    folders: dict[str, Path] = {}
    first: tuple[Path, pd.DataFrame] | None = None
    for directory in map(Path, sweep_dirs):
        results = load_results(directory)
        path = directory / "results.csv"
        if first is None:
            first = (path, results)
        else:
            axes, first_axes = axis_columns(results), axis_columns(first[1])
            if axes != first_axes:
                raise ContractError(
                    f"{path}:1: axes {', '.join(axes) or 'none'} differ from {first[0]}'s "
                    f"{', '.join(first_axes) or 'none'} (a report of several sweeps needs the same axes)"
                )
            models, first_models = _models(results), _models(first[1])
            if models != first_models:
                raise ContractError(
                    f"{path}: model {', '.join(models)} differs from {first[0]}'s {', '.join(first_models)} "
                    "(a report of several sweeps needs runs of one model)"
                )
        results = results[~results["run_id"].isin(folders.keys())]
        folders.update({run_id: directory for run_id in results["run_id"]})
        frames.append(results)
    combined = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True, sort=False)
    return combined.reset_index(drop=True), folders


def _models(results: pd.DataFrame) -> list[str]:
    return sorted(results["model"].astype(str).unique()) if "model" in results.columns else []


def _run_folder(sweep_dir: Path | Mapping[str, Path], run_id: str) -> Path:
    """runs/<run_id>/ in the sweep directory, or in the run's own one when a mapping gives it."""
    directory = sweep_dir.get(run_id, Path()) if isinstance(sweep_dir, Mapping) else sweep_dir
    return Path(directory) / "runs" / str(run_id)


def axis_columns(results: pd.DataFrame) -> list[str]:
    """The sweep's axes: the columns between `seed` and `schema_version`, leaving out a second copy of a
    column (pandas names it `NAME.1`: results.csv of a sweep collected before an axis over `seed` shared the
    run's seed column had `seed` twice)."""
    columns = list(results.columns)
    between = columns[columns.index("seed") + 1 : columns.index("schema_version")]
    return [c for c in between if not _is_repeat(c, columns)]


def _is_repeat(column: str, columns: list[str]) -> bool:
    """Whether `column` is pandas's name for a repeated header, `NAME.N` beside a column NAME."""
    match = re.fullmatch(r"(.+)\.(\d+)", column)
    return bool(match) and match[1] in columns


def varying(results: pd.DataFrame, columns: list[str]) -> list[str]:
    """The columns among `columns` that take more than one value."""
    return [c for c in columns if c in results.columns and results[c].nunique(dropna=False) > 1]


def is_numeric(series: pd.Series) -> bool:
    return bool(pd.to_numeric(series, errors="coerce").notna().all())


def job_class(instance: str) -> str:
    """`news#2` -> `news`: the copies of a profile form one job class."""
    return _COPY_SUFFIX.sub("", instance)


def job_table(results: pd.DataFrame, keep: list[str]) -> pd.DataFrame:
    """One row per (run, job instance) with the job fields as columns.

    `keep` are run-level columns carried along (axes, seed, makespan...). Instances absent from a
    run (all fields empty, as in a series prefix without that job) are dropped.
    """
    fields_by_instance: dict[str, dict[str, str]] = {}
    for column in results.columns:
        match = _JOB_COLUMN.match(column)
        if match:
            fields_by_instance.setdefault(match["instance"], {})[match["field"]] = column
    base = ["run_id"] + [c for c in keep if c != "run_id"]
    parts = []
    for instance, fields in fields_by_instance.items():
        part = results[base].copy()
        for field, column in fields.items():
            part[field] = pd.to_numeric(results[column], errors="coerce")
        part = part[part[list(fields)].notna().any(axis=1)]
        part.insert(1, "instance", instance)
        part.insert(2, "job_class", job_class(instance))
        parts.append(part)
    if not parts:
        return pd.DataFrame(columns=base + ["instance", "job_class"])
    return pd.concat(parts, ignore_index=True)


def class_table(jobs: pd.DataFrame, keep: list[str]) -> pd.DataFrame:
    """One row per (run, job class): the copies of a profile pooled.

    SSR is pooled over the copies' spins, 100 x sum(successful) / sum(total) (thesis 2.3.1 applied
    to the class), falling back to the mean of the copies' ssr when spin counts are absent; times
    (completion_time, time.*, idle_detail.*) are the mean over the copies.
    """
    base = ["run_id"] + [c for c in keep if c != "run_id"]
    values = [c for c in jobs.columns if c not in base + ["instance", "job_class"]]
    grouped = jobs.groupby(base + ["job_class"], dropna=False, sort=False)
    classes = grouped[values].mean().reset_index()
    if {"spins.successful", "spins.total"} <= set(jobs.columns):
        sums = grouped[["spins.successful", "spins.total"]].sum(min_count=1).reset_index(drop=True)
        pooled = 100.0 * sums["spins.successful"] / sums["spins.total"].where(sums["spins.total"] > 0)
        classes["ssr"] = pooled.where(pooled.notna(), classes.get("ssr"))
        classes[["spins.successful", "spins.total"]] = sums.to_numpy()
    return classes


TIMELINE_COLUMNS = {"job", "copy", "rank", "state", "start", "end"}
TIMELINE_CHUNK_ROWS = 100_000


def timeline_paths(sweep_dir: Path | Mapping[str, Path], run_ids: list[str]) -> dict[str, Path]:
    """DIR/runs/<run_id>/timeline.csv of the runs that have one, by run id, in results order. `sweep_dir` is
    the sweep directory, or a mapping from run id to its sweep's (load_sweeps)."""
    paths = {str(run_id): _run_folder(sweep_dir, run_id) / "timeline.csv" for run_id in run_ids}
    return {run_id: path for run_id, path in paths.items() if path.is_file()}


def load_timeline(path: Path, max_lanes: int | None = None) -> tuple[pd.DataFrame, bool]:
    """A run's timeline.csv, and whether it has more lanes (threads or processes) than were read. With
    `max_lanes`, only the rows of its first `max_lanes` lanes are read: cosched writes a lane's rows
    together, in lane order, so the file is read in chunks until a further lane begins, however long it is."""
    header = pd.read_csv(path, nrows=0).columns
    missing = TIMELINE_COLUMNS - set(header)
    if missing:
        raise ContractError(f"{path}:1: missing column(s) {', '.join(sorted(missing))}")
    if max_lanes is None:
        return read_csv_strict(path), False
    parts, seen = [], {}
    chunks = pd.read_csv(path, keep_default_na=False, na_values=[""], chunksize=TIMELINE_CHUNK_ROWS)
    with chunks:
        for chunk in chunks:
            lane = list(zip(chunk["job"], chunk["copy"], chunk["rank"]))
            for key in dict.fromkeys(lane):
                seen.setdefault(key, len(seen))
            keep = pd.Series([seen[key] < max_lanes for key in lane], index=chunk.index)
            parts.append(chunk[keep])
            if len(seen) > max_lanes:
                return pd.concat(parts, ignore_index=True), True
    return pd.concat(parts, ignore_index=True), False



def load_total_threads(sweep_dir: Path | Mapping[str, Path], run_ids: list[str]) -> pd.Series | None:
    """Total thread count of each smp run, nosync + sum of threads x copies over the job profiles,
    from DIR/runs/<run_id>/summary.json's `resolved.workload` (results.csv skips lists, so it has no
    per-profile thread counts). None unless every run has a readable smp summary. `sweep_dir` as for
    timeline_paths."""
    counts = []
    for run_id in run_ids:
        path = _run_folder(sweep_dir, run_id) / "summary.json"
        try:
            workload = json.loads(path.read_text())["resolved"]["workload"]
            threads = sum(int(job["threads"]) * int(job.get("copies", 1)) for job in workload["jobs"])
            counts.append(int(workload.get("nosync", 0)) + threads)
        except (OSError, ValueError, KeyError, TypeError):
            return None
    return pd.Series(counts, dtype="int64")
