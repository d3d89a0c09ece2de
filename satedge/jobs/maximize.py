"""The ``maximize`` task: the board with the most inner edges that fit, every tile placed once,
the frame and the clues kept.  Each engine that maximizes has its job function here: the
backtracker's branch and bound (:mod:`satedge.backtrack.maximize`), anytime, and RC2 over a
PySAT solver on the job's MaxSAT encoding (:mod:`satedge.encode.maxsat`).  A board is checked
and scored by the independent checker before it is answered; status ``OPTIMUM`` when its score
is proved the best, and a job stopped at its time limit keeps the best board it noted."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..backtrack import maximize as bnb
from ..errors import EncodingError
from ..puzzle.checker import board_problem, score
from ..puzzle.model import Solution
from ..sat.maxsat import optimum
from .result import Note, Result
from .shared import encoded, shuffled

if TYPE_CHECKING:  # the request, made above the engine table that names this module
    from .job import Job

__all__ = ["branch_and_bound", "rc2", "noted", "answered"]


def noted(board: Solution, best: int, bound: int) -> dict:
    """What a job notes of a better board, which a stopped job's result keeps
    (:func:`satedge.jobs.dispatch.run`)."""
    return {"board": [list(p) for p in board], "score": best, "bound": bound}


def answered(job: Job, res: Result, board: Solution | None, bound: int, who: str) -> Result:
    """``res`` with a board an engine says is optimal with ``bound``, checked and scored by the
    checker: ``OPTIMUM``, or ``UNSAT`` when no board keeps the hard rules."""
    if board is None:
        res.status = "UNSAT"
        return res
    problem = board_problem(job.puzzle, board)
    if problem is not None:
        raise EncodingError(f"{who} gave a board that breaks a rule: {problem}", board)
    got = score(job.puzzle, board)
    if got != bound:
        raise EncodingError(f"{who} said its board scores {bound}; the checker counts {got}", board)
    res.status, res.solutions, res.score, res.bound = "OPTIMUM", [board], got, bound
    return res


def branch_and_bound(job: Job, note: Note | None = None) -> Result:
    """The backtracker's branch and bound, noting each better board with what the search has cost
    so far (a stopped job's result keeps both) and, asked for its progress, that about every
    second."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)

    def progress(best: bnb.Best) -> dict:
        return {"progress": {"nodes": best.nodes, "candidates": best.candidates, "score": best.score,
                             "bound": best.bound, "seconds": round(time.perf_counter() - t0, 3)}}

    def better(best: bnb.Best) -> None:
        if note is not None:
            note({**noted(back(best.board), best.score, best.bound), **progress(best)})

    paused = (lambda best: note(progress(best))) if note is not None and job.progress else None
    best = bnb.maximize(puzzle, better=better, paused=paused)
    res = Result("UNSAT", nodes=best.nodes, candidates=best.candidates, solve_seconds=time.perf_counter() - t0)
    return answered(job, res, back(best.board) if best.board is not None else None, best.bound, "branch and bound")


def rc2(job: Job, note: Note | None = None) -> Result:
    """RC2 over the job's PySAT solver on the job's MaxSAT formula (exact; it finds no board
    before the optimum)."""
    res = Result("UNSAT")
    formula = encoded(job, res, note)
    if job.progress and note is not None:
        note({"progress": {"stage": "solving"}})
    t1 = time.perf_counter()
    model, cost = optimum(formula, job.solver.sat)
    res.solve_seconds = time.perf_counter() - t1
    board = formula.decode(model) if model is not None else None
    return answered(job, res, board, len(job.puzzle.board.adjacencies) - cost, f"RC2 over {job.solver.name}")
