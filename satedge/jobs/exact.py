"""The ``backtrack`` engine's solving and counting: the reference backtracker
(:mod:`satedge.backtrack`) in the loop its ``loop`` option names, on ``workers`` processes or as
subtrees on a Dask cluster (its branch and bound, which maximizes: :mod:`satedge.jobs.best`).

To count, and to find a first solution, it searches one solution of each board-turn orbit
(:func:`satedge.backtrack.symmetry_broken`: on a framed square board a corner tile kept in the
top-left corner), a tree up to 4 times smaller; the counts follow from the orbits as the SAT
encodings' symmetry breaking has them.  The cells are filled in the solver's ``order``
(:mod:`satedge.backtrack.orders`), chosen for the placements searched."""

from __future__ import annotations

import time
from itertools import islice

from ..backtrack import search as backtrack
from ..puzzle import symmetry
from ..system.process import Outcome
from .result import Note, Result, Work
from .shared import (
    connected,
    set_status,
    shuffled,
    stopped,
    subtrees_on_cluster,
)

__all__ = ["run"]


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
    loop = job.solver.get("loop") or "auto"
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
                puzzle, loop=loop, workers=job.solver.workers, cost=cost, paused=paused, order=search
            )
        else:
            inner = backtrack.solutions(
                puzzle, limit, loop, workers=job.solver.workers, cost=cost, paused=paused, order=search
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
        res.nodes, res.candidates, res.loop = cost.nodes, cost.candidates, cost.loop
    res.solve_seconds = time.perf_counter() - t0
    return set_status(res)
