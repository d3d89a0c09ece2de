"""The best-board searches' jobs (:mod:`satedge.best`): the ``backtrack`` engine's branch and
bound (:func:`by_branch_and_bound`), and the engines ``budget``, ``restarts`` and ``lns``.

``budget`` (:func:`by_budgets`): the best board proved by budgets of misfits
(:func:`satedge.best.budget.fewest`), each search shared among ``workers`` processes or the
subtrees of a Dask cluster.  Each better board is noted as it is found, with the budget the next
search proves (a stopped job's result keeps the best board), and the search's placements about
every second, whether or not a terminal shows them (a stopped job's figures are then current).

Before the budgets, a short anytime search gives the incumbent: :data:`WARMUP` seconds of the
restarts (:func:`satedge.best.restarts.search`, capped at :data:`WARMUP_CAP` placements
each), at most a tenth of the job's time, on boards of more than :data:`WARMUP_CELLS` cells.
Its board is the answer if the job is stopped, and
where it is optimal the budgets prove it without the last search, the one that must find a
board.  It runs on this process (forked workers spend the first second loading their search).
On the uniform 5x5 boards a warm-up only added to the proofs, which take seconds, hence none up
to 30 cells."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace

from ..backtrack.search import Cost, plan
from ..best import branch_and_bound as bnb
from ..best import budget, field, lns, restarts
from ..errors import SatedgeError
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from ..system.process import Outcome
from .result import Note, Result, Work
from .shared import (
    anytime,
    board_note,
    connected,
    search_progress,
    set_best_board,
    shuffled,
    start_board,
    stopped,
    subtrees_on_cluster,
)

__all__ = [
    "by_branch_and_bound",
    "by_budgets",
    "by_restarts",
    "by_field",
    "field_settings",
    "by_lns",
    "WARMUP",
    "WARMUP_CAP",
    "WARMUP_CELLS",
]

WARMUP = 3.0  # seconds of restarts for the incumbent (the first loads their search: about a second)
WARMUP_CAP = 20_000_000  # placements per restart among them
WARMUP_CELLS = 30  # boards this small (5x5) are proved in seconds: the warm-up would only add to it


def by_branch_and_bound(job: Work, note: Note | None = None) -> Result:
    """The backtracker's branch and bound, noting each better board with what the search has cost
    so far (a stopped job's result keeps both) and that about every second (so that a stopped
    job's figures are current whether or not a terminal shows them)."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)

    def progress(best: Scored) -> dict:
        return search_progress(best, t0)

    def better(best: Scored) -> None:
        if note is not None and best.board is not None:
            note({**board_note(back(best.board), best.score, best.bound), **progress(best)})

    paused = (
        (lambda best: note(progress(best))) if note is not None else None
    )  # a stopped job's figures are then current
    loop = job.solver.get("loop") or "auto"
    if loop == "c":
        raise SatedgeError("the branch and bound has no C loop: its loop is python, numba or auto")
    best = bnb.best_board(puzzle, better=better, paused=paused, compiled=loop != "python")
    res = Result(
        "UNSAT",
        nodes=best.nodes,
        candidates=best.candidates,
        solve_seconds=time.perf_counter() - t0,
        loop="python" if loop == "python" else "numba",
    )
    board = back(best.board) if best.board is not None else None
    return set_best_board(job, res, board, best.bound, "branch and bound")


def by_restarts(job: Work, note: Note | None = None) -> Result:
    """The best board the restarts (:func:`satedge.best.restarts.search`) find in the job's time, on
    ``workers`` processes until a second before its time limit; it proves nothing (status
    ``TIMEOUT``) unless every edge fits."""
    cap = job.solver.get("cap") or restarts.CAP
    return anytime(
        job,
        note,
        restarts.search,
        "the restarts",
        schedule=job.solver.get("schedule"),
        cap=cap,
        loop=job.solver.get("loop") or "auto",
    )


def field_settings(puzzle: Puzzle, solver) -> field.Settings:
    """The field's settings for ``puzzle``: the puzzle's (:meth:`satedge.best.field.Settings.of`),
    each option the ``solver`` gives in their place; a one-line error for one that cannot apply
    to the puzzle."""
    tuned = dict(puzzle.tuned)
    for name in ("quota", "ramp", "ladder", "attempt"):
        if solver.get(name) is not None:
            tuned[name] = solver.get(name)
    labels = {x for tile in puzzle.tiles for x in tile} - {puzzle.frame}
    unknown = [x for x in tuned.get("quota", ()) if x not in labels]
    if unknown:
        raise SatedgeError(
            f"quota: {unknown[0]!r} is not a label of the puzzle's tiles (the frame's is no quota label)"
        )
    for name, depths in (
        ("ladder", tuned.get("ladder", ())),
        ("ramp", [d for d, _ in tuned.get("ramp", ())]),
    ):
        if any(d >= puzzle.n for d in depths):
            raise SatedgeError(f"{name}: depth {max(depths)} is past the board's last cell ({puzzle.n - 1})")
    settings = field.Settings.of(puzzle, tuned)
    if settings.quota is None and solver.get("ramp") is not None:  # a ramp of no labels counts nothing
        raise SatedgeError("ramp: there is no quota for it to count (quota none)")
    if settings.quota is not None:  # a count no board can show: no attempt would pass its depth
        sides = field.label_sides(puzzle, settings.quota.labels)
        unmet = settings.quota.unmet(sides)
        if unmet is not None:
            raise SatedgeError(
                f"ramp: {unmet[1]} sides of the quota's labels by depth {unmet[0]}, but the tiles have {sides}"
            )
    return settings.with_(complete=solver.get("completion") != "fill")


def by_field(job: Work, note: Note | None = None) -> Result:
    """The best board the field's construction (:func:`satedge.best.field.search`) finds in the
    job's time, its settings from the puzzle and the solver string (:func:`field_settings`); it
    proves nothing (status ``TIMEOUT``) unless every edge fits."""
    settings = field_settings(job.puzzle, job.solver)
    return anytime(
        job,
        note,
        field.search,
        "the field's construction",
        settings=settings,
        loop=job.solver.get("loop") or "auto",
    )


def by_lns(job: Work, note: Note | None = None) -> Result:
    """The best board the large-neighbourhood search (:func:`satedge.best.lns.search`) finds in the
    job's time; it proves nothing (status ``TIMEOUT``) unless every edge fits."""
    return anytime(job, note, lns.search, "the large-neighbourhood search")


def by_budgets(job: Work, note: Note | None = None) -> Result:
    """The best board, proved; stopped at its time limit, the best found and no bound proved
    beyond every edge."""
    t0 = time.perf_counter()
    puzzle, back = shuffled(job)

    def progress(found: Scored) -> dict:
        return search_progress(
            found, t0, **({"allowed": found.searching} if found.searching is not None else {})
        )

    def better(found: Scored) -> None:
        if note is not None and found.board is not None:
            note({**board_note(back(found.board), found.score, found.bound), **progress(found)})

    paused = (
        (lambda found: note(progress(found))) if note is not None else None
    )  # a stopped job's figures are then current
    start = start_board(job)
    if start is None and puzzle.n > WARMUP_CELLS:
        start = _incumbent(job, puzzle, better)
    with connected(job) as client:
        ended: list[Outcome] = []
        searched = None if client is None else _cluster_search(client, job, ended)
        found = budget.fewest(
            puzzle,
            start,
            job.solver.workers,
            better,
            paused,
            job.solver.get("order") or "auto",
            searched,
            loop=job.solver.get("loop") or "auto",
        )
        if ended:
            return stopped(ended[0])
    res = Result(
        "UNSAT",
        nodes=found.nodes,
        candidates=found.candidates,
        solve_seconds=time.perf_counter() - t0,
        loop=found.loop,
    )
    board = back(found.board) if found.board is not None else None
    return set_best_board(job, res, board, found.bound, "the budgeted search")


def _incumbent(job: Work, puzzle: Puzzle, better) -> Solution | None:
    """The best board of :data:`WARMUP` seconds of restarts (at most a tenth of the job's time),
    each better one to ``better`` as the budgets' boards are."""
    seconds = WARMUP if job.limits.timeout is None else min(WARMUP, job.limits.timeout / 10)
    edges = len(puzzle.board.adjacencies)

    def noted(board) -> None:
        better(replace(board, bound=edges))

    # on this process: forked workers would spend the second loading their searches
    # its seconds are the search's: on an empty cache the compile would take them all
    best = restarts.search(puzzle, seconds, 1, job.shuffle or 0, noted, cap=WARMUP_CAP, searching=True)
    return None if best is None else best.board


def _cluster_search(client, job: Work, ended: list[Outcome]):
    """:func:`satedge.best.budget.within` with the search's subtrees as the cluster's tasks."""

    def within(
        puzzle: Puzzle, allow, limit, workers, cost: Cost, paused, allowed=None, order="auto", loop="auto"
    ) -> Iterator[Solution]:
        search = plan(puzzle, allowed, order)
        parts = subtrees_on_cluster(client, puzzle, job, limit, search, ended, True, cost, allow)
        try:
            for board, _ in parts:
                yield board
        finally:
            parts.close()  # stops the cluster's tasks

    return within
