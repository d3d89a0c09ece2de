"""The ``heule`` encoding: Heule's compact encoding exactly as his encoder writes the SAT
Competition 2009 ``em_*`` formulas (framed grid boards only).

Variables
    * ``x[t, c]``: tile t lies in cell c, for the cells of its class only (a corner tile in the
      corners, a border tile on the border, a centre tile inside: the cells where a rotation of
      it fits the frame), with no rotation variables;
    * ``e[k, v]``: inner edge k shows colour v.  An edge between two border cells takes the
      border colours (those shown next to a frame side), every other inner edge the centre
      colours: ``Dom(k)``, the colours the placements on either side can show there.

    ``sum_t |C(t)| + sum_k |Dom(k)|`` variables: 1473 on ``em_7_3_6``, 49,008 on Eternity II.

Clauses (sizes for ``card: pairwise``, the published builds)
    * exactly one colour per inner edge: ``sum_k (1 + C(|Dom(k)|, 2))``;
    * at least one tile per cell (``rows * cols``) and at least one cell per tile (one per
      tile); there is no at-most-one of either: the colours and the duplicate clauses imply it;
    * duplicates: two tiles equal up to rotation never share a cell: ``sum over such pairs of
      the cells of their class``;
    * a placed tile shows its colours.  On a corner or border cell its rotation is fixed: one
      binary clause per inner side (2 or 3).  Inside, by the tile's pattern of colours read
      clockwise (A, B, C, D different colours): one colour, 4 binary clauses; ABAB, 8 ternary
      clauses (every two neighbouring sides show an A and a B); AAAB, 7 (a side shows B, each
      pair of opposite and of neighbouring sides an A); AABB, 4 (each pair of opposite sides an
      A and a B); ABAC, 14 (B and C somewhere, each pair of neighbouring sides an A, B and C
      opposite); AABC, 16 (B and C somewhere, an A in each pair of opposite sides, C follows
      B, B precedes C, two As are followed by B); ABCD, 20 (each colour somewhere, and each
      followed by the next).  A tile of several colours also gets, per side whose domain has
      colours it lacks, one support clause (the side shows one of its colours): 4 per cell;
    * ``families: [atmostone]`` (the ``exp`` variant): at most one cell per tile,
      ``sum_t C(|C(t)|, 2)``;
    * ``families: [fbcolors]`` (``fbc``): instead of each support clause, one binary clause per
      colour of the side's domain the tile lacks (``-x or -e``);
    * ``redundant: true``: both families (the ``all`` variant).
    * ``symmetry: rotation`` keeps a corner tile in the top-left corner (fewer ``x``), or else
      one tile to some rotations (a nogood of four literals per other rotation of it, per inner
      cell), and clues fix their cell's tile and colours; neither is in Heule's builds.

A model fixes the tiles and every colour; the rotation is read off the colours (a tile that
looks the same in several rotations stands for all of them: see ``expand``).  On Heule's
instances (``puzzles/heule2008/``) and on Eternity II the four variants have exactly the
variables and clauses of his encoder's pairwise builds (a test compares them to his table).

Source
    M. J. H. Heule, "Solving edge-matching problems with satisfiability solvers", SAT 2008
    workshop SAT/CSP benchmarks; the ``em_*`` formulas of the SAT Competition 2009 crafted
    track (``cmp``, ``exp``, ``fbc``, ``all``).

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=2, cols=2, frame=0, tiles=((0, 1, 2, 0), (0, 0, 1, 2), (1, 0, 0, 2), (2, 1, 0, 0)))
>>> e = encode(p)
>>> e.nv, len(e.cnf.clauses), [e.pool.obj(v) for v in e.decision[:4]]
(24, 56, [('p', 0, 0), ('p', 1, 0), ('p', 2, 0), ('p', 3, 0)])
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import Any, cast

import numpy as np

from ...errors import SatedgeError, Unsupported
from ...puzzle.model import Puzzle, Solution
from ...system.files import shown
from ..base import Base, kinds
from ..cards import at_most_one, card_size, exactly_one
from ..core import BlockCNF, Encoded, Options, Size, clauses_size, placements, pool_of
from ..core import floor as core_floor

__all__ = ["FAMILIES", "encode", "size", "floor", "BASE"]

FAMILIES = ("atmostone", "fbcolors")


def _check(puzzle: Puzzle, options: Options) -> tuple[bool, bool]:
    """``(atmostone, fbcolors)``; a puzzle the encoding does not cover is :class:`Unsupported`."""
    unknown = sorted(set(options.families) - set(FAMILIES))
    if unknown:
        raise SatedgeError(f"unknown clause family {shown(unknown[0])}; choose from {', '.join(FAMILIES)}")
    if puzzle.frame is None or puzzle.topology != "grid":
        raise Unsupported("the heule encoding covers framed grid boards only: this puzzle has no frame")
    if puzzle.rows < 2 or puzzle.cols < 2:
        raise Unsupported("the heule encoding covers framed boards of at least 2 x 2 cells")
    both = options.redundant
    return both or "atmostone" in options.families, both or "fbcolors" in options.families


def _pattern_clauses(
    labels: tuple, side: Callable[[int, Any], Any], domains: list[set], fbcolors: bool
) -> list[list]:
    """The clauses (without ``-x``) that make the four sides of an inner cell show a rotation
    of ``labels`` (read clockwise); ``side(d, colour)`` is the literal of side d showing it."""
    a, b, c, d = labels
    kinds = len(set(labels))
    if kinds == 1:
        return [[side(j, a)] for j in range(4)]
    out: list[list] = []
    for j in range(4):  # the colours a side may show
        lacking = sorted(domains[j] - set(labels), key=repr)
        if lacking:
            out += [[-side(j, f)] for f in lacking] if fbcolors else [[side(j, x) for x in _distinct(labels)]]

    def somewhere(x: Any) -> list:
        return [side(j, x) for j in range(4)]

    def pairs(x: Any, step: int) -> list[list]:
        return [[side(j, x), side((j + step) % 4, x)] for j in range(4 if step == 1 else 2)]

    if kinds == 2:
        if a == c and b == d:  # ABAB
            return out + [
                cl
                for j in range(4)
                for cl in ([side(j, a), side((j + 1) % 4, a)], [side(j, b), side((j + 1) % 4, b)])
            ]
        counts = {x: labels.count(x) for x in labels}
        if 3 in counts.values():  # AAAB
            many = next(x for x, n in counts.items() if n == 3)
            one = next(x for x, n in counts.items() if n == 1)
            return out + [somewhere(one)] + pairs(many, 2) + pairs(many, 1)
        return out + [
            cl for j in range(2) for cl in ([side(j, a), side(j + 2, a)], [side(j, c), side(j + 2, c)])
        ]
    if kinds == 3:
        twice = next(x for x in labels if labels.count(x) == 2)
        r = next(r for r in range(4) if labels[r] == twice and labels[(r + 1) % 4] != twice)
        turned = labels[r:] + labels[:r]  # starts with the last of the two (ABAC: an A, then B)
        if turned[2] == twice:  # ABAC
            one, other = turned[1], turned[3]
            out += [somewhere(one), somewhere(other)]
            for j in range(4):
                out += [
                    [side(j, twice), side((j + 1) % 4, twice)],
                    [-side(j, one), side((j + 2) % 4, other)],
                    [-side(j, other), side((j + 2) % 4, one)],
                ]
            return out
        first, second = turned[1], turned[2]  # AABC read clockwise from the second A: A B C A
        out += [somewhere(first), somewhere(second)] + pairs(twice, 2)
        for j in range(4):
            out += [
                [-side(j, second), side((j + 3) % 4, first)],
                [-side(j, first), side((j + 1) % 4, second)],
                [-side(j, twice), -side((j + 1) % 4, twice), side((j + 2) % 4, first)],
            ]
        return out
    out += [somewhere(x) for x in labels]  # ABCD
    return out + [
        [-side(j, labels[i]), side((j + 1) % 4, labels[(i + 1) % 4])] for j in range(4) for i in range(4)
    ]


def _distinct(labels: tuple) -> list:
    return list(dict.fromkeys(labels))


class _Layout:
    """Where each tile may go, the inner edges and their colour domains, and the variables;
    ``relax``: each side of an edge its own colours (``e`` on the first side, ``f`` on the
    second) and a match variable ``m`` per edge, and at most one cell per tile."""

    def __init__(self, puzzle: Puzzle, options: Options, relax: bool = False):
        self.amo, self.fbc = _check(puzzle, options)
        self.relax = relax
        self.amo = self.amo or relax
        board = puzzle.board
        self.allowed = placements(puzzle, options)
        self.rots = []  # per cell: tile -> its allowed rotations (one dict for the cells that allow the same)
        same: dict[int, tuple] = {}
        for cell in self.allowed:
            if id(cell) not in same:
                rots: dict[int, list[int]] = {}
                for t, r in cell:
                    rots.setdefault(t, []).append(r)
                same[id(cell)] = (cell, rots)
            self.rots.append(same[id(cell)][1])
        self.edges = list(board.adjacencies)
        self.edge_of = {}  # (cell, side) -> edge index
        self.second = set()  # relaxed: the (cell, side) that show the f colours
        for k, adj in enumerate(self.edges):
            self.edge_of[adj.a, adj.side_a] = self.edge_of[adj.b, adj.side_b] = k
            if relax:
                self.second.add((adj.b, adj.side_b))
        shows: dict[tuple[int, int], set] = {}  # the colours the placements of a cell show on a side

        def colours(c: int, d: int) -> set:
            key = (id(self.allowed[c]), d)
            if key not in shows:
                shows[key] = {puzzle.oriented(t, r)[d] for t, r in self.allowed[c]}
            return shows[key]

        self.domain = [
            sorted((colours(adj.a, adj.side_a) | colours(adj.b, adj.side_b)) - {puzzle.frame}, key=repr)
            for adj in self.edges
        ]
        xs = [(t, c) for t in range(len(puzzle.tiles)) for c in board.cells if t in self.rots[c]]
        es = [(k, v) for k, dom in enumerate(self.domain) for v in dom]
        fs, ms = (es, list(range(len(self.edges)))) if relax else ([], [])
        self.pool = pool_of(
            [("p", c, t) for t, c in xs]
            + [("e", *key) for key in es]
            + [("f", *key) for key in fs]
            + [("m", k) for k in ms]
        )
        ids = iter(range(1, self.pool.top + 1))
        self.x, self.e, self.f = (dict(zip(keys, ids)) for keys in (xs, es, fs))
        self.m = list(ids)

    def side(self, c: int, d: int, colour: Any) -> int | None:
        if (c, d) not in self.edge_of:
            return None
        return (self.f if (c, d) in self.second else self.e).get((self.edge_of[c, d], colour))

    def placed(self, puzzle: Puzzle, t: int, c: int) -> list[list[int]]:
        """The clauses, without ``-x[t, c]``, that a placed tile shows its colours."""
        inner = [d for d in range(4) if (c, d) in self.edge_of]
        shapes = {puzzle.oriented(t, r) for r in self.rots[c][t]}
        if len(inner) < 4 or len(shapes) == 1:  # the rotation is fixed: one clause per inner side
            if len(shapes) != 1:
                raise Unsupported(
                    "the heule encoding needs each tile's rotation fixed by the frame off the centre"
                )
            (shown,) = shapes
            return [[self._lit(c, d, shown[d])] for d in inner]
        domains = [set(self.domain[self.edge_of[c, d]]) for d in range(4)]
        out = _pattern_clauses(puzzle.tiles[t], lambda d, v: self._lit(c, d, v), domains, self.fbc)
        kept = set(shapes)  # symmetry breaking may keep only some rotations: the others are nogoods
        for shape in dict.fromkeys(puzzle.orientations[t]):
            if shape not in kept:
                out.append([-self._lit(c, d, shape[d]) for d in range(4)])
        return out

    def _lit(self, c: int, d: int, colour: Any) -> int:
        v = self.side(c, d, colour)
        if v is None:  # a colour no placement shows there cannot be in a rotation of a placed tile
            raise AssertionError((c, d, colour))
        return v


def _duplicates(puzzle: Puzzle) -> list[tuple[int, int]]:
    """The pairs of tiles equal up to rotation."""
    key = [min(map(repr, puzzle.orientations[t])) for t in range(len(puzzle.tiles))]
    return [(s, t) for s, t in combinations(range(len(puzzle.tiles)), 2) if key[s] == key[t]]


ARRAYS_FROM = 4096  # placements from which the large families are built as arrays (below, lists are faster)


def _blocks(puzzle: Puzzle, lay: _Layout, card: str, arrays: bool | None = None) -> list:
    """The clauses, in :class:`BlockCNF` blocks, in this order: a colour per edge, a tile per
    cell, per tile a cell (and at most one), duplicates, then per placement its colours.  With
    ``arrays`` (by default: from :data:`ARRAYS_FROM` placements on) the large families are numpy
    arrays: the pairs of at most one cell per tile, and the colours of a placed tile, built once
    per tile and kind of cell and copied to every such cell; the clauses are the same."""
    if arrays is None:
        arrays = len(lay.x) >= ARRAYS_FROM
    board, tiles = puzzle.board, range(len(puzzle.tiles))
    blocks: list = [
        [
            cl
            for colours in (lay.e, lay.f)
            for k, dom in enumerate(lay.domain)
            for cl in (exactly_one([colours[k, v] for v in dom], lay.pool, card) if colours else ())
        ]
    ]
    if lay.relax:  # an edge fits where its match variable holds: -m | -e[k, v] | f[k, v]
        blocks.append([[-m, -lay.e[k, v], lay.f[k, v]] for k, m in enumerate(lay.m) for v in lay.domain[k]])
    blocks.append([[lay.x[t, c] for t in tiles if (t, c) in lay.x] for c in board.cells])
    cells_of = [[c for c in board.cells if (t, c) in lay.x] for t in tiles]
    for t in tiles:
        cells = [lay.x[t, c] for c in cells_of[t]]
        blocks.append([cells])
        if lay.amo:
            blocks.append(
                _pairs(cells) if arrays and card == "pairwise" else at_most_one(cells, lay.pool, card)
            )
    blocks.append(
        [
            [-lay.x[s, c], -lay.x[t, c]]
            for s, t in _duplicates(puzzle)
            for c in board.cells
            if (s, c) in lay.x and (t, c) in lay.x
        ]
    )
    if not arrays:
        return blocks + [[[-v] + cl for (t, c), v in lay.x.items() for cl in lay.placed(puzzle, t, c)]]
    # the colours of a placement: the side d of cell c showing the i-th colour of its edge's
    # domain is variable base[edge(c, d)] + i (each edge's colour variables are consecutive;
    # relaxed, the second sides' f colours are edges len(edges), ... of base)
    edge_at = np.full((len(board.cells), 4), -1, dtype=np.int64)
    for (c, d), k in lay.edge_of.items():
        edge_at[c, d] = k + (len(lay.edges) if (c, d) in lay.second else 0)
    base = np.array(
        [
            colours[k, dom[0]] if dom else 0
            for colours in (lay.e, lay.f)
            if colours
            for k, dom in enumerate(lay.domain)
        ],
        dtype=np.int64,
    )
    kind = _kinds(puzzle, lay)
    templates: dict = {}
    for t in tiles:  # runs of consecutive cells of one kind share the tile's template
        cells = cells_of[t]
        keys = [kind(t, c) for c in cells]
        start = 0
        for i in range(1, len(cells) + 1):
            if i == len(cells) or keys[i] != keys[start]:
                if (t, keys[start]) not in templates:
                    templates[t, keys[start]] = _template(puzzle, lay, t, cells[start])
                blocks.append(
                    _instantiate(
                        templates[t, keys[start]],
                        cells[start:i],
                        [lay.x[t, c] for c in cells[start:i]],
                        edge_at,
                        base,
                    )
                )
                start = i
    return blocks


def _pairs(xs: list[int]) -> np.ndarray:
    """Pairwise at most one of ``xs`` as an array, in PySAT's order."""
    i, j = np.triu_indices(len(xs), 1)
    neg = -np.array(xs, dtype=np.int32)
    return np.stack([neg[i], neg[j]], axis=1)


