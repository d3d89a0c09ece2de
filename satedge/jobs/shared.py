"""What the engines and strategies share: the Dask client of a job, the map of a shuffle, the
result of a stopped part, the status of a finished search, the formula of a job, and the best
board of a maximisation, noted as it is found and checked before it is answered."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..encode import Encoded
from ..encode.maxsat import weighted
from ..errors import EncodingError
from ..puzzle.checker import board_problem, score
from ..puzzle.model import Puzzle, Solution
from ..puzzle.shuffle import shuffle
from ..system import cluster
from ..system.process import Outcome
from .result import Note, Result, Work

__all__ = [
    "connected",
    "worker_count",
    "stopped",
    "set_status",
    "shuffled",
    "chunks",
    "encode_and_note",
    "board_note",
    "set_best_board",
]


@contextmanager
def connected(job: Work) -> Iterator:
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


def worker_count(job: Work, client) -> int:
    """The processes a job's parts are planned for: its workers, or on a cluster with one worker
    given, the cluster's cores."""
    return cluster.threads(client) if client is not None and job.solver.workers == 1 else job.solver.workers


def stopped(outcome: Outcome) -> Result:
    """The result of a job one of whose parts ended without an answer; its error raises."""
    if outcome.status == "ERROR":
        outcome.unwrap("a part of the job")
    return Result(outcome.status, outcome=outcome)


def set_status(res: Result) -> Result:
    """``res`` with its status: SAT when it found or counted anything, else UNSAT."""
    res.status = "SAT" if (any(res.counts.values()) if res.counts else res.solutions) else "UNSAT"
    return res


def shuffled(job: Work) -> tuple[Puzzle, Callable[[Solution], Solution]]:
    """The puzzle an engine without a formula works on, and the map of its solutions back."""
    if job.shuffle is None:
        return job.puzzle, lambda s: s
    moved, sh = shuffle(job.puzzle, job.shuffle)
    return moved, sh.to_original


def chunks(items: list, n: int) -> list[list]:
    """``items`` dealt round-robin into at most ``n`` non-empty lists."""
    return [items[i::n] for i in range(min(n, len(items)))]


def encode_and_note(job: Work, res: Result, note: Note | None) -> Encoded:
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


def board_note(board: Solution, best: int, bound: int) -> dict:
    """What a job notes of a better board, which a stopped job's result keeps
    (:func:`satedge.jobs.dispatch.run`)."""
    return {"board": [list(p) for p in board], "score": best, "bound": bound}


def set_best_board(
    job: Work, res: Result, board: Solution | None, bound: int, who: str, said: int | None = None
) -> Result:
    """``res`` with a board an engine says is optimal with ``bound`` (or scores ``said``, where
    it proves nothing), checked and scored by the checker: ``OPTIMUM`` (the score is the
    bound), ``TIMEOUT`` (it is not: the best board a search found in its time), or ``UNSAT``
    when no board keeps the hard rules."""
    if board is None:
        res.status = "UNSAT"
        return res
    problem = board_problem(job.puzzle, board)
    if problem is not None:
        raise EncodingError(f"{who} gave a board that breaks a rule: {problem}", board)
    got = score(job.puzzle, board)
    if got != (bound if said is None else said):
        raise EncodingError(
            f"{who} said its board scores {bound if said is None else said}; the checker counts {got}", board
        )
    res.status, res.solutions, res.score, res.bound = (
        "OPTIMUM" if got == bound else "TIMEOUT",
        [board],
        got,
        bound,
    )
    return res
