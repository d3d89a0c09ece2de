"""The puzzle's global counts: how many sides of each class show each label, on every solution.

The cells fall into *groups*: the connected parts of the graph that joins each cell to the tiles
it allows (:attr:`satedge.puzzle.model.Puzzle.allowed`).  On a framed board they are the
corners, the border and the centre (and each clue cell whose tile goes nowhere else); on a
torus, the whole board.  A group with as many tiles as cells holds exactly its tiles on every
solution.  A *side class* is the sides of one group's cells that face one group (or the
outside).  Its count of a label (how many of its sides show it) is the same on every solution
when one of these holds, found in turn until nothing more is:

* **tiles**: each tile of the group shows the same labels on the class's sides wherever it may
  lie (an edge tile's side toward the centre, the frame side's opposite);
* **seam**: the sides that face them are counted: each side of the class touches exactly one
  side of the class of the other group facing back, which shows the label that fits (under
  identical matching the same label; under complementary matching its partner);
* **rest**: the group's tiles' labels, less the counts of all its other classes.

So on Eternity II the labels of the frame ring, of the border's sides toward the centre, of the
centre's sides toward the border and of the centre's sides among themselves are all fixed: the
balance a partial board can break long before a conflict shows it.  A count that cannot be met
(a negative rest, an odd count of a class that meets itself under identical matching) means the
puzzle has no solution.

>>> from satedge.puzzle.generate import Params, generate
>>> p = generate(Params(rows=4, cols=4, colors=3, border_colors=2, frame=True), 0)
>>> for c in side_counts(p)[:4]:
...     print(f"{c.name}: {c.how}, {len(c.sides)} sides")
corners toward the outside: tiles, 8 sides
corners toward the border: tiles, 8 sides
border toward the outside: tiles, 8 sides
border toward the corners: seam, 8 sides
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from .model import Label, Puzzle

__all__ = ["SideClass", "groups", "side_counts"]

OUTSIDE = -1  # the group an outside side faces


@dataclass(frozen=True)
class SideClass:
    """The sides of one group's cells that face one group (or the outside), and the count of
    each label they show on every solution.

    Attributes
    ----------
    name
        Which sides: ``"centre toward the border"``.
    sides
        ``(cell, side)`` pairs, in order.
    labels
        Label -> how many of the sides show it (labels that none shows left out); a count below
        zero means no solution.
    how
        How the counts follow: ``tiles``, ``seam`` or ``rest`` (the module's docstring).
    """

    name: str
    sides: tuple[tuple[int, int], ...]
    labels: Mapping[Label, int] = field(default_factory=dict)
    how: str = ""


def groups(puzzle: Puzzle) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The groups of cells and their tiles, ``(cells, tiles)``: the connected parts of the graph
    joining each cell to the tiles it allows, in the order of their first cell."""
    parent = list(range(len(puzzle.board.cells) + len(puzzle.tiles)))  # cells, then tiles

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    n = len(puzzle.board.cells)
    for c, cell in enumerate(puzzle.allowed):
        for t in {t for t, _ in cell}:
            parent[root(n + t)] = root(c)
    found: dict[int, tuple[list[int], list[int]]] = {}
    for c in puzzle.board.cells:
        found.setdefault(root(c), ([], []))[0].append(c)
    for t in range(len(puzzle.tiles)):
        if root(n + t) in found:
            found[root(n + t)][1].append(t)
    return [(tuple(cells), tuple(tiles)) for cells, tiles in found.values()]


def _names(puzzle: Puzzle, parts: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> list[str]:
    """A name per group: the corners, the border and the centre of a framed grid, a clue cell by
    its square, else ``group i`` (``board`` when there is one)."""
    if len(parts) == 1:
        return ["board"]
    rows, cols = puzzle.rows, puzzle.cols
    out = []
    for i, (cells, _) in enumerate(parts):
        where = {(r in (0, rows - 1)) + (c in (0, cols - 1)) for r, c in map(puzzle.board.position, cells)}
        if len(cells) == 1:
            r, c = puzzle.board.position(cells[0])
            out.append(f"cell ({r}, {c})")
        elif puzzle.frame is not None and where == {2}:
            out.append("corners")
        elif puzzle.frame is not None and where == {1}:
            out.append("border")
        elif puzzle.frame is not None and where == {0}:
            out.append("centre")
        else:
            out.append(f"group {i}")
    return out if len(set(out)) == len(out) else [f"group {i}" for i in range(len(parts))]


def side_counts(puzzle: Puzzle) -> list[SideClass]:
    """Every side class whose label counts are the same on every solution (see the module's
    docstring), in the order of its group and the group it faces (the outside first)."""
    parts = groups(puzzle)
    names = _names(puzzle, parts)
    group_of = {c: g for g, (cells, _) in enumerate(parts) for c in cells}
    facing: dict[tuple[int, int], int] = {}  # (cell, side) -> the group it faces
    for adj in puzzle.board.adjacencies:
        facing[adj.a, adj.side_a] = group_of[adj.b]
        facing[adj.b, adj.side_b] = group_of[adj.a]
    classes: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for c in puzzle.board.cells:
        for d in range(4):
            classes.setdefault((group_of[c], facing.get((c, d), OUTSIDE)), []).append((c, d))
    whole = {g for g, (cells, tiles) in enumerate(parts) if len(cells) == len(tiles)}
    known: dict[tuple[int, int], tuple[Counter, str]] = {}
    for key, sides in classes.items():
        if key[0] in whole and (got := _by_tiles(puzzle, parts[key[0]], sides)) is not None:
            known[key] = (got, "tiles")
    while True:
        more = False
        for g, h in classes:
            if (g, h) in known and h not in (OUTSIDE, g) and (h, g) not in known:
                seen = known[g, h][0]
                known[h, g] = (Counter({puzzle.partner(x): n for x, n in seen.items()}), "seam")
                more = True
        for g in whole:
            mine = [key for key in classes if key[0] == g]
            left = [key for key in mine if key not in known]
            if len(left) == 1:
                rest = Counter(x for t in parts[g][1] for x in puzzle.tiles[t])
                for key in mine:
                    if key in known:
                        rest.subtract(known[key][0])
                known[left[0]] = (rest, "rest")
                more = True
        if not more:
            break
    out = []
    for key in sorted(known, key=lambda k: (k[0], k[1])):
        counts, how = known[key]
        g, h = key
        toward = (
            "the outside"
            if h == OUTSIDE
            else "itself"
            if h == g
            else f"the {names[h]}"
            if names[h] in ("corners", "border", "centre")
            else names[h]
        )
        out.append(
            SideClass(
                f"{names[g]} toward {toward}",
                tuple(classes[key]),
                {x: n for x, n in sorted(counts.items(), key=lambda item: repr(item[0])) if n},
                how,
            )
        )
    return out


def _by_tiles(
    puzzle: Puzzle, part: tuple[tuple[int, ...], tuple[int, ...]], sides: list[tuple[int, int]]
) -> Counter | None:
    """The labels the group's tiles show on ``sides``, when each tile shows the same ones
    wherever it may lie in the group; else ``None``."""
    cells, tiles = part
    by_cell: dict[int, list[int]] = {}
    for c, d in sides:
        by_cell.setdefault(c, []).append(d)
    shown: dict[int, set[tuple]] = {t: set() for t in tiles}
    for c in cells:
        ds = by_cell.get(c, [])
        for t, r in puzzle.allowed[c]:
            look = puzzle.oriented(t, r)
            shown[t].add(tuple(sorted((look[d] for d in ds), key=repr)))
    total: Counter = Counter()
    for t in tiles:
        if len(shown[t]) != 1:
            return None
        total.update(next(iter(shown[t])))
    return total
