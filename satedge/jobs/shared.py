"""What the engines and strategies share: the Dask client of a job, the map of a shuffle, the
result of a stopped part, and the status of a finished search."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..encode import Encoded
from ..encode.maxsat import weighted
from ..puzzle.model import Puzzle, Solution
from ..puzzle.shuffle import shuffle
from ..system import cluster
from ..system.process import Outcome
from .result import Note, Result

if TYPE_CHECKING:  # the request, made above the engine table that names this module
    from .job import Job

__all__ = ["connected", "worker_count", "stopped", "finished", "shuffled", "chunks", "encoded"]


@contextmanager
def connected(job: Job) -> Iterator:
    """The Dask client of ``job.scheduler`` for the block (None without one); a scheduler that does
    not answer is an error before anything starts."""
    if job.scheduler is None:
        yield None
        return
    client = cluster.connect(job.scheduler)
    try:
        yield client
    finally:
        client.close()


def worker_count(job: Job, client) -> int:
    """The processes a job's parts are planned for: its workers, or on a cluster with one worker
    given, the cluster's cores."""
    return cluster.threads(client) if client is not None and job.solver.workers == 1 else job.solver.workers


def stopped(outcome: Outcome) -> Result:
    """The result of a job one of whose parts ended without an answer; its error raises."""
    if outcome.status == "ERROR":
        outcome.unwrap("a part of the job")
    return Result(outcome.status, outcome=outcome)


def finished(res: Result) -> Result:
    """``res`` with its status: SAT when it found or counted anything, else UNSAT."""
    res.status = "SAT" if (any(res.counts.values()) if res.counts else res.solutions) else "UNSAT"
    return res


def shuffled(job: Job) -> tuple[Puzzle, Callable[[Solution], Solution]]:
    """The puzzle an engine without a formula works on, and the map of its solutions back."""
    if job.shuffle is None:
        return job.puzzle, lambda s: s
    moved, sh = shuffle(job.puzzle, job.shuffle)
    return moved, sh.to_original


def chunks(items: list, n: int) -> list[list]:
    """``items`` dealt round-robin into at most ``n`` non-empty lists."""
    return [items[i::n] for i in range(min(n, len(items)))]


def encoded(job: Job, res: Result, note: Note | None) -> Encoded:
    """The job's formula (of a ``maximize`` job, the MaxSAT form of its encoding: its hard
    clauses counted); its size, orbit and encode time go into ``res`` and to ``note``."""
    t0 = time.perf_counter()
    if job.task == "maximize":
        formula = weighted(job.puzzle, job.encoding, job.shuffle)
    else:
        formula = job.encoding.encode(job.puzzle, job.shuffle)
    res.variables, res.clauses, res.orbit = formula.nv, len(formula.cnf.clauses), formula.orbit
    res.encode_seconds = time.perf_counter() - t0
    if note is not None:
        note({"variables": res.variables, "clauses": res.clauses, "encode_seconds": res.encode_seconds})
    return formula
