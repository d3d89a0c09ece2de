"""Good boards of large puzzles by restarts of the budgeted search: the field's break-tolerant
depth-first search.

Each restart is the search of :mod:`satedge.best.budget` with a schedule of misfits
(:class:`Schedule`): none until late depths, then one more every few depths; the search keeps
the deepest placements it makes (the fewest misfits among equally deep ones) and stops after
``cap`` placements.  Restarts differ in their tile order (the puzzle's tiles numbered afresh, so
that every cell tries its candidates, and the first row its tiles, in another order).  The cells
are filled row by row from the corner nearest the clues, the last rows column by column
(:func:`cells`).  Every second (:data:`SLICE`) a restart's deepest placements, where they went
deeper, are made a whole board by the neighbourhood search
(:meth:`satedge.best.lns.Search.fill`: the other tiles assigned to the empty cells, which
are then refilled exactly), so that each better board reaches the job as it is found;
:func:`search` runs restarts on every worker until its time is up, and meanwhile polishes the
best board with the neighbourhood search's moves in rounds (:data:`MOVES`, :data:`REST`), so
that the best board at any moment, an interrupt's answer, is as good as those moves make it.

The schedule's defaults come from the board's size (:meth:`Schedule.of`), those of Eternity II's
16x16 being no misfit before depth 190, one more every 4 depths, at most 14.

How a restart builds its board is an :class:`Attempts`: the restarts' own (:meth:`Attempts.restarts`),
or the field's construction (:mod:`satedge.best.field`: a colour quota, a ladder of breaks, the
fill order of :func:`scan`, long attempts whose deep partial boards are completed exactly).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..backtrack import loop as driver
from ..backtrack.arrays import Breaks
from ..backtrack.kernels import Step
from ..backtrack.search import plan, tables
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from ..puzzle.shuffle import Shuffle
from ..system.limits import seconds_left
from ..system.proctree import forked_map
from .lns import Search

__all__ = [
    "Attempt",
    "Attempts",
    "Schedule",
    "cells",
    "scan",
    "renumbered",
    "restart",
    "search",
    "CAP",
    "SLICE",
    "MOVES",
    "REST",
]

CAP = 200_000_000  # placements per restart, by default (several seconds of the compiled loop)
# seconds a worker's restart runs before it hands over its deepest board (when it went deeper), so
# that the job has every better board as it comes, however long a restart takes
SLICE = 1.0
# with completion, slices this long: each ends in a completion of its deepest board where it is deep
FIELD_SLICE = 0.2
# with completion, each slice's deepest placements are completed where they are at most this many
# cells short of the attempt's deepest
DEEP = 8
# the large neighbourhoods' moves from the best board so far, in rounds of MOVES seconds (they take
# some tenths of a second to get going): one as the restarts begin, the next after REST seconds of
# restarts (a tenth of the time in moves at most), twice as long after a round that found nothing
# better, REST again once the restarts hand over a better board.  Rounds, not a polish at the time
# limit: the best board at any moment, an interrupt's answer, is as good as the moves make it, and
# the answer at the time limit is what the search holds then, as an interrupt's is
MOVES, REST = 1.0, 9.0
# a clue in the rows below the first but this close to it is met by a band of the rows down to it,
# filled column by column (:func:`scan`)
BAND = 3


@dataclass(frozen=True)
class Schedule:
    """No misfit among the first ``start`` placements, then one more every ``step`` depths, at
    most ``most`` (``allow[d]`` of :func:`satedge.best.budget.within`).

    >>> Schedule.of(256)
    Schedule(start=190, step=4, most=14)
    >>> Schedule(start=3, step=2, most=2).allow(8)
    [0, 0, 0, 1, 1, 2, 2, 2]
    """

    start: int
    step: int
    most: int

    @classmethod
    def parse(cls, text: str) -> Schedule:
        """The schedule ``START/STEP/MOST`` writes (whole numbers, STEP at least 1); a
        :class:`ValueError` for any other text.

        >>> str(Schedule.parse("190/4/14"))
        '190/4/14'
        """
        parts = text.split("/") if isinstance(text, str) else []
        if len(parts) != 3 or not all(p.isdigit() and len(p) <= 9 for p in parts) or int(parts[1]) < 1:
            raise ValueError(text)
        return cls(*map(int, parts))

    def __str__(self) -> str:
        return f"{self.start}/{self.step}/{self.most}"

    @classmethod
    def of(cls, cells: int) -> Schedule:
        """The defaults for a board of ``cells`` cells: misfits from 74% of the depths on, one
        more every cells / 64 depths, at most cells / 18 (Eternity II's: 190, 4, 14)."""
        return cls(
            start=round(cells * 0.742), step=max(1, round(cells / 64)), most=max(1, round(cells / 18.3))
        )

    def allow(self, cells: int) -> list[int]:
        return [
            0 if d < self.start else min(self.most, (d - self.start) // self.step + 1) for d in range(cells)
        ]


def cells(puzzle: Puzzle, by_columns: int | None = None) -> tuple[int, ...]:
    """The cells in the order a restart fills them: row by row from the corner nearest the clues
    (the top left without clues), the last ``by_columns`` rows (default 31% of them) column by
    column.

    >>> from satedge.puzzle import Puzzle
    >>> cells(Puzzle(rows=3, cols=3, tiles=((0, 0, 0, 0),) * 9), by_columns=2)
    (0, 1, 2, 3, 6, 4, 7, 5, 8)
    """
    rows, cols = puzzle.rows, puzzle.cols
    corners = [(r, c) for r in (0, rows - 1) for c in (0, cols - 1)]
    clues = [(clue.row, clue.col) for clue in puzzle.clues]
    r0, c0 = min(corners, key=lambda rc: min((abs(rc[0] - r) + abs(rc[1] - c) for r, c in clues), default=0))
    row_order = list(range(rows)) if r0 == 0 else list(range(rows - 1, -1, -1))
    col_order = list(range(cols)) if c0 == 0 else list(range(cols - 1, -1, -1))
    k = round(rows * 0.31) if by_columns is None else min(by_columns, rows)
    first, last = row_order[: rows - k], row_order[rows - k :]
    return tuple(r * cols + c for r in first for c in col_order) + tuple(
        r * cols + c for c in col_order for r in last
    )


def renumbered(puzzle: Puzzle, seed: int, first: Collection[str] = ()) -> tuple[Puzzle, Shuffle]:
    """The puzzle with its tiles numbered afresh by ``seed`` (turns kept), and the map back; the
    tiles with more sides of the labels ``first`` come first."""
    order = list(range(len(puzzle.tiles)))
    random.Random(f"satedge-restart:{seed}").shuffle(order)
    order.sort(key=lambda t: -sum(x in first for x in puzzle.tiles[t]))
    sh = Shuffle(seed, tuple(order), (0,) * len(order))
    moved = {c: sh.to_shuffled(Solution(((c.tile, c.rotation),))).placements[0] for c in puzzle.clues}
    clues = tuple(type(c)(c.row, c.col, *moved[c]) for c in puzzle.clues)
    return puzzle.with_(tiles=tuple(puzzle.tiles[t] for t in order), clues=clues, planted=None), sh


class Attempt:
    """One restart (see the module's docstring), run a slice at a time (:meth:`run`), so that the
    deepest placements it has made so far can be handed over while it goes on."""

    def __init__(
        self,
        puzzle: Puzzle,
        order: tuple[int, ...],
        allow: list[int],
        seed: int,
        cap: int = CAP,
        first: Collection[str] = (),
        loop: str = "auto",
        least: Any = None,
        breaks: Breaks | None = None,
        reach: int = 0,
        patience: int = 0,
    ) -> None:
        self.puzzle, self.cap = puzzle, cap
        self.reach, self.patience = reach, patience
        self.reached = reach == 0  # whether it has reached the depth ``reach`` (kept through a rebase)
        moved, self.shuffle = renumbered(puzzle, seed, first)
        self.search = plan(moved, order=order, twins=False)
        hard = frozenset(moved.label_id[x] for x in breaks.hard) if breaks is not None else frozenset()
        t = tables(moved, self.search, misfits=Breaks(breaks.most, hard) if breaks is not None else True)
        self.tables = t  # what its loop reads
        quota = None
        if least is not None:  # the quota's sides of each tile, in the moved numbering
            sides = [sum(x in first for x in tile) for tile in moved.tiles]
            quota = driver.Quota(sides, list(least))
        self.counts = np.zeros(2, np.int64)
        self.state = driver.at_root(t, self.counts, allow, deepest=True, loop=loop, quota=quota)
        driver.place(t, self.state, [], None)
        self.ended = False

    @property
    def placements(self) -> int:
        return int(self.counts[1])

    @property
    def deepest(self) -> tuple[int, int]:
        """The depth of the deepest placements made so far and their misfits."""
        return int(self.state.best[0]), int(self.state.best[1])

    def run(self, until: float | None = None) -> None:
        """Search on until the ``time.monotonic()`` ``until``; :attr:`ended` once the search is
        over, its ``cap`` of placements made, every edge fits, or ``patience`` placements (where
        not 0) made without reaching the depth ``reach``."""
        n = self.puzzle.n
        while not self.ended and (until is None or time.monotonic() < until):
            if self.counts[1] >= self.cap or self.state.step(0, n - 1, driver.CALL_BUDGET) == Step.DONE:
                self.ended = True
                continue
            self.reached = self.reached or bool(self.state.best[0] >= self.reach)
            if self.patience and not self.reached and self.counts[1] >= self.patience:
                self.ended = True  # stalled short of where its breaks begin
            elif self.state.best[0] == n and self.state.best[1] == 0:  # every edge fits: nothing better
                self.ended = True

    def bound(self, most: int) -> None:
        """No placements with more than ``most`` misfits from now on, at any depth (a branch and
        bound: a board that a better one must beat has ``most + 1``)."""
        np.minimum(self.state.allow, max(0, most), out=self.state.allow)

    def rebase(self, depth: int) -> None:
        """Keep the deepest placements from now on that reach ``depth`` (those kept so far are
        forgotten)."""
        self.reached = self.reached or bool(self.state.best[0] >= self.reach)
        self.state.best[0], self.state.best[1] = max(0, depth), 1 << 40

    def board(self) -> list[tuple[int, int] | None]:
        """The deepest placements by cell (``None`` where there is none), in the puzzle's own
        numbering."""
        depth = int(self.state.best[0])
        placed = self.state.best[2 : 2 + depth]
        by_cell: list[tuple[int, int] | None] = [None] * self.puzzle.n
        for cell, o in zip(self.search.cells[:depth], placed):
            by_cell[cell] = self.original(o)
        return by_cell

    def original(self, o: int) -> tuple[int, int]:
        """Placement ``o`` of the search's numbering (``tile * 4 + turn``) as ``(tile, turn)`` in the
        puzzle's own."""
        return self.shuffle.to_original(Solution(((int(o) >> 2, int(o) & 3),))).placements[0]


def restart(
    puzzle: Puzzle,
    order: tuple[int, ...],
    allow: list[int],
    seed: int,
    cap: int = CAP,
    until: float | None = None,
    first: Collection[str] = (),
    loop: str = "auto",
) -> tuple[list[tuple[int, int] | None], int, int]:
    """One restart (:class:`Attempt`), stopped after ``cap`` placements or at the
    ``time.monotonic()`` ``until``: its deepest placements by cell (``None`` where it placed
    nothing), in the puzzle's own numbering, their misfits and the placements the search made."""
    attempt = Attempt(puzzle, order, allow, seed, cap, first, loop)
    attempt.run(until)
    return attempt.board(), attempt.deepest[1], attempt.placements


def rows_left(rows: int) -> int:
    """The rows :func:`scan` leaves for its blocks and columns: about 5/16 of them, at least 2
    (5 on a 16x16)."""
    return min(rows, max(2, round(rows * 5 / 16)))


def scan(puzzle: Puzzle) -> tuple[int, ...]:
    """The field's fill order (the construction of :mod:`satedge.best.field`), from the top left
    corner: rows for all but the last ``k`` rows (``k`` about 5/16 of them, at least 2), those down
    to a clue in the second or third row (:data:`BAND`) as one band, column by column, so that each
    cell beside the clue comes right after the cells it must fit; then a
    block of ``k`` x ``k`` cells at the start of those rows, row by row; then the columns that are
    left one by one, away from the block, but for the last ``k - 1``; then that last block, its
    rows and columns in turn from its corner.  Every cell's two earlier neighbours come before it;
    on a 16x16: depths 0 to 175 the rows, 176 to 200 the block, 201 to 235 the columns, 236 to
    255 the last block.  (Every attempt takes this one order, so that the compiled loop is built
    once: attempts differ in their tile order.)

    >>> from satedge.puzzle import Puzzle
    >>> scan(Puzzle(rows=4, cols=4, tiles=((0, 0, 0, 0),) * 16))
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 10, 14, 11, 15)
    """
    rows, cols = puzzle.rows, puzzle.cols
    k = rows_left(rows)
    b = min(k, cols)
    last = min(max(k - 1, 0), cols - b)
    top = rows - k
    band = min(top, 1 + max((c.row for c in puzzle.clues if 0 < c.row < min(BAND, top - 1)), default=0))
    order = [(r, c) for c in range(cols) for r in range(band)]
    order += [(r, c) for r in range(band, top) for c in range(cols)]
    order += [(r, c) for r in range(top, rows) for c in range(b)]
    order += [(r, c) for c in range(b, cols - last) for r in range(top, rows)]
    r0, c0 = top, cols - last  # the last block: its first row and column, then the next ones
    while r0 < rows and c0 < cols:
        order += [(r0, c) for c in range(c0, cols)] + [(r, c0) for r in range(r0 + 1, rows)]
        r0, c0 = r0 + 1, c0 + 1
    return tuple(r * cols + c for r, c in order)


@dataclass(frozen=True)
class Attempts:
    """How the attempts build their boards: ``allow``, the most misfits per depth; ``cap``, the
    placements an attempt makes before the next starts; ``first``, the quota's labels (tiles with
    more sides of them are tried first, ties in an order each attempt draws); ``least``, the
    least sides of those labels per depth (None: no quota); ``breaks``, which misfits there may
    be (:class:`satedge.backtrack.arrays.Breaks`, ``hard`` in the puzzle's labels; None: any);
    ``field``: the field's fill order (:func:`scan`), else :func:`cells`; ``patience``: the
    placements an attempt has to reach the depth ``reach`` before the next starts (0: no limit),
    twice as many for each next attempt of a worker."""

    allow: tuple[int, ...]
    cap: int = CAP
    first: frozenset = frozenset()
    least: tuple[int, ...] | None = None
    breaks: Breaks | None = None
    field: bool = False
    reach: int = 0
    patience: int = 0

    @classmethod
    def restarts(cls, puzzle: Puzzle, schedule: Schedule | None = None, cap: int = CAP) -> Attempts:
        """The restarts' own: a schedule of misfits, no quota, the rows then the columns."""
        return cls(tuple((schedule or Schedule.of(puzzle.n)).allow(puzzle.n)), cap)

    def order(self, puzzle: Puzzle) -> tuple[int, ...]:
        """The cells in the order the attempts fill them: :func:`scan` with the clues first (so
        that the cells beside them check them as they are placed), or :func:`cells`."""
        if not self.field:
            return cells(puzzle)
        clued = [puzzle.board.cell(c.row, c.col) for c in puzzle.clues]
        return tuple(clued) + tuple(c for c in scan(puzzle) if c not in clued)

    def attempt(
        self, puzzle: Puzzle, seed: int, loop: str = "auto", cap: int | None = None, tries: int = 0
    ) -> Attempt:
        """The attempt of ``seed``, a worker's ``tries``-th (its patience doubled as many times)."""
        return Attempt(
            puzzle,
            self.order(puzzle),
            list(self.allow),
            seed,
            self.cap if cap is None else cap,
            self.first,
            loop,
            self.least,
            self.breaks,
            self.reach,
            self.patience << min(tries, 40),
        )


def search(
    puzzle: Puzzle,
    seconds: float,
    workers: int = 1,
    seed: int = 0,
    better: Callable[[Scored], None] | None = None,
    schedule: Schedule | None = None,
    cap: int = CAP,
    start: Solution | None = None,
    searching: bool = False,
    loop: str = "auto",
    ran: Callable[[str, float], None] | None = None,
    attempts: Attempts | None = None,
    complete: bool = False,
) -> Scored | None:
    """The best board the restarts find in ``seconds`` on ``workers`` processes (worker ``i``'s
    restart ``j`` with seed ``seed + i + j * workers``), each better one to ``better`` as it comes,
    with rounds of the neighbourhood search's moves from the best board so far (the first from
    ``start`` where given; :data:`MOVES`, :data:`REST`), so that the best board at any moment, an
    interrupt's answer, is as good as the moves make it; ``None`` where no board keeps the hard
    rules.  ``searching``: the seconds are the search's, the time the loop takes to compile (an
    empty cache) added, as far as the job's deadline allows (so that a short search finds as
    much on a cold cache as on a warm one).  ``loop``: the loop that runs the restarts
    (:data:`satedge.backtrack.loop.LOOPS`); ``ran`` is told the name of the one that does.
    ``attempts``: how each restart builds its board (default: :meth:`Attempts.restarts` with
    ``schedule`` and ``cap``); ``complete``: slices of :data:`FIELD_SLICE` seconds, the deepest
    partial board of each completed by the exact search over its empty cells
    (:meth:`satedge.best.lns.Search.complete`) where it is at most :data:`DEEP` cells short of the
    attempt's deepest, rather than the attempt's deepest filled by an assignment once a slice."""
    t0 = time.monotonic()
    end = t0 + seconds
    made = attempts or Attempts.restarts(puzzle, schedule, cap)
    filler = Search(puzzle, seed=seed)
    first = filler.start() if start is None else filler.load(start)
    if first is None:
        return None
    best: Scored | None = None
    whole = filler.loops + filler.edges

    def note(board: Scored | None) -> None:
        nonlocal best
        if board is not None and (best is None or board.score > best.score):
            best = board
            if better is not None:
                better(board)

    def worker() -> Callable[[int], Scored | None]:
        """A process's slices: its restart run on for :data:`SLICE` seconds (a new one once the
        last has ended: the first with the seed its first slice brings, ``seed + i`` for the
        ``i``-th process, each next one ``workers`` seeds on, so that a process's restarts follow
        from its first seed and not from the clock), and its deepest placements made a whole
        board whenever they went deeper (``None`` where they did not); with ``complete``, slices
        of :data:`FIELD_SLICE` seconds, each one's deepest board completed where it is deep, and
        only a board better than this process's best handed over."""
        own = Search(puzzle, seed=seed)
        attempt: Attempt | None = None
        handed: tuple[int, int] | None = None
        mine = first.score  # the best this process has made: a completion looks only for better
        record = 0  # the deepest its attempt has gone
        next_seed: int | None = None  # the seed of this process's next restart
        tries = 0  # the restarts this process has made

        def one(k: int) -> Scored | None:
            nonlocal attempt, handed, mine, record, next_seed, tries
            if attempt is None or attempt.ended:
                next_seed = k if next_seed is None else next_seed
                attempt, handed, record = made.attempt(puzzle, next_seed, loop, tries=tries), None, 0
                next_seed, tries = next_seed + workers, tries + 1
            if complete:  # a board with as many misfits as the best is of no use
                attempt.bound(whole - mine - 1)
            attempt.run(min(end, time.monotonic() + (FIELD_SLICE if complete else SLICE)))
            if not complete:  # the deepest board, where it went deeper, filled
                if attempt.deepest == handed:
                    return None
                handed = attempt.deepest
                return own.fill(attempt.board())
            # the slice's deepest board, where it is at most DEEP cells short of the attempt's
            # deepest, completed exactly; the next slice keeps its own deepest from there
            depth = attempt.deepest[0]
            found = own.complete(attempt.board(), mine) if depth > record - DEEP else None
            record = max(record, depth)
            attempt.rebase(record - DEEP)
            if found is None or found.score <= mine:
                return None
            mine = found.score
            return found

        return one

    note(first)  # a board however short the time
    compiling = time.monotonic()
    warm = made.attempt(puzzle, seed, loop, cap=1)  # the loop compiled here, before the workers fork
    warm.run()
    if ran is not None:  # the loop and its compile's seconds
        ran(warm.state.loop, time.monotonic() - compiling)
    if searching:  # the search's seconds start now, as far as the time the job has left allows
        spent, left = time.monotonic() - compiling, seconds_left()
        if left is not None:
            spent = max(0.0, min(spent, left - seconds))
        t0, end = t0 + spent, end + spent
    # the restarts' seconds between two rounds, the next round's time, the score the last one left
    rest, due, reached = REST, -math.inf, -1

    def polish() -> None:
        """A round of moves from the best board, where one is due and the restarts leave time."""
        nonlocal rest, due, reached
        now, before = time.monotonic(), best
        if before is None or before.score == whole or now + MOVES >= end:
            return
        if before.score > reached >= 0:  # the restarts beat the last round: their board next, in REST
            rest, due, reached = REST, min(due, now + REST), before.score
        if now < due:
            return
        after = filler.improve(before, MOVES)
        note(after)
        rest = rest if after.score > before.score else 2 * rest
        due, reached = time.monotonic() + rest, max(after.score, before.score)

    polish()  # as the restarts begin: they may take long to beat the first board
    seeds = iter(range(seed, seed + (1 << 40)))
    if workers == 1:
        one = worker()
        while time.monotonic() < end and (best is None or best.score < whole):
            note(one(next(seeds)))
            polish()
    else:
        results = forked_map(
            worker,
            [next(seeds) for _ in range(workers)],
            workers,
            more=lambda got: [next(seeds)] if time.monotonic() < end else [],
        )
        try:
            for board in results:
                note(board)
                if time.monotonic() >= end or (best is not None and best.score == whole):
                    break
                polish()
        finally:
            results.close()
    return best