def _kinds(puzzle: Puzzle, lay: _Layout) -> Callable[[int, int], tuple]:
    """The kind of a placement ``(t, c)``: the tile's rotations there, the cell's inner sides and
    their domains.  Placements of one tile and kind have the same clauses up to the variables."""
    cell = [
        tuple((d, tuple(lay.domain[lay.edge_of[c, d]])) for d in range(4) if (c, d) in lay.edge_of)
        for c in puzzle.board.cells
    ]
    return lambda t, c: (tuple(lay.rots[c][t]), cell[c])


def _template(puzzle: Puzzle, lay: _Layout, t: int, c: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The clauses of tile ``t`` placed in cell ``c`` as arrays (side, colour index, sign) whose
    rows are the clauses (padded: sign 0), to be read for any cell of the same kind."""
    where = {}
    for d in range(4):
        if (c, d) in lay.edge_of:
            for i, v in enumerate(lay.domain[lay.edge_of[c, d]]):
                where[lay.side(c, d, v)] = (d, i)
    clauses = lay.placed(puzzle, t, c)
    width = max((len(cl) for cl in clauses), default=0)
    side = np.zeros((len(clauses), width), dtype=np.int64)
    index, sign = np.zeros_like(side), np.zeros_like(side)
    for r, cl in enumerate(clauses):
        for j, lit in enumerate(cl):
            side[r, j], index[r, j] = where[abs(lit)]
            sign[r, j] = 1 if lit > 0 else -1
    return side, index, sign


def _instantiate(
    template: tuple[np.ndarray, np.ndarray, np.ndarray],
    cells: list[int],
    xs: list[int],
    edge_at: Any,
    base: Any,
) -> np.ndarray:
    """The clauses ``-x or clause`` of ``template`` in each of ``cells`` (``xs``: the tile's
    variables there), cell after cell."""
    side, index, sign = template
    lits = sign[None] * (base[edge_at[np.array(cells)][:, side]] + index[None])  # cells x clauses x width
    out = np.empty((len(cells), side.shape[0], side.shape[1] + 1), dtype=np.int32)
    out[:, :, 0] = -np.array(xs, dtype=np.int32)[:, None]
    out[:, :, 1:] = lits
    return out.reshape(-1, side.shape[1] + 1)


def encode(puzzle: Puzzle, options: Options = Options(), relax: bool = False) -> Encoded:
    """The formula; ``relax``: its MaxSAT form (:mod:`.maxsat`): each side of an inner edge
    its own colours (``e`` on the first side, ``f`` on the second), a match variable ``m[k]``
    that makes them equal, ``m[k] & e[k, v] -> f[k, v]``, and at most one cell per tile (with
    unmatched edges the colours no longer imply it)."""
    lay = _Layout(puzzle, options, relax)
    cnf = BlockCNF(_blocks(puzzle, lay, options.card), lay.pool.top)
    board = puzzle.board

    @functools.cache
    def cells() -> list[list]:
        """Per cell, its tiles' placement variables, each with the tile's allowed rotations and
        the colour variables of what each shows on the inner edges (a rotation that shows a
        colour its side cannot, or anything but the frame towards the frame, has none); made at
        the first model."""
        out: list[list] = [[] for _ in board.cells]
        for (u, c), v in sorted(lay.x.items()):
            looks = []
            for r in lay.rots[c][u]:
                look = puzzle.oriented(u, r)
                lits = [
                    lay.side(c, d, look[d])
                    if (c, d) in lay.edge_of
                    else (True if look[d] == puzzle.frame else None)
                    for d in range(4)
                ]
                if None not in lits:
                    looks.append((r, [lit for lit in lits if lit is not True]))
            out[c].append((v, u, looks))
        return out

    def literals(solution: Solution) -> list[int] | None:
        out = []
        for c, (t, r) in enumerate(solution):
            if (t, c) not in lay.x or r not in lay.rots[c][t]:
                return None
            out.append(lay.x[t, c])
            for d in range(4):
                if (c, d) in lay.edge_of:
                    v = lay.side(c, d, puzzle.oriented(t, r)[d])
                    if v is None:
                        return None
                    out.append(v)
        return sorted(set(out))

    def shows(c: int, look: tuple) -> list[list[int]]:
        """The colour literals of the look's labels on the cell's edges; the other sides show the frame."""
        if any((c, d) not in lay.edge_of and look[d] != puzzle.frame for d in range(4)):
            return []
        lits = [lay.side(c, d, look[d]) for d in range(4) if (c, d) in lay.edge_of]
        return [] if None in lits else [cast(list[int], lits)]

    return Encoded(
        puzzle,
        "heule",
        options,
        cnf,
        lay.pool,
        decision=sorted(lay.x.values()) + sorted(lay.e.values()) + sorted(lay.f.values()),
        cells=cells,
        literals=literals,
        shows=shows,
        soft=tuple(lay.m) if relax else None,
    )


def floor(puzzle: Puzzle, options: Options = Options()) -> Size:
    """A low bound on the formula's size, at once: a placement variable per tile a cell allows,
    one clause per cell that it holds one (:func:`satedge.encode.core.floor`)."""
    _check(puzzle, options)  # what the encoding does not cover, refused as size() refuses it
    return core_floor(puzzle, options, lambda placed, tiles: Size(tiles, 1, tiles))


def size(puzzle: Puzzle, options: Options = Options()) -> Size:
    """The formula's size, counted from the families above without building them: the clauses of
    a placed tile are counted once per tile, rotations and kind of cell."""
    lay = _Layout(puzzle, options)
    total = Size(lay.pool.top)
    for dom in lay.domain:
        total += card_size(len(dom), options.card)
    total += Size(0, len(puzzle.board.cells), len(lay.x))  # a tile per cell
    per_tile = Counter(t for t, _ in lay.x)
    for t in range(len(puzzle.tiles)):
        n = per_tile[t]
        total += Size(0, 1, n) + (card_size(n, options.card, exactly=False) if lay.amo else Size())
    for s, t in _duplicates(puzzle):
        shared = sum(1 for c in puzzle.board.cells if (s, c) in lay.x and (t, c) in lay.x)
        total += Size(0, shared, 2 * shared)
    kind = _kinds(puzzle, lay)
    first: dict = {}  # (tile, kind) -> its first cell
    counts: Counter = Counter()
    for t, c in lay.x:
        key = (t, kind(t, c))
        first.setdefault(key, c)
        counts[key] += 1
    for (t, key), n in counts.items():
        total += clauses_size([[0] + cl for cl in lay.placed(puzzle, t, first[t, key])]).times(n)
    return total


BASE = Base(
    name="heule",
    summary=(
        "Heule's compact encoding exactly as his encoder writes the SAT Competition 2009 em_* "
        "formulas (framed grid boards only)."
    ),
    build=encode,
    size=size,
    floor=floor,
    relaxed=partial(encode, relax=True),
    kinds=kinds("p", "e", "f", "m"),
    families=FAMILIES,
)
