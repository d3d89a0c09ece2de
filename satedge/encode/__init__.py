"""CNF encodings of edge-matching puzzles.

An *encoding* is any callable ``encoding(puzzle, options) -> Encoded``.  The base encodings
live one per module (:mod:`.direct`, :mod:`.support`, :mod:`.split`, :mod:`.edgecolor`), on the
shared pieces of :mod:`.core`; named configurations (*presets*) are YAML files in the project's
``encodings/`` folder (:mod:`.presets`).

Every encoding

* reads adjacency from the board graph (so frames, clues and tori work everywhere),
* starts from :func:`placements`, the allowed ``(tile, rotation)`` per cell (frame, clues,
  self-loops and, with ``symmetry: rotation``, the symmetry-breaking restriction),
* names every variable in a :class:`pysat.formula.IDPool` by a tuple saying what it means,
* and builds its exactly-one constraints with :class:`pysat.card.CardEnc`.
"""

from __future__ import annotations

from typing import Callable

from ..errors import SatedgeError
from ..puzzle import Puzzle
from . import direct, edgecolor, heule, split, support
from .core import (CARDS, SYMMETRIES, Encoded, Options, Size, at_most_one, exactly_one, make_cnf, placements,
                   symmetry_breaking, true_set)

__all__ = ["CARDS", "SYMMETRIES", "Encoded", "Options", "Size", "at_most_one", "bases", "encode", "exactly_one",
           "make_cnf", "placements", "sizes", "symmetry_breaking", "true_set"]


def bases() -> dict[str, Callable[[Puzzle, Options], Encoded]]:
    """The base encodings by name."""
    return {"direct": direct.encode, "support": support.encode, "split": split.encode, "edgecolor": edgecolor.encode,
            "heule": heule.encode}


def sizes() -> dict[str, Callable[[Puzzle, Options], Size]]:
    """Per base encoding, the function that counts its formula's variables, clauses and literals
    from its clause families, without building it (exact: a test compares them)."""
    return {"direct": direct.size, "support": support.size, "split": split.size, "edgecolor": edgecolor.size,
            "heule": heule.size}


def encode(puzzle: Puzzle, base: str = "support", options: Options | None = None) -> Encoded:
    """Encode ``puzzle`` with a base encoding by name."""
    table = bases()
    if base not in table:
        raise SatedgeError(f"unknown base encoding {base!r}; choose from {', '.join(table)}")
    return table[base](puzzle, options or Options())
