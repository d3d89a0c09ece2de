"""The ``backtrack`` engine: the reference backtracker (:mod:`satedge.backtrack`), compiled when
numba is installed, on ``workers`` processes or as subtrees on a Dask cluster; to maximize, its
branch and bound (:mod:`satedge.backtrack.branch_and_bound`).

To count, and to find a first solution, it searches one solution of each board-turn orbit
(:func:`satedge.backtrack.symmetry_broken`: on a framed square board a corner tile kept in the
top-left corner), a tree up to 4 times smaller; the counts follow from the orbits as the SAT
encodings' symmetry breaking has them.  The cells are filled in the solver's ``order``
(:mod:`satedge.backtrack.orders`), chosen for the placements searched."""

from __future__ import annotations

import time
from itertools import islice

from ..backtrack import branch_and_bound as bnb
from ..backtrack import search as backtrack
from ..puzzle import symmetry
from ..system.process import Outcome
from .result import Note, Result, Work
from .shared import (
    board_note,
    connected,
    search_progress,
    set_best_board,
    set_status,
    shuffled,
    stopped,
    subtrees_on_cluster,
)

__all__ = ["run", "branch_and_bound"]


def run(job: Work, note: Note | None = None) -> Result:
    res = Result("UNSAT")
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)
    mode = job.modes[0]  # one_per_picture may skip solutions: then ask for all, stop after the limit
    limit = job.limit if job.task == "solve" and mode == "solutions" else None
    allowed, orbit = (
        backtrack.symmetry_broken(puzzle) if job.task == "count" or limit == 1 else (puzzle.allowed, 1)
    )
    search = backtrack.plan(puzzle, allowed, job.solver.get("order") or "auto")
    with connected(job) as client:  # before anything starts
        ended: list[Outcome] = []
        cost = backtrack.Cost()
        found = [0]  # solutions found so far, each standing for its orbit and its weight
        # about every second, what the search has cost: shown as progress, and kept if the job is stopped
        paused = (
            (lambda c: note({"progress": {**c.as_dict(), "solutions": found[0]}}))
            if note is not None
            else None
        )
        counting = (
            job.task == "count"
        )  # by weight: a solution found stands for its identical tiles' arrangements
        if client is not None:
            inner = subtrees_on_cluster(client, puzzle, job, limit, search, ended, counting, cost)
        elif counting:
            inner = backtrack.weighted(
                puzzle, workers=job.solver.workers, cost=cost, paused=paused, order=search
            )
        else:
            inner = backtrack.solutions(
                puzzle, limit, workers=job.solver.workers, cost=cost, paused=paused, order=search
            )
        try:
            if counting:

                def tallied():
                    for s, n in inner:
                        found[0] += orbit * n
                        yield back(s), n

                res.counts = symmetry.counts_weighted(job.puzzle, tallied(), job.modes, orbit)
            else:

                def each():
                    for s in inner:
                        found[0] += 1
                        yield back(s)

                res.solutions = list(islice(symmetry.one_per_picture(job.puzzle, each(), mode), job.limit))
        finally:
            getattr(inner, "close", lambda: None)()  # stops the worker processes or the cluster's tasks
        if ended:
            return stopped(ended[0])
        res.nodes, res.candidates = cost.nodes, cost.candidates
    res.solve_seconds = time.perf_counter() - t0
    return set_status(res)


def branch_and_bound(job: Work, note: Note | None = None) -> Result:
    """The backtracker's branch and bound, noting each better board with what the search has cost
    so far (a stopped job's result keeps both) and that about every second (so that a stopped
    job's figures are current whether or not a terminal shows them)."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)

    def progress(best: bnb.Best) -> dict:
        return search_progress(best, t0)

    def better(best: bnb.Best) -> None:
        if note is not None:
            note({**board_note(back(best.board), best.score, best.bound), **progress(best)})

    paused = (
        (lambda best: note(progress(best))) if note is not None else None
    )  # a stopped job's figures are then current
    best = bnb.best_board(puzzle, better=better, paused=paused)
    res = Result(
        "UNSAT", nodes=best.nodes, candidates=best.candidates, solve_seconds=time.perf_counter() - t0
    )
    board = back(best.board) if best.board is not None else None
    return set_best_board(job, res, board, best.bound, "branch and bound")
