"""``farol report [GAME|all]``: write the strategy reports."""

from __future__ import annotations

import argparse

import matplotlib

from analysis.cli.outputs import check_output_dir
from analysis.cli.parser import add_examples
from analysis.report.write import write_all
from games import catalog


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", nargs="?", default="all",
        help="ruleset key (" + ", ".join(f.key for f in catalog.families()) + ") or all",
    )
    parser.add_argument("--out", default="reports", help="output folder (default reports/)")
    parser.add_argument("--quick", action="store_true", help="small budgets (as FAROL_QUICK=1)")
    parser.set_defaults(func=run)
    add_examples(parser, "farol report goat_lords --out my-reports")


def run(args: argparse.Namespace) -> int:
    # Charts go to files only: no window, whatever display the terminal has. (Set here,
    # not when the report modules are imported, so a notebook keeps its own backend.)
    matplotlib.use("Agg")
    outdir = check_output_dir(args.out, "--out")
    if args.game == "all":
        keys = [f.key for f in catalog.families()]
    else:
        key = args.game
        # Accept a registered game name too: report on its ruleset.
        if key.startswith("python_"):
            key = catalog.family_of(key).key
        catalog.family(key)
        keys = [key]
    for path in write_all(keys, outdir, quick=True if args.quick else None):
        print(f"wrote {path}")
    return 0
