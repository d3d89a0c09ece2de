"""The reference backtracker: the puzzle searched directly, exact, every solution streamed.

:mod:`.search` is the search (and its names are here too: ``satedge.backtrack.solutions``),
:mod:`.compiled` its loop compiled (numba's, or C from :mod:`.native`), :mod:`.split` its tree shared
among worker processes, :mod:`.plans` what it searches (the cell order,
look-alike turns, identical tiles) and :mod:`.orders` the cell orders with their estimated
trees.

It imports :mod:`satedge.puzzle` (the symmetry-breaking placements it shares with the encodings
come from there: :func:`satedge.puzzle.symmetry.broken_placements`), :mod:`satedge.system` and
:mod:`satedge.errors`, and nothing of the encodings it checks.
"""

from .search import (
    MAX_TABLE,
    SMALL,
    Cost,
    Plan,
    compiled_available,
    plan,
    prefixes,
    solutions,
    solve,
    subtrees,
    symmetry_broken,
    tables,
    weighted,
)

__all__ = [  # as the module's own
    "MAX_TABLE",
    "SMALL",
    "Plan",
    "plan",
    "Cost",
    "solutions",
    "weighted",
    "tables",
    "symmetry_broken",
    "prefixes",
    "subtrees",
    "compiled_available",
    "solve",
]
