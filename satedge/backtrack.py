"""The reference backtracker: exact, every solution, streamed.

Cells are filled in row-major order (the order of the board graph's nodes).  A cell's
candidates are looked up in a precomputed table keyed by the labels that its placed
neighbours demand, so no candidate is ever tested twice; frame, clues and self-loops are
already folded into :attr:`Puzzle.allowed`.  Tiles in use are a bit mask.

With numba installed (the extra ``fast``) the same search runs compiled
(:mod:`satedge.backtrack_jit`): the same solutions in the same order, about 20 times faster;
and with ``workers`` processes, each solution once, in no fixed order.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Iterator

import numpy as np

from . import backtrack_jit
from .encode.core import Options, placements, symmetry_breaking
from .errors import SatedgeError
from .extras import available
from .puzzle import Puzzle, Solution

__all__ = [
    "MAX_TABLE", "SMALL", "Cost", "solutions", "tables", "symmetry_broken", "prefixes", "subtrees",
    "compiled_available", "solve"
]

# the compiled search keeps a dense cells x labels x labels table; beyond this many entries the
# pure-Python loop (a dict per cell) runs instead
MAX_TABLE = 4_000_000
# up to this many cells the pure-Python loop runs by default: loading the compiled search costs
# 0.35 to 1 s, more than the whole search of a 3x3 seed puzzle in Python (3 ms) and than counting
# the 36,864 solutions of a framed 4x4 (0.4 s; compiled: 0.16 s once loaded, 1.3 s in all)
SMALL = 16


def _neighbours(puzzle: Puzzle):
    """The search order; per placement ``o = tile * 4 + rotation`` the label ids it shows on its
    four sides and the ids that fit them; per cell its placed neighbours ``(own side, position,
    their side)``."""
    board = puzzle.board
    order = list(board.graph.nodes)
    pos = {cell: i for i, cell in enumerate(order)}
    ids = [tuple(puzzle.label_id[x] for x in puzzle.oriented(t, r)) for t in range(len(puzzle.tiles)) for r in range(4)]
    need = [tuple(puzzle.partner_id(x) for x in labels) for labels in ids]
    checks: list[list[tuple[int, int, int]]] = [[] for _ in order]
    for adj in board.adjacencies:
        if adj.a == adj.b:
            continue  # self-loops are unary: in puzzle.allowed
        i, j = pos[adj.a], pos[adj.b]
        if i > j:
            checks[i].append((adj.side_a, j, adj.side_b))
        else:
            checks[j].append((adj.side_b, i, adj.side_a))
    return order, ids, need, checks


@dataclass
class Cost:
    """What a search has cost so far: ``candidates`` looked at and ``nodes``, the placements it
    made (the size of its search tree, whatever the loop); ``seconds`` since it started."""

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
              paused: Callable[[Cost], None] | None = None, allowed=None) -> Iterator[Solution]:
    """Every solution of ``puzzle``, lazily, in a fixed order; ``compiled``: run the numba search
    (None: when numba is installed, its table fits and the board has more than ``SMALL`` cells;
    False: the pure-Python loop);
    ``workers > 1``: the compiled search in that many processes, each solution once, in no
    fixed order.  ``cost`` is kept up to date as the search goes; ``paused(cost)`` is called
    about every second while no solution comes.  ``allowed``: the placements per cell to search
    (default :attr:`Puzzle.allowed`; :func:`symmetry_broken` keeps one solution per board-turn
    orbit).

    >>> from satedge.puzzle import Puzzle
    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> [s.placements for s in solutions(p)]
    [((0, 0), (1, 0)), ((1, 2), (0, 2))]
    >>> [s.placements for s in solutions(p, compiled=False)]
    [((0, 0), (1, 0)), ((1, 2), (0, 2))]
    """
    cost = Cost() if cost is None else cost
    allowed = puzzle.allowed if allowed is None else allowed
    if workers > 1:
        _need_compiled(puzzle, compiled)
        return _parallel(puzzle, workers, limit, cost, paused, allowed)
    it = _search(puzzle, compiled, cost, paused, allowed)
    return it if limit is None else islice(it, limit)


def _solution(placed) -> Solution:
    """The solution of placements ``tile * 4 + rotation``, one per cell."""
    return Solution(tuple([(o >> 2, o & 3) for o in placed]))


def tables(puzzle: Puzzle, allowed=None) -> backtrack_jit.Tables:
    """The compiled search's arrays for ``puzzle`` (:func:`satedge.backtrack_jit.tables`), searching
    ``allowed`` (default :attr:`Puzzle.allowed`)."""
    _, shown, need, checks = _neighbours(puzzle)
    return backtrack_jit.tables(puzzle.allowed if allowed is None else allowed, len(puzzle.label_id),
                                len(puzzle.tiles), shown, need, checks)


def symmetry_broken(puzzle: Puzzle) -> tuple[tuple, int]:
    """The placements per cell that keep one solution of each board-turn orbit (the restriction
    of :func:`satedge.encode.symmetry_breaking`: a corner tile in the top-left corner, or an
    asymmetric tile unturned), and the orbit's size: every solution found stands for that many.
    Where no rule applies (a clued puzzle): :attr:`Puzzle.allowed` and 1."""
    if symmetry_breaking(puzzle) is None:
        return puzzle.allowed, 1
    return placements(puzzle, Options(symmetry="rotation")), len(puzzle.board.turns())


def _counted(found: Iterator[list[int]], counts, cost: Cost) -> Iterator[Solution]:
    """The solutions of a compiled search, ``cost`` following its ``counts`` array."""
    try:
        for placed in found:
            cost.candidates, cost.nodes = int(counts[0]), int(counts[1])
            yield _solution(placed)
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


def _parallel(puzzle: Puzzle, workers: int, limit: int | None, cost: Cost,
              paused: Callable[[Cost], None] | None, allowed) -> Iterator[Solution]:
    counts = np.zeros(2, "int64")
    found = backtrack_jit.parallel_search(tables(puzzle, allowed), workers, limit, counts, _pause(counts, cost, paused))
    return islice(_counted(found, counts, cost), limit)


def prefixes(puzzle: Puzzle, workers: int, allowed=None) -> list[list[int]]:
    """The roots of the compiled search's subtrees, enough for ``workers`` (placements
    ``tile * 4 + rotation`` of the first cells): every solution extends exactly one."""
    _need_compiled(puzzle)
    return backtrack_jit.cut(tables(puzzle, allowed), workers)[1]


def subtrees(puzzle: Puzzle, roots: list[list[int]], limit: int | None = None, allowed=None) -> list[Solution]:
    """The solutions (at most ``limit`` in all) that extend each of ``roots`` (:func:`prefixes`),
    searched compiled in this process: a cluster task's share."""
    _need_compiled(puzzle)
    t = tables(puzzle, allowed)
    found: list[Solution] = []
    for root in roots:
        found += map(_solution, islice(backtrack_jit.run(t, root, puzzle.n - 1), None if limit is None else limit - len(found)))
        if limit is not None and len(found) >= limit:
            break
    return found


