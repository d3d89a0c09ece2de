"""The ``lns`` engine: the large-neighbourhood search of best boards
(:func:`satedge.backtrack.lns.search`), on ``workers`` processes until a second before the job's
time limit, each better board noted as it is found (a stopped job's result keeps the last)."""

from __future__ import annotations

import time

from ..backtrack import lns
from ..system.extras import Need
from .result import Note, Result, Work
from .shared import board_note, set_best_board, shuffled

__all__ = ["needs", "run"]

needs = Need(module="scipy", extra="stats")  # the swaps' assignment problems
MARGIN = 1.0  # seconds before its time limit at which the search answers


def run(job: Work, note: Note | None = None) -> Result:
    """The best board the search finds in the job's time; it proves nothing (status
    ``TIMEOUT``) unless every edge fits."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)
    edges = len(puzzle.board.adjacencies)

    def better(board: lns.Board) -> None:
        if note is not None:
            seconds = round(time.perf_counter() - t0, 3)
            progress = {"score": board.score, "bound": edges, "seconds": seconds}
            note({**board_note(back(board.solution()), board.score, edges), "progress": progress})

    seconds = job.limits.timeout - min(MARGIN, job.limits.timeout / 10)
    best = lns.search(puzzle, seconds, job.solver.workers, job.shuffle or 0, better)
    res = Result("UNSAT", solve_seconds=time.perf_counter() - t0)
    board = back(best.solution()) if best is not None else None
    return set_best_board(job, res, board, edges, "the large-neighbourhood search", best and best.score)
