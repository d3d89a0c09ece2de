"""``satedge render``: a puzzle's tiles or a solution as SVG or PNG."""

from __future__ import annotations

import argparse
import sys

from ..errors import SatedgeError
from ..jobs import Job
from ..jobs.registry import methods
from ..puzzle.checker import board_problem, mismatches
from ..puzzle.drawing import to_svg
from ..puzzle.formats import load_puzzle
from ..puzzle.render import save_picture
from ..puzzle.solutions import load_solutions
from ..system.files import not_inputs
from .common import answer_file
from .options import add_memory, add_puzzles, seconds

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw a puzzle (its tiles) or a solution as SVG or PNG")
    add_puzzles(p, "puzzle", several=False)
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--solution",
        metavar="FILE",
        help="a solution or a board to draw, in any form solve or maximize writes (the first of "
        "several; the sides that do not fit in red) (default: the tiles, unplaced)",
    )
    g.add_argument("--solve", action="store_true", help="solve the puzzle and draw the first solution")
    p.add_argument(
        "--method",
        choices=list(methods("solve")),
        help="with --solve: auto (the engine that answers soonest), "
        "sat or backtrack, as solve has them (default: auto)",
    )
    p.add_argument(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help="with --solve: give up after this long, exit 3 (default: no limit)",
    )
    add_memory(p)
    p.add_argument(
        "-o", "--output", metavar="OUT", help="OUT.svg or OUT.png (matplotlib); default: SVG on stdout"
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    given = [
        o
        for o, v in (("--method", args.method), ("--timeout", args.timeout), ("--memory", args.memory))
        if v is not None
    ]
    if not args.solve and given:
        raise SatedgeError(f"{given[0]} applies to --solve only")
    not_inputs([args.output], [args.puzzle, args.solution])
    solution = None
    if args.solve:
        request = Job.make(
            None, "solve", method=args.method or "auto", timeout=args.timeout, memory_mb=args.memory, limit=1
        )
        _, puzzle, _, res, _ = answer_file(args.puzzle, request)
        if res.status == "TIMEOUT":
            print(f"{args.puzzle}: TIMEOUT after {args.timeout:g} s, nothing to draw", file=sys.stderr)
            return 3
        if not res.solutions:
            print(f"{args.puzzle}: UNSAT, nothing to draw", file=sys.stderr)
            return 1
        solution = res.solutions[0]
    else:
        puzzle = load_puzzle(args.puzzle)
    wrong = []
    if args.solution:
        solution = load_solutions(args.solution, puzzle)[0]  # the first of several
        problem = board_problem(puzzle, solution)
        if problem is not None:
            raise SatedgeError(f"not a board of this puzzle: {problem}", args.solution)
        wrong = mismatches(puzzle, solution)  # a partial board (maximize's): its misfits in red
    if args.output in (None, "-"):
        sys.stdout.write(to_svg(puzzle, solution, wrong))
    else:
        save_picture(puzzle, solution, args.output, wrong)
    return 0
