"""The order in which the backtracker fills the cells, and the size of the search tree an order
should give, estimated from the puzzle's colour profile.

Named orders, each starting in the top-left corner: ``rows`` (row by row, left to right),
``columns``, ``spiral`` (the outer ring clockwise, then the next ring in), ``border`` (the outer
ring, then the inside row by row).  ``auto`` estimates the tree of each of them and of the
eight turns and mirrors of the row scan and picks the smallest; on a framed square board with
a corner fixed (:func:`satedge.backtrack.symmetry_broken`) that is a scan whose first row or column
holds the fixed corner.

The estimate is the first moment of the search tree: at depth ``k`` the expected number of
partial solutions of the first ``k`` cells is the product of each cell's placements (those
left of its kind of tile) and, for each pair of touching sides among them, the chance that two
placements drawn from the two cells' lists fit (their label distributions).  Its sum over the
depths is the tree's expected size.  A cell's placements are those the search tries: one turn
of a tile among those that look the same there, and one copy of identical tiles (they go in
order, :mod:`satedge.backtrack.plans`), so a class of identical tiles counts as one tile while
any copy of it is left (the chance of that, the tiles before drawn at random).  Before, every
copy counted: a ring of 20 identical tiles made the row scan look cheaper than the spiral, and
it took more than 65 times as long.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=2, cols=3, tiles=((0, 1, 0, 0),) * 6, frame=0)
>>> cell_order(p, "rows"), cell_order(p, "columns"), cell_order(p, "spiral")
((0, 1, 2, 3, 4, 5), (0, 3, 1, 4, 2, 5), (0, 1, 2, 5, 4, 3))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from ..errors import SatedgeError
from ..puzzle.model import Allowed, Puzzle

__all__ = ["ORDERS", "cell_order", "named_orders", "estimate", "twin_keys"]

ORDERS = ("auto", "rows", "columns", "spiral", "border")


def _scan(rows: int, cols: int, turn: int) -> tuple[int, ...]:
    """The row scan under one of the board's eight symmetries: bit 0 starts at the bottom, bit 1
    at the right, bit 2 scans columns instead of rows."""
    outer, inner = (cols, rows) if turn & 4 else (rows, cols)
    cells = []
    for a in range(outer):
        for b in range(inner):
            r, c = (b, a) if turn & 4 else (a, b)
            r = rows - 1 - r if turn & 1 else r
            c = cols - 1 - c if turn & 2 else c
            cells.append(r * cols + c)
    return tuple(cells)


def _spiral(rows: int, cols: int) -> tuple[int, ...]:
    out: list[int] = []
    top, bottom, left, right = 0, rows - 1, 0, cols - 1
    while top <= bottom and left <= right:
        out += [top * cols + c for c in range(left, right + 1)]
        out += [r * cols + right for r in range(top + 1, bottom + 1)]
        if top < bottom:
            out += [bottom * cols + c for c in range(right - 1, left - 1, -1)]
        if left < right:
            out += [r * cols + left for r in range(bottom - 1, top, -1)]
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return tuple(out)


def named_orders(puzzle: Puzzle) -> dict[str, tuple[int, ...]]:
    """Every order ``auto`` chooses from, by name: the named orders, then the row scan's other
    turns and mirrors (``rows-1`` to ``rows-7``, by :func:`_scan`'s bits)."""
    rows, cols = puzzle.rows, puzzle.cols
    spiral = _spiral(rows, cols)
    ring = 2 * (rows + cols) - 4 if rows > 1 and cols > 1 else rows * cols
    inside = tuple(c for c in _scan(rows, cols, 0) if c not in set(spiral[:ring]))
    found = {
        "rows": _scan(rows, cols, 0),
        "columns": _scan(rows, cols, 4),
        "spiral": spiral,
        "border": spiral[:ring] + inside,
    }
    for turn in (1, 2, 3, 5, 6, 7):
        found[f"rows-{turn}"] = _scan(rows, cols, turn)
    return found


def estimate(puzzle: Puzzle, order: Sequence[int], allowed: Allowed | None = None) -> float:
    """The expected size of the backtracker's tree (log10 of its nodes) when it fills the cells
    in ``order`` with the placements ``allowed`` (default :attr:`Puzzle.allowed`); ``-inf``
    when some cell has no placement."""
    return _estimate(_profile(puzzle, puzzle.allowed if allowed is None else allowed), order)


def _profile(puzzle: Puzzle, allowed: Allowed) -> tuple[list, list]:
    """What the estimate needs whatever the order: per touching pair of cells the log of the
    chance that two of their placements fit, per cell its number of placements and its tiles."""
    shown: dict[tuple[int, int], Counter] = {}  # cells of one kind share one tuple of placements

    def labels(cell: int, side: int) -> Counter:
        key = (id(allowed[cell]), side)
        if key not in shown:
            shown[key] = Counter(puzzle.label_id[puzzle.oriented(t, r)[side]] for t, r in allowed[cell])
        return shown[key]

    pairs = []
    for adj in puzzle.board.adjacencies:
        if adj.a == adj.b:
            continue  # a self-loop is in allowed already
        a, b = labels(adj.a, adj.side_a), labels(adj.b, adj.side_b)
        both = sum(a.values()) * sum(b.values())
        chance = sum(n * b[puzzle.partner_id(x)] for x, n in a.items()) / both if both else 0.0
        pairs.append((adj.a, adj.b, math.log(chance) if chance else -math.inf))
    twin = twin_keys(puzzle, allowed)
    tiles: dict[int, tuple[int, frozenset, tuple]] = {}  # per kind of cell, as shown is
    for c in puzzle.board.cells:
        if id(allowed[c]) not in tiles:
            tried = {(twin[t], puzzle.oriented(t, r)) for t, r in allowed[c]}
            group = frozenset(t for t, _ in allowed[c])
            copies = Counter(Counter(twin[t] for t in group).values())  # class size -> classes
            tiles[id(allowed[c])] = (len(tried), group, tuple(sorted(copies.items())))
    return pairs, [tiles[id(allowed[c])] for c in puzzle.board.cells]


def twin_keys(puzzle: Puzzle, allowed: Allowed) -> dict[int, frozenset]:
    """Per tile, the labels it shows at each kind of cell (cells of one kind share their tuple of
    placements): tiles with the same key are identical tiles, which the search places in one
    order (:mod:`satedge.backtrack.plans`)."""
    where: dict[int, set] = {}
    for options in {id(o): o for o in allowed}.values():
        for t, r in options:
            where.setdefault(t, set()).add((id(options), puzzle.oriented(t, r)))
    return {t: frozenset(w) for t, w in where.items()}


def _classes_left(size: int, copies: tuple, taken: int) -> float:
    """The expected number of classes of identical tiles with a copy left, of a group of ``size``
    tiles (``copies``: (class size, classes) pairs) once ``taken`` of them drawn at random are
    placed."""
    if taken == 0:
        return float(sum(n for _, n in copies))
    whole = math.comb(size, taken)
    return sum(n * (1 - (math.comb(size - m, taken - m) / whole if taken >= m else 0.0)) for m, n in copies)


def _estimate(profile: tuple[list, list], order: Sequence[int]) -> float:
    pairs, cells = profile
    pos = {cell: i for i, cell in enumerate(order)}
    fit = [0.0] * len(order)  # per depth, log of the chance that its sides towards earlier cells fit
    for a, b, chance in pairs:
        fit[max(pos[a], pos[b])] += chance
    taken: Counter = Counter()
    depth, sizes = 0.0, []
    for i, cell in enumerate(order):
        count, tiles, copies = cells[cell]
        k = taken[tiles]
        if not copies:  # no placement at all
            left = 0.0
        elif len(copies) == 1 and copies[0][0] == 1:  # no identical tiles: the tiles left
            left = (len(tiles) - k) / len(tiles)
        else:
            left = _classes_left(len(tiles), copies, k) / sum(n for _, n in copies)
        taken[tiles] += 1
        if left <= 0 or fit[i] == -math.inf:
            break
        depth += math.log(count * left) + fit[i]
        sizes.append(depth)
    if not sizes:
        return -math.inf
    top = max(sizes)
    return (top + math.log(sum(math.exp(s - top) for s in sizes))) / math.log(10)


def cell_order(puzzle: Puzzle, name: str = "auto", allowed: Allowed | None = None) -> tuple[int, ...]:
    """The cells (row-major numbers) in the order ``name`` fills them; ``auto``: the order of
    :func:`named_orders` with the smallest :func:`estimate` for ``allowed``, the first of those
    equal to four decimals (the turns of one scan often differ in the sixth)."""
    if name not in ORDERS:
        raise SatedgeError(f"unknown cell order {name!r}; choose from {', '.join(ORDERS)}")
    found = named_orders(puzzle)
    if name != "auto":
        return found[name]
    profile = _profile(puzzle, puzzle.allowed if allowed is None else allowed)
    scored = [(round(_estimate(profile, order), 4), i) for i, order in enumerate(found.values())]
    return list(found.values())[min(scored)[1]]
