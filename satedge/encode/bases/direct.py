"""The ``direct`` encoding: one-hot placements and binary conflict clauses.

The CP model of the Scramble Squares seed translated literally into CNF.

Variables
    ``x[c, t, r]`` ("cell c holds tile t turned r times") for every allowed placement:
    ``P = sum_c |A(c)|`` variables, where ``A(c)`` is :func:`satedge.encode.placements` of cell c
    (at most ``4 n^2`` for ``n`` cells), plus the auxiliaries of the exactly-one encoding.

Clauses (sizes for ``card: pairwise``; other card encodings trade clauses for auxiliaries)
    * exactly one placement per cell: ``sum_c (1 + |A(c)| (|A(c)| - 1) / 2)``;
    * each tile exactly once: ``sum_t (1 + P_t (P_t - 1) / 2)``, ``P_t`` the allowed placements of tile ``t``;
    * conflicts: for every adjacency ``(a, b)`` of the board graph, ``(-x, -y)`` for each pair of
      placements of two different tiles whose touching labels do not fit: ``B = sum_adj B_adj`` binary clauses;
    * ``redundant: true`` adds the support clauses of :mod:`.support` (``sum_adj |A(a)| + |A(b)|``).

Source
    the CP-SAT model of the seed "Solving Scramble Squares with CP-SAT" (allowed-assignment
    tables for neighbours), read as forbidden pairs; the classic direct CSP-to-SAT encoding.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 2)), frame=0)
>>> e = encode(p)
>>> [e.pool.obj(v) for v in e.decision]
[('x', 0, 0, 0), ('x', 0, 1, 2), ('x', 1, 0, 2), ('x', 1, 1, 0)]
>>> e.cnf.nv, len(e.cnf.clauses), e.cnf.clauses[-2:]  # two conflicts: 1 against 2, 2 against 1
(4, 10, [[-1, -4], [-2, -3]])
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...puzzle.model import Puzzle
from ..base import Base, kinds
from ..core import Encoded, Options, Size
from ..onehot import (
    conflicts,
    conflicts_size,
    placement_floor,
    placement_formula,
    placement_size,
    supports,
    supports_size,
)

__all__ = ["encode", "size", "floor", "BASE"]

floor = placement_floor  # a low bound on the size, at once


def encode(puzzle: Puzzle, options: Options = Options(), relax: bool = False) -> Encoded:
    """The formula; ``relax``: its MaxSAT form (:mod:`.maxsat`)."""

    def adjacency(puzzle: Puzzle, adj: Any, ga: Any, gb: Any, redundant: bool) -> list:
        out = conflicts(puzzle, ga, gb)
        if redundant:
            out += supports(puzzle, ga, gb) + supports(puzzle, gb, ga)
        return out

    return placement_formula(puzzle, options, "direct", adjacency, relax)


def size(puzzle: Puzzle, options: Options = Options()) -> Size:
    """The formula's size, counted from the families above without building them."""

    def adjacency(puzzle: Puzzle, ga: Any, gb: Any, redundant: bool) -> Any:
        out = conflicts_size(puzzle, ga, gb)
        return out + supports_size(puzzle, ga, gb) + supports_size(puzzle, gb, ga) if redundant else out

    return placement_size(puzzle, options, adjacency)


BASE = Base(
    name="direct",
    summary=(
        "One-hot placement variables x[cell, tile, turn] and binary conflict clauses between "
        "neighbouring placements that do not fit."
    ),
    build=encode,
    size=size,
    floor=floor,
    relaxed=partial(encode, relax=True),
    kinds=kinds("x", "m"),
)
