"""The reference backtracker: the puzzle searched directly, exact, every solution streamed.

:mod:`.search` is the search (and its names are here too: ``satedge.backtrack.solutions``),
:mod:`.compiled` its loop compiled (numba's, or C from :mod:`.native`), :mod:`.split` its tree shared
among worker processes, :mod:`.plans` what it searches (the cell order,
look-alike turns, identical tiles) and :mod:`.orders` the cell orders with their estimated
trees.

It imports :mod:`satedge.encode` (the symmetry-breaking placements it shares with the
encodings), :mod:`satedge.puzzle`, :mod:`satedge.system` and :mod:`satedge.errors`.
"""

from . import search
from .search import *  # noqa: F401,F403

__all__ = search.__all__
