"""The reference backtracker: exact, every solution, streamed.

Cells are filled in an order chosen from the puzzle (:mod:`satedge.orders`; ``auto`` by
default: the order with the smallest estimated tree).  A cell's candidates are looked up in a
precomputed table keyed by the labels that its placed neighbours demand, so no candidate is
ever tested twice; frame, clues and self-loops are already folded into :attr:`Puzzle.allowed`.
A tile that looks the same under several turns is searched in one of them, and each solution
found is given in every turn that looks the same (``distinct``); identical tiles are placed in
one order, and each solution found is given in every arrangement of them (``twins``): the same
solutions, a smaller tree.  Tiles in use are a bit mask.

With numba installed (the extra ``fast``) the same search runs compiled
(:mod:`satedge.backtrack_jit`): the same solutions in the same order, many times faster; and
with ``workers`` processes, each solution once, in no fixed order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import islice, permutations, product
from typing import Callable, Iterator

import numpy as np

from . import backtrack_jit
from .encode.core import Options, placements, symmetry_breaking
from .errors import SatedgeError
from .extras import available
from .orders import cell_order
from .puzzle import Puzzle, Solution

__all__ = [
    "MAX_TABLE", "SMALL", "Plan", "plan", "Cost", "solutions", "tables", "symmetry_broken", "prefixes", "subtrees",
    "compiled_available", "solve"
]

# the compiled search keeps tables of kinds of cells x labels x labels; beyond this many cells x
# labels x labels the pure-Python loop (a dict per cell) runs instead
MAX_TABLE = 4_000_000
# up to this many cells the pure-Python loop runs by default: loading the compiled search costs
# 0.35 to 1 s, more than the whole search of a 3x3 seed puzzle in Python (3 ms) and than counting
# the 36,864 solutions of a framed 4x4 (0.4 s; compiled: 0.16 s once loaded, 1.3 s in all)
SMALL = 16


@dataclass(frozen=True)
class Plan:
    """What a search runs: the cells in the order it fills them, the placements it tries at each
    (``allowed``, by position in that order), per cell the placements that look the same as one
    it tries (``spread``: each solution found stands for every combination of them), and the
    classes of identical tiles (``twins``: tiles that show the same labels wherever they may go;
    the search places a class's copies in order, each solution found stands for every
    arrangement of them, turned by ``shift``, their turns against the class's first tile)."""

    cells: tuple[int, ...]
    allowed: tuple[tuple[tuple[int, int], ...], ...]
    spread: tuple[dict, ...]
    twins: tuple[tuple[int, ...], ...] = ()
    shift: tuple[int, ...] = ()

    @property
    def twin(self) -> list[int] | None:
        """Per tile, the copy that must be placed before it, or -1; None without identical tiles."""
        if not self.twins:
            return None
        out = [-1] * len(self.shift)
        for copies in self.twins:
            for a, b in zip(copies, copies[1:]):
                out[b] = a
        return out


def plan(puzzle: Puzzle, allowed=None, order="auto", distinct: bool = True, twins: bool = True) -> Plan:
    """The search of ``allowed`` (default :attr:`Puzzle.allowed`) in ``order`` (an order's name,
    :data:`satedge.orders.ORDERS`, or the cells in order); ``distinct``: try one turn of a tile
    among those that look the same at a cell; ``twins``: place identical tiles in one order only.

    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 2), (1, 2, 1, 2)), topology="torus")
    >>> q = plan(p, order="rows")
    >>> q.cells, q.allowed[0], q.spread[0][(0, 1)], q.twins
    ((0, 1), ((0, 0), (0, 1), (1, 0), (1, 1)), ((0, 1), (0, 3)), ((0, 1),))
    """
    allowed = puzzle.allowed if allowed is None else allowed
    cells = cell_order(puzzle, order, allowed) if isinstance(order, str) else tuple(order)
    if sorted(cells) != list(puzzle.board.cells):
        raise SatedgeError(f"an order names every cell once, 0 to {puzzle.n - 1}")
    tried, spread = [], []
    kept: dict = {}  # cells of one kind share their tuple of placements: one reduction each
    for cell in cells:
        if id(allowed[cell]) not in kept:
            looks: dict = {}
            for t, r in allowed[cell]:
                looks.setdefault((t, puzzle.oriented(t, r)), []).append((t, r))
            kept[id(allowed[cell])] = (tuple(same[0] for same in looks.values()) if distinct else allowed[cell],
                                       {p: tuple(same) for same in looks.values() if distinct and len(same) > 1
                                        for p in same})
        tried.append(kept[id(allowed[cell])][0])
        spread.append(kept[id(allowed[cell])][1])
    classes, shift = _twins(puzzle, allowed) if twins else ((), ())
    return Plan(cells, tuple(tried), tuple(spread), classes, shift)


def _twins(puzzle: Puzzle, allowed) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The classes of tiles that show the same labels at the same cells (whatever their turns;
    so a clue or a symmetry breaking that keeps one of them somewhere parts it from the others),
    and per tile its turn against the first tile of its class; ``((), ())`` when there are none."""
    where: dict[int, set] = {}
    for cell, options in enumerate(allowed):
        for t, r in options:
            where.setdefault(t, set()).add((cell, puzzle.oriented(t, r)))
    classes: dict = {}
    for t in sorted(where):
        classes.setdefault(frozenset(where[t]), []).append(t)
    twins = tuple(tuple(c) for c in classes.values() if len(c) > 1)
    if not twins:
        return (), ()
    shift = [0] * len(puzzle.tiles)
    for first, *rest in twins:
        for t in rest:
            shift[t] = next(d for d in range(4) if all(puzzle.oriented(t, q) == puzzle.oriented(first, (q + d) % 4)
                                                       for q in range(4)))
    return twins, tuple(shift)


def _neighbours(puzzle: Puzzle, cells):
    """Per placement ``o = tile * 4 + rotation`` the label ids it shows on its four sides and the
    ids that fit them; per position in the order ``cells`` its earlier neighbours ``(own side,
    position, their side)``."""
    pos = {cell: i for i, cell in enumerate(cells)}
    ids = [tuple(puzzle.label_id[x] for x in puzzle.oriented(t, r)) for t in range(len(puzzle.tiles)) for r in range(4)]
    need = [tuple(puzzle.partner_id(x) for x in labels) for labels in ids]
    checks: list[list[tuple[int, int, int]]] = [[] for _ in cells]
    for adj in puzzle.board.adjacencies:
        if adj.a == adj.b:
            continue  # self-loops are unary: in puzzle.allowed
        i, j = pos[adj.a], pos[adj.b]
        if i > j:
            checks[i].append((adj.side_a, j, adj.side_b))
        else:
            checks[j].append((adj.side_b, i, adj.side_a))
    return ids, need, checks


@dataclass
class Cost:
    """What a search has cost so far: ``candidates`` looked at (tiles not in use) and ``nodes``,
    the placements it made (the size of its search tree, whatever the loop); ``seconds`` since
    it started."""

    candidates: int = 0
    nodes: int = 0
    started: float = field(default_factory=time.monotonic)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def as_dict(self) -> dict:
        return {"candidates": self.candidates, "nodes": self.nodes, "seconds": round(self.seconds, 3)}


def solutions(puzzle: Puzzle, limit: int | None = None, compiled: bool | None = None,
              workers: int = 1, cost: Cost | None = None,
              paused: Callable[[Cost], None] | None = None, allowed=None, order="auto",
              distinct: bool = True, twins: bool = True) -> Iterator[Solution]:
    """Every solution of ``puzzle``, lazily, in a fixed order; ``compiled``: run the numba search
    (None: when numba is installed, its table fits and the board has more than ``SMALL`` cells;
    False: the pure-Python loop);
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
    >>> [s.placements for s in solutions(p, compiled=False)]
    [((0, 0), (1, 0)), ((1, 2), (0, 2))]
    """
    cost = Cost() if cost is None else cost
    search = order if isinstance(order, Plan) else plan(puzzle, allowed, order, distinct, twins)
    if workers > 1:
        _need_compiled(puzzle, compiled)
        found = _parallel(puzzle, search, workers, limit, cost, paused)
    else:
        found = _search(puzzle, search, compiled, cost, paused)
    it = (whole for placed in found for whole in _spread(search, placed))
    return it if limit is None else islice(it, limit)


def _spread(search: Plan, placed) -> Iterator[Solution]:
    """The solutions that a search's placements (``tile * 4 + rotation`` per position) stand
    for: the same, with identical tiles in every arrangement, and with every tile in each turn
    that looks the same at its cell."""
    at = [None] * len(placed)
    for cell, o in zip(search.cells, placed):
        at[cell] = (o >> 2, o & 3)
    for arranged in _arrangements(search, at):
        sides = [search.spread[i].get(arranged[cell]) for i, cell in enumerate(search.cells)]
        if not any(sides):
            yield Solution(tuple(arranged))
            continue
        which = [cell for cell, same in zip(search.cells, sides) if same]
        for choice in product(*(same for same in sides if same)):
            for cell, p in zip(which, choice):
                arranged[cell] = p
            yield Solution(tuple(arranged))


def _arrangements(search: Plan, at: list) -> Iterator[list]:
    """``at`` (a placement per cell) with the copies of each class of identical tiles in every
    arrangement over the cells they hold, each turned to show what the copy it replaces showed;
    ``at`` itself first."""
    if not search.twins:
        yield at
        return
    holds = [sorted((t, cell) for cell, (t, _) in enumerate(at) if t in copies) for copies in search.twins]
    shift = search.shift
    for choice in product(*(permutations(copies, len(held)) for copies, held in zip(search.twins, holds))):
        out = list(at)
        for held, tiles in zip(holds, choice):
            for (a, cell), b in zip(held, tiles):
                out[cell] = (b, (at[cell][1] + shift[a] - shift[b]) % 4)
        yield out


def tables(puzzle: Puzzle, search: Plan | None = None) -> backtrack_jit.Tables:
    """The compiled search's arrays for ``puzzle`` (:func:`satedge.backtrack_jit.tables`), for
    ``search`` (default: :func:`plan`'s)."""
    search = plan(puzzle) if search is None else search
    shown, need, checks = _neighbours(puzzle, search.cells)
    return backtrack_jit.tables(search.allowed, len(puzzle.label_id), len(puzzle.tiles), shown, need, checks,
                                search.twin)


def symmetry_broken(puzzle: Puzzle) -> tuple[tuple, int]:
    """The placements per cell that keep one solution of each board-turn orbit (the restriction
    of :func:`satedge.encode.symmetry_breaking`: a corner tile in the top-left corner, or an
    asymmetric tile unturned), and the orbit's size: every solution found stands for that many.
    Where no rule applies (a clued puzzle): :attr:`Puzzle.allowed` and 1."""
    if symmetry_breaking(puzzle) is None:
        return puzzle.allowed, 1
    return placements(puzzle, Options(symmetry="rotation")), len(puzzle.board.turns())


def _counted(found: Iterator[list[int]], counts, cost: Cost) -> Iterator[list[int]]:
    """The placements of a compiled search, ``cost`` following its ``counts`` array."""
    try:
        for placed in found:
            cost.candidates, cost.nodes = int(counts[0]), int(counts[1])
            yield placed
        cost.candidates, cost.nodes = int(counts[0]), int(counts[1])
    finally:
        found.close()  # stops the worker processes


def _pause(counts, cost: Cost, paused: Callable[[Cost], None] | None) -> Callable[[], None] | None:
    if paused is None:
        return None

    def tick() -> None:
        cost.candidates, cost.nodes = int(counts[0]), int(counts[1])
        paused(cost)

    return tick


def _parallel(puzzle: Puzzle, search: Plan, workers: int, limit: int | None, cost: Cost,
              paused: Callable[[Cost], None] | None) -> Iterator[list[int]]:
    counts = np.zeros(2, "int64")
    found = backtrack_jit.parallel_search(tables(puzzle, search), workers, limit, counts, _pause(counts, cost, paused))
    return _counted(found, counts, cost)


def prefixes(puzzle: Puzzle, workers: int, search: Plan) -> list[list[int]]:
    """The roots of the compiled search's subtrees, enough for ``workers`` (placements
    ``tile * 4 + rotation`` of the first positions of ``search``): every solution extends
    exactly one."""
    _need_compiled(puzzle)
    return backtrack_jit.cut(tables(puzzle, search), workers)[1]


def subtrees(puzzle: Puzzle, roots: list[list[int]], limit: int | None, search: Plan) -> list[Solution]:
    """The solutions (at most ``limit``) that extend each of ``roots`` (:func:`prefixes`),
    searched compiled in this process: a cluster task's share."""
    _need_compiled(puzzle)
    t = tables(puzzle, search)
    found = (whole for root in roots for placed in backtrack_jit.run(t, root, puzzle.n - 1)
             for whole in _spread(search, placed))
    return list(islice(found, limit))


def _need_compiled(puzzle: Puzzle, compiled: bool | None = None) -> None:
    if compiled is False or not compiled_available(puzzle):
        raise SatedgeError("backtracking with several workers needs the compiled search: numba (pip install "
                           f"'satedge[fast]') and at most {MAX_TABLE:,} cells x labels x labels")


def compiled_available(puzzle: Puzzle) -> bool:
    """Whether :func:`solutions` can run ``puzzle`` compiled: numba is installed and the
    candidate tables (cells x labels x labels) have at most ``MAX_TABLE`` entries."""
    return available("numba") and puzzle.rows * puzzle.cols * len(puzzle.label_id) ** 2 <= MAX_TABLE


def _search(puzzle: Puzzle, search: Plan, compiled: bool | None, cost: Cost,
            paused: Callable[[Cost], None] | None) -> Iterator[list[int]]:
    if compiled is None:
        compiled = puzzle.n > SMALL and compiled_available(puzzle)
    if compiled:
        counts = np.zeros(2, "int64")
        yield from _counted(backtrack_jit.search(tables(puzzle, search), counts, _pause(counts, cost, paused)), counts,
                            cost)
        return
    ids, need, checks = _neighbours(puzzle, search.cells)
    # per position, a table from the labels its placed neighbours demand (one label, or a tuple
    # of labels for several neighbours) to the fitting placements, by layer and tile as the
    # compiled search tries them
    index: list[dict] = []
    for i, tried in enumerate(search.allowed):
        index.append({})
        sides = [side for side, _, _ in checks[i][:2]]
        for layer, t, r in sorted((layer, t, r) for (t, r), layer in zip(tried, backtrack_jit.layers(tried, sides, ids))):
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
        if paused is not None and not tried & 0xFFFFF:
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


def solve(puzzle: Puzzle, compiled: bool | None = None, workers: int = 1, order="auto") -> Solution | None:
    """The first solution found, or ``None``."""
    return next(solutions(puzzle, 1, compiled, workers, order=order), None)
