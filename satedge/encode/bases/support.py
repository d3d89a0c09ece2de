"""The ``support`` encoding: one-hot placements and support clauses.

Variables
    ``x[c, t, r]`` for every allowed placement, as in :mod:`.direct`:
    ``P = sum_c |A(c)|`` variables plus the auxiliaries of the exactly-one encoding.

Clauses (sizes for ``card: pairwise``)
    * exactly one placement per cell: ``sum_c (1 + |A(c)| (|A(c)| - 1) / 2)``;
    * each tile exactly once: ``sum_t (1 + P_t (P_t - 1) / 2)``;
    * supports: for every adjacency ``(a, b)`` of the board graph and every placement ``x`` of
      ``a``, ``x -> OR(y)`` over the placements ``y`` of ``b`` (another tile) whose label fits, and
      the same from ``b`` to ``a``: ``sum_adj (|A(a)| + |A(b)|)`` clauses of length ``1 + |support|``;
    * ``redundant: true`` adds the binary conflict clauses of :mod:`.direct` (``B`` clauses).

Source
    the support encoding of CSPs (Kasif 1990; Gent 2002, "Arc consistency in SAT"), on which
    unit propagation achieves arc consistency of the neighbour constraints.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> e = encode(p)
>>> e.cnf.nv, len(e.cnf.clauses), e.cnf.clauses[-2:]  # x[1,0,2] needs x[0,1,2]; x[1,1,0] needs x[0,0,0]
(4, 12, [[-3, 2], [-4, 1]])
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
        out = supports(puzzle, ga, gb) + supports(puzzle, gb, ga)
        if redundant:
            out += conflicts(puzzle, ga, gb)
        return out

    return placement_formula(puzzle, options, "support", adjacency, relax)


def size(puzzle: Puzzle, options: Options = Options()) -> Size:
    """The formula's size, counted from the families above without building them."""

    def adjacency(puzzle: Puzzle, ga: Any, gb: Any, redundant: bool) -> Any:
        out = supports_size(puzzle, ga, gb) + supports_size(puzzle, gb, ga)
        return out + conflicts_size(puzzle, ga, gb) if redundant else out

    return placement_size(puzzle, options, adjacency)


BASE = Base(
    name="support",
    summary=(
        "One-hot placement variables x[cell, tile, turn] and support clauses: a placement implies "
        "the fitting placements next door."
    ),
    build=encode,
    size=size,
    floor=floor,
    relaxed=partial(encode, relax=True),
    kinds=kinds("x", "m"),
)
