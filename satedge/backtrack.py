"""The reference backtracker: exact, every solution, streamed.

Cells are filled in row-major order (the order of the board graph's nodes).  A cell's
candidates are looked up in a precomputed table keyed by the labels that its placed
neighbours demand, so no candidate is ever tested twice; frame, clues and self-loops are
already folded into :attr:`Puzzle.allowed`.  Tiles in use are a bit mask.
"""

from __future__ import annotations

from itertools import islice
from typing import Iterator

from .puzzle import Puzzle, Solution


def _tables(puzzle: Puzzle):
    """Per cell: its placed neighbours ``(position, side)`` and a table from the labels they
    demand (one label, or a tuple of labels for several neighbours) to the fitting placements."""
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
    cells = []
    for i, cell in enumerate(order):
        deps = tuple((j, other) for _, j, other in checks[i])
        index: dict = {}
        for t, r in puzzle.allowed[cell]:
            o = t * 4 + r
            key = tuple(ids[o][side] for side, _, _ in checks[i])
            index.setdefault(key[0] if len(key) == 1 else key, []).append(o)
        cells.append((index, deps))
    return order, need, cells


def solutions(puzzle: Puzzle, limit: int | None = None) -> Iterator[Solution]:
    """Every solution of ``puzzle``, lazily, in a fixed order.

    >>> from satedge.puzzle import Puzzle
    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> [s.placements for s in solutions(p)]
    [((0, 0), (1, 0)), ((1, 2), (0, 2))]
    """
    it = _search(puzzle)
    return it if limit is None else islice(it, limit)


def _search(puzzle: Puzzle) -> Iterator[Solution]:
    order, need, cells = _tables(puzzle)
    n = len(order)
    flat = [x for labels in need for x in labels]  # flat[o * 4 + side]: the label that fits o's side
    index = [c[0] for c in cells]
    dep1 = [c[1][0] if c[1] else (0, 0) for c in cells]
    dep2 = [c[1][1] if len(c[1]) > 1 else (0, 0) for c in cells]
    kind = [len(c[1]) for c in cells]
    placed = [0] * n
    stack = [iter(())] * n
    used = 0
    stack[0] = iter(index[0].get(() if not kind[0] else None, ()))
    i = 0
    last = n - 1
    while True:
        o = next(stack[i], -1)
        if o < 0:
            i -= 1
            if i < 0:
                return
            used ^= 1 << (placed[i] >> 2)
            continue
        if used >> (o >> 2) & 1:
            continue
        placed[i] = o
        if i == last:
            yield Solution(tuple([(o >> 2, o & 3) for o in placed]))
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
            key = tuple([flat[placed[j] * 4 + s] for j, s in cells[i][1]])
        else:
            key = ()
        stack[i] = iter(index[i].get(key, ()))


def solve(puzzle: Puzzle) -> Solution | None:
    """The first solution, or ``None``."""
    return next(_search(puzzle), None)
