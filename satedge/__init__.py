"""satedge: edge-matching puzzles and their SAT encodings.

The data flows one way: file -> :class:`Puzzle` -> encoding -> CNF -> solver -> model ->
:class:`Solution` -> checker / counts / report.
"""

from .checker import validate
from .errors import SatedgeError
from .formats import load_puzzle, save_puzzle
from .solutions import load_solution, save_solution
from .puzzle import Adjacency, Board, Clue, Puzzle, Solution
from .symmetry import Counts
from .version import __version__

__all__ = [
    "Adjacency", "Board", "Clue", "Counts", "Puzzle", "SatedgeError", "Solution",
    "load_puzzle", "load_solution", "save_puzzle", "save_solution", "validate", "__version__",
]
