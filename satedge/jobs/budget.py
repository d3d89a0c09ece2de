"""The ``budget`` engine: the best board proved by budgets of misfits
(:func:`satedge.backtrack.budget.fewest`), each search shared among ``workers`` processes or the
subtrees of a Dask cluster.  Each better board is noted as it is found, with the budget the next
search proves (a stopped job's result keeps the best board), and asked for its progress, the
search's placements about every second."""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..backtrack import budget
from ..backtrack.search import Cost, plan
from ..puzzle.model import Puzzle, Solution
from ..system.process import Outcome
from .result import Note, Result, Work
from .shared import (
    board_note,
    connected,
    search_progress,
    set_best_board,
    shuffled,
    start_board,
    stopped,
    subtrees_on_cluster,
)

__all__ = ["run"]


def run(job: Work, note: Note | None = None) -> Result:
    """The best board, proved; stopped at its time limit, the best found and no bound proved
    beyond every edge."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)

    def progress(found: budget.Found) -> dict:
        return search_progress(
            found, t0, **({"allowed": found.searching} if found.searching is not None else {})
        )

    def better(found: budget.Found) -> None:
        if note is not None and found.board is not None:
            note({**board_note(back(found.board), found.score, found.bound), **progress(found)})

    paused = (lambda found: note(progress(found))) if note is not None and job.progress else None
    with connected(job) as client:
        ended: list[Outcome] = []
        searched = None if client is None else _cluster_search(client, job, ended)
        found = budget.fewest(
            puzzle, start_board(job), job.solver.workers, better, paused, job.solver.order or "auto", searched
        )
        if ended:
            return stopped(ended[0])
    res = Result(
        "UNSAT", nodes=found.nodes, candidates=found.candidates, solve_seconds=time.perf_counter() - t0
    )
    board = back(found.board) if found.board is not None else None
    return set_best_board(job, res, board, found.bound, "the budgeted search")


def _cluster_search(client, job: Work, ended: list[Outcome]):
    """:func:`satedge.backtrack.budget.within` with the search's subtrees as the cluster's tasks."""

    def within(
        puzzle: Puzzle, allow, limit, workers, cost: Cost, paused, allowed=None, order="auto"
    ) -> Iterator[Solution]:
        search = plan(puzzle, allowed, order)
        parts = subtrees_on_cluster(client, puzzle, job, limit, search, ended, True, cost, allow)
        try:
            for board, _ in parts:
                yield board
        finally:
            parts.close()  # stops the cluster's tasks

    return within
