"""satedge: edge-matching puzzles and their SAT encodings.

The data flows one way: file -> :class:`Puzzle` -> encoding -> CNF -> solver -> model ->
:class:`Solution` -> checker / counts / report.  From Python, as from the command line::

    from satedge import load_puzzle, solve, count, encode
    puzzle = load_puzzle("hunde-spiel")         # a file, or a shipped puzzle's name
    solve(puzzle)                               # a Solved: a grid when printed, a picture in a notebook
    count(puzzle)                               # Counts(solutions=16, distinct=8, unique=2)
    encode(puzzle)                              # the formula of the commands' default encoding
"""

import sys
import types
from importlib import import_module
from typing import Any

# each public name and the module it lives in, imported when first used: a command that needs little
# of satedge (``satedge count`` of a small puzzle) does not pay for the rest
_WHERE = {
    "count": "api",
    "job": "api",
    "maximize": "api",
    "solutions": "api",
    "solve": "api",
    "validate": "puzzle.checker",
    "score": "puzzle.checker",
    "Scored": "puzzle.checker",
    "DEFAULT_ENCODING": "encode",
    "Encoded": "encode",
    "Encoding": "encode",
    "Options": "encode",
    "encode": "encode",
    "EncodingError": "errors",
    "SatedgeError": "errors",
    "load_puzzle": "puzzle.formats",
    "save_puzzle": "puzzle.formats",
    "Job": "jobs",
    "Result": "jobs",
    "run": "jobs",
    "Limits": "system.process",
    "Adjacency": "puzzle.model",
    "Board": "puzzle.model",
    "Clue": "puzzle.model",
    "Puzzle": "puzzle.model",
    "Solution": "puzzle.model",
    "Solved": "puzzle.model",
    "load_solution": "puzzle.solutions",
    "load_solutions": "puzzle.solutions",
    "save_solution": "puzzle.solutions",
    "SolverConfig": "jobs.solver",
    "Counts": "puzzle.symmetry",
    "__version__": "system.resources",
}


_LOADED: dict = {}


def _public(name: str) -> Any:
    if name not in _LOADED:
        _LOADED[name] = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    return _LOADED[name]


class _Package(types.ModuleType):
    """satedge itself: its public names come from their modules when first used.  Looked up
    before the package's own attributes, since importing a subpackage binds its name in the
    package (``satedge.encode`` the package), which would hide the function of that name."""

    def __getattribute__(self, name: str) -> Any:
        if name in _WHERE:
            return _public(name)
        return super().__getattribute__(name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(_WHERE))


sys.modules[__name__].__class__ = _Package


__all__ = [
    "Adjacency",
    "Board",
    "Clue",
    "Counts",
    "DEFAULT_ENCODING",
    "Encoded",
    "Encoding",
    "EncodingError",
    "Job",
    "Limits",
    "Options",
    "Puzzle",
    "Result",
    "SatedgeError",
    "Scored",
    "Solution",
    "Solved",
    "SolverConfig",
    "__version__",
    "count",
    "encode",
    "job",
    "load_puzzle",
    "load_solution",
    "load_solutions",
    "maximize",
    "run",
    "save_puzzle",
    "save_solution",
    "score",
    "solutions",
    "solve",
    "validate",
]
