"""One-hot placement variables ``x[cell, tile, rot]``, shared by :mod:`.direct` and :mod:`.support`."""

from __future__ import annotations

from typing import Callable

from pysat.formula import IDPool

from ..puzzle import Puzzle, Solution
from .core import Encoded, Options, make_cnf, exactly_one, placements, true_set


def placement_formula(puzzle: Puzzle, options: Options, base: str, adjacency: Callable) -> Encoded:
    """``x`` variables (one per allowed placement), exactly one per cell and per tile, then the
    clauses ``adjacency(puzzle, adj, groups_a, groups_b, redundant)`` yields for every adjacency,
    where ``groups`` map a label to the ``(var, tile)`` placements showing it on that side."""
    pool = IDPool()
    allowed = placements(puzzle, options)
    x = {(c, t, r): pool.id(("x", c, t, r)) for c, cell in enumerate(allowed) for t, r in cell}
    clauses: list[list[int]] = []
    for c, cell in enumerate(allowed):
        clauses.extend(exactly_one([x[c, t, r] for t, r in cell], pool, options.card))
    by_tile: dict[int, list[int]] = {t: [] for t in range(len(puzzle.tiles))}
    for (c, t, r), v in x.items():
        by_tile[t].append(v)
    for t in range(len(puzzle.tiles)):
        clauses.extend(exactly_one(by_tile[t], pool, options.card))

    def groups(cell: int, side: int) -> dict:
        out: dict = {}
        for t, r in allowed[cell]:
            out.setdefault(puzzle.oriented(t, r)[side], []).append((x[cell, t, r], t))
        return out

    for adj in puzzle.board.adjacencies:
        if adj.a != adj.b:  # self-loops are in puzzle.allowed
            clauses.extend(adjacency(puzzle, adj, groups(adj.a, adj.side_a), groups(adj.b, adj.side_b), options.redundant))
    cnf = make_cnf(clauses, pool.top)
    return Encoded(puzzle, base, options, cnf, pool, decision=sorted(x.values()),
                   decode=lambda model: decode(puzzle, x, model),
                   literals=lambda s: literals(x, s))


def decode(puzzle: Puzzle, x: dict, model) -> Solution:
    true = true_set(model)
    cells: dict[int, tuple[int, int]] = {}
    for (c, t, r), v in x.items():
        if v in true:
            cells[c] = (t, r)
    return Solution(tuple(cells.get(c, (-1, -1)) for c in range(puzzle.n)))


def literals(x: dict, solution: Solution) -> list[int] | None:
    out = []
    for c, (t, r) in enumerate(solution):
        v = x.get((c, t, r))
        if v is None:
            return None
        out.append(v)
    return out


def conflicts(puzzle: Puzzle, ga: dict, gb: dict) -> list[list[int]]:
    """``(-x, -y)`` for every pair of different tiles whose touching labels do not fit."""
    out = []
    for la, xs in ga.items():
        want = puzzle.partner(la)
        for lb, ys in gb.items():
            if lb != want:
                out.extend([-v, -w] for v, t in xs for w, u in ys if t != u)
    return out


def supports(puzzle: Puzzle, ga: dict, gb: dict) -> list[list[int]]:
    """``x -> OR(y)`` over the placements ``y`` of the other cell (another tile) that fit ``x``."""
    out = []
    for la, xs in ga.items():
        ys = gb.get(puzzle.partner(la), ())
        for v, t in xs:
            out.append([-v] + [w for w, u in ys if u != t])
    return out

