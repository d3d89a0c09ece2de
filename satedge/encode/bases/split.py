"""The ``split`` encoding: a permutation matrix of tiles, rotations apart, and side labels.

Variables
    * ``p[c, t]``: cell c holds tile t, for the tiles ``T(c)`` with an allowed placement in c;
    * ``q[c, r]``: the tile in cell c is turned r times, one per turn the puzzle allows (4, or
      2 with ``turns: half``, 1 with ``turns: none``: ``R`` below);
    * ``s[c, d, l]``: side d of cell c shows label l, for every side in an adjacency and every
      label ``l`` in ``L(c, d)`` (the labels the allowed placements of c show on d);

    ``sum_c |T(c)| + R n + sum_(c,d) |L(c, d)|`` variables plus card auxiliaries.

Clauses (sizes for ``card: pairwise``)
    * exactly one tile per cell, each tile exactly once, exactly one rotation per cell:
      ``sum_c (1 + C(|T(c)|, 2)) + sum_t (1 + C(P'_t, 2)) + (1 + C(R, 2)) n`` (``P'_t``: cells that admit t);
    * forbidden combinations ``(-p[c,t], -q[c,r])`` for ``(t, r)`` not allowed in c:
      ``sum_c (R |T(c)| - |A(c)|)``;
    * labels: ``p[c,t] & q[c,r] -> s[c,d,l]`` for every allowed placement and every side in an
      adjacency: ``sum_c |A(c)| D(c)`` ternary clauses (``D(c)``: sides of c in an adjacency);
    * at most one label per side: ``sum_(c,d) C(|L(c,d)|, 2)``;
    * adjacency ``s[a,da,l] -> s[b,db,l']`` (``l'`` the label that fits ``l``; a unit clause when
      ``b`` cannot show it), both ways: ``sum_adj (|L(a,da)| + |L(b,db)|)`` clauses;
    * ``redundant: true``: at least one label per side (``sum_(c,d) 1``) and
      ``s[c,d,l] -> OR p[c,t]`` over the tiles that can show ``l`` on ``d`` (``sum_(c,d) |L(c,d)|``).

No clause lists a pair of placements: neighbours meet only through side labels.

Source
    the "split" placement/orientation model of edge-matching CSP encodings (Ansótegui, Béjar,
    Fernández, Gomes, Mateu, "Edge matching puzzles as hard SAT/CSP benchmarks", CP 2008),
    with side-label variables.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> e = encode(p)
>>> e.cnf.nv, len(e.cnf.clauses), e.cnf.clauses[-2:]  # s[0,right,1] <-> s[1,left,1]
(14, 40, [[-13, 14], [-14, 13]])
"""

from __future__ import annotations

import functools
from collections import Counter
from functools import partial

from pysat.formula import IDPool

from ...puzzle.model import Puzzle, Solution
from ..base import Base, kinds
from ..cards import at_most_one, card_floor, card_size, exactly_one
from ..core import Encoded, Options, Size, make_cnf, placements
from ..core import floor as core_floor

__all__ = ["encode", "size", "floor", "BASE"]


