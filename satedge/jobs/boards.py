"""The best board of a maximisation, whatever its engine: noted as it is found (a stopped job's
result keeps it), checked and scored by the checker before it is answered, and answered at once
where the first board already fits every edge."""

from __future__ import annotations

import time
from typing import Any

from ..best import branch_and_bound as bnb
from ..errors import EncodingError
from ..puzzle.checker import board_problem, score
from ..puzzle.model import Solution
from .job import Job
from .result import Result

__all__ = ["board_note", "set_best_board", "every_edge_fits", "search_progress"]


def board_note(board: Solution, best: int, bound: int) -> dict:
    """What a job notes of a better board, which a stopped job's result keeps
    (:func:`satedge.jobs.dispatch.run`)."""
    return {"board": [list(p) for p in board], "score": best, "bound": bound}


def set_best_board(
    job: Job, res: Result, board: Solution | None, bound: int, who: str, said: int | None = None
) -> Result:
    """``res`` with a board an engine says is optimal with ``bound`` (or scores ``said``, where
    it proves nothing), checked and scored by the checker: ``OPTIMUM`` (the score is the
    bound), ``TIMEOUT`` (it is not: the best board a search found in its time), or ``UNSAT``
    when no board keeps the hard rules."""
    if board is None:
        res.status = "UNSAT"
        return res
    problem = board_problem(job.board, board)
    if problem is not None:
        raise EncodingError(f"{who} gave a board that breaks a rule: {problem}", board)
    got = score(job.board, board)
    if got != (bound if said is None else said):
        raise EncodingError(
            f"{who} said its board scores {bound if said is None else said}; the checker counts {got}", board
        )
    res.status, res.solutions, res.score, res.bound = (
        "OPTIMUM" if got == bound else "TIMEOUT",
        [board],
        got,
        bound,
    )
    return res


def every_edge_fits(job: Job) -> Result | None:
    """The answer of a maximisation whose first board (the branch and bound's, by its plain loop:
    milliseconds, nothing compiled) fits every edge, ``OPTIMUM`` at once whatever the engine;
    ``None`` where that board does not, or none is found that quickly."""
    t0 = time.perf_counter()
    found = bnb.quick_board(job.board)
    if found is None or found.score != found.bound:
        return None
    res = Result(
        "UNSAT", nodes=found.nodes, candidates=found.candidates, solve_seconds=time.perf_counter() - t0
    )
    return set_best_board(job, res, found.board, found.bound, "the first board")


def search_progress(found: Any, t0: float, **more: Any) -> dict:
    """What a maximisation notes of its search (``found``: its ``nodes``, ``candidates``,
    ``score`` and ``bound``), the progress line shows and a stopped job's result keeps."""
    progress = {
        "nodes": found.nodes,
        "candidates": found.candidates,
        "score": found.score,
        "bound": found.bound,
    }
    if getattr(found, "loop", None):
        progress["loop"] = found.loop
    return {"progress": {**progress, **more, "seconds": round(time.perf_counter() - t0, 3)}}
