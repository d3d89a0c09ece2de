"""The field's construction of good boards for large framed puzzles: long attempts of a
depth-first search that spends a quota of chosen labels early and is allowed a ladder of breaks
late, each deeper partial board completed exactly.  It follows the break-tolerant search that
found Eternity II's best-known boards (J. Blackwood, 2020, 470 of 480; its steps as he published
them), generalised to any rows x cols:

1. **Candidates** are looked up by the two labels a cell must meet (its earlier neighbours),
   every turn precomputed (the backtracker's tables, :mod:`satedge.backtrack.arrays`).
2. **The fill order** (:func:`satedge.best.restarts.scan`): rows from a corner, a block at the
   start of the last rows, the columns left, a last block; the clues first, so that the cells
   beside them check them as they are placed.
3. **The colour quota** (:class:`Quota`): a set Q of labels and a ramp q(d); the placements of
   depths 0..d must show at least q(d) sides of labels in Q.  Tiles with more sides in Q are
   tried first (ties in an order each attempt draws), so a candidate that falls short ends its
   cell's candidates.
4. **The ladder of breaks** (:class:`Settings` ``ladder``): the depths at which one more
   misfit is allowed, cumulatively; a break misses one earlier neighbour, at most one per tile,
   never on a label of the frame's runs (:class:`satedge.backtrack.arrays.Breaks`).  Each better
   board bounds the rest of its attempt: no placements with as many misfits as it has
   (:meth:`satedge.best.restarts.Attempt.bound`), so a ladder may go on into the last cells.
5. **Attempts** of ``attempt`` placements each (by default one attempt for the whole run), each
   deeper partial board, and the one a slice of the search ends on where it is as deep, completed
   by the branch and bound over its empty cells with the tiles left
   (:meth:`satedge.best.lns.Search.complete`), which looks only for a board better than the
   best so far.

Settings are derived from the puzzle by rules (:meth:`Settings.of`: its size, its labels' sides,
its frame, its clues), and each can be given in their place (the engine's options).  The search
itself is :func:`satedge.best.restarts.search`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import combinations
from typing import Any

from ..backtrack.arrays import Breaks
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from . import restarts

__all__ = [
    "Quota",
    "Settings",
    "Listed",
    "labels",
    "depths",
    "ramp",
    "frame_labels",
    "gathered",
    "clue_breaks",
    "label_sides",
    "clue_sides",
    "search",
    "RAMP",
    "LADDER",
    "PUBLISHED",
    "ATTEMPT",
    "PATIENCE",
]

# Eternity II's ramp as published: (tiles placed after the starter, least sides of Q among them)
# on a 16x16 with 255 cells besides the starter's and 122 sides of Q on their tiles, linear between
# the points, none after the last
RAMP = ((16, 0), (26, 28), (56, 71), (76, 89), (102, 106), (160, 119))
RAMP_CELLS, RAMP_SIDES = 255, 122
# the ramp's counts lower by this share for each clue past the first: the cells beside a clue must
# show its labels, and the ramp, tuned for Eternity II with its starter alone, asks as many sides of
# the quota's labels as its cells allow (3% higher and its attempts stall:
# benchmarks/maximize/bench-maximize.md); on Eternity II with its five clues the attempts stall
# under the full ramp (benchmarks/clues/bench-clues.md)
EASE = 0.025
# Eternity II's ladder: a break more from each of these depths; 201 is where the columns begin on
# a 16x16 (:func:`satedge.best.restarts.scan`).  The published ladder ends at 239; the breaks from
# 241 to 251 in the last block are satedge's, cheap since every attempt is bounded by its best board
# (benchmarks/maximize/bench-maximize.md measures both ladders side by side)
PUBLISHED = (201, 206, 211, 216, 221, 225, 229, 233, 237, 239)
LADDER = PUBLISHED + (241, 243, 245, 247, 249, 251)
LADDER_START = 201
# placements per attempt, by default: about 150 s of Eternity II's loop here, where 4 of the first 5
# boards of 466 came within an attempt's first 150 s (benchmarks/maximize/bench-maximize.md, the ages)
ATTEMPT = 9 * 10**9
# placements a worker's first attempt has to pass the ladder's first depth (where breaks begin), each
# next attempt of the worker twice as many: short of it an attempt searches a board with no misfit
# exactly, and one that stalls there (after the rows, on some tie orders) would hold its worker for
# the rest of the run; Eternity II's attempts pass it within 10^8 placements on most tie orders
PATIENCE = 10**8


class Listed(tuple):
    """A setting's list of labels, depths or ``(depth, sides)`` points, written with slashes
    (``13/16/10``, ``16:0/26:28``; ``none`` for no item), as solver strings and flags take it.

    >>> str(ramp("16:0/26:28")), str(depths("none")), labels("13,16,x")
    ('16:0/26:28', 'none', (13, 16, 'x'))
    """

    def __str__(self) -> str:
        return "/".join(f"{x[0]}:{x[1]}" if isinstance(x, tuple) else str(x) for x in self) or "none"

    __repr__ = tuple.__repr__


def _items(value: Any) -> list:
    """The items of a setting's text (slashes or commas between them; ``none``: no item), or of a
    list given in Python."""
    if isinstance(value, str):
        return [] if value.strip() == "none" else value.replace(",", "/").split("/")
    return list(value)


def labels(value: Any) -> Listed:
    """Labels (a label written in digits is a whole number); a :class:`ValueError` for an empty one."""
    out = [int(x) if isinstance(x, str) and x.strip().isdigit() else x for x in _items(value)]
    if any(not isinstance(x, int | str) or isinstance(x, bool) or x == "" for x in out):
        raise ValueError(value)
    return Listed(out)


def depths(value: Any) -> Listed:
    """Depths, whole numbers from 0; a :class:`ValueError` for anything else."""
    out = [int(x) for x in _items(value)]
    if any(x < 0 or x >= 10**9 for x in out):
        raise ValueError(value)
    return Listed(sorted(out))


def ramp(value: Any) -> Listed:
    """Points ``DEPTH:SIDES``, at least one, depths rising; a :class:`ValueError` for anything else."""
    points = [x.split(":") if isinstance(x, str) else x for x in _items(value)]
    out = [(int(d), int(q)) for d, q in points]
    if not out or any(d < 0 or q < 0 for d, q in out) or any(a[0] >= b[0] for a, b in zip(out, out[1:])):
        raise ValueError(value)
    return Listed(out)


@dataclass(frozen=True)
class Quota:
    """The labels of the quota and its ramp: ``points`` of ``(depth, least sides)``, linear
    between them, no quota before the first (where its count is 0) nor after the last.

    >>> Quota(frozenset({1}), ((2, 0), (4, 4))).least(6)
    (0, 0, 2, 4, 0, 0)
    >>> Quota(frozenset({1}), ((2, 0), (4, 4))).least(6, clues=1, given=3)
    (0, 0, 0, 5, 7, 0)
    """

    labels: frozenset
    points: tuple[tuple[int, int], ...]

    def least(self, cells: int, clues: int = 0, given: int = 0) -> tuple[int, ...]:
        """The least sides of the quota's labels at each of ``cells`` depths, where the first
        ``clues`` depths place the clues (``given`` sides of the labels among them): a point
        ``(D, Q)`` asks for ``Q`` sides among the first ``D`` tiles placed after the clues (and
        the clues' own on top, since the count at a depth is over every placement up to it)."""
        out = []
        for d in range(cells):
            f, q = d + 1 - clues, 0
            for (a, x), (b, y) in zip(self.points, self.points[1:]):
                if a < f <= b:
                    q = int(x + (y - x) * (f - a) / (b - a)) + given
            out.append(q)
        return tuple(out)

    def unmet(self, sides: int) -> tuple[int, int] | None:
        """The first of the ramp's points that asks for more than ``sides`` (those the tiles have:
        :func:`label_sides`), ``(depth, least sides)``; no placement reaches its depth.  None where
        every point can be met.

        >>> Quota(frozenset({1}), ((2, 0), (4, 5), (6, 9))).unmet(8)
        (6, 9)
        """
        return next(((d, q) for d, q in self.points if q > sides), None)


@dataclass(frozen=True)
class Settings:
    """The construction's settings: the ``quota`` (None: none), the ``ladder`` of depths from
    which one more break is allowed, the ``attempt`` length in placements, ``complete``:
    whether partial boards are completed exactly (else by an assignment and windows), and
    ``patience``: the placements a worker's first attempt has to pass the ladder's first depth
    (twice as many for each next one; 0: no limit)."""

    quota: Quota | None
    ladder: tuple[int, ...]
    attempt: int = ATTEMPT
    complete: bool = True
    patience: int = PATIENCE

    @classmethod
    def of(cls, puzzle: Puzzle, given: dict | None = None) -> Settings:
        """The settings for ``puzzle``: those ``given`` (by name: ``quota``, ``ramp``, ``ladder``,
        ``attempt``), the rest by rule.  The rule: Q is the frame-run label and the two other
        labels whose sides gather on the fewest tiles (:func:`gathered`; a board without a frame:
        three labels); the ramp Eternity II's, its depths scaled to the cells besides the clues',
        its counts to Q's sides on their tiles (to no more sides per cell than Eternity II's ramp
        asks of its 122 sides on 255 cells, where Q has more) and lowered by :data:`EASE` for each
        clue past the first; the ladder Eternity II's, scaled from where the columns of
        :func:`satedge.best.restarts.scan` begin to the last cell, and breaks more around each
        clue the blocks and columns meet (:func:`clue_breaks`); attempts of :data:`ATTEMPT`
        placements, each given :data:`PATIENCE` to reach the ladder's first depth."""
        given = given or {}
        n = puzzle.n
        if "quota" in given:
            labels = frozenset(given["quota"])
        else:
            labels = gathered(puzzle)
        sides = label_sides(puzzle, labels)
        if "ramp" in given:
            points = tuple((int(d), int(q)) for d, q in given["ramp"])
        else:
            free, height = n - len(puzzle.clues), 1 - EASE * max(0, len(puzzle.clues) - 1)
            asked = min(Fraction(sides), Fraction(RAMP_SIDES * free, RAMP_CELLS))
            points = tuple(
                (round(d * free / RAMP_CELLS), int(q * asked * height / RAMP_SIDES)) for d, q in RAMP
            )
        quota = Quota(labels, points) if labels and sides else None
        if "ladder" in given:
            ladder = tuple(int(d) for d in given["ladder"])
        else:
            ladder = tuple(sorted(_ladder(puzzle) + clue_breaks(puzzle)))
        return cls(quota, ladder, int(given.get("attempt", ATTEMPT)))

    def attempts(self, puzzle: Puzzle) -> restarts.Attempts:
        """The attempts these settings make (:class:`satedge.best.restarts.Attempts`)."""
        n = puzzle.n
        allow = tuple(sum(x <= d for x in self.ladder) for d in range(n))
        return restarts.Attempts(
            allow=allow,
            cap=self.attempt,
            first=self.quota.labels if self.quota else frozenset(),
            least=self.quota.least(n, len(puzzle.clues), clue_sides(puzzle, self.quota.labels))
            if self.quota
            else None,
            breaks=Breaks(1, frozenset(frame_labels(puzzle))),
            field=True,
            reach=min(self.ladder, default=0) if self.patience else 0,
            patience=self.patience,
        )

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def label_sides(puzzle: Puzzle, labels: Collection[str]) -> int:
    """The sides of the puzzle's tiles but its clues' whose label is one of ``labels``: the most
    any ramp of a quota of them can ask for."""
    return sum(x in labels for tile in puzzle.tiles for x in tile) - clue_sides(puzzle, labels)


def clue_sides(puzzle: Puzzle, labels: Collection[str]) -> int:
    """The sides of the clues' tiles whose label is one of ``labels``."""
    return sum(x in labels for c in puzzle.clues for x in puzzle.tiles[c.tile])


def frame_labels(puzzle: Puzzle) -> set:
    """The labels of the frame's runs: those on the sides of frame tiles next to their frame
    sides (none without a frame)."""
    if puzzle.frame is None:
        return set()
    out = set()
    for tile in puzzle.tiles:
        for s in range(4):
            if tile[s] != puzzle.frame and puzzle.frame in (tile[(s + 1) % 4], tile[(s - 1) % 4]):
                out.add(tile[s])
    return out


def gathered(puzzle: Puzzle) -> frozenset:
    """The default quota labels: of the sets of one frame-run label and two other labels (a board
    without a frame: any three labels), the one whose sides on the tiles (the clues' left out)
    gather on the fewest tiles, as sides per tile that shows any of them; ties to the set with
    more sides, then the smallest labels.  The quota spends its labels early, and a tile with
    several of them spends several at once: such a set leaves the fewest tiles with one of them
    for the end.  On Eternity II the two quotas the field published (its 469 and 470 boards'),
    2, 17, 18 and 10, 13, 16 in satedge's labels, are first and second of the 680 sets.

    >>> from satedge.puzzle import Puzzle
    >>> sorted(gathered(Puzzle(rows=2, cols=2, tiles=((1, 1, 2, 3), (1, 2, 4, 5), (3, 4, 5, 6), (6, 6, 6, 2)))))
    [4, 5, 6]
    """
    clued = {c.tile for c in puzzle.clues}
    tiles = [t for i, t in enumerate(puzzle.tiles) if i not in clued]
    counts = Counter(x for tile in tiles for x in tile if x != puzzle.frame)
    on = {x: sum(1 << i for i, tile in enumerate(tiles) if x in tile) for x in counts}
    run = frame_labels(puzzle) & set(counts)
    rest = sorted((x for x in counts if x not in run), key=str)
    sets: list[tuple[Any, ...]]
    if run:
        sets = [(r, a, b) for r in sorted(run, key=str) for a, b in combinations(rest, 2)]
    else:
        sets = list(combinations(rest, 3))
    if not sets:  # fewer labels than a quota takes: those there are
        return frozenset(sorted(run, key=str)[:1] + rest)

    def key(labels: tuple[Any, ...]) -> tuple[Fraction, int, list[str]]:
        sides = sum(counts[x] for x in labels)
        shown = (on[labels[0]] | on[labels[1]] | on[labels[2]]).bit_count()
        return (-Fraction(sides, shown), -sides, sorted(map(str, labels)))

    best = min(sets, key=key)
    return frozenset(best)


def clue_breaks(puzzle: Puzzle) -> tuple[int, ...]:
    """Breaks more around each clue that the blocks and columns of
    :func:`satedge.best.restarts.scan` meet (a clue whose last neighbour comes after the rows):
    one from the depth where the first of its neighbours after the rows is placed, one from the
    depth where the last is.  The cells that close around such a clue must fit three placed
    neighbours where a cell of the scan fits two, a misfit Eternity II's ladder, made for a
    starter in the rows, never allows.  On Eternity II with its five clues (those on N3 and N14:
    breaks from depths 185 and 194, 242 and 250) the plain command went from 452 to 460 and 458
    in a minute with the last neighbours' breaks alone, and from 461 to 462 in 10 minutes with
    the first neighbours' too (benchmarks/clues/bench-clues.md)."""
    order = restarts.Attempts((), field=True).order(puzzle)
    at = {cell: depth for depth, cell in enumerate(order)}
    # the depth where the rows end: every cell of the rows and the clues come before it
    rows_end = (puzzle.rows - restarts.rows_left(puzzle.rows)) * puzzle.cols + len(puzzle.clues)
    out: list[int] = []
    for clue in puzzle.clues:
        cell = puzzle.board.cell(clue.row, clue.col)
        late = sorted(d for d in (at[c] for c in puzzle.board.graph.neighbors(cell)) if d >= rows_end)
        if late:
            out += sorted({late[0], late[-1]})
    return tuple(out)


def _ladder(puzzle: Puzzle) -> tuple[int, ...]:
    """Eternity II's ladder scaled to ``puzzle``: from where the columns begin to the last cell."""
    order_start = _columns_start(puzzle)
    span, field_span = puzzle.n - order_start, RAMP_CELLS + 1 - LADDER_START
    count = max(1, round(len(LADDER) * span / field_span))
    steps = [LADDER[min(len(LADDER) - 1, j * len(LADDER) // count)] - LADDER_START for j in range(count)]
    return tuple(order_start + round(s * span / field_span) for s in steps)


def _columns_start(puzzle: Puzzle) -> int:
    """The depth where the columns of :func:`satedge.best.restarts.scan` begin, in the attempts'
    order (the clues first)."""
    rows, cols = puzzle.rows, puzzle.cols
    k = restarts.rows_left(rows)
    order = restarts.Attempts((), field=True).order(puzzle)
    return order.index((rows - k) * cols + min(k, cols)) if k < rows and k < cols else puzzle.n - 1


def search(
    puzzle: Puzzle,
    seconds: float,
    workers: int = 1,
    seed: int = 0,
    better: Callable[[Scored], None] | None = None,
    settings: Settings | None = None,
    start: Solution | None = None,
    searching: bool = False,
    loop: str = "auto",
    ran: Callable[[str, float], None] | None = None,
) -> Scored | None:
    """The best board the construction finds in ``seconds`` on ``workers`` processes (the
    arguments as :func:`satedge.best.restarts.search` takes them; ``settings`` default
    :meth:`Settings.of` the puzzle, as ``maximize --method field`` has them)."""
    s = settings or Settings.of(puzzle)
    return restarts.search(
        puzzle,
        seconds,
        workers,
        seed,
        better,
        start=start,
        searching=searching,
        loop=loop,
        ran=ran,
        attempts=s.attempts(puzzle),
        complete=s.complete,
    )
