"""``satedge crosscheck``: encodings x solvers against the backtracker on generated puzzles."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..puzzle.shuffle import MAX_SEED
from ..system.process import MAX_WORKERS
from .options import number

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "crosscheck",
        help="cross-check encodings x solvers against the backtracker on generated puzzles "
        "(extra crosscheck: hypothesis)",
    )
    p.add_argument(
        "--examples", type=number(1, 1_000_000), default=100, metavar="N", help="generated puzzles"
    )
    p.add_argument(
        "--seed",
        type=number(0, MAX_SEED - 1),
        default=0,
        metavar="S",
        help="hypothesis's seed: the same seed, the same puzzles (default: 0)",
    )
    p.add_argument(
        "--encodings",
        "--encoding",
        nargs="+",
        metavar="E",
        help="presets, base encodings or encodings of your own (FILE.py:FUNCTION) (default: every preset, "
        "and every base with every exactly-one encoding, symmetry breaking and redundant clauses)",
    )
    p.add_argument(
        "--solvers",
        nargs="+",
        metavar="S",
        help="engines of the table: PySAT solvers, binaries "
        "(cmd:COMMAND) or any other (cpsat, clasp, backtrack:order=spiral); see `satedge solvers` "
        "(default: cadical195 minisat22)",
    )
    p.add_argument("--max-cells", type=number(1, 16), default=6, metavar="M", help="largest board, in cells")
    p.add_argument(
        "--workers",
        type=number(1, MAX_WORKERS),
        default=os.cpu_count() or 1,
        help="processes (default: one per core)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help='one object {"examples", "checks", "mismatches", "seconds", "configurations"}',
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from ..experiment import crosscheck

    configs = crosscheck.default_configs(args.encodings, args.solvers)
    report = crosscheck.run(
        configs, examples=args.examples, seed=args.seed, max_cells=args.max_cells, workers=args.workers
    )
    names = [crosscheck.name(c) for c in configs]
    if args.json:
        print(json.dumps({**report.as_json(), "configurations": names}))
        if report.mismatch is not None:
            print(report.mismatch.describe(), file=sys.stderr)
    else:
        print(f"{len(configs)} configurations; " + report.describe())
        print("compared: " + ", ".join(names))
    return 0 if report.ok else 1
