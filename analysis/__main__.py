"""Command line: `python -m analysis report DIR [--out OUTDIR]`. It only loads, calls and saves;
exit codes: 0 success, 2 bad input (a sweep directory that does not follow the contract)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .contract import ContractError
from .report import write_report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis", description="Figures and tables from a cosched sweep.")
    commands = parser.add_subparsers(dest="command", required=True)
    report = commands.add_parser("report", help="write PNG figures, their CSV tables and report.md")
    report.add_argument("sweep_dir", metavar="DIR", type=Path, help="a `cosched sweep` output directory (has results.csv)")
    report.add_argument("--out", type=Path, help="output directory (default: DIR/report)")
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
    args = parser.parse_args(argv)
    out_dir = args.out if args.out is not None else args.sweep_dir / "report"
    try:
        written = write_report(
            args.sweep_dir,
            out_dir,
            load=args.load,
            variant=args.variant,
            baseline=args.baseline,
            compare=args.compare,
            timelines=args.timelines,
        )
    except (ContractError, ValueError) as error:
        print(f"analysis: error: {error}", file=sys.stderr)
        return 2
    print(f"analysis: wrote {len(written)} files to {out_dir}/ (report.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
