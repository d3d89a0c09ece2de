"""``satedge check``: is a solution valid, and if not, which constraint does it break first?"""

from __future__ import annotations

import argparse

from ..puzzle.checker import board_problem, score, validate
from ..puzzle.formats import load_puzzle
from ..puzzle.solutions import load_solutions
from ..system.bigints import many
from .options import add_puzzles

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check",
        help="validate solutions, and score boards: every form solve and maximize write (.sol, JSON, JSON lines)",
    )
    add_puzzles(p, "puzzle", several=False)
    p.add_argument(
        "solution",
        metavar="SOLUTION",
        help="a .sol file, a JSON solution or list of them (solve -o), or solve --json's lines",
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args.puzzle)
    found = load_solutions(args.solution, puzzle)
    problems = [(k, p) for k, s in enumerate(found) if (p := validate(puzzle, s)) is not None]
    if not problems:
        print(f"{args.solution}: valid" + (f", {many(len(found), 'solution')}" if len(found) > 1 else ""))
        return 0
    k, problem = problems[0]
    which = f"solution {k + 1} of {len(found)}: " if len(found) > 1 else ""
    scored = ""
    if board_problem(puzzle, found[k]) is None:  # every rule kept but some edges: a board with a score
        scored = (
            f" (a board that scores {score(puzzle, found[k])} of {len(puzzle.board.adjacencies)} inner edges)"
        )
    print(f"{args.solution}: invalid: {which}{problem}{scored}")
    return 1
