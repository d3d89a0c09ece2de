"""The ``budget`` engine: the best board proved by budgets of misfits
(:func:`satedge.best.budget.fewest`), each search shared among ``workers`` processes or the
subtrees of a Dask cluster.  Each better board is noted as it is found, with the budget the next
search proves (a stopped job's result keeps the best board), and the search's placements about
every second, whether or not a terminal shows them (a stopped job's figures are then current).
``--method auto``'s choice to maximize where no other engine is picked.

Before the budgets, a short anytime search gives the incumbent: :data:`WARMUP` seconds of the
restarts (:func:`satedge.best.restarts.search`, capped at :data:`WARMUP_CAP` placements
each), at most a tenth of the job's time, on boards of more than :data:`WARMUP_CELLS` cells.
Its board is the answer if the job is stopped, and where it is optimal the budgets prove it
without the last search, the one that must find a board.  It runs on this process (forked
workers spend the first second loading their search).  On the uniform 5x5 boards a warm-up only
added to the proofs, which take seconds, hence none up to 30 cells."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from ..backtrack.search import Cost, plan
from ..best import budget, restarts
from ..jobs.boards import board_note, search_progress, set_best_board
from ..jobs.engine import Auto, Engine, Task
from ..jobs.job import Job
from ..jobs.parts import connected, subtrees_on_cluster
from ..jobs.result import Note, Result
from ..jobs.searching import LOOP, ORDER
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from ..system.limits import cores
from ..system.process import Outcome

__all__ = ["WARMUP", "WARMUP_CAP", "WARMUP_CELLS", "by_budgets", "ENGINE"]

WARMUP = 3.0  # seconds of restarts for the incumbent (the first loads their search: about a second)
WARMUP_CAP = 20_000_000  # placements per restart among them
WARMUP_CELLS = 30  # boards this small (5x5) are proved in seconds: the warm-up would only add to it


def by_budgets(job: Job, note: Note | None = None) -> Result:
    """The best board, proved; stopped at its time limit, the best found and no bound proved
    beyond every edge."""
    t0 = time.perf_counter()
    puzzle, back = job.shuffled()

    def progress(found: Scored) -> dict:
        return search_progress(
            found, t0, **({"allowed": found.searching} if found.searching is not None else {})
        )

    def better(found: Scored) -> None:
        if note is not None and found.board is not None:
            note({**board_note(back(found.board), found.score, found.bound), **progress(found)})

    def paused(found: Scored) -> None:  # a stopped job's figures are then current
        if note is not None:
            note(progress(found))

    start = job.start_board()
    if start is None and puzzle.n > WARMUP_CELLS:
        start = _incumbent(job, puzzle, better)
    with connected(job) as client:
        ended: list[Outcome] = []
        searched = None if client is None else _cluster_search(client, job, ended)
        found = budget.fewest(
            puzzle,
            start,
            job.solver.workers,
            better,
            paused,
            job.solver.get("order") or "auto",
            searched,
            loop=job.solver.get("loop") or "auto",
        )
        if ended:
            return Result.stopped(ended[0])
    res = Result(
        "UNSAT",
        nodes=found.nodes,
        candidates=found.candidates,
        solve_seconds=time.perf_counter() - t0 - found.compile_seconds,  # the search's alone
        compile_seconds=found.compile_seconds,
        loop=found.loop,
    )
    board = back(found.board) if found.board is not None else None
    return set_best_board(job, res, board, found.bound, "the budgeted search")


def _incumbent(job: Job, puzzle: Puzzle, better: Callable[[Scored], None]) -> Solution | None:
    """The best board of :data:`WARMUP` seconds of restarts (at most a tenth of the job's time),
    each better one to ``better`` as the budgets' boards are."""
    seconds = WARMUP if job.limits.timeout is None else min(WARMUP, job.limits.timeout / 10)
    edges = len(puzzle.board.adjacencies)

    def noted(board: Scored) -> None:
        better(replace(board, bound=edges))

    # on this process: forked workers would spend the second loading their searches
    # its seconds are the search's: on an empty cache the compile would take them all
    best = restarts.search(puzzle, seconds, 1, job.shuffle or 0, noted, cap=WARMUP_CAP, searching=True)
    return None if best is None else best.board


def _cluster_search(client: Any, job: Job, ended: list[Outcome]) -> Callable[..., Iterator[Solution]]:
    """:func:`satedge.best.budget.within` with the search's subtrees as the cluster's tasks."""

    def within(
        puzzle: Puzzle,
        allow: Any,
        limit: int | None,
        workers: int,
        cost: Cost,
        paused: Any,
        allowed: Any = None,
        order: str = "auto",
        loop: str = "auto",
    ) -> Iterator[Solution]:
        search = plan(puzzle, allowed, order)
        parts = subtrees_on_cluster(client, puzzle, job, limit, search, ended, True, cost, allow)
        try:
            for board, _ in parts:
                yield board
        finally:
            parts.close()  # stops the cluster's tasks

    return within


def _always(puzzle: Puzzle, timeout: float | None) -> int:
    return cores()


ENGINE = Engine(
    name="budget",
    options=(ORDER, LOOP),
    method=True,
    tasks={
        "maximize": Task(
            run=by_budgets,
            resumes=True,
            workers=True,
            every_core=True,
            cluster=True,
            certifies=True,
            summary="the backtracker with a budget of misfits, raised from 0 until a board keeps within "
            "it, on --workers processes: proves the optimum",
            # it proved the optimum sooner than the branch and bound and RC2 on the generated 4x4 to
            # 6x6 boards of benchmarks/maximize/bench-maximize.md
            auto=Auto(rank=20, picks=_always, when="budget"),
        )
    },
    summary="the backtracker with a budget of misfits: the best board proved by searching for one with a "
    "misfit fewer until none is, its tree shared among workers or a Dask cluster",
)
