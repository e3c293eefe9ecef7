"""Writes a Lublin-Feitelson stream as an SWF 2.2 file with the `parallelworkloads` package (PyPI,
analysis/requirements-lublin.txt). Run by `python -m analysis workload lublin` (analysis/workload.py) in the
generator's own environment, a CPython 3.8-3.10 one: the package publishes its model (Cython extensions)
only as wheels for those versions, so this file uses nothing but the standard library and that package.

    python lublin_generator.py --jobs N --procs P --seed S --estimates tsafrir05|none --out FILE

The arguments are checked by analysis/workload.py before it runs this. docs/models/now-streams.md section 2.
"""

from __future__ import annotations

import argparse
import math
import os

import parallelworkloads
from parallelworkloads import lublin99

BATCH, INTERACTIVE = 1, 0  # the model's job types, as the package numbers them (and writes them in field 15)
MODEL_MACHINE_LOG2 = 7.0  # the model's batch uHi: log2 of the 128-processor machine it was fitted to


def size_parameters(model, job_type: int, procs: int) -> tuple[float, float, float, float]:
    """(uLow, uMed, uHi, uProb) of the two-stage uniform distribution of log2(size) for a machine of `procs`
    processors: the model's uMed and uHi shifted by log2(procs) - 7, so that the largest batch job fills the
    machine as it fills the model's 128 processors; uLow kept, or lowered to uMed where the shift passes it."""
    shift = math.log2(procs) - MODEL_MACHINE_LOG2
    u_med = model.getParallelJobUMed(job_type) + shift
    u_hi = model.getParallelJobUHi(job_type) + shift
    u_low = min(model.getParallelJobULow(job_type), u_med)
    return u_low, u_med, u_hi, model.getParallelJobUProb(job_type)


def number(value: float) -> str:
    """A field as the archive writes it: an integer when it is one."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def generate(jobs: int, procs: int, seed: int, estimates: str) -> tuple[list, dict]:
    # The model draws from the C library's drand48 stream, seeded by the constructor's second argument: this
    # runs in a fresh process per file, so the stream starts from the seed alone (no state left by an
    # earlier model in the same process), which makes a file a function of its arguments.
    model = lublin99.Lublin99(True, seed, jobs)  # True: interactive and batch jobs, the model's full mix
    parameters = {}
    for job_type, name in ((INTERACTIVE, "interactive"), (BATCH, "batch")):
        values = size_parameters(model, job_type, procs)
        model.setParallelJobProbabilities(job_type, *values)
        parameters[name] = values
    records = model.generate()
    if estimates == "tsafrir05":
        from parallelworkloads import tsafrir05

        records = tsafrir05.Tsafrir05(records).generate(records)
    return records, parameters


def swf_text(records: list, parameters: dict, jobs: int, procs: int, seed: int, estimates: str) -> str:
    version = parallelworkloads.__version__
    sizes = "; ".join(
        f"{name} uLow {low:g} uMed {med:g} uHi {hi:g} uProb {prob:g}" for name, (low, med, hi, prob) in parameters.items()
    )
    requested = (
        "requested time (field 9): the user estimate of Tsafrir, Etsion and Feitelson's 2005 model (parallelworkloads.tsafrir05)"
        if estimates == "tsafrir05"
        else "requested time (field 9): -1, none generated"
    )
    header = [
        "Version: 2.2",
        "Computer: synthetic, the Lublin-Feitelson model (Lublin and Feitelson 2003)",
        f"Conversion: python -m analysis workload lublin --jobs {jobs} --procs {procs} --seed {seed} --estimates {estimates}",
        f"MaxJobs: {jobs}",
        f"MaxRecords: {jobs}",
        "Preemption: No",
        f"MaxNodes: {procs}",
        f"MaxProcs: {procs}",
        f"Note: generator parallelworkloads {version} (lublin99), seed {seed}, interactive and batch jobs",
        f"Note: job sizes, log2 two-stage uniform shifted to {procs} processors: {sizes}",
        f"Note: {requested}",
        "Note: queue (field 15): 0 interactive, 1 batch; fields the model does not give are -1",
    ]
    lines = [f"; {line}" for line in header]
    for r in records:
        fields = [
            r.jobId, r.submissionTime, r.waitTime, r.runTime, r.allocProcs, r.avgCpuUsage, r.usedMem, r.reqProcs,
            r.reqTime, r.reqMem, r.status, r.userId, r.groupId, r.executable, r.queueNum, r.partNum,
            r.precedingJob, r.thinkTime,
        ]
        lines.append(" ".join(number(f) for f in fields))
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, required=True)
    parser.add_argument("--procs", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--estimates", choices=["tsafrir05", "none"], required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    records, parameters = generate(args.jobs, args.procs, args.seed, args.estimates)
    text = swf_text(records, parameters, args.jobs, args.procs, args.seed, args.estimates)
    # The package's estimate model prints to the process's standard output: the file is written by name.
    partial = f"{args.out}.partial-{os.getpid()}"
    with open(partial, "w") as out:
        out.write(text)
    os.replace(partial, args.out)


if __name__ == "__main__":
    main()
