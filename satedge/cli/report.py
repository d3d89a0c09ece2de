"""``satedge report``: the tables and plots of an experiment's results."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import SatedgeError

__all__ = ["add", "main"]


def add(sub) -> None:
    p = sub.add_parser("report", help="tables and plots of an experiment's results")
    p.add_argument("dir", metavar="DIR", help="an experiment's results folder (with results.jsonl)")
    p.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="compare two configurations ENCODING/SOLVER: the "
        "ratio of B's PAR-2 to A's with a paired bootstrap 95%% interval, a Wilcoxon signed-rank test over "
        "the instances and a verdict (extra stats), and a scatter plot (default: no comparison)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="with --compare: only the comparison, one JSON object with a, "
        "b, instances, ratio, ci, p_value and better",
    )
    p.add_argument("--no-plots", action="store_true", help="only the tables and summary.csv")
    p.set_defaults(func=main)


def main(args) -> int:
    if args.compare and args.compare[0] == args.compare[1]:  # before the results are read
        raise SatedgeError(f"--compare names {args.compare[0]!r} twice: compare two configurations")
    from ..experiment.report import report
    from ..experiment.rows import RESULTS
    from ..experiment.stats import compare, load_results

    if args.json:
        if not args.compare:
            raise SatedgeError("--json prints the comparison of two configurations: give --compare A B")
        df = load_results(args.dir)
        if df.empty:
            raise SatedgeError(f"no results in {Path(args.dir) / RESULTS}")
        print(json.dumps(compare(df, *args.compare)))
        return 0
    table, files = report(
        Path(args.dir), tuple(args.compare) if args.compare else None, with_plots=not args.no_plots
    )
    print(table)
    print(f"\nsummary.csv and {len(files)} plot and picture files in {args.dir}/", file=sys.stderr)
    return 0
