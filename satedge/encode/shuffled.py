"""A formula under a shuffle: the encoding of the shuffled puzzle (:mod:`satedge.puzzle.shuffle`), its
variables renumbered and its clauses reordered by the same seed, read back in the original
puzzle's numbering.  Every encoding sees the same shuffled puzzle; solutions, counts, blocking
clauses and the checker work on the original puzzle as without a shuffle."""

from __future__ import annotations

import functools
from collections.abc import Callable

from pysat.formula import IDPool

from ..puzzle.model import Puzzle, Solution
from ..puzzle.shuffle import permutation, shuffle
from .core import Encoded, Options, make_cnf

__all__ = ["encode_shuffled"]


def encode_shuffled(
    encode: Callable[[Puzzle, Options], Encoded], puzzle: Puzzle, options: Options, seed: int
) -> Encoded:
    """``encode`` of ``puzzle`` shuffled by ``seed``: variables renumbered, clauses reordered."""
    moved, sh = shuffle(puzzle, seed)
    inner = encode(moved, options)
    nv = inner.nv
    perm = permutation(nv, seed, "variables")
    new = [0] + [p + 1 for p in perm]  # old variable -> new

    def out(lit: int) -> int:
        return new[lit] if lit > 0 else -new[-lit]

    clauses = inner.cnf.clauses
    cnf = make_cnf([[out(lit) for lit in clauses[i]] for i in permutation(len(clauses), seed, "clauses")], nv)
    pool = IDPool()
    pool.top = nv
    for obj, v in inner.pool.obj2id.items():
        pool.obj2id[obj] = new[v]
        pool.id2obj[new[v]] = obj

    def cells() -> list:
        """The inner formula's, its literals renumbered and its tiles and rotations the original's."""
        return [
            [
                (
                    out(v),
                    sh.order[u],
                    [((r + sh.turns[u]) % 4, [out(lit) for lit in lits]) for r, lits in looks],
                )
                for v, u, looks in cell
            ]
            for cell in inner.cells()
        ]

    def literals(solution: Solution) -> list[int] | None:
        lits = inner.literals(sh.to_shuffled(solution))
        return None if lits is None else [out(lit) for lit in lits]

    def shows(c: int, look: tuple) -> list[list[int]]:
        return [[out(lit) for lit in both] for both in (inner.shows(c, look) if inner.shows else ())]

    return Encoded(
        puzzle,
        inner.base,
        options,
        cnf,
        pool,
        decision=[new[v] for v in inner.decision],
        cells=functools.cache(cells),
        literals=literals,
        shuffle=seed,
        shows=None if inner.shows is None else shows,
        soft=None if inner.soft is None else tuple(out(lit) for lit in inner.soft),
    )
