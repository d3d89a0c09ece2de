"""satedge: edge-matching puzzles and their SAT encodings.

The data flows one way: file -> :class:`Puzzle` -> encoding -> CNF -> solver -> model ->
:class:`Solution` -> checker / counts / report.  From Python, as from the command line::

    from satedge import load_puzzle, solve, count, encode
    puzzle = load_puzzle("hunde-spiel")         # a file, or a shipped puzzle's name
    solve(puzzle)                               # a Solved: a grid when printed, a picture in a notebook
    count(puzzle)                               # Counts(solutions=16, distinct=8, unique=2)
    encode(puzzle)                              # the formula of the commands' default encoding
"""

from .api import count, job, solutions, solve
from .checker import validate
from .encode import DEFAULT_ENCODING, Encoded, Encoding, Options, encode
from .errors import EncodingError, SatedgeError
from .formats import load_puzzle, save_puzzle
from .jobs import Job, Result, run
from .process import Limits
from .puzzle import Adjacency, Board, Clue, Puzzle, Solution, Solved
from .solutions import load_solution, load_solutions, save_solution
from .solvers import SolverConfig
from .symmetry import Counts
from .version import __version__

__all__ = [
    "Adjacency", "Board", "Clue", "Counts", "DEFAULT_ENCODING", "Encoded", "Encoding", "EncodingError", "Job", "Limits",
    "Options", "Puzzle", "Result", "SatedgeError", "Solution", "Solved", "SolverConfig", "__version__", "count", "encode",
    "job", "load_puzzle", "load_solution", "load_solutions", "run", "save_puzzle", "save_solution", "solutions", "solve",
    "validate",
]
