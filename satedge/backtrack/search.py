"""The reference backtracker: exact, every solution, streamed.

Cells are filled in an order chosen from the puzzle (:mod:`satedge.backtrack.orders`; ``auto`` by
default: the order with the smallest estimated tree).  A cell's candidates are looked up in a
precomputed table keyed by the labels that its placed neighbours demand, so no candidate is
ever tested twice; frame, clues and self-loops are already folded into :attr:`Puzzle.allowed`.
A tile that looks the same under several turns is searched in one of them, and each solution
found is given in every turn that looks the same (``distinct``); identical tiles are placed in
one order, and each solution found is given in every arrangement of them (``twins``): the same
solutions, a smaller tree (the plan: :mod:`satedge.backtrack.plans`).  Tiles in use are a bit mask.

Compiled (``loop``: numba's or the C loop, :mod:`satedge.backtrack.loop`) the same search finds
the same solutions in the same order, many times faster; with ``workers`` processes, each
solution once, in no fixed order.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

import numpy as np

from ..errors import SatedgeError
from ..puzzle.model import Allowed, Puzzle, Solution
from ..puzzle.symmetry import broken_placements, symmetry_breaking
from ..system.extras import available
from ..system.progress import REPORT_SECONDS
from . import arrays as search_tables
from . import loop as driver
from . import plans, split
from .facts import board_tables
from .loop import LOOPS
from .plans import Plan, plan

__all__ = [
    "MAX_TABLE",
    "SMALL",
    "Plan",
    "plan",
    "Cost",
    "solutions",
    "weighted",
    "tables",
    "symmetry_broken",
    "prefixes",
    "subtrees",
    "at_speed",
    "compiled_available",
    "LOOPS",
    "solve",
]

# the compiled search keeps tables of kinds of cells x labels x labels; beyond this many cells x
# labels x labels the pure-Python loop (a dict per cell) runs instead
MAX_TABLE = 4_000_000
# up to this many cells the pure-Python loop runs by default: loading the compiled search costs
# 0.35 to 1 s, more than the whole search of a 3x3 seed puzzle in Python (3 ms) and than counting
# the 36,864 solutions of a framed 4x4 (0.4 s; compiled: 0.16 s once loaded, 1.3 s in all)
SMALL = 16


def _neighbours(puzzle: Puzzle, cells: Sequence[int]) -> tuple[list, list, list[list[tuple[int, int, int]]]]:
    """Per placement ``o = tile * 4 + rotation`` the label ids it shows on its four sides and the
    ids that fit them (the puzzle's :func:`~satedge.backtrack.facts.board_tables`); per position
    in the order ``cells`` its earlier neighbours ``(own side, position, their side)``."""
    pos = {cell: i for i, cell in enumerate(cells)}
    t = board_tables(puzzle)
    ids, need = (list(map(tuple, a.reshape(-1, 4).tolist())) for a in (t.shown, t.need))
    checks: list[list[tuple[int, int, int]]] = [[] for _ in cells]
    for adj in puzzle.board.adjacencies:
        if adj.a == adj.b:
            continue  # self-loops are unary: in puzzle.allowed
        i, j = pos[adj.a], pos[adj.b]
        if i > j:
            checks[i].append((adj.side_a, j, adj.side_b))
        else:
            checks[j].append((adj.side_b, i, adj.side_a))
    for i, c in enumerate(
        checks
    ):  # the position just before first: the compiled loop reads its placement at hand
        c.sort(key=lambda check: check[1] != i - 1)
    return ids, need, checks


@dataclass
class Cost:
    """What a search has cost so far: ``candidates`` looked at (tiles not in use) and ``nodes``,
    the placements it made (the size of its search tree, whatever the loop); ``seconds`` since
    it started."""

    candidates: int = 0
    nodes: int = 0
    started: float = field(default_factory=time.monotonic)
    stage: str | None = None  # what the search is doing, where it is not searching yet
    loop: str | None = None  # the loop that ran it: python, numba or c (satedge.backtrack.loop)
    compile_seconds: float = 0.0  # of its loop, compiled or loaded from the cache: none of the search's
    pending: int = 0  # solutions its workers have found and not handed over yet (a lower bound of theirs)

    def ran(self, loop: str, seconds: float = 0.0) -> None:
        """Keep the name of the loop that runs the search and the seconds its compile took (the
        loops' ``ran`` callback)."""
        self.loop = loop
        self.compile_seconds += seconds

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def as_dict(self) -> dict:
        out = {"candidates": self.candidates, "nodes": self.nodes, "seconds": round(self.seconds, 3)}
        return (
            out | ({"stage": self.stage} if self.stage else {}) | ({"loop": self.loop} if self.loop else {})
        )


def solutions(
    puzzle: Puzzle,
    limit: int | None = None,
    loop: str = "auto",
    workers: int = 1,
    cost: Cost | None = None,
    paused: Callable[[Cost], None] | None = None,
    allowed: Allowed | None = None,
    order: Any = "auto",
    distinct: bool = True,
    twins: bool = True,
) -> Iterator[Solution]:
    """Every solution of ``puzzle``, lazily, in a fixed order; ``loop``: the loop that runs the
    search (:data:`LOOPS`): ``python`` this module's own pure-Python loop, ``numba`` or ``c`` the
    compiled loop of :mod:`satedge.backtrack.loop`, ``auto`` the pure-Python loop up to ``SMALL``
    cells or where the compiled loop's tables do not fit (:func:`compiled_available`), the C
    loop where it builds, else numba's;
    ``workers > 1``: the compiled search in that many processes, each solution once, in no
    fixed order.  ``cost`` is kept up to date as the search goes; ``paused(cost)`` is called
    about every second while no solution comes.  ``allowed``: the placements per cell to search
    (default :attr:`Puzzle.allowed`; :func:`symmetry_broken` keeps one solution per board-turn
    orbit); ``order``, ``distinct`` and ``twins``: the cell order, whether to search one of a
    tile's turns that look the same and one order of identical tiles (:func:`plan`); a
    :class:`Plan` may be given as ``order``.

    >>> from satedge.puzzle import Puzzle
    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> [s.placements for s in solutions(p)]
    [((0, 0), (1, 0)), ((1, 2), (0, 2))]
    >>> [s.placements for s in solutions(p, loop="numba")]
    [((0, 0), (1, 0)), ((1, 2), (0, 2))]
    """
    search = order if isinstance(order, Plan) else plan(puzzle, allowed, order, distinct, twins)
    it = (
        whole
        for placed in _found(puzzle, search, loop, workers, limit, cost, paused)
        for whole in plans.expand(search, placed)
    )
    return it if limit is None else islice(it, limit)


def weighted(
    puzzle: Puzzle,
    loop: str = "auto",
    workers: int = 1,
    cost: Cost | None = None,
    paused: Callable[[Cost], None] | None = None,
    allowed: Allowed | None = None,
    order: Any = "auto",
) -> Iterator[tuple[Solution, int]]:
    """Each solution the search finds, with the number of solutions it stands for (every
    arrangement of its identical tiles, every turn that looks the same: :func:`solutions` gives
    them all, each with the same picture); the same counts without listing them.  Arguments as
    :func:`solutions` takes them.

    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 2), (1, 2, 1, 2)), topology="torus")
    >>> [(s.placements, n) for s, n in weighted(p)]
    [(((0, 0), (1, 0)), 8), (((0, 1), (1, 1)), 8)]
    >>> len(list(solutions(p)))
    16
    """
    search = order if isinstance(order, Plan) else plan(puzzle, allowed, order)
    return (
        plans.weighed(search, placed) for placed in _found(puzzle, search, loop, workers, None, cost, paused)
    )


def _found(
    puzzle: Puzzle,
    search: Plan,
    loop: str,
    workers: int,
    limit: int | None,
    cost: Cost | None,
    paused: Callable[[Cost], None] | None,
) -> Iterator[list[int]]:
    """The placements (``tile * 4 + rotation`` by position) of each solution the search finds."""
    cost = Cost() if cost is None else cost
    driver.check_loop(loop)
    if workers > 1:
        _need_compiled(puzzle, loop)
        return _parallel(puzzle, search, workers, limit, cost, paused, loop)
    return _search(puzzle, search, loop, cost, paused)


def tables(
    puzzle: Puzzle, search: Plan | None = None, misfits: bool | search_tables.Breaks = False
) -> search_tables.Tables:
    """The compiled search's arrays for ``puzzle`` (:func:`satedge.backtrack.arrays.tables`), for
    ``search`` (default: :func:`plan`'s); ``misfits``: with the keys of the placements that miss
    their earlier neighbours, for a search with a budget of misfits (a
    :class:`~satedge.backtrack.arrays.Breaks`: those it allows)."""
    search = plan(puzzle) if search is None else search
    shown, need, checks = _neighbours(puzzle, search.cells)
    return search_tables.tables(
        search.allowed, len(puzzle.label_id), len(puzzle.tiles), shown, need, checks, search.twin, misfits
    )


def symmetry_broken(puzzle: Puzzle) -> tuple[tuple, int]:
    """The placements per cell that keep one solution of each board-turn orbit (the restriction
    of :func:`satedge.puzzle.symmetry.symmetry_breaking`: a corner tile in the top-left corner, or an
    asymmetric tile unturned), and the orbit's size: every solution found stands for that many.
    Where no rule applies (a clued puzzle): :attr:`Puzzle.allowed` and 1.

    A tile kept to one cell is the only tile that cell allows: every tile is placed once, so the
    same solutions, but the search no longer tries the other corner tiles there, whose subtrees
    only fail where the kept tile finds no cell (the count of the framed 7x7 in
    ``docs/guides/solving.md``: a tree 3.3 times smaller).

    >>> from satedge.puzzle import Puzzle
    >>> framed = Puzzle(rows=2, cols=2, frame=0, tiles=((0, 1, 2, 0), (0, 0, 1, 2), (1, 0, 0, 2), (2, 1, 0, 0)))
    >>> allowed, orbit = symmetry_broken(framed)
    >>> allowed[0], allowed[1], orbit
    (((0, 0),), ((1, 0), (2, 3), (3, 2)), 4)
    """
    rule = symmetry_breaking(puzzle)
    if rule is None:
        return puzzle.allowed, 1
    allowed = broken_placements(puzzle)
    tile, cells, _ = rule
    if len(cells) == 1:
        kept = tuple(p for p in allowed[cells[0]] if p[0] == tile)
        allowed = allowed[: cells[0]] + (kept,) + allowed[cells[0] + 1 :]
    return allowed, len(puzzle.board_turns)


def _counted(found: Generator[list[int], None, None], counts: np.ndarray, cost: Cost) -> Iterator[list[int]]:
    """The placements of a compiled search, ``cost`` following its ``counts`` array."""
    try:
        for placed in found:
            cost.candidates, cost.nodes = int(counts[0]), int(counts[1])
            yield placed
        cost.candidates, cost.nodes = int(counts[0]), int(counts[1])
    finally:
        found.close()  # stops the worker processes


def _pause(
    counts: np.ndarray, cost: Cost, paused: Callable[[Cost], None] | None, pending: Any = None
) -> Callable[[], None] | None:
    if paused is None:
        return None

    def tick(stage: str | None = None) -> None:
        cost.candidates, cost.nodes, cost.stage = int(counts[0]), int(counts[1]), stage
        cost.pending = 0 if pending is None else int(pending[0])
        paused(cost)

    return tick


def _parallel(
    puzzle: Puzzle,
    search: Plan,
    workers: int,
    limit: int | None,
    cost: Cost,
    paused: Callable[[Cost], None] | None,
    loop: str,
) -> Iterator[list[int]]:
    counts, pending = np.zeros(2, "int64"), np.zeros(1, "int64")
    found = split.parallel_search(
        tables(puzzle, search),
        workers,
        limit,
        counts,
        _pause(counts, cost, paused, pending),
        loop=loop,
        ran=cost.ran,
        pending=pending,
    )
    return _counted(found, counts, cost)


def prefixes(
    puzzle: Puzzle,
    workers: int,
    search: Plan,
    cost: Cost | None = None,
    allow: Any = None,
    subtrees: int | None = None,
    what: str = "backtracking with several workers",
) -> list[list[int]]:
    """The roots of the compiled search's subtrees, enough for ``workers`` (placements
    ``tile * 4 + rotation`` of the first positions of ``search``), or at least ``subtrees`` of
    them where the tree has as many: every solution extends exactly one.  ``cost`` gains what
    the tree above them cost.  ``allow``: the most misfits per depth
    (:mod:`satedge.best.budget`; default none); ``what`` needs them, as an error names it."""
    _need_compiled(puzzle, what=what)
    counts = np.zeros(2, "int64")
    t = tables(puzzle, search, misfits=allow is not None and any(allow))
    roots = split.cut(t, workers, counts, allow if search_tables.budgeted(t) else None, subtrees=subtrees)[1]
    if cost is not None:
        cost.candidates, cost.nodes = cost.candidates + int(counts[0]), cost.nodes + int(counts[1])
    return roots


def subtrees(
    puzzle: Puzzle,
    share: list,
    limit: int | None,
    search: Plan,
    weighted: bool = False,
    seconds: float | None = None,
    allow: Any = None,
) -> tuple[list, tuple[int, int], list]:
    """The solutions (at most ``limit``) in the branches of ``share`` (roots from :func:`prefixes`,
    or branches handed back), searched compiled in this process: a cluster task's share;
    ``weighted``: each solution with its weight, as :func:`weighted` gives them.  With them, the
    candidates and nodes the search cost, and what is left when it stops after ``seconds``:
    branches to share out again (none when it ended).  ``allow``: the most misfits per depth
    (:mod:`satedge.best.budget`: the boards within it; default none)."""
    _need_compiled(puzzle)
    t = tables(puzzle, search, misfits=allow is not None and any(allow))
    counts = np.zeros(2, "int64")
    end = None if seconds is None else time.monotonic() + seconds
    placed, rest = split.explore(
        t,
        driver.at_root(t, counts, allow if search_tables.budgeted(t) else None),
        share,
        limit,
        lambda: end is not None and time.monotonic() >= end,
    )
    found: list[Any]
    if weighted:
        found = [plans.weighed(search, p) for p in placed]
    else:
        found = list(islice((whole for p in placed for whole in plans.expand(search, p)), limit))
    return found, (int(counts[0]), int(counts[1])), rest


def _need_compiled(
    puzzle: Puzzle, loop: str = "auto", what: str = "backtracking with several workers"
) -> None:
    if loop == "python":
        raise SatedgeError(f"{what} needs a compiled loop (numba or c), not python")
    if not compiled_available(puzzle):
        raise SatedgeError(
            f"{what} needs the compiled search: numba (a core dependency: "
            f"pip install numba) and at most {MAX_TABLE:,} cells x labels x labels"
        )


def at_speed(puzzle: Puzzle) -> bool:
    """Whether the backtracker answers ``puzzle`` at its speed: on a board of at most
    :data:`SMALL` cells its pure-Python loop does (loading a compiled one takes longer than
    solving them), on a larger one a compiled loop must take it (:func:`compiled_available`)."""
    return puzzle.n <= SMALL or compiled_available(puzzle)


def compiled_available(puzzle: Puzzle) -> bool:
    """Whether :func:`solutions` can run ``puzzle`` compiled: numba is installed and the
    candidate tables (cells x labels x labels) have at most ``MAX_TABLE`` entries."""
    return available("numba") and puzzle.rows * puzzle.cols * len(puzzle.label_id) ** 2 <= MAX_TABLE


def _search(
    puzzle: Puzzle, search: Plan, loop: str, cost: Cost, paused: Callable[[Cost], None] | None
) -> Iterator[list[int]]:
    if loop == "auto" and (puzzle.n <= SMALL or not compiled_available(puzzle)):
        loop = "python"
    if loop != "python":
        counts = np.zeros(2, "int64")
        found = driver.search(tables(puzzle, search), counts, _pause(counts, cost, paused), loop, cost.ran)
        yield from _counted(found, counts, cost)
        return
    cost.loop = "python"
    ids, need, checks = _neighbours(puzzle, search.cells)
    # per position, a table from the labels its placed neighbours demand (one label, or a tuple
    # of labels for several neighbours) to the fitting placements, by layer and tile as the
    # compiled search tries them
    index: list[dict] = []
    for i, cands in enumerate(search.allowed):
        index.append({})
        sides = [side for side, _, _ in checks[i][:2]]
        for layer, t, r in sorted(
            (layer, t, r) for (t, r), layer in zip(cands, search_tables.layers(cands, sides, ids))
        ):
            o = t * 4 + r
            key = tuple(ids[o][side] for side, _, _ in checks[i])
            index[i].setdefault(key[0] if len(key) == 1 else key, []).append(o)
    n = len(search.cells)
    flat = [x for labels in need for x in labels]  # flat[o * 4 + side]: the label that fits o's side
    dep1 = [c[0][1:] if c else (0, 0) for c in checks]
    dep2 = [c[1][1:] if len(c) > 1 else (0, 0) for c in checks]
    kind = [len(c) for c in checks]
    twin = search.twin
    placed = [0] * n
    stack = [iter(())] * n
    used = 0
    stack[0] = iter(index[0].get(() if not kind[0] else None, ()))
    i = 0
    last = n - 1
    tried = nodes = 0
    reported = time.monotonic()
    while True:
        o = next(stack[i], -1)
        if o < 0:
            i -= 1
            if i < 0:
                cost.candidates, cost.nodes = tried, nodes
                return
            used ^= 1 << (placed[i] >> 2)
            continue
        if used >> (o >> 2) & 1:
            continue
        if twin is not None and twin[o >> 2] >= 0 and not used >> twin[o >> 2] & 1:
            continue  # a copy of an identical tile, before the copy it comes after
        tried += 1  # candidates not in use, as the compiled loop counts them
        if paused is not None and not tried & 0x3FFF and time.monotonic() - reported >= REPORT_SECONDS:
            reported = time.monotonic()
            cost.candidates, cost.nodes = tried, nodes
            paused(cost)
        placed[i] = o
        nodes += 1
        if i == last:
            cost.candidates, cost.nodes = tried, nodes
            yield placed
            continue
        used |= 1 << (o >> 2)
        i += 1
        k = kind[i]
        if k == 2:
            j, s = dep1[i]
            jj, ss = dep2[i]
            key = (flat[placed[j] * 4 + s], flat[placed[jj] * 4 + ss])
        elif k == 1:
            j, s = dep1[i]
            key = flat[placed[j] * 4 + s]
        elif k:
            key = tuple([flat[placed[j] * 4 + s] for _, j, s in checks[i]])
        else:
            key = ()
        stack[i] = iter(index[i].get(key, ()))


def solve(puzzle: Puzzle, loop: str = "auto", workers: int = 1, order: Any = "auto") -> Solution | None:
    """The first solution found, or ``None``."""
    return next(solutions(puzzle, 1, loop, workers, order=order), None)
