"""``satedge decode``: a solver's model of an exported formula, turned back into a checked solution."""

from __future__ import annotations

import argparse
import json
import sys

from ..puzzle.checker import mismatches
from ..puzzle.drawing import ascii_grid
from ..puzzle.solutions import solution_to_json
from ..sat.dimacs import decode_file
from .common import grid_options

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "decode",
        help="turn a solver's model of an exported CNF or WCNF back into a checked solution "
        "or a scored board",
    )
    p.add_argument(
        "cnf",
        metavar="FILE.cnf",
        help="a formula satedge encode wrote (.cnf, .cnf.gz, .cnf.xz; with --maxsat .wcnf, .wcnf.gz, .wcnf.xz)",
    )
    p.add_argument(
        "model",
        metavar="MODEL",
        help="solver output (s/v lines; of a MaxSAT solver o/s/v lines, v a literal list or a 0/1 string) "
        "or a list of literals; - for stdin",
    )
    p.add_argument(
        "--puzzle",
        metavar="PUZZLE",
        help="the puzzle, when not at the path in the header (default: the header's path, or the puzzle "
        "the header carries)",
    )
    p.add_argument("--json", action="store_true", help="the solution as solve --json prints it")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    got = decode_file(args.cnf, args.model, args.puzzle)
    puzzle, solution, problem = got.puzzle, got.solution, got.problem
    if solution is None:
        print("UNSATISFIABLE")
        return 1
    scored = got.score is not None
    if args.json:
        print(
            json.dumps(
                {
                    "puzzle": str(args.puzzle or puzzle.name),
                    "status": "INVALID" if problem is not None else "OPTIMUM" if got.optimal else "SAT",
                    **(
                        {"score": got.score, "edges": len(puzzle.board.adjacencies), "cost": got.cost}
                        if scored
                        else {}
                    ),
                    "solution": solution_to_json(puzzle, solution),
                }
            )
        )
    else:
        if scored:
            print(
                f"score {got.score} of {len(puzzle.board.adjacencies)} inner edges (the model's cost: {got.cost})"
            )
        wrong = mismatches(puzzle, solution) if scored else ()
        print(ascii_grid(puzzle, solution, mismatched=wrong, **grid_options()))
    if problem is not None:
        print(f"invalid: {problem}", file=sys.stderr)
        return 1
    return 0
