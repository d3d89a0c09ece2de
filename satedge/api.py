"""satedge from Python, as the command line does it, with the same defaults: :func:`solve` and
:func:`count` of a puzzle (a :class:`Puzzle`, a file or a shipped puzzle's name).

>>> from satedge import count, solve
>>> count("hunde-spiel")
Counts(solutions=16, distinct=8, unique=2)
>>> solve("hunde-spiel").solution
Solution(1/0 7/0 2/0 0/0 4/0 5/0 8/3 6/3 3/3)
"""

from __future__ import annotations

import os
from dataclasses import replace

from .encode import Encoding
from .errors import SatedgeError
from .files import shown
from .formats import load_puzzle
from .jobs import Job, Result, run
from .jobs.auto import choose
from .process import Limits, default_memory_mb
from .puzzle import Puzzle, Solved
from .solvers import SolverConfig
from .symmetry import MODES, Counts

METHODS = ("auto", "sat", "backtrack")


def job(puzzle: Puzzle | str | os.PathLike, task: str = "solve", method: str = "auto",
        solver: SolverConfig | str | None = None, encoding: Encoding | str | None = None, workers: int | None = None,
        timeout: float | None = None, memory_mb: float | None = None, **fields) -> Job:
    """The :class:`Job` a command makes: ``method`` ``auto`` (the default: the engine of
    :func:`satedge.jobs.auto.choose`, unless a ``solver`` or an ``encoding`` is named, which
    means ``sat``), ``sat`` or ``backtrack``; ``memory_mb`` by default 80% of the memory
    available now; the rest as :class:`Job` has them."""
    p = puzzle if isinstance(puzzle, Puzzle) else load_puzzle(puzzle)
    if method not in METHODS:
        raise SatedgeError(f"method is one of {', '.join(METHODS)}, not {shown(method)}")
    if solver is None and encoding is None and method == "auto":
        config = choose(p, task, workers)
    elif solver is None and method == "backtrack":
        config = SolverConfig(engine="backtrack", workers=workers or 1)
    else:
        config = SolverConfig.of(solver)
        if workers is not None:
            config = replace(config, workers=workers)
    limits = Limits(timeout=timeout, memory_mb=default_memory_mb() if memory_mb is None else memory_mb)
    return Job(p, task, solver=config, encoding=encoding, limits=limits, **fields)


def answer(j: Job) -> Result:
    """The result of a job: ``MEMOUT`` and ``ERROR`` raise (:meth:`Result.raise_error`), and so
    does ``TIMEOUT`` (:class:`TimeoutError`)."""
    res = run(j).raise_error()
    if res.status == "TIMEOUT":
        raise TimeoutError(f"no answer in {j.limits.timeout:g} s")
    return res


def solve(puzzle: Puzzle | str | os.PathLike, **options) -> Solved | None:
    """The first solution of ``puzzle`` as a :class:`Solved` (printed as a grid, drawn in a
    notebook), or ``None`` when it has none; ``options`` as :func:`job` takes them."""
    j = job(puzzle, "solve", limit=1, **options)
    res = answer(j)
    return Solved(j.puzzle, res.solutions[0]) if res.solutions else None


def solutions(puzzle: Puzzle | str | os.PathLike, mode: str = "solutions", limit: int | None = None,
              **options) -> list[Solved]:
    """Every solution (``mode``: or one per picture, ``distinct``, or per picture up to board
    turns, ``unique``), at most ``limit``."""
    j = job(puzzle, "solve", modes=(mode,), limit=limit, **options)
    return [Solved(j.puzzle, s) for s in answer(j).solutions]


def count(puzzle: Puzzle | str | os.PathLike, **options) -> Counts:
    """The three counts of ``puzzle``: solutions, distinct pictures, pictures up to board turns."""
    res = answer(job(puzzle, "count", modes=MODES, **options))
    return Counts(*(res.counts[m] for m in MODES))
