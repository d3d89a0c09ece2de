"""The ``hermax`` engine: the exact solvers of the MaxSAT Evaluations by their names
(:data:`satedge.sat.maxsat.EVALUATION_SOLVERS`), in-process through hermax (extra ``maxsat``), on
the MaxSAT form of the job's encoding."""

from __future__ import annotations

import time

from ..jobs.boards import set_best_board
from ..jobs.engine import Engine, Task
from ..jobs.formula import encode_and_note
from ..jobs.job import Job
from ..jobs.result import Note, Result
from ..sat.maxsat import EVALUATION_SOLVERS, HERMAX, evaluation_optimum

__all__ = ["evaluation", "ENGINE"]


def evaluation(job: Job, note: Note | None = None) -> Result:
    """A MaxSAT Evaluation solver in this process on the job's MaxSAT formula (exact; it finds no
    board before the optimum)."""
    res = Result("UNSAT")
    formula = encode_and_note(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    name = str(job.solver.name)
    model, cost = evaluation_optimum(formula, name)
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    edges = len(job.board.board.adjacencies)
    return set_best_board(job, res, board, edges - cost, f"the MaxSAT solver {name}")


ENGINE = Engine(
    name="hermax",
    called="MaxSAT Evaluation solvers",
    named=False,
    solves_formula=True,
    needs=HERMAX,
    tasks={
        "maximize": Task(
            run=evaluation,
            certifies=True,
            summary="a MaxSAT Evaluation solver (--solver uwrmaxsat, ...) on the MaxSAT form of --encoding",
        )
    },
    summary="the exact solvers of the MaxSAT Evaluations by their names ("
    + ", ".join(EVALUATION_SOLVERS)
    + "), in-process through hermax: to maximize, on the MaxSAT form of an encoding",
)
