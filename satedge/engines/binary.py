"""The ``cmd`` engine: a DIMACS solver binary, ``cmd:COMMAND``, run afresh on the job's formula and
its blocking clauses for each model (:mod:`satedge.sat.binaries`); to maximize, a MaxSAT solver
binary on the WCNF of the MaxSAT form (the MaxSAT Evaluation's format and answer).  Its "no" is
its word alone: such an answer is flagged unless a certificate checks it."""

from __future__ import annotations

import time

from ..jobs.boards import set_best_board
from ..jobs.cubes import CUBES
from ..jobs.engine import Engine
from ..jobs.formula import encode_and_note
from ..jobs.job import Job
from ..jobs.result import Note, Result
from ..jobs.satmethod import ENUMERATION, STRATEGY, formula_tasks
from ..sat.maxsat import binary_optimum
from ..sat.solvers import BINARY

__all__ = ["maxsat_binary", "ENGINE"]


def maxsat_binary(job: Job, note: Note | None = None) -> Result:
    """A MaxSAT solver binary on the WCNF of the job's MaxSAT formula
    (:func:`satedge.sat.maxsat.binary_optimum`): ``OPTIMUM`` when it says its cost is optimal,
    else its best board so far with the trivial bound, every edge."""
    res = Result("UNSAT")
    formula = encode_and_note(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    model, cost, proved = binary_optimum(formula, str(job.solver.name))
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    edges = len(job.board.board.adjacencies)
    said = None if proved else edges - cost
    return set_best_board(job, res, board, edges - cost if proved else edges, f"cmd:{job.solver.name}", said)


ENGINE = Engine(
    name=BINARY,
    called="solver binaries",
    named=False,
    solves_formula=True,
    outside=True,
    options=(STRATEGY, CUBES, ENUMERATION),
    tasks=formula_tasks(
        maxsat_binary, "a MaxSAT solver binary (--solver-cmd) on the WCNF of the MaxSAT form of --encoding"
    ),
    summary="a DIMACS solver binary, cmd:COMMAND (cmd:'cadical -q'), run afresh on the formula and its "
    "blocking clauses for each model; to maximize, a MaxSAT solver binary on the WCNF (the MaxSAT "
    "Evaluation's format and answer)",
)