def _need_compiled(puzzle: Puzzle, compiled: bool | None = None) -> None:
    if compiled is False or not compiled_available(puzzle):
        raise SatedgeError("backtracking with several workers needs the compiled search: numba (pip install "
                           f"'satedge[fast]') and at most {MAX_TABLE:,} cells x labels x labels")


def compiled_available(puzzle: Puzzle) -> bool:
    """Whether :func:`solutions` can run ``puzzle`` compiled: numba is installed and the dense
    candidate table (cells x labels x labels) has at most ``MAX_TABLE`` entries."""
    return available("numba") and puzzle.rows * puzzle.cols * len(puzzle.label_id) ** 2 <= MAX_TABLE


def _search(puzzle: Puzzle, compiled: bool | None, cost: Cost,
            paused: Callable[[Cost], None] | None, allowed) -> Iterator[Solution]:
    if compiled is None:
        compiled = puzzle.n > SMALL and compiled_available(puzzle)
    if compiled:
        counts = np.zeros(2, "int64")
        yield from _counted(backtrack_jit.search(tables(puzzle, allowed), counts, _pause(counts, cost, paused)), counts,
                            cost)
        return
    order, ids, need, checks = _neighbours(puzzle)
    # per cell, a table from the labels its placed neighbours demand (one label, or a tuple of
    # labels for several neighbours) to the fitting placements
    index: list[dict] = []
    for i, cell in enumerate(order):
        index.append({})
        for t, r in allowed[cell]:
            o = t * 4 + r
            key = tuple(ids[o][side] for side, _, _ in checks[i])
            index[i].setdefault(key[0] if len(key) == 1 else key, []).append(o)
    n = len(order)
    flat = [x for labels in need for x in labels]  # flat[o * 4 + side]: the label that fits o's side
    dep1 = [c[0][1:] if c else (0, 0) for c in checks]
    dep2 = [c[1][1:] if len(c) > 1 else (0, 0) for c in checks]
    kind = [len(c) for c in checks]
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
        tried += 1
        if paused is not None and not tried & 0xFFFFF:
            cost.candidates, cost.nodes = tried, nodes
            paused(cost)
        if used >> (o >> 2) & 1:
            continue
        placed[i] = o
        nodes += 1
        if i == last:
            cost.candidates, cost.nodes = tried, nodes
            yield _solution(placed)
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


def solve(puzzle: Puzzle, compiled: bool | None = None, workers: int = 1) -> Solution | None:
    """The first solution found, or ``None``."""
    return next(solutions(puzzle, 1, compiled, workers), None)
