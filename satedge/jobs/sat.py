"""The ``sat`` and ``cmd`` engines: the job's encoding, solved by a PySAT solver or a DIMACS
solver binary on one process, with blocking-clause enumeration (:mod:`satedge.solving`); and
the ``encode`` task: the formula's size and DIMACS bytes only."""

from __future__ import annotations

import time

from .. import solving
from ..dimacs import write_dimacs
from ..encode import Encoded
from .job import Job, Note, Result
from .shared import finished


def encoded(job: Job, res: Result, note: Note | None) -> Encoded:
    """The job's formula; its size, orbit and encode time go into ``res`` and to ``note``."""
    t0 = time.perf_counter()
    formula = job.encoding.encode(job.puzzle, job.shuffle)
    res.variables, res.clauses, res.orbit = formula.nv, len(formula.cnf.clauses), formula.orbit
    res.encode_seconds = time.perf_counter() - t0
    if note is not None:
        note({"variables": res.variables, "clauses": res.clauses, "encode_seconds": res.encode_seconds})
    return formula


def run(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job`` with its solver on this process."""
    res = Result("UNSAT")
    formula = encoded(job, res, note)
    t1 = time.perf_counter()
    progress = (lambda stats: note({"progress": {**stats, "seconds": round(time.perf_counter() - t1, 3)}})) \
        if job.progress and note is not None else None
    if job.task == "count":
        res.counts = solving.count_modes(formula, job.solver, job.modes, stats=res.stats, progress=progress)
    else:
        res.solutions = list(solving.solutions(formula, job.solver, job.modes[0], job.limit, res.stats, progress))
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
