"""The job of a search that runs until its time limit and proves nothing (``restarts``, ``field``,
``lns``): each better board noted as it is found, the best one checked and answered."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..system.limits import cores
from .boards import board_note, set_best_board
from .job import Job
from .result import Note, Result

__all__ = ["MARGIN", "anytime", "seconds_left"]

MARGIN = 1.0  # seconds before its time limit at which a search that runs until then answers


def seconds_left(job: Job, t0: float) -> float:
    """The seconds a search that runs until the job's time limit has, started at ``t0``: until
    :data:`MARGIN` (at most a tenth of the time) before the limit."""
    timeout = job.limits.timeout
    if timeout is None:
        raise ValueError("an anytime search runs until its time limit: the job has none")
    return timeout - min(MARGIN, timeout / 10) - (time.perf_counter() - t0)


def anytime(
    job: Job, note: Note | None, search: Callable[..., Any], who: str, loop: str | None = None, **options: Any
) -> Result:
    """The job of a search that runs until its time limit and proves nothing (status ``TIMEOUT``
    unless every edge fits): ``search(puzzle, seconds, workers, seed, better, **options)``, a
    board scored (:class:`satedge.puzzle.checker.Scored`) or ``None``, until :data:`MARGIN` before the time
    limit, each better board noted as it is found; on as many processes as the job's workers,
    at most one a core.  ``loop``: the search loop to ask for, where the search has one
    (``search(..., loop=loop, ran=...)``, which says the loop that runs)."""
    t0 = time.perf_counter()
    puzzle, back = job.shuffled()
    edges = len(puzzle.board.adjacencies)
    ran: list[str] = []
    compiled = [0.0]  # the seconds the search's loop took to compile (or to load)

    def told(name: str, seconds: float = 0.0) -> None:
        ran.append(name)
        compiled[0] += seconds

    def better(board: Any) -> None:
        if note is not None:
            progress = {"score": board.score, "bound": edges, "seconds": round(time.perf_counter() - t0, 3)}
            note({**board_note(back(board.board), board.score, edges), "progress": progress | _loop(ran)})

    if loop is not None:
        options |= {"loop": loop, "ran": told}

    # more processes than cores would only share them, each round's forks and joins made late
    workers = min(job.solver.workers, cores())
    best = search(
        puzzle, seconds_left(job, t0), workers, job.shuffle or 0, better, start=job.start_board(), **options
    )
    res = Result(
        "UNSAT",
        solve_seconds=time.perf_counter() - t0 - compiled[0],
        compile_seconds=compiled[0] if ran else None,
        loop=ran[-1] if ran else None,
    )
    board = back(best.board) if best is not None else None
    return set_best_board(job, res, board, edges, who, best and best.score)


def _loop(ran: list[str]) -> dict:
    return {"loop": ran[-1]} if ran else {}
