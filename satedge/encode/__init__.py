"""CNF encodings of edge-matching puzzles.

A *base encoding* is declared once, in its own module, as a :class:`Base` (:mod:`.base`): its
name, its build function ``build(puzzle, options) -> Encoded``, its size and low bound counted
without building it, its MaxSAT form and the kinds of variables it names.  satedge's live one
per module in :mod:`.bases` (direct, support, split, edgecolor, heule), on the shared pieces
of :mod:`.core`; yours is a file, a module or an installed package's entry point, found the same
way (:mod:`.registry`).  :class:`Encoding` names a base with its options, and the presets are
named ones in YAML (:mod:`.presets`).

Every encoding

* reads adjacency from the board graph (so frames, clues and tori work everywhere),
* starts from :func:`placements`, the allowed ``(tile, rotation)`` per cell (frame, clues,
  self-loops and, with ``symmetry: rotation``, the symmetry-breaking restriction),
* names every variable in a :class:`pysat.formula.IDPool` by a tuple saying what it means,
* and builds its exactly-one constraints with :class:`pysat.card.CardEnc`.
"""

from __future__ import annotations

from ..puzzle.model import Puzzle
from .base import Base, kinds
from .cards import at_most_one, exactly_one
from .core import CARDS, SYMMETRIES, Encoded, Options, Size, make_cnf, placements
from .presets import DEFAULT_ENCODING, Encoding, presets
from .registry import bases

__all__ = [
    "Base",
    "CARDS",
    "DEFAULT_ENCODING",
    "SYMMETRIES",
    "Encoded",
    "Encoding",
    "Options",
    "Size",
    "at_most_one",
    "bases",
    "encode",
    "exactly_one",
    "make_cnf",
    "placements",
    "presets",
    "kinds",
]


def encode(
    puzzle: Puzzle,
    encoding: Encoding | str = DEFAULT_ENCODING,
    options: Options | None = None,
    shuffle: int | None = None,
) -> Encoded:
    """The formula of a puzzle.

    Parameters
    ----------
    puzzle : Puzzle
    encoding : Encoding or str
        An :class:`Encoding`, or a preset's, a base encoding's or a preset file's name
        (default: the commands' default, ``edgecolor-corners``).
    options : Options, optional
        Replaces the encoding's options.
    shuffle : int, optional
        A shuffle seed: the formula of the shuffled puzzle, renumbered and reordered.

    Returns
    -------
    Encoded

    Examples
    --------
    >>> from satedge.puzzle import Puzzle
    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> encode(p).nv, encode(p, "support", Options(card="seqcounter")).nv
    (5, 4)
    """
    chosen = Encoding.of(encoding)
    if options is not None:
        chosen = chosen.with_options(
            **{k: getattr(options, k) for k in ("card", "symmetry", "redundant", "families", "counts")}
        )
    return chosen.encode(puzzle, shuffle)
