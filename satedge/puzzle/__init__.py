"""Puzzles and their solutions: the model, its files, its checker and its counts.

The first two steps of the data's way, ``file -> Puzzle`` and, at the end, ``Solution ->
checker``: the model (:mod:`.model`, on its board, :mod:`.board`), puzzle files
(:mod:`.formats`) and solution files (:mod:`.solutions`), the independent checker
(:mod:`.checker`), the counts of solutions, pictures and pictures up to turns
(:mod:`.symmetry`), generated and shuffled puzzles (:mod:`.generate`, :mod:`.shuffle`), the
hypothesis strategies that draw them (:mod:`.strategies`), and pictures as text and images
(:mod:`.drawing`, :mod:`.render`).

It imports :mod:`satedge.system` and :mod:`satedge.errors` only.  The model's names are
here too: ``from satedge.puzzle import Puzzle``.
"""

from .model import (
    BOTTOM,
    LEFT,
    MATCHINGS,
    MAX_CELLS,
    MAX_NAME,
    OPPOSITE,
    RIGHT,
    SIDES,
    TOP,
    TOPOLOGIES,
    Adjacency,
    Board,
    Clue,
    Label,
    Puzzle,
    Solution,
    Solved,
    partner,
    rotate,
    self_symmetry,
)

__all__ = [  # as the module's own
    "TOP",
    "RIGHT",
    "BOTTOM",
    "LEFT",
    "SIDES",
    "OPPOSITE",
    "MATCHINGS",
    "TOPOLOGIES",
    "MAX_CELLS",
    "MAX_NAME",
    "Label",
    "rotate",
    "partner",
    "self_symmetry",
    "Adjacency",
    "Board",
    "Clue",
    "Solution",
    "Puzzle",
    "Solved",
]
