"""A base encoding written from scratch, as a researcher writes one: a variable per placement,
exactly-one constraints written by hand, and a conflict clause for each pair of neighbouring
placements that do not fit.  Name it anywhere an encoding goes: ``--encoding
docs/examples/onehot.py:encode``, a spec's ``encodings:``, or ``encoding=`` from Python."""

from pysat.formula import IDPool

from satedge.encode import Encoded, Options, placements
from satedge.puzzle import Puzzle


def exactly_one(literals: list[int]) -> list[list[int]]:
    """One clause that one holds, and one for each pair that not both do."""
    pairs = [[-a, -b] for i, a in enumerate(literals) for b in literals[i + 1 :]]
    return [list(literals), *pairs]


def encode(puzzle: Puzzle, options: Options) -> Encoded:
    """One-hot placements, pairwise exactly-one by hand, binary conflicts between neighbours."""
    pool = IDPool()
    allowed = placements(puzzle, options)  # per cell, the (tile, turn) its frame, clues and symmetry allow
    x = {(c, t, r): pool.id(("x", c, t, r)) for c, cell in enumerate(allowed) for t, r in cell}
    clauses = []
    for c, cell in enumerate(allowed):  # a tile on every cell
        clauses += exactly_one([x[c, t, r] for t, r in cell])
    for tile in range(len(puzzle.tiles)):  # every tile once
        clauses += exactly_one([v for (c, t, r), v in x.items() if t == tile])
    for adj in puzzle.board.adjacencies:  # side side_a of cell a touches side side_b of cell b
        if adj.a == adj.b:  # a cell's own sides meet (a thin torus): its placements keep that already
            continue
        for ta, ra in allowed[adj.a]:
            shown = puzzle.oriented(ta, ra)[adj.side_a]  # a tile's labels clockwise from the top, turned
            for tb, rb in allowed[adj.b]:
                if ta != tb and not puzzle.fits(shown, puzzle.oriented(tb, rb)[adj.side_b]):
                    clauses.append([-x[adj.a, ta, ra], -x[adj.b, tb, rb]])
    return Encoded.of_placements(puzzle, "onehot", options, clauses, pool, x)
