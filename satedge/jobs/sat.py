"""The ``pysat`` and ``cmd`` engines: the job's encoding, solved by a PySAT solver or a DIMACS
solver binary on one process, with blocking-clause enumeration (:mod:`satedge.sat.solving`); and
the ``encode`` task: the formula's size and DIMACS bytes only."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..sat import solving
from ..sat.dimacs import write_dimacs
from .result import Note, Result
from .shared import encoded, finished

if TYPE_CHECKING:  # the request, made above the engine table that names this module
    from .job import Job

__all__ = ["run", "encode_only"]


def run(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job`` with its solver on this process."""
    res = Result("UNSAT")
    if job.progress and note is not None:
        note({"progress": {"stage": "encoding"}})
    formula = encoded(job, res, note)
    t1 = time.perf_counter()
    progress = (
        (lambda stats: note({"progress": {**stats, "seconds": round(time.perf_counter() - t1, 3)}}))
        if job.progress and note is not None
        else None
    )
    if progress is not None:
        progress({"stage": "solving"})
    if job.task == "count":
        res.counts = solving.count_modes(formula, job.solver, job.modes, stats=res.stats, progress=progress)
    else:
        res.solutions = list(
            solving.solutions(formula, job.solver, job.modes[0], job.limit, res.stats, progress)
        )
    res.solve_seconds = time.perf_counter() - t1
    return finished(res)


class _Sink:
    """A text stream that only counts: the DIMACS bytes of a formula, without writing them."""

    def write(self, text: str) -> None:
        pass


def encode_only(job: Job, note: Note | None = None) -> Result:
    """The ``encode`` task: the formula's variables, clauses, literals and DIMACS bytes."""
    res = Result("ENCODED", solve_seconds=0.0)
    formula = encoded(job, res, note)
    t1 = time.perf_counter()
    res.literals = sum(map(len, formula.cnf.clauses))
    res.dimacs_bytes = write_dimacs(formula, _Sink(), job.encoding.name)
    res.write_seconds = time.perf_counter() - t1
    return res
