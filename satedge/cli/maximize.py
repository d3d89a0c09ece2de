"""``satedge maximize``: the board with the most inner edges that fit, of each puzzle."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..encode.maxsat import DEFAULT_MAXSAT_ENCODING
from ..errors import SatedgeError
from ..jobs.engine import prose
from ..jobs.registry import doing
from ..jobs.solver import SolverConfig
from ..puzzle.checker import mismatches
from ..puzzle.drawing import ascii_grid
from ..puzzle.render import save_board
from ..puzzle.solutions import solution_to_json
from ..sat.maxsat import EVALUATION_SOLVERS, HERMAX
from .common import UNCHECKED, answered_by, answers, engine_of, grid_options, measured
from .options import (
    MAX_WORKERS,
    add_certify,
    add_encoding,
    add_engine_options,
    add_memory,
    add_method_choice,
    add_puzzles,
    engines_by_name,
    number,
    seconds,
)

__all__ = ["add", "main"]


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("maximize", help="the board with the most inner edges that fit (Eternity II's score)")
    add_puzzles(p)
    add_method_choice(p, "maximize")
    add_encoding(p, DEFAULT_MAXSAT_ENCODING)
    p.add_argument(
        "--solver",
        help=f"with --method sat: the PySAT solver RC2 runs on (default: {SolverConfig()}; see `satedge solvers`), or "
        f"a MaxSAT Evaluation solver by its name: {', '.join(EVALUATION_SOLVERS)} (extra {HERMAX.extra}); or "
        f"an engine by its name: {engines_by_name('maximize')}",
    )
    p.add_argument(
        "--solver-cmd",
        metavar="COMMAND",
        help="a MaxSAT solver binary run on the WCNF file, as the MaxSAT Evaluation runs one (the same as "
        "--solver cmd:COMMAND) (default: none)",
    )
    p.add_argument(
        "--workers",
        type=number(1, MAX_WORKERS),
        metavar="N",
        help=f"processes of --method {prose(doing('maximize', 'every_core'))} (default: every core); search "
        f"workers of --solver {prose(doing('maximize', 'workers', but='every_core'))} (default: one)",
    )
    add_engine_options(p, "maximize")
    p.add_argument(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help="stop after this long with the best board found so far, exit 3 (default: no limit)",
    )
    add_memory(p)
    add_certify(
        p,
        "certify the optimum: a DRAT proof that no board scores one more (the hard clauses of the MaxSAT "
        "formula of --encoding, or of the default, with at least that many edges fitting, have no model), "
        "checked before anything is printed (extra certify)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    p.add_argument(
        "-o", "--output", metavar="FILE", help="also write the board to FILE: .sol or .json (default: none)"
    )
    p.add_argument(
        "--resume-from",
        metavar="FILE",
        help="start from this board (a .sol or .json that -o wrote, one puzzle): --method "
        f"{prose(doing('maximize', 'resumes'))} go on from it (default: none)",
    )
    p.add_argument(
        "--picture",
        metavar="FILE",
        help="also draw the board, the sides that do not fit in red: .svg, "
        "or .png (extra plot) (default: none)",
    )
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    for option, path, suffixes in (
        ("-o", args.output, (".sol", ".json")),
        ("--picture", args.picture, (".svg", ".png")),
    ):
        if path is not None:
            if len(args.puzzles) != 1:
                raise SatedgeError(f"{option} writes the board of one puzzle; give one")
            if Path(path).suffix not in suffixes:
                raise SatedgeError(f"{option} names a {' or a '.join(suffixes)} file", path)
    if args.resume_from is not None and (len(args.puzzles) != 1 or args.puzzles[0] == "-"):
        raise SatedgeError("--resume-from starts the search of one puzzle file; give one")
    status = 0
    outputs = (args.output, args.picture)
    for path, puzzle, job, res, took in answers(args, "maximize", outputs, start_from=args.resume_from):
        board = res.solutions[0] if res.solutions else None
        status = max(status, 3 if res.status == "TIMEOUT" else 1 if board is None else 0)
        edges = len(puzzle.board.adjacencies) if puzzle is not None else None
        try:
            if args.json:
                obj = {
                    "puzzle": path,
                    "status": res.status,
                    "score": res.score,
                    "bound": res.bound,
                    "edges": edges,
                    **(answered_by(job, res) if job else {}),
                    **({"seconds": round(took, 6)} if took is not None else {}),
                    **measured(res),
                }
                if job and job.encoding is None:  # an engine on the puzzle itself: no encoding
                    obj["encoding"] = None
                obj.update({k: v for k, v in res.search_figures().items() if k != "nodes_per_solution"})
                if res.certificate is not None:
                    obj["certificate"] = res.certificate.as_dict()
                if board is not None:
                    obj["solution"] = solution_to_json(puzzle, board)
                print(json.dumps(obj), flush=True)
            else:
                how = (f" ({engine_of(job)})" if job else "") + ("" if res.checked else UNCHECKED)
                if board is None:
                    found = (
                        ", no board found"
                        if res.status == "TIMEOUT"
                        else ": no board keeps the frame and the clues"
                    )
                    print(f"{path}: {res.status}{found}{how}")
                else:
                    proved = " (optimal)" if res.status == "OPTIMUM" else f" so far (at most {res.bound})"
                    print(f"{path}: {res.status}, score {res.score} of {edges} inner edges{proved}{how}")
                if res.certificate is not None:
                    print(f"certified by {res.certificate.checker}: {res.certificate.covers}")
                if board is not None:
                    print(
                        ascii_grid(puzzle, board, mismatched=mismatches(puzzle, board), **grid_options()),
                        flush=True,
                    )
        finally:
            # the files after the answer, which a write that fails at the end (the paths were checked
            # before the search) leaves on standard output; both of them or neither.  Written too when
            # standard output's reader has gone (`| head`): the board a long search found is not lost
            if board is not None:
                save_board(puzzle, board, [p for p in outputs if p is not None])
    return status
