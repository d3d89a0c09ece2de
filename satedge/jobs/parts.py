"""A job's parts on a Dask cluster: the client of its scheduler, the cores its parts are planned
for, and the backtracker's subtrees as the cluster's tasks."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import contextmanager
from typing import Any

from ..backtrack import search as backtrack
from ..puzzle.model import Puzzle
from ..system import cluster
from ..system.process import Outcome
from .job import Job

__all__ = ["SLICE_SECONDS", "connected", "worker_count", "chunks", "subtrees_on_cluster"]

# a cluster task's search time at most, before it hands back what is left: each task is a fresh
# process (about a third of a second to start), so a slice is long against that
SLICE_SECONDS = 8.0


@contextmanager
def connected(job: Job) -> Iterator[Any]:
    """The Dask client of ``job.scheduler`` for the block (None without one); a scheduler that does
    not answer is an error before anything starts."""
    if job.scheduler is None:
        yield None
        return
    client = cluster.connect(job.scheduler)
    try:
        yield client
    finally:
        cluster.disconnect(client)


def worker_count(job: Job, client: Any) -> int:
    """The processes a job's parts are planned for: its workers, or on a cluster with one worker
    given, the cluster's cores."""
    return cluster.threads(client) if client is not None and job.solver.workers == 1 else job.solver.workers


def chunks(items: list, n: int) -> list[list]:
    """``items`` dealt round-robin into at most ``n`` non-empty lists."""
    return [items[i::n] for i in range(min(n, len(items)))]


def subtrees_on_cluster(
    client: Any,
    puzzle: Puzzle,
    job: Job,
    limit: int | None,
    search: backtrack.Plan,
    ended: list[Outcome],
    weighted: bool,
    cost: backtrack.Cost,
    allow: Any = None,
) -> Generator[Any, None, None]:
    """The backtracker's subtrees as Dask tasks, one share of them per core (dealt round-robin),
    each in a process of its own for :data:`SLICE_SECONDS` at most; what a task has not searched
    by then it hands back split, and it goes out again in as many tasks as cores wait for one
    (``weighted``: solutions with their weights; ``allow``: the most misfits per depth, the
    boards within it).  ``cost`` gains what each task cost; an outcome without an answer goes to
    ``ended``."""
    cores = worker_count(job, client)

    def task(share: list) -> tuple:
        return puzzle, share, limit, search, weighted, SLICE_SECONDS, allow

    def more(answer: Any, waiting: int) -> list[tuple]:
        return [task(share) for share in chunks(answer[2], max(1, cores - waiting))]

    tasks = [task(share) for share in chunks(backtrack.prefixes(puzzle, cores, search, cost, allow), cores)]
    for outcome in cluster.parts(client, backtrack.subtrees, tasks, job.limits, more):
        if outcome.status != "OK":
            ended.append(outcome)
            return
        found, (candidates, nodes), _ = outcome.value
        cost.candidates, cost.nodes = cost.candidates + candidates, cost.nodes + nodes
        yield from found
