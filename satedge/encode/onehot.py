"""One-hot placement variables ``x[cell, tile, rot]``, shared by :mod:`.direct` and :mod:`.support`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pysat.formula import IDPool

from ..puzzle.model import Puzzle
from .cards import card_floor, card_size, exactly_one
from .core import Encoded, Options, Size, floor, placements

__all__ = [
    "placement_formula",
    "conflicts",
    "supports",
    "conflicts_size",
    "supports_size",
    "placement_floor",
    "placement_size",
]


def placement_formula(
    puzzle: Puzzle, options: Options, base: str, adjacency: Callable, relax: bool = False
) -> Encoded:
    """``x`` variables (one per allowed placement), exactly one per cell and per tile, then the
    clauses ``adjacency(puzzle, adj, groups_a, groups_b, redundant)`` yields for every adjacency,
    where ``groups`` map a label to the ``(var, tile)`` placements showing it on that side.
    ``relax``: the MaxSAT form, each adjacency's clauses guarded by its match variable ``m[k]``
    (``-m[k]`` added to each), the soft clauses ``m[k]``."""
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

    soft = []
    for k, adj in enumerate(puzzle.board.adjacencies):
        if adj.a != adj.b:  # self-loops are in puzzle.allowed
            fit = adjacency(
                puzzle, adj, groups(adj.a, adj.side_a), groups(adj.b, adj.side_b), options.redundant
            )
            if relax:
                m = pool.id(("m", k))
                soft.append(m)
                fit = [c + [-m] for c in fit]
            clauses.extend(fit)
    return Encoded.of_placements(puzzle, base, options, clauses, pool, x, soft if relax else None)


def conflicts(puzzle: Puzzle, ga: dict, gb: dict) -> list[list[int]]:
    """``(-x, -y)`` for every pair of different tiles whose touching labels do not fit."""
    out: list[list[int]] = []
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


# ---------------------------------------------------------------------------- sizes, without building
def _label_groups(puzzle: Puzzle, cell: tuple, side: int) -> dict:
    """Per label shown on ``side``, how many placements of each tile show it."""
    out: dict = {}
    for t, r in cell:
        out.setdefault(puzzle.oriented(t, r)[side], Counter())[t] += 1
    return out


def conflicts_size(puzzle: Puzzle, ga: dict, gb: dict) -> Size:
    """The size of :func:`conflicts`: the pairs of different tiles, less those that fit."""
    a_tiles: Counter = Counter()
    b_tiles: Counter = Counter()
    for c in ga.values():
        a_tiles.update(c)
    for c in gb.values():
        b_tiles.update(c)
    pairs = sum(a_tiles.values()) * sum(b_tiles.values()) - sum(k * b_tiles[t] for t, k in a_tiles.items())
    for la, na in ga.items():
        nb = gb.get(puzzle.partner(la))
        if nb:
            pairs -= sum(na.values()) * sum(nb.values()) - sum(k * nb[t] for t, k in na.items())
    return Size(0, pairs, 2 * pairs)


def supports_size(puzzle: Puzzle, ga: dict, gb: dict) -> Size:
    """The size of :func:`supports`: one clause per placement, its length one more than its support."""
    clauses = lits = 0
    for la, na in ga.items():
        nb = gb.get(puzzle.partner(la), Counter())
        total = sum(nb.values())
        for t, k in na.items():
            clauses += k
            lits += k * (1 + total - nb[t])
    return Size(0, clauses, lits)


def placement_floor(puzzle: Puzzle, options: Options) -> Size:
    """A low bound on the size of :func:`placement_formula`: its variables and exactly one
    placement per cell (:func:`satedge.encode.core.floor`)."""
    return floor(puzzle, options, lambda placed, tiles: Size(placed) + card_floor(placed, options.card))


def placement_size(puzzle: Puzzle, options: Options, adjacency: Callable) -> Size:
    """The size of :func:`placement_formula` with ``adjacency(puzzle, groups_a, groups_b, redundant)``
    giving the size of each adjacency's clauses (the groups as :func:`_label_groups` has them)."""
    allowed = placements(puzzle, options)
    size = Size(sum(map(len, allowed)))
    for cell in allowed:
        size += card_size(len(cell), options.card)
    per_tile = Counter(t for cell in allowed for t, _ in cell)
    for t in range(len(puzzle.tiles)):
        size += card_size(per_tile[t], options.card)
    groups: dict = {}
    for adj in puzzle.board.adjacencies:
        if adj.a != adj.b:
            for c, side in ((adj.a, adj.side_a), (adj.b, adj.side_b)):  # cells of one kind share their groups
                if (allowed[c], side) not in groups:
                    groups[allowed[c], side] = _label_groups(puzzle, allowed[c], side)
            size += adjacency(
                puzzle,
                groups[allowed[adj.a], adj.side_a],
                groups[allowed[adj.b], adj.side_b],
                options.redundant,
            )
    return size
