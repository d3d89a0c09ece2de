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
and the edge-colour encodings ``edgecolor`` and ``heule`` (framed grid boards), whose edge
colours become side colours: each side of an inner edge its own one-hot colour (``e`` on the
first side, ``f`` on the second), and ``m[k] & e[k, v] -> f[k, partner(v)]``.  Every form takes
the options of its base (``symmetry: rotation`` among them), and the clause family
``colorcount`` (``support+families=colorcount``): a redundant cardinality constraint that at most
as many match variables hold as the labels' counts allow (:func:`satedge.puzzle.checker.label_bound`:
an edge that fits pairs two sides of one label), left out where the board's edges are fewer.  A
base encoding declares its MaxSAT form (:attr:`satedge.encode.base.Base.relaxed`); one that
declares none, as a build function of yours alone, is refused in one line.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
>>> w = weighted(p, "direct")
>>> [w.pool.obj(v) for v in w.soft]
[('m', 0)]
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from pysat.card import CardEnc, EncType

from ..errors import SatedgeError
from ..puzzle.checker import label_bound
from ..puzzle.model import Puzzle
from .base import Base
from .core import COLORCOUNT, Encoded, Options, extended
from .presets import Encoding
from .registry import bases
from .shuffled import encode_shuffled

__all__ = ["DEFAULT_MAXSAT_ENCODING", "maxsat_encoding", "weighted"]

DEFAULT_MAXSAT_ENCODING = "support"


def maxsat_encoding(encoding: Encoding | str | None = None) -> Encoding:
    """The encoding named (default :data:`DEFAULT_MAXSAT_ENCODING`), if its base has a MaxSAT form."""
    chosen = Encoding.of(encoding or DEFAULT_MAXSAT_ENCODING)
    if chosen.options.counts:
        raise SatedgeError(
            f"the count families ({', '.join(chosen.options.counts)}) hold on solutions, not on the best "
            "boards: a MaxSAT form takes none"
        )
    if chosen.declared.relaxed is None:
        relaxed = [name for name, b in bases().items() if b.relaxed is not None]
        raise SatedgeError(
            f"the encoding {chosen.base} declares no MaxSAT form; choose one on {', '.join(relaxed)}"
        )
    return chosen


def weighted(puzzle: Puzzle, encoding: Encoding | str | None = None, shuffle: int | None = None) -> Encoded:
    """The MaxSAT formula of ``puzzle`` in ``encoding`` (:func:`maxsat_encoding`): its hard
    clauses ``cnf``, its soft unit clauses ``soft`` (see the module's docstring); with
    ``shuffle``, of the puzzle under that seed, read back in its own numbering."""
    chosen = maxsat_encoding(encoding)
    build = partial(_counted if COLORCOUNT in chosen.options.families else _relaxed, chosen.declared)
    options = chosen.base_options
    formula = build(puzzle, options) if shuffle is None else encode_shuffled(build, puzzle, options, shuffle)
    return replace(formula, options=chosen.options)


def _relaxed(base: Base, puzzle: Puzzle, options: Options) -> Encoded:
    if base.relaxed is None:  # maxsat_encoding refused it before
        raise SatedgeError(f"the encoding {base.name} declares no MaxSAT form")
    return base.relaxed(puzzle, options)


def _counted(base: Base, puzzle: Puzzle, options: Options) -> Encoded:
    """The MaxSAT form with the family ``colorcount``: at most ``label_bound`` of the edges with a
    match variable fit (the others, a cell's own sides on a torus, fit on every board)."""
    formula = _relaxed(base, puzzle, options)
    soft = list(formula.soft or ())
    most = label_bound(puzzle) - (len(puzzle.board.adjacencies) - len(soft))
    if most >= len(soft):
        return formula
    card = CardEnc.atmost(soft, bound=max(most, 0), top_id=formula.pool.top, encoding=EncType.kmtotalizer)
    formula.pool.top = max(formula.pool.top, card.nv)
    return extended(formula, card.clauses)
