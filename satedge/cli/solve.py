"""``satedge solve``: a solution (or several) of each puzzle, printed as a grid or JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import SatedgeError
from ..puzzle.drawing import ascii_grid
from ..puzzle.solutions import save_solution, solution_to_json
from ..system.bigints import many
from .common import answered_by, answers, certificate_words, engine_of, grid_options, measured
from .options import add_method, add_puzzles

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="find a solution (or all) and print it")
    add_puzzles(p)
    p.add_argument("--all", action="store_true", help="every solution, not only the first")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="also write the solution to FILE: .sol (tile col row rot, as the board suite has it) or .json; with "
        "--all or --limit, every solution to a .json file (default: none, only stdout)",
    )
    add_method(p, counting=False)
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    want_all = args.all or args.limit is not None
    if args.mode and not want_all:
        raise SatedgeError("--mode applies with --all or --limit")
    if args.output is not None:
        if len(args.puzzles) != 1:
            raise SatedgeError("-o writes the solution of one puzzle; give one")
        if Path(args.output).suffix not in (".sol", ".json"):
            raise SatedgeError("-o names a .sol or a .json file", args.output)
        if want_all and Path(args.output).suffix == ".sol":
            raise SatedgeError(
                "a .sol file holds one solution; with --all or --limit give a .json file", args.output
            )
    status = 0
    for path, puzzle, job, res, seconds in answers(args, "solve", (args.output,)):
        if res.status == "TIMEOUT":
            status = 3
        elif res.status == "UNSAT":
            status = max(status, 1)
        if args.json:
            obj = {
                "puzzle": path,
                "status": res.status,
                **(answered_by(job, res) if job else {}),
                "seconds": round(seconds, 6),
                **measured(res),
            }
            if res.variables is not None:  # a formula's size, as count --json gives it
                obj.update(variables=res.variables, clauses=res.clauses)
            if res.stage and res.status == "TIMEOUT":
                obj["stage"] = res.stage
            obj.update(res.search_figures())
            if res.stats.reported:  # what the progress line showed: the solver's own figures
                obj["stats"] = res.stats.counters
            if res.certificate is not None:
                obj["certificate"] = res.certificate.as_dict()
            if want_all:
                obj["solutions"] = [solution_to_json(puzzle, s) for s in res.solutions]
                if res.orbit > 1:  # symmetry breaking: each stands for its board-turn orbit
                    obj["orbit"] = res.orbit
            elif res.solutions:
                obj["solution"] = solution_to_json(puzzle, res.solutions[0])
            print(json.dumps(obj), flush=True)
        else:
            found = (
                f", {many(len(res.solutions), 'solution')}" if want_all and res.status != "TIMEOUT" else ""
            )
            if res.nodes is not None and res.status == "TIMEOUT":
                found += f" after {res.nodes:,} placements"
            if res.stage and res.status == "TIMEOUT":
                found += f", while {res.stage}"
            if found and res.orbit > 1:
                found += f" (symmetry breaking: one per board-turn orbit of {res.orbit})"
            print(
                f"{path}: {res.status}{found}"
                + (f" ({engine_of(job)})" if job else "")
                + certificate_words(res)
            )
            for s in res.solutions:
                print(ascii_grid(puzzle, s, **grid_options()))
        if args.output is not None and res.solutions:  # after the answer, which a failed write keeps
            save_solution(puzzle, res.solutions if want_all else res.solutions[0], args.output)
    return status
