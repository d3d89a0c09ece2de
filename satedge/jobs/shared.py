"""What the engines and strategies share: the Dask client of a job, the map of a shuffle, the
result of a stopped part, the status of a finished search, the formula of a job, and the best
board of a maximisation, noted as it is found and checked before it is answered."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ..backtrack import search as backtrack
from ..best import branch_and_bound as bnb
from ..encode import Encoded
from ..encode.maxsat import weighted
from ..errors import EncodingError
from ..puzzle.checker import board_problem, score
from ..puzzle.model import Puzzle, Solution
from ..puzzle.shuffle import shuffle
from ..system import cluster
from ..system.limits import cores
from ..system.process import Outcome
from .result import Note, Result, Work

__all__ = [
    "SLICE_SECONDS",
    "MARGIN",
    "connected",
    "worker_count",
    "stopped",
    "set_status",
    "shuffled",
    "chunks",
    "encode_and_note",
    "board_note",
    "set_best_board",
    "every_edge_fits",
    "subtrees_on_cluster",
    "search_progress",
    "anytime",
]

# a cluster task's search time at most, before it hands back what is left: each task is a fresh
# process (about a third of a second to start), so a slice is long against that
SLICE_SECONDS = 8.0
MARGIN = 1.0  # seconds before its time limit at which a search that runs until then answers


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
        cluster.disconnect(client)


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


def start_board(job: Work) -> Solution | None:
    """The job's board to start from (``Job.start``) in the numbering of :func:`shuffled`'s puzzle."""
    if job.start is None or job.shuffle is None:
        return job.start
    return shuffle(job.puzzle, job.shuffle)[1].to_shuffled(job.start)


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


def every_edge_fits(job: Work) -> Result | None:
    """The answer of a maximisation whose first board (the branch and bound's, by its plain loop:
    milliseconds, nothing compiled) fits every edge, ``OPTIMUM`` at once whatever the engine;
    ``None`` where that board does not, or none is found that quickly."""
    t0 = time.perf_counter()
    found = bnb.quick_board(job.puzzle)
    if found is None or found.score != found.bound:
        return None
    res = Result(
        "UNSAT", nodes=found.nodes, candidates=found.candidates, solve_seconds=time.perf_counter() - t0
    )
    return set_best_board(job, res, found.board, found.bound, "the first board")


def subtrees_on_cluster(
    client,
    puzzle: Puzzle,
    job: Work,
    limit: int | None,
    search: backtrack.Plan,
    ended: list[Outcome],
    weighted: bool,
    cost: backtrack.Cost,
    allow=None,
) -> Iterator:
    """The backtracker's subtrees as Dask tasks, one share of them per core (dealt round-robin),
    each in a process of its own for :data:`SLICE_SECONDS` at most; what a task has not searched
    by then it hands back split, and it goes out again in as many tasks as cores wait for one
    (``weighted``: solutions with their weights; ``allow``: the most misfits per depth, the
    boards within it).  ``cost`` gains what each task cost; an outcome without an answer goes to
    ``ended``."""
    cores = worker_count(job, client)

    def task(share: list) -> tuple:
        return puzzle, share, limit, search, weighted, SLICE_SECONDS, allow

    def more(answer, waiting: int) -> list[tuple]:
        return [task(share) for share in chunks(answer[2], max(1, cores - waiting))]

    tasks = [task(share) for share in chunks(backtrack.prefixes(puzzle, cores, search, cost, allow), cores)]
    for outcome in cluster.parts(client, backtrack.subtrees, tasks, job.limits, more):
        if outcome.status != "OK":
            ended.append(outcome)
            return
        found, (candidates, nodes), _ = outcome.value
        cost.candidates, cost.nodes = cost.candidates + candidates, cost.nodes + nodes
        yield from found


def search_progress(found: Any, t0: float, **more) -> dict:
    """What a maximisation notes of its search (``found``: its ``nodes``, ``candidates``,
    ``score`` and ``bound``), the progress line shows and a stopped job's result keeps."""
    progress = {
        "nodes": found.nodes,
        "candidates": found.candidates,
        "score": found.score,
        "bound": found.bound,
    }
    if getattr(found, "loop", None):
        progress["loop"] = found.loop
    return {"progress": {**progress, **more, "seconds": round(time.perf_counter() - t0, 3)}}


def anytime(
    job: Work, note: Note | None, search: Callable[..., Any], who: str, loop: str | None = None, **options
) -> Result:
    """The job of a search that runs until its time limit and proves nothing (status ``TIMEOUT``
    unless every edge fits): ``search(puzzle, seconds, workers, seed, better, **options)``, a
    board scored (:class:`satedge.puzzle.checker.Scored`) or ``None``, until :data:`MARGIN` before the time
    limit, each better board noted as it is found; on as many processes as the job's workers,
    at most one a core.  ``loop``: the search loop to ask for, where the search has one
    (``search(..., loop=loop, ran=...)``, which says the loop that runs)."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)
    edges = len(puzzle.board.adjacencies)
    ran: list[str] = []

    def better(board) -> None:
        if note is not None:
            progress = {"score": board.score, "bound": edges, "seconds": round(time.perf_counter() - t0, 3)}
            note({**board_note(back(board.board), board.score, edges), "progress": progress | _loop(ran)})

    if loop is not None:
        options |= {"loop": loop, "ran": ran.append}

    seconds = job.limits.timeout - min(MARGIN, job.limits.timeout / 10) - (time.perf_counter() - t0)
    # more processes than cores would only share them, each round's forks and joins made late
    workers = min(job.solver.workers, cores())
    best = search(puzzle, seconds, workers, job.shuffle or 0, better, start=start_board(job), **options)
    res = Result("UNSAT", solve_seconds=time.perf_counter() - t0, loop=ran[-1] if ran else None)
    board = back(best.board) if best is not None else None
    return set_best_board(job, res, board, edges, who, best and best.score)


def _loop(ran: list[str]) -> dict:
    return {"loop": ran[-1]} if ran else {}
