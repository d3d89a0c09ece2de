"""The ``edgecolor`` encoding: placements without rotation, and one-hot edge colours.

Variables
    * ``p[c, t]``: cell c holds tile t, for the tiles ``T(c)`` with an allowed placement in c;
    * ``e[k, v]``: edge k of the board graph has value v, for every adjacency (self-loops of a
      thin torus included).  The value is the label shown on the edge's first side ``(a, da)``;
      the other side shows the label that fits it, so for complementary puzzles a value is a
      pattern together with which side holds the head.  ``Dom(k)``: the labels ``a`` can show on
      ``da`` whose partner ``b`` can show on ``db``;
    * ``o[c, d, l]``: the label on an outside side of a grid without a frame (a frame fixes it);

    ``sum_c |T(c)| + sum_k |Dom(k)| + sum_outside |L(c, d)|`` variables plus card auxiliaries.

Clauses (sizes for ``card: pairwise``)
    * exactly one tile per cell and each tile exactly once, as in :mod:`.split`;
    * exactly one value per edge: ``sum_k (1 + C(|Dom(k)|, 2))`` (and per free outside side);
    * per-tile clauses, for each ``p[c, t]`` with allowed rotations ``R``: a decision tree over
      the sides read clockwise.  Level 1, for each side d: ``p -> OR side(d) in Lab(d)`` (4
      clauses); level 2, for each side d and label ``l`` in ``Lab(d)``: ``p & side(d)=l ->
      side(d+1) in next(l)`` (16 when the four labels differ); levels 3 and 4 (prefixes of two and
      three sides) only for tiles with repeated labels, and only until the clauses admit exactly
      the rotations of the tile.  A side fixed by the frame drops out of its clauses.
    * ``redundant: true``: side supports, ``e[k, v] -> OR p`` over the tiles that can show v on
      each end of edge k (``2 sum_k |Dom(k)|`` clauses), and corner supports: for each cell c,
      each corner (sides d, d+1) and labels a, b they can show, ``side(d)=a & side(d+1)=b -> OR
      p[c, t]`` over the tiles with a rotation showing a, b there, a binary nogood when there is
      none (``sum_c sum_d |Lab(c, d)| |Lab(c, d+1)|`` clauses on a torus; a corner with a frame
      side has one clause per label of the other side, a corner with two frame sides none).

A model fixes the tiles and every label shown; the rotation is read off the labels (a tile
that looks the same in several rotations stands for all of them: see ``expand``).

Source
    M. J. H. Heule, "Solving edge-matching problems with satisfiability solvers", SAT 2008
    workshop SAT/CSP benchmarks, the compact encoding with colour variables on the edges; its
    redundant clauses guide the search.  The corner supports are satedge's: they make unit
    propagation see which pairs of colours no remaining tile can show at a corner.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> e = encode(p)
>>> e.cnf.nv, [e.pool.obj(v) for v in e.decision]
(5, [('p', 0, 0), ('p', 0, 1), ('p', 1, 0), ('p', 1, 1), ('e', 0, 1)])
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from pysat.formula import IDPool

from ...puzzle.model import Puzzle, Solution
from ..base import Base, kinds
from ..cards import card_floor, card_size, exactly_one
from ..core import Encoded, Options, Size, make_cnf, placements
from ..core import floor as core_floor

__all__ = ["tile_templates", "corner_supports", "encode", "size", "floor", "BASE"]

TRUE, FALSE = object(), object()


def tile_templates(rows: list[tuple]) -> list[tuple[int, tuple, list]]:
    """Clauses ``(d, prefix, ext)``: "sides d, d+1, ... show ``prefix`` -> the next side shows one of
    ``ext``", by levels, stopping when exactly the labellings in ``rows`` are admitted.

    >>> len(tile_templates([(1, 2, 3, 4), (4, 1, 2, 3), (3, 4, 1, 2), (2, 3, 4, 1)]))
    20
    >>> tile_templates([(1, 2, 3, 4)])
    [(0, (), [1]), (1, (), [2]), (2, (), [3]), (3, (), [4])]
    """
    target = set(rows)
    out: list[tuple[int, tuple, list]] = []
    for k in range(4):  # prefix length
        windows = []  # per side d: the labels of sides d..d+k that some row shows
        for d in range(4):
            ext: dict[tuple, set] = {}
            for row in rows:
                window = tuple(row[(d + i) % 4] for i in range(k + 1))
                ext.setdefault(window[:k], set()).add(window[k])
            windows.append({pre + (x,) for pre, xs in ext.items() for x in xs})
            out += [(d, pre, sorted(ext[pre])) for pre in sorted(ext)]
        # the levels so far admit exactly the labellings whose windows of k + 1 sides are rows'
        # windows (a prefix of a row's window is a row's window): done when each is a row
        if not _admits_more(target, windows, k):
            break
    return out


def _admits_more(target: set, windows: list[set], k: int) -> bool:
    """Whether a labelling that is not in ``target`` has every window of k + 1 sides from side d
    in ``windows[d]``: built side by side, each side extending the window that ends there."""

    def more(labels: tuple) -> bool:
        j = len(labels)
        if j == 4:
            return labels not in target and all(
                tuple(labels[(d + i) % 4] for i in range(k + 1)) in windows[d] for d in range(4 - k, 4)
            )
        start = labels[j - k :]
        return any(more(labels + (w[k],)) for w in windows[j - k] if w[:k] == start)

    return any(more(w) for w in windows[0])


def corner_supports(
    puzzle: Puzzle, allowed: Any, shows: Any, p: dict, side: Callable[[int, int, Any], int]
) -> list[list[int]]:
    """For each cell, each corner (sides d and d+1) and each labels a, b those sides can show:
    ``side(d)=a & side(d+1)=b -> OR p[c, t]`` over the tiles with a rotation showing a then b;
    a binary nogood when no tile does.  A side fixed by the frame drops out."""
    out = []
    for c, cell in enumerate(allowed):
        for d in range(4):
            d2 = (d + 1) % 4
            support: dict[tuple, set[int]] = {}
            for t, r in cell:
                labels = puzzle.oriented(t, r)
                support.setdefault((labels[d], labels[d2]), set()).add(p[c, t])
            for a in shows[c][d]:
                for b in shows[c][d2]:
                    la, lb = side(c, d, a), side(c, d2, b)
                    if la is FALSE or lb is FALSE or (la is TRUE and lb is TRUE):
                        continue
                    out.append([-x for x in (la, lb) if x is not TRUE] + sorted(support.get((a, b), ())))
    return out


class _Layout(NamedTuple):
    """The variables of the encoding and what each side of each cell shows."""

    pool: IDPool
    allowed: tuple
    rots: list  # per cell: tile -> its allowed rotations
    shows: list  # per cell and side: the labels it can show
    p: dict
    e: dict
    o: dict
    free_outside: list
    side_map: list  # per cell and side: label -> literal, or TRUE (the frame)
    f: dict  # relaxed: per inner edge and label, its second side shows it

    def side(self, c: int, d: int, lab: Any) -> int:
        return self.side_map[c][d].get(lab, FALSE)

    def sides(
        self, k: int, lab: Any, puzzle: Puzzle, second: bool = False
    ) -> tuple[tuple[int, int, Any], ...]:
        """The ends of edge ``k``'s value ``lab`` (``second``: of its second side's, ``f``),
        each cell and side with the label it shows there: both ends where they share it."""
        adj = puzzle.board.adjacencies[k]
        if second:
            return ((adj.b, adj.side_b, lab),)
        if (k, lab) in self.e and any(j == k for j, _ in self.f):
            return ((adj.a, adj.side_a, lab),)
        return ((adj.a, adj.side_a, lab), (adj.b, adj.side_b, puzzle.partner(lab)))


def _layout(puzzle: Puzzle, options: Options, relax: bool = False) -> _Layout:
    pool = IDPool()
    allowed = placements(puzzle, options)
    board = puzzle.board
    rots: list[dict[int, tuple[int, ...]]] = []
    for cell in allowed:
        turns: dict[int, list[int]] = {}
        for t, r in cell:
            turns.setdefault(t, []).append(r)
        rots.append({t: tuple(rs) for t, rs in turns.items()})
    of_kind: dict = {}  # cells of one kind (the same placements) show the same labels
    for cell in allowed:
        if cell not in of_kind:
            of_kind[cell] = [
                sorted({puzzle.oriented(t, r)[d] for t, r in cell}, key=lambda x: puzzle.label_id[x])
                for d in range(4)
            ]
    shows = [of_kind[cell] for cell in allowed]
    p = {(c, t): pool.id(("p", c, t)) for c in board.cells for t in sorted(rots[c])}
    adjs = board.adjacencies
    edge_of = {}
    for k, adj in enumerate(adjs):
        edge_of[adj.a, adj.side_a] = (k, True)
        edge_of[adj.b, adj.side_b] = (k, False)
    e, f = {}, {}
    for k, adj in enumerate(adjs):
        other = set(shows[adj.b][adj.side_b])
        for lab in shows[adj.a][adj.side_a]:
            if puzzle.partner(lab) in other or (relax and adj.a != adj.b):
                e[k, lab] = pool.id(("e", k, lab))
        if relax and adj.a != adj.b:  # each side its own colour: an edge may not fit
            for lab in shows[adj.b][adj.side_b]:
                f[k, lab] = pool.id(("f", k, lab))
    free_outside = sorted(board.outer) if puzzle.frame is None else []
    o = {(c, d, lab): pool.id(("o", c, d, lab)) for c, d in free_outside for lab in shows[c][d]}

    side_map: list[list[dict]] = [[{} for _ in range(4)] for _ in board.cells]  # label -> literal / TRUE
    for c in board.cells:
        for d in range(4):
            if (c, d) in edge_of:
                k, first = edge_of[c, d]
                for lab in shows[c][d]:
                    if first:
                        v = e.get((k, lab))
                    else:
                        v = f.get((k, lab)) if (k, lab) in f else e.get((k, puzzle.partner(lab)))
                    if v is not None:
                        side_map[c][d][lab] = v
            elif puzzle.frame is not None:
                side_map[c][d][puzzle.frame] = TRUE
            else:
                side_map[c][d] = {lab: o[c, d, lab] for lab in shows[c][d]}
    return _Layout(pool, allowed, rots, shows, p, e, o, free_outside, side_map, f)


def encode(puzzle: Puzzle, options: Options = Options(), relax: bool = False) -> Encoded:
    """The formula; ``relax``: its MaxSAT form (:mod:`.maxsat`): each side of an inner edge its
    own one-hot colour (``e`` on the first side, ``f`` on the second), and a match literal
    ``m[k]`` that makes them fit, ``m[k] & e[k, v] -> f[k, partner(v)]``."""
    lay = _layout(puzzle, options, relax)
    pool, allowed, rots, shows, p, e, o, free_outside, _, f = lay
    board, card, adjs, side = puzzle.board, options.card, puzzle.board.adjacencies, lay.side
    clauses: list[list[int]] = []
    for c in board.cells:
        clauses.extend(exactly_one([p[c, t] for t in sorted(rots[c])], pool, card))
    by_tile: list[list[int]] = [[] for _ in puzzle.tiles]
    for (c, t), v in p.items():
        by_tile[t].append(v)
    by_edge: list[list[int]] = [[] for _ in adjs]
    for (k, _), v in e.items():
        by_edge[k].append(v)
    by_edge += [[v for (j, _), v in f.items() if j == k] for k in sorted({k for k, _ in f})]
    soft = []
    for k in sorted({k for k, _ in f}):
        m = pool.id(("m", k))
        soft.append(m)
        for (j, lab), v in e.items():
            if j == k:
                w = f.get((k, puzzle.partner(lab)))
                clauses.append([-m, -v] + ([w] if w is not None else []))
    for lits in by_tile + by_edge:
        clauses.extend(exactly_one(lits, pool, card))
    for c, d in free_outside:
        clauses.extend(exactly_one([o[c, d, lab] for lab in shows[c][d]], pool, card))
    cache: dict = {}
    for (c, t), v in p.items():
        rs = rots[c][t]
        key = (t, rs)
        if key not in cache:
            cache[key] = tile_templates([puzzle.oriented(t, r) for r in rs])
        for d, pre, ext in cache[key]:
            clause = [-v]
            for i, lab in enumerate(pre):
                lit = side(c, (d + i) % 4, lab)
                if lit is FALSE:
                    break
                if lit is not TRUE:
                    clause.append(-lit)
            else:
                last = (d + len(pre)) % 4
                lits = [side(c, last, lab) for lab in ext]
                if TRUE in lits:
                    continue
                clauses.append(clause + [lit for lit in lits if lit is not FALSE])
    if options.redundant:
        ends = [(k, lab, v, False) for (k, lab), v in e.items()] + [
            (k, lab, v, True) for (k, lab), v in f.items()
        ]
        for k, lab, v, second in ends:
            for c, d, shown in lay.sides(k, lab, puzzle, second):
                clauses.append(
                    [-v]
                    + [
                        p[c, t]
                        for t in sorted(rots[c])
                        if any(puzzle.oriented(t, r)[d] == shown for r in rots[c][t])
                    ]
                )
        clauses += corner_supports(puzzle, allowed, shows, p, side)
    cnf = make_cnf(clauses, pool.top)

    @functools.cache
    def cells() -> list:
        """Per cell, its tiles' placement variables, each with the tile's allowed rotations and
        the literals of the labels each shows (a frame side is true; a rotation showing a label
        its side cannot has none); made at the first model."""
        out = []
        for c in board.cells:
            cell = []
            for u in sorted(rots[c]):
                looks = [
                    (r, [side(c, d, lab) for d, lab in enumerate(puzzle.oriented(u, r))]) for r in rots[c][u]
                ]
                cell.append(
                    (
                        p[c, u],
                        u,
                        [
                            (r, [lit for lit in lits if lit is not TRUE])
                            for r, lits in looks
                            if FALSE not in lits
                        ],
                    )
                )
            out.append(cell)
        return out

    def literals(solution: Solution) -> list[int] | None:
        out, shown = [], []
        for c, (t, r) in enumerate(solution):
            if (c, t) not in p or r not in rots[c][t]:
                return None
            out.append(p[c, t])
            shown.append(puzzle.oriented(t, r))
        for k, adj in enumerate(adjs):
            v = e.get((k, shown[adj.a][adj.side_a]))
            if v is None:
                return None
            out.append(v)
            if (k, shown[adj.b][adj.side_b]) in f:
                out.append(f[k, shown[adj.b][adj.side_b]])
        return out + [o[c, d, shown[c][d]] for c, d in free_outside]

    def shows_look(c: int, look: tuple) -> list[list[int]]:
        """The literals of the look's labels on the cell's four sides (a frame side is true)."""
        lits = [side(c, d, look[d]) for d in range(4)]
        return [] if FALSE in lits else [[lit for lit in lits if lit is not TRUE]]

    return Encoded(
        puzzle,
        "edgecolor",
        options,
        cnf,
        pool,
        decision=sorted(p.values()) + sorted(e.values()) + sorted(f.values()) + sorted(o.values()),
        cells=cells,
        literals=literals,
        shows=shows_look,
        soft=tuple(soft) if relax else None,
    )


def floor(puzzle: Puzzle, options: Options = Options()) -> Size:
    """A low bound on the formula's size, at once: a placement variable per tile a cell allows, exactly one per cell
    (:func:`satedge.encode.core.floor`)."""
    return core_floor(puzzle, options, lambda placed, tiles: Size(tiles) + card_floor(tiles, options.card))


def size(puzzle: Puzzle, options: Options = Options()) -> Size:
    """The formula's size, counted from the families above without building them; the per-tile
    clauses are counted once per tile, rotations and kind of cell (what each side can show)."""
    lay = _layout(puzzle, options)
    card, adjs = options.card, puzzle.board.adjacencies
    size = Size(lay.pool.top)
    for c in puzzle.board.cells:
        size += card_size(len(lay.rots[c]), card)
    per_tile, per_edge = Counter(t for _, t in lay.p), Counter(k for k, _ in lay.e)
    for t in range(len(puzzle.tiles)):
        size += card_size(per_tile[t], card)
    for k in range(len(adjs)):
        size += card_size(per_edge[k], card)
    for c, d in lay.free_outside:
        size += card_size(len(lay.shows[c][d]), card)
    kinds: dict[tuple, int] = {}  # what the sides of a cell can show (the same for all its tiles), numbered
    kind_of = [
        kinds.setdefault(
            tuple(tuple(sorted((lab, v is TRUE) for lab, v in lay.side_map[c][d].items())) for d in range(4)),
            len(kinds),
        )
        for c in puzzle.board.cells
    ]
    kind_list = list(kinds)
    counted = Counter((t, lay.rots[c][t], kind_of[c]) for c, t in lay.p)
    for (t, rots, kind), n in counted.items():
        one = _template_size(tile_templates([puzzle.oriented(t, r) for r in rots]), kind_list[kind])
        size += one.times(n)
    if options.redundant:
        showing: dict = {}  # per cell's placements and side: label -> the tiles that can show it there
        clauses = lits = 0
        for (k, lab), _ in lay.e.items():
            adj = adjs[k]
            for c, d, shown in ((adj.a, adj.side_a, lab), (adj.b, adj.side_b, puzzle.partner(lab))):
                key = (lay.allowed[c], d)
                if key not in showing:
                    showing[key] = Counter(
                        x for x, _ in {(puzzle.oriented(t, r)[d], t) for t, r in lay.allowed[c]}
                    )
                clauses += 1
                lits += 1 + showing[key][shown]
        size += Size(0, clauses, lits)
        corners: dict = {}
        for c in puzzle.board.cells:
            key = (lay.allowed[c], kind_of[c])
            if key not in corners:
                corners[key] = _corner_size(puzzle, lay, c)
            size += corners[key]
    return size


def _template_size(templates: list, kinds: tuple) -> Size:
    """The per-tile clauses of one placement variable, whose cell's sides show labels as ``kinds``
    says: per side, ``(label, fixed by the frame)`` for each label it can show."""
    shown = [dict(k) for k in kinds]
    clauses = lits = 0
    for d, pre, ext in templates:
        length = 1
        for i, lab in enumerate(pre):
            fixed = shown[(d + i) % 4].get(lab)
            if fixed is None:  # the side cannot show it: no clause
                break
            length += not fixed
        else:
            last = shown[(d + len(pre)) % 4]
            if any(last.get(lab) for lab in ext):
                continue
            clauses += 1
            lits += length + sum(last.get(lab) is False for lab in ext)
    return Size(0, clauses, lits)


def _corner_size(puzzle: Puzzle, lay: _Layout, c: int) -> Size:
    """The size of :func:`corner_supports` in cell ``c``."""
    clauses = lits = 0
    cell = lay.allowed[c]
    for d in range(4):
        d2 = (d + 1) % 4
        support: dict[tuple, set[int]] = {}
        for t, r in cell:
            labels = puzzle.oriented(t, r)
            support.setdefault((labels[d], labels[d2]), set()).add(t)
        for a in lay.shows[c][d]:
            for b in lay.shows[c][d2]:
                la, lb = lay.side(c, d, a), lay.side(c, d2, b)
                if la is FALSE or lb is FALSE or (la is TRUE and lb is TRUE):
                    continue
                clauses += 1
                lits += (la is not TRUE) + (lb is not TRUE) + len(support.get((a, b), ()))
    return Size(0, clauses, lits)


BASE = Base(
    name="edgecolor",
    summary=(
        "Heule's compact idea: placements without turns p[cell, tile] and one-hot colours e[edge, "
        "value] on every edge; the turn is read off the colours."
    ),
    build=encode,
    size=size,
    floor=floor,
    relaxed=partial(encode, relax=True),
    kinds=kinds("p", "e", "f", "o", "m"),
)
