"""``satedge decode``: a solver's model of an exported formula, turned back into a checked solution."""

from __future__ import annotations

import json
import sys

from ..puzzle.drawing import ascii_grid
from ..puzzle.solutions import solution_to_json
from ..sat.dimacs import decode_file

__all__ = ["add", "main"]


def add(sub) -> None:
    p = sub.add_parser("decode", help="turn a solver's model of an exported CNF back into a checked solution")
    p.add_argument("cnf", metavar="FILE.cnf", help="a formula satedge encode wrote (.cnf, .cnf.gz, .cnf.xz)")
    p.add_argument("model", metavar="MODEL", help="solver output (s/v lines) or a list of literals; - for stdin")
    p.add_argument("--puzzle", metavar="PUZZLE", help="the puzzle, when not at the path in the header (default: the header's path, or the puzzle "
                   "the header carries)")
    p.add_argument("--json", action="store_true", help="the solution as solve --json prints it")
    p.set_defaults(func=main)


def main(args) -> int:
    puzzle, solution, problem = decode_file(args.cnf, args.model, args.puzzle)
    if solution is None:
        print("UNSATISFIABLE")
        return 1
    if args.json:
        print(json.dumps({"puzzle": str(args.puzzle or puzzle.name), "status": "SAT" if problem is None else "INVALID",
                          "solution": solution_to_json(puzzle, solution)}))
    else:
        print(ascii_grid(puzzle, solution, color=sys.stdout.isatty()))
    if problem is not None:
        print(f"invalid: {problem}", file=sys.stderr)
        return 1
    return 0
