"""The ``backtrack`` engine: the reference backtracker (:mod:`satedge.backtrack`) in the loop its
``loop`` option names, on ``workers`` processes or as subtrees on a Dask cluster; to maximize,
its branch and bound (:mod:`satedge.best.branch_and_bound`), anytime, which proves its best
board optimal.  ``--method auto``'s first choice to solve and count.

To count, and to find a first solution, it searches one solution of each board-turn orbit
(:func:`satedge.backtrack.symmetry_broken`: on a framed square board a corner tile kept in the
top-left corner), a tree up to 4 times smaller; the counts follow from the orbits as the SAT
encodings' symmetry breaking has them.  The cells are filled in the solver's ``order``
(:mod:`satedge.backtrack.orders`), chosen for the placements searched."""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import islice
from typing import Any, cast

from ..backtrack import search as backtrack
from ..best import branch_and_bound as bnb
from ..errors import SatedgeError
from ..jobs.boards import board_note, search_progress, set_best_board
from ..jobs.engine import Auto, Engine, Task
from ..jobs.job import Job
from ..jobs.parts import connected, subtrees_on_cluster
from ..jobs.result import Note, Result
from ..jobs.searching import LOOP, ORDER
from ..puzzle import symmetry
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from ..system.limits import cores
from ..system.process import Outcome

__all__ = ["run", "by_branch_and_bound", "ENGINE"]


def run(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job`` with the backtracker."""
    res = Result("UNSAT")
    t0 = time.perf_counter()
    puzzle, back = job.shuffled()
    mode = job.modes[0]  # one_per_picture may skip solutions: then ask for all, stop after the limit
    limit = job.limit if job.task == "solve" and mode == "solutions" else None
    allowed: tuple = puzzle.allowed
    orbit = 1
    if job.task == "count" or limit == 1:
        allowed, orbit = backtrack.symmetry_broken(puzzle)
    search = backtrack.plan(puzzle, allowed, job.solver.get("order") or "auto")
    loop = job.solver.get("loop") or "auto"
    with connected(job) as client:  # before anything starts
        ended: list[Outcome] = []
        cost = backtrack.Cost()
        found = [0]  # solutions found so far, each standing for its orbit and its weight
        # about every second, what the search has cost and found, the workers' solutions not handed
        # over yet (each at least its orbit) among them: shown as progress, and kept if the job is stopped
        paused = (
            (lambda c: note({"progress": {**c.as_dict(), "solutions": found[0] + orbit * c.pending}}))
            if note is not None
            else None
        )
        counting = (
            job.task == "count"
        )  # by weight: a solution found stands for its identical tiles' arrangements
        inner: Iterator[Any]
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

                def tallied() -> Iterator[tuple[Solution, int]]:
                    for s, weight in cast(Iterator[tuple[Solution, int]], inner):
                        found[0] += orbit * weight
                        yield back(s), weight

                res.counts = symmetry.counts_weighted(job.board, tallied(), job.modes, orbit)
            else:

                def each() -> Iterator[Solution]:
                    for s in inner:
                        found[0] += 1
                        yield back(s)

                res.solutions = list(islice(symmetry.one_per_picture(job.board, each(), mode), job.limit))
        finally:
            getattr(inner, "close", lambda: None)()  # stops the worker processes or the cluster's tasks
        if ended:
            return Result.stopped(ended[0])
        res.nodes, res.candidates, res.loop = cost.nodes, cost.candidates, cost.loop
        compiled = cost.loop not in (None, "python")  # the python loop has no compile
        res.compile_seconds = cost.compile_seconds if compiled else None
    res.solve_seconds = time.perf_counter() - t0 - (res.compile_seconds or 0.0)  # the search's alone
    return res.settled()


def by_branch_and_bound(job: Job, note: Note | None = None) -> Result:
    """The backtracker's branch and bound, noting each better board with what the search has cost
    so far (a stopped job's result keeps both) and that about every second (so that a stopped
    job's figures are current whether or not a terminal shows them)."""
    t0 = time.perf_counter()
    puzzle, back = job.shuffled()

    def progress(best: Scored) -> dict:
        return search_progress(best, t0)

    def better(best: Scored) -> None:
        if note is not None and best.board is not None:
            note({**board_note(back(best.board), best.score, best.bound), **progress(best)})

    def paused(best: Scored) -> None:  # a stopped job's figures are then current
        if note is not None:
            note(progress(best))

    loop = job.solver.get("loop") or "auto"
    if loop == "c":
        raise SatedgeError("the branch and bound has no C loop: its loop is python, numba or auto")
    best = bnb.best_board(puzzle, better=better, paused=paused, compiled=loop != "python")
    res = Result(
        "UNSAT",
        nodes=best.nodes,
        candidates=best.candidates,
        solve_seconds=time.perf_counter() - t0 - best.compile_seconds,  # the search's alone
        compile_seconds=best.compile_seconds,
        loop="python" if loop == "python" else "numba",
    )
    board = back(best.board) if best.board is not None else None
    return set_best_board(job, res, board, best.bound, "branch and bound")


def _at_speed(puzzle: Puzzle, timeout: float | None) -> int | None:
    """Where it answers at its speed (:func:`satedge.backtrack.search.at_speed`): on a board of
    at most 16 cells on one process (its Python loop: loading a compiled one takes longer than
    solving them), compiled on every core beyond."""
    if not backtrack.at_speed(puzzle):
        return None
    return 1 if puzzle.n <= backtrack.SMALL else cores()


_SOLVES = Task(
    run=run,
    workers=True,
    cluster=True,
    summary="the reference backtracker",
    # on the peak puzzles (framed 7x7 and 8x8 of tunable hardness) and on puzzles with 10^3 to 10^5
    # solutions to count, it answered sooner than every SAT configuration (benchmarks/auto/bench-auto.md)
    auto=Auto(
        rank=0,
        picks=_at_speed,
        when="the backtracker, compiled, on every core (its Python loop on one core up to 16 cells) where "
        "it takes the puzzle",
    ),
)

ENGINE = Engine(
    name="backtrack",
    options=(ORDER, LOOP),
    method=True,
    tasks={
        "solve": _SOLVES,
        "count": _SOLVES,
        "maximize": Task(
            run=by_branch_and_bound,
            certifies=True,
            summary="the backtracker's branch and bound, anytime, which proves its best board optimal",
        ),
    },
    summary="the reference backtracker on the puzzle itself, compiled with numba, on every core; to "
    "maximize, its branch and bound (one process), anytime, which proves its best board optimal",
)
