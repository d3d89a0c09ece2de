"""The ``pysat`` engine: a PySAT solver by its name, on the job's encoding; to maximize, RC2
(PySAT's MaxSAT solver) over it on the MaxSAT form of the encoding (:mod:`satedge.encode.maxsat`).
``--method auto`` falls back on it where the backtracker cannot take a puzzle."""

from __future__ import annotations

import time

from ..jobs.boards import set_best_board
from ..jobs.cubes import CUBES
from ..jobs.engine import Auto, Engine
from ..jobs.formula import encode_and_note
from ..jobs.job import Job
from ..jobs.result import Note, Result
from ..jobs.satmethod import DECIDE, ENUMERATION, STRATEGY, formula_tasks
from ..puzzle.model import Puzzle
from ..sat.maxsat import optimum

__all__ = ["rc2", "ENGINE"]


def rc2(job: Job, note: Note | None = None) -> Result:
    """RC2 over the job's PySAT solver on the job's MaxSAT formula (exact; it finds no board
    before the optimum)."""
    res = Result("UNSAT")
    formula = encode_and_note(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    model, cost = optimum(formula, job.solver.formula_solver)
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    edges = len(job.board.board.adjacencies)
    return set_best_board(job, res, board, edges - cost, f"RC2 over {job.solver.name}")


def _fallback(puzzle: Puzzle, timeout: float | None) -> int:
    return 1  # every puzzle, on one process: the default encoding and solver


ENGINE = Engine(
    name="pysat",
    called="PySAT solvers",
    named=False,
    solves_formula=True,
    options=(STRATEGY, CUBES, ENUMERATION, DECIDE),
    tasks=formula_tasks(
        rc2,
        "RC2 (PySAT's MaxSAT solver) over --solver on the MaxSAT form of --encoding",
        auto=Auto(
            rank=10,
            picks=_fallback,
            when="sat (always with --encoding, --solver or another SAT option)",
        ),
    ),
    summary="a PySAT solver by its name (cadical195, minisat22, ...; `satedge solvers` lists those that "
    "work here), enumerating with blocking clauses; to maximize, RC2 (PySAT's MaxSAT solver) over it",
)
