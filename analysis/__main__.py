"""Command line: `python -m analysis report DIR [DIR...] [--out OUTDIR]`, and `python -m analysis workload
lublin --jobs N --procs P --seed S --out FILE.swf` (workload.py). It only loads, calls and saves, and words
the errors of a role choice (roles.py) with its own flags; exit codes: 0 success, 2 bad input (a sweep
directory that does not follow the contract, an option the sweep cannot honour, a bad workload argument),
1 for a workload generator that cannot run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .contract import ContractError
from .report import write_report
from .roles import RoleError
from .workload import GeneratorEnvironmentError, WorkloadError, check, write_lublin

FLAGS = {"load": "--load", "variant": "--variant", "baseline": "--baseline", "comparison": "--compare"}

# Each kind of RoleError in the command line's words: {flag} is the flag that made the choice, other
# flags are named where they are the remedy; {given} and the error's facts fill in the rest. The
# text is the one the command line has always printed, which users and scripts may match.
ROLE_ERRORS = {
    "comparisons_without_variant": "{flag} {given}: --baseline and --compare need a variant axis",
    "not_an_axis": "{flag} {given}: not an axis of this sweep (axes: {axes})",
    "not_numbers": "{flag} {given}: expected an axis of numbers, got values such as '{example}'",
    "no_variant_to_compare": "{flag}: this sweep has no variant axis (choose one with --variant)",
    "not_a_value": "{flag} {given}: not a value of {variant} (values: {values})",
    "not_a_pair": "{flag} {given}: expected 'X vs Y', two values of {variant}",
    "same_value": "{flag} {given}: X and Y are the same value",
}


def in_flags(error: RoleError) -> str:
    """The role error as a user of the command line reads it: naming the flag that chose the column
    or value rather than the role, so the user knows which argument to change."""
    return ROLE_ERRORS[error.kind].format(flag=FLAGS[error.role], given=error.given, **error.facts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis", description="Figures and tables from a cosched sweep.")
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("report", help="write PNG figures, their CSV tables, report.md and report.html")
    report.add_argument(
        "sweep_dirs",
        metavar="DIR",
        type=Path,
        nargs="+",
        help="a `cosched sweep` output directory (has results.csv); several with the same axes are reported as one",
    )
    report.add_argument("--out", type=Path, help="output directory (default: DIR/report; required with several DIRs)")
    report.add_argument("--load", metavar="AXIS", help="axis on the x axis of the curves (default: first varying numeric axis)")
    report.add_argument(
        "--variant", metavar="AXIS", help="axis whose values are compared (default: first other varying axis; 'none': no variant)"
    )
    report.add_argument("--baseline", metavar="VALUE", help="value of the variant axis compared to (default: its first value)")
    report.add_argument(
        "--compare",
        action="append",
        metavar="'X vs Y'",
        help="speedup of variant value X against Y (repeatable; default: every value against the baseline)",
    )
    report.add_argument("--timelines", type=int, default=4, metavar="N", help="state timelines drawn at most (default 4)")
    add_workload_commands(commands)
    args = parser.parse_args(argv)
    if args.command == "workload":
        return workload_command(args)
    if args.out is None and len(args.sweep_dirs) > 1:
        print("analysis: error: --out: required with several sweep directories", file=sys.stderr)
        return 2
    out_dir = args.out if args.out is not None else args.sweep_dirs[0] / "report"
    try:
        written = write_report(
            args.sweep_dirs,
            out_dir,
            load=args.load,
            variant=args.variant,
            baseline=args.baseline,
            compare=args.compare,
            timelines=args.timelines,
        )
    except (ContractError, ValueError) as error:
        message = in_flags(error) if isinstance(error, RoleError) else str(error)
        print(f"analysis: error: {message}", file=sys.stderr)
        return 2
    print(f"analysis: wrote {len(written)} files to {out_dir}/ (report.md, report.html)")
    return 0


def _one_line_error(message: str) -> None:
    """argparse's error as one line (no usage block), exit code 2, as every other bad input."""
    print(f"analysis: error: workload: {message}", file=sys.stderr)
    sys.exit(2)


def add_workload_commands(commands) -> None:
    workload = commands.add_parser("workload", help="write a synthetic job stream as an SWF file")
    workload.error = _one_line_error
    models = workload.add_subparsers(dest="model", required=True)
    lublin = models.add_parser(
        "lublin", help="the Lublin-Feitelson model (parallelworkloads), written as SWF 2.2 (docs/models/now-streams.md)")
    lublin.error = _one_line_error
    # Strings, checked by workload.check, so that every bad value gets the same one-line message.
    lublin.add_argument("--jobs", required=True, metavar="N", help="jobs in the stream")
    lublin.add_argument("--procs", required=True, metavar="P", help="processors of the machine (16 or more)")
    lublin.add_argument("--seed", required=True, metavar="S", help="the model's seed, 0 to 2^31-1")
    lublin.add_argument("--estimates", default="tsafrir05", metavar="tsafrir05|none",
                        help="requested times: Tsafrir 2005's user estimates (default; 200 jobs or more), or -1")
    lublin.add_argument("--out", required=True, type=str, metavar="FILE.swf", help="the SWF file written")


def workload_command(args) -> int:
    try:
        request = check(args.jobs, args.procs, args.seed, args.estimates, args.out)
        out = write_lublin(request)
    except WorkloadError as error:
        print(f"analysis: error: workload lublin: {error}", file=sys.stderr)
        return 2
    except GeneratorEnvironmentError as error:
        print(f"analysis: error: {error}", file=sys.stderr)
        return 1
    print(f"analysis: wrote {out} ({request.jobs} jobs, {request.procs} processors, seed {request.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
