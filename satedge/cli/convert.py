"""``satedge convert``: a puzzle from one format into another."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import SatedgeError
from ..puzzle.checker import validate
from ..puzzle.formats import load_puzzle, puzzle_to_yaml, save_puzzle
from ..puzzle.solutions import load_solution
from ..system.files import not_inputs
from .options import add_puzzles

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert", help="convert a puzzle between formats (.yaml, .puz; read also tile_dict.yaml)"
    )
    add_puzzles(p, "input", "IN", several=False)
    p.add_argument("output", metavar="OUT", help="output file (.yaml, .yml or .puz), or - for YAML on stdout")
    p.add_argument(
        "--name",
        help="the name the converted puzzle says it has, in rows, reports and pictures (default: its input's "
        "own, or its file's name for a .puz)",
    )
    p.add_argument(
        "--planted",
        metavar="SOLUTION",
        help="record this solution (.sol or JSON, checked first) as the "
        "puzzle's known one, the YAML key planted (default: none)",
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    out = Path(args.output)
    inputs = [args.input, Path(args.input).with_suffix(".clue"), args.planted]
    not_inputs([out, out.with_suffix(".clue")] if out.suffix == ".puz" else [out], inputs)
    puzzle = load_puzzle(args.input)
    if args.name is not None:
        if not args.name.strip() or "\n" in args.name:
            raise SatedgeError("--name takes a name: not blank, on one line", args.input)
        puzzle = puzzle.with_(name=args.name)
    if args.planted is not None:
        solution = load_solution(args.planted, puzzle)
        problem = validate(puzzle, solution)
        if problem is not None:
            raise SatedgeError(f"not a solution of {args.input}: {problem}", args.planted)
        puzzle = puzzle.with_(planted=solution)
    if args.output == "-":
        sys.stdout.write(puzzle_to_yaml(puzzle))
    else:
        save_puzzle(puzzle, args.output)
    return 0
