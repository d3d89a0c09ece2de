"""The ``satedge`` command: a thin layer that parses arguments, calls the library and prints.

Exit statuses: 0 success, 1 a negative answer (UNSAT, invalid solution, mismatch),
2 bad input (one line ``satedge: error: ...`` on stderr), 3 timeout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from . import __version__, backtrack, symmetry
from .checker import validate
from .errors import SatedgeError
from .formats import load_puzzle, load_solution, save_puzzle, solution_to_json
from .render import ascii_grid


class _Parser(argparse.ArgumentParser):
    """argparse with the project's one-line error and exit status 2."""

    def error(self, message: str):  # noqa: D401
        raise SatedgeError(message)


def _add_method(p: argparse.ArgumentParser) -> None:
    p.add_argument("--method", choices=["backtrack"], default="backtrack",
                   help="how to solve: the reference backtracker")


def _cmd_solve(args) -> int:
    status = 0
    color = sys.stdout.isatty() and not args.json
    for path in args.puzzles:
        puzzle = load_puzzle(path)
        if args.all:
            sols = list(backtrack.solutions(puzzle))
        else:
            first = backtrack.solve(puzzle)
            sols = [] if first is None else [first]
        sat = "SAT" if sols else "UNSAT"
        if not sols:
            status = 1
        if args.json:
            obj = {"puzzle": path, "status": sat}
            if args.all:
                obj["solutions"] = [solution_to_json(puzzle, s) for s in sols]
            elif sols:
                obj["solution"] = solution_to_json(puzzle, sols[0])
            print(json.dumps(obj), flush=True)
        else:
            print(f"{path}: {sat}" + (f", {len(sols)} solutions" if args.all else ""))
            for s in sols:
                print(ascii_grid(puzzle, s, color=color))
    return status


def _cmd_count(args) -> int:
    for path in args.puzzles:
        puzzle = load_puzzle(path)
        t0 = time.perf_counter()
        counts = symmetry.count(puzzle, backtrack.solutions(puzzle))
        seconds = time.perf_counter() - t0
        if args.json:
            print(json.dumps({"puzzle": path, "solutions": counts.solutions, "distinct": counts.distinct,
                              "unique": counts.unique, "method": args.method, "seconds": round(seconds, 6)}), flush=True)
        else:
            print(f"{path}: {counts.solutions} solutions, {counts.distinct} distinct, {counts.unique} unique "
                  f"({args.method}, {seconds:.3f} s)", flush=True)
    return 0


def _cmd_check(args) -> int:
    puzzle = load_puzzle(args.puzzle)
    solution = load_solution(args.solution, puzzle)
    problem = validate(puzzle, solution)
    if problem is None:
        print(f"{args.solution}: valid")
        return 0
    print(f"{args.solution}: invalid: {problem}")
    return 1


def _cmd_convert(args) -> int:
    puzzle = load_puzzle(args.input)
    if args.output == "-":
        from .formats import puzzle_to_yaml

        sys.stdout.write(puzzle_to_yaml(puzzle))
    else:
        save_puzzle(puzzle, args.output)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="satedge", description="Edge-matching puzzles and their SAT encodings.")
    parser.add_argument("--version", action="version", version=f"satedge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("solve", help="find a solution (or all) and print it")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE", help="puzzle files (.yaml, .puz, tile_dict.yaml)")
    p.add_argument("--all", action="store_true", help="every solution, not only the first")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    _add_method(p)
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("count", help="count solutions, distinct pictures and pictures up to board turns")
    p.add_argument("puzzles", nargs="+", metavar="PUZZLE")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    _add_method(p)
    p.set_defaults(func=_cmd_count)

    p = sub.add_parser("check", help="validate a solution (JSON as solve --json prints it, or .sol)")
    p.add_argument("puzzle", metavar="PUZZLE")
    p.add_argument("solution", metavar="SOLUTION")
    p.set_defaults(func=_cmd_check)

    p = sub.add_parser("convert", help="convert a puzzle between formats (.yaml, .puz; read also tile_dict.yaml)")
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT", help="output file (.yaml, .yml or .puz), or - for YAML on stdout")
    p.set_defaults(func=_cmd_convert)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        return args.func(args)
    except SatedgeError as e:
        print(f"satedge: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