def encode(puzzle: Puzzle, options: Options = Options(), relax: bool = False) -> Encoded:
    """The formula; ``relax``: its MaxSAT form (:mod:`.maxsat`): the clauses that make the two
    sides of inner edge ``k`` fit guarded by its match literal ``m[k]``."""
    pool = IDPool()
    allowed = placements(puzzle, options)
    board = puzzle.board
    tiles_of = [sorted({t for t, _ in cell}) for cell in allowed]
    p = {(c, t): pool.id(("p", c, t)) for c in board.cells for t in tiles_of[c]}
    q = {(c, r): pool.id(("q", c, r)) for c in board.cells for r in puzzle.rotations}
    adjs = [adj for adj in board.adjacencies if adj.a != adj.b]
    sides = sorted({(adj.a, adj.side_a) for adj in adjs} | {(adj.b, adj.side_b) for adj in adjs})
    labels = {
        (c, d): sorted({puzzle.oriented(t, r)[d] for t, r in allowed[c]}, key=lambda x: puzzle.label_id[x])
        for c, d in sides
    }
    s = {(c, d, lab): pool.id(("s", c, d, lab)) for (c, d), labs in labels.items() for lab in labs}
    clauses: list[list[int]] = []
    card = options.card
    for c in board.cells:
        clauses.extend(exactly_one([p[c, t] for t in tiles_of[c]], pool, card))
    by_tile: list[list[int]] = [[] for _ in puzzle.tiles]
    for (c, t), v in p.items():
        by_tile[t].append(v)
    for lits in by_tile:
        clauses.extend(exactly_one(lits, pool, card))
    for c in board.cells:
        clauses.extend(exactly_one([q[c, r] for r in puzzle.rotations], pool, card))
    sides_of: dict[int, list[int]] = {}
    for c, d in sides:
        sides_of.setdefault(c, []).append(d)
    for c in board.cells:
        ok = set(allowed[c])
        for t in tiles_of[c]:
            for r in puzzle.rotations:
                if (t, r) not in ok:
                    clauses.append([-p[c, t], -q[c, r]])
        for t, r in allowed[c]:
            shown = puzzle.oriented(t, r)
            for d in sides_of.get(c, ()):
                clauses.append([-p[c, t], -q[c, r], s[c, d, shown[d]]])
    for c, d in sides:
        clauses.extend(at_most_one([s[c, d, lab] for lab in labels[c, d]], pool, card))
    soft = []
    for k, adj in enumerate(board.adjacencies):
        if adj.a == adj.b:
            continue  # a cell's own sides: in puzzle.allowed
        guard = []
        if relax:
            soft.append(pool.id(("m", k)))
            guard = [-soft[-1]]
        for (a, da), (b, db) in (
            ((adj.a, adj.side_a), (adj.b, adj.side_b)),
            ((adj.b, adj.side_b), (adj.a, adj.side_a)),
        ):
            for lab in labels[a, da]:
                other = s.get((b, db, puzzle.partner(lab)))
                clauses.append([-s[a, da, lab]] + ([other] if other else []) + guard)
    if options.redundant:
        for c, d in sides:
            clauses.append([s[c, d, lab] for lab in labels[c, d]])
            for lab in labels[c, d]:
                showing = sorted({t for t, r in allowed[c] if puzzle.oriented(t, r)[d] == lab})
                clauses.append([-s[c, d, lab]] + [p[c, t] for t in showing])
    cnf = make_cnf(clauses, pool.top)

    @functools.cache
    def cells() -> list:  # made at the first model, not for a formula only written to a file
        """Per cell, each tile's variable with the rotation variable of each of its rotations."""
        out = []
        for c in board.cells:
            rots: dict[int, list[int]] = {}
            for t, r in allowed[c]:
                rots.setdefault(t, []).append(r)
            out.append([(p[c, t], t, [(r, [q[c, r]]) for r in rots.get(t, ())]) for t in tiles_of[c]])
        return out

    def literals(solution: Solution) -> list[int] | None:
        out = []
        for c, (t, r) in enumerate(solution):
            if (c, t) not in p:
                return None
            out += [p[c, t], q[c, r]]
        return out

    def shows(c: int, look: tuple) -> list[list[int]]:
        return [[p[c, t], q[c, r]] for t, r in allowed[c] if puzzle.oriented(t, r) == look]

    return Encoded(
        puzzle,
        "split",
        options,
        cnf,
        pool,
        decision=sorted(p.values()) + sorted(q.values()),
        cells=cells,
        literals=literals,
        shows=shows,
        soft=tuple(soft) if relax else None,
    )


def floor(puzzle: Puzzle, options: Options = Options()) -> Size:
    """A low bound on the formula's size, at once: a tile and a rotation variable per cell, exactly one of each
    (:func:`satedge.encode.core.floor`)."""
    return core_floor(
        puzzle,
        options,
        lambda placed, tiles: (
            Size(tiles + len(puzzle.rotations))
            + card_floor(tiles, options.card)
            + card_size(len(puzzle.rotations), options.card)
        ),
    )


def size(puzzle: Puzzle, options: Options = Options()) -> Size:
    """The formula's size, counted from the families above without building them."""
    allowed = placements(puzzle, options)
    board, card = puzzle.board, options.card
    tiles_of = [{t for t, _ in cell} for cell in allowed]
    adjs = [adj for adj in board.adjacencies if adj.a != adj.b]
    sides = {(adj.a, adj.side_a) for adj in adjs} | {(adj.b, adj.side_b) for adj in adjs}
    labels = {(c, d): {puzzle.oriented(t, r)[d] for t, r in allowed[c]} for c, d in sides}
    n, turns = board.rows * board.cols, len(puzzle.rotations)
    size = Size(sum(map(len, tiles_of)) + turns * n + sum(map(len, labels.values())))
    for c in board.cells:  # a tile, a rotation per cell; each tile once
        size += card_size(len(tiles_of[c]), card) + card_size(turns, card)
    cells_of_tile = Counter(t for ts in tiles_of for t in ts)
    for t in range(len(puzzle.tiles)):
        size += card_size(cells_of_tile[t], card)
    per_cell = Counter(c for c, _ in sides)
    for c in board.cells:
        forbidden = turns * len(tiles_of[c]) - len(allowed[c])
        size += Size(
            0, forbidden + len(allowed[c]) * per_cell[c], 2 * forbidden + 3 * len(allowed[c]) * per_cell[c]
        )
    for key in sides:
        size += card_size(len(labels[key]), card, exactly=False)
    for adj in adjs:
        for a, b in (((adj.a, adj.side_a), (adj.b, adj.side_b)), ((adj.b, adj.side_b), (adj.a, adj.side_a))):
            fits = sum(puzzle.partner(lab) in labels[b] for lab in labels[a])
            size += Size(0, len(labels[a]), len(labels[a]) + fits)
    if options.redundant:
        for c, d in sides:
            size += Size(0, 1, len(labels[c, d]))
            showing = Counter(lab for lab, _ in {(puzzle.oriented(t, r)[d], t) for t, r in allowed[c]})
            size += Size(0, len(labels[c, d]), sum(1 + k for k in showing.values()))
    return size


BASE = Base(
    name="split",
    summary=(
        "Tiles p[cell, tile] and turns q[cell, turn] apart, with side labels s[cell, side, "
        "label]; neighbours meet only through the labels."
    ),
    build=encode,
    size=size,
    floor=floor,
    relaxed=partial(encode, relax=True),
    kinds=kinds("p", "q", "s", "m"),
)
