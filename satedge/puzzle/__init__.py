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

from . import model
from .model import *  # noqa: F401,F403

__all__ = model.__all__
