"""``satedge report``: the tables and plots of an experiment's results."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import SatedgeError
from ..experiment.stats import POSTHOCS

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="tables and plots of an experiment's results")
    p.add_argument("dir", metavar="DIR", help="an experiment's results folder (with results.jsonl)")
    p.add_argument(
        "--compare",
        nargs="+",
        metavar="CONFIG",
        help="compare configurations ENCODING/SOLVER over the instances they all ran (extra stats). Two: "
        "the ratio of B's PAR-2 to A's with a paired bootstrap 95%% interval, a Wilcoxon signed-rank test and "
        "a verdict, and a scatter plot. Three or more, or all: the Friedman test, each pair's ratio and "
        "verdict by --posthoc, and a critical-difference diagram (default: no comparison)",
    )
    p.add_argument(
        "--posthoc",
        choices=POSTHOCS,
        default="holm",
        help="with --compare of three or more: the pairwise test, holm (the Wilcoxon signed-rank tests, "
        "Holm-corrected), nemenyi or conover (on the Friedman ranks, Conover's Holm-corrected) (default: holm)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="with --compare: only the comparison, one JSON object (two: a, b, instances, ratio, ci, "
        "p_value and better; more: configurations, instances, friedman, ranks, posthoc and pairs)",
    )
    p.add_argument("--no-plots", action="store_true", help="only the tables and summary.csv")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    given = tuple(args.compare or ())
    if given and given != ("all",):  # before the results are read
        if len(given) == 1:
            raise SatedgeError("--compare takes two configurations or more, or all")
        if len(set(given)) < len(given):
            twice = next(name for name in given if given.count(name) > 1)
            raise SatedgeError(f"--compare names {twice!r} twice: name each configuration once")
    from ..experiment.report import report
    from ..experiment.rows import RESULTS
    from ..experiment.stats import compare, compare_many, load_results

    if args.json:
        if not given:
            raise SatedgeError("--json prints a comparison: give --compare A B (or more, or all)")
        df = load_results(args.dir)
        if df.empty:
            raise SatedgeError(f"no results in {Path(args.dir) / RESULTS}")
        names = sorted(set(df["config"])) if given == ("all",) else list(given)
        if len(names) == 2:
            print(json.dumps(compare(df, *names)))
        else:
            print(json.dumps(compare_many(df, names, args.posthoc)))
        return 0
    table, files = report(Path(args.dir), given or None, with_plots=not args.no_plots, posthoc=args.posthoc)
    print(table)
    print(f"\nsummary.csv and {len(files)} plot and picture files in {args.dir}/", file=sys.stderr)
    return 0
