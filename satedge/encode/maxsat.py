"""MaxSAT forms of the encodings: the board with the most inner edges that fit.

A base encoding's MaxSAT form keeps its hard rules (a tile per cell, each tile once, the frame
and the clues) as they are and guards the clauses that make each inner edge fit by a match
variable ``m[k]``, one per adjacency ``k`` of the board graph: ``-m[k]`` joins each of them,
and ``m[k]`` is a soft unit clause of weight 1.  A model then sets ``m[k]`` only where edge
``k`` fits, so the cost of a model (the soft clauses it falsifies) is at least the edges that
do not fit on its board, and the optimal cost is the fewest edges that do not fit: the most
matched edges are the adjacencies less the optimal cost.

The bases with a MaxSAT form: ``direct`` (its conflicts guarded, ``-x | -y | -m``), ``support``
(its supports, ``-x | OR y | -m``), ``split`` (its side labels made to fit, ``-s | s' | -m``)
and ``edgecolor``, whose edge colours become side colours: each side of an inner edge its own
one-hot colour (``e`` on the first side, ``f`` on the second), and ``m[k] & e[k, v] ->
f[k, partner(v)]``.  ``heule`` keeps one colour variable per edge that both of its sides show,
so an edge that does not fit cannot be said in it.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
>>> w = weighted(p, "direct")
>>> [w.pool.obj(v) for v in w.soft]
[('m', 0)]
"""

from __future__ import annotations

from functools import partial

from ..errors import SatedgeError
from ..puzzle.model import Puzzle
from . import direct, edgecolor, split, support
from .core import Encoded
from .presets import Encoding
from .shuffled import encode_shuffled

__all__ = ["RELAXED", "DEFAULT_MAXSAT_ENCODING", "maxsat_encoding", "weighted"]

RELAXED = {
    "direct": direct.encode,
    "support": support.encode,
    "split": split.encode,
    "edgecolor": edgecolor.encode,
}
DEFAULT_MAXSAT_ENCODING = "support"


def maxsat_encoding(encoding: Encoding | str | None = None) -> Encoding:
    """The encoding named (default :data:`DEFAULT_MAXSAT_ENCODING`), if its base has a MaxSAT form."""
    chosen = Encoding.of(encoding or DEFAULT_MAXSAT_ENCODING)
    if chosen.build is not None or chosen.base not in RELAXED:
        raise SatedgeError(
            f"the {chosen.base} encoding has no MaxSAT form (one colour variable per edge cannot "
            f"say that an edge does not fit); choose one on {', '.join(RELAXED)}"
        )
    return chosen


def weighted(puzzle: Puzzle, encoding: Encoding | str | None = None, shuffle: int | None = None) -> Encoded:
    """The MaxSAT formula of ``puzzle`` in ``encoding`` (:func:`maxsat_encoding`): its hard
    clauses ``cnf``, its soft unit clauses ``soft`` (see the module's docstring); with
    ``shuffle``, of the puzzle under that seed, read back in its own numbering."""
    chosen = maxsat_encoding(encoding)
    build = partial(RELAXED[chosen.base], relax=True)
    if shuffle is None:
        return build(puzzle, chosen.options)
    return encode_shuffled(build, puzzle, chosen.options, shuffle)
