"""The ``cpsat`` engine: the CP-SAT model of the Scramble Squares seed (:mod:`satedge.cpsat`,
extra ``cp``), with ``workers`` search workers to find one solution."""

from __future__ import annotations

import time
from itertools import islice

from .. import cpsat, symmetry
from .job import Job, Note, Result
from .shared import finished, shuffled

__all__ = ["run"]


def run(job: Job, note: Note | None = None) -> Result:
    res = Result("UNSAT")
    t0 = time.perf_counter()
    first_only = job.task == "solve" and job.limit == 1
    puzzle, back = shuffled(job)
    sols = [back(s) for s in cpsat.solutions(puzzle, limit=1 if first_only else None, workers=job.solver.workers,
                                             stats=res.stats.counters)]
    res.stats.reported = True
    if job.task == "count":
        res.counts = symmetry.counts(job.puzzle, sols, job.modes)
    else:
        res.solutions = list(islice(symmetry.one_per_picture(job.puzzle, sols, job.modes[0]), job.limit))
    res.solve_seconds = time.perf_counter() - t0
    return finished(res)
