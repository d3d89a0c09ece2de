"""satedge from Python, as the command line does it, with the same defaults: :func:`solve`,
:func:`solutions`, :func:`count` and :func:`maximize` of a puzzle (a :class:`Puzzle`, a file or a
shipped puzzle's name), or any :func:`job` of the tasks ``solve``, ``count``, ``encode`` and
``maximize``, with the methods ``auto`` (:func:`satedge.jobs.job.choose`), ``sat`` and the engines
that ``--method`` names for the task (:func:`satedge.jobs.registry.methods`):

>>> from satedge.jobs.registry import methods
>>> methods("count"), methods("maximize")
(('auto', 'sat', 'backtrack'), ('auto', 'sat', 'backtrack', 'budget', 'field', 'lns', 'restarts'))
>>> from satedge import count, solve
>>> count("hunde-spiel")
Counts(solutions=16, distinct=8, unique=2)
>>> solve("hunde-spiel").solution
Solution(1/0 7/0 2/0 0/0 4/0 5/0 8/3 6/3 3/3)
"""

from __future__ import annotations

import os
from typing import Any

from .encode import Encoding
from .jobs import Job, Result, run
from .jobs.solver import SolverConfig
from .puzzle.checker import Scored
from .puzzle.formats import load_puzzle
from .puzzle.model import Puzzle, Solved
from .puzzle.symmetry import DEFAULT_MODES, MODES, Counts

__all__ = ["job", "answer", "solve", "solutions", "count", "maximize"]


def job(
    puzzle: Puzzle | str | os.PathLike,
    task: str = "solve",
    method: str = "auto",
    solver: SolverConfig | str | None = None,
    encoding: Encoding | str | None = None,
    workers: int | None = None,
    timeout: float | None = None,
    memory_mb: float | None = None,
    **fields: Any,
) -> Job:
    """The :class:`Job` a command makes, with the command's defaults (:meth:`Job.make`).

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    task : str
        ``solve``, ``count``, ``encode`` or ``maximize``.
    method : str
        ``auto`` (the default: the engine :func:`satedge.jobs.job.choose` picks for the puzzle,
        unless a ``solver`` or an ``encoding`` is named, which means ``sat``), ``sat``, or an
        engine ``--method`` names for the task (:func:`satedge.jobs.registry.methods`).
    solver : SolverConfig or str, optional
        The engine and its settings (``cadical195:sat``, ``backtrack:workers=2``, ``cpsat``,
        ``clasp``, ``cmd:COMMAND``).
    encoding : Encoding or str, optional
        For the SAT method; default ``edgecolor-corners`` (to maximize, ``support``); a file of
        yours as ``FILE.py:FUNCTION``.
    workers : int, optional
        Processes (CP-SAT: search workers).
    timeout : float, optional
        Seconds of wall-clock time for the whole job.
    memory_mb : float, optional
        MB for the job's process tree; default 80% of the memory available now.
    **fields
        Any other field of :class:`Job` (``modes``, ``limit``, ``shuffle``, ``certify``, ...)
        and the options the engines declare (``order``, ``schedule``, ...).

    Returns
    -------
    Job

    Raises
    ------
    SatedgeError
        When the values do not go together, in the words of the command line.
    """
    p = puzzle if isinstance(puzzle, Puzzle) else load_puzzle(puzzle)
    return Job.make(
        p,
        task,
        method=method,
        solver=solver,
        encoding=encoding,
        workers=workers,
        timeout=timeout,
        memory_mb=memory_mb,
        **fields,
    )


def answer(j: Job) -> Result:
    """The result of a job that answered.

    Parameters
    ----------
    j : Job

    Returns
    -------
    Result
        With status ``SAT`` or ``UNSAT``.

    Raises
    ------
    TimeoutError
        At the job's timeout.
    SatedgeError
        When it ran out of memory or failed (:meth:`Result.raise_error`).
    """
    res = run(j).raise_error()
    if res.status == "TIMEOUT" and not (j.task == "maximize" and res.solutions):
        raise TimeoutError(f"no answer in {j.limits.timeout or 0:g} s")
    return res


def solve(puzzle: Puzzle | str | os.PathLike, **options: Any) -> Solved | None:
    """The first solution of a puzzle.

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    **options
        As :func:`job` takes them (``method``, ``solver``, ``encoding``, ``timeout``, ...).

    Returns
    -------
    Solved or None
        The puzzle with its solution (printed as a grid, drawn in a notebook), or ``None``
        when it has none.
    """
    j = job(puzzle, "solve", limit=1, **options)
    res = answer(j)
    return Solved(j.board, res.solutions[0]) if res.solutions else None


def solutions(
    puzzle: Puzzle | str | os.PathLike, mode: str = "solutions", limit: int | None = None, **options: Any
) -> list[Solved]:
    """Every solution of a puzzle, or one per picture.

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    mode : str
        ``solutions`` (every one), ``distinct`` (one per picture) or ``unique`` (one per
        picture up to board turns).
    limit : int, optional
        At most this many.
    **options
        As :func:`job` takes them.

    Returns
    -------
    list of Solved
    """
    j = job(puzzle, "solve", modes=(mode,), limit=limit, **options)
    return [Solved(j.board, s) for s in answer(j).solutions]


def count(puzzle: Puzzle | str | os.PathLike, classes: bool = False, **options: Any) -> Counts:
    """The counts of a puzzle.

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    classes : bool
        Also count the pictures up to every symmetry of the puzzle
        (:func:`satedge.puzzle.symmetry.group`: the board's turns and mirrors with the
        relabellings that keep the tiles and rules).
    **options
        As :func:`job` takes them.

    Returns
    -------
    Counts
        Solutions, distinct pictures, pictures up to board turns (and with ``classes``, up to
        the puzzle's symmetries).

    >>> count("macmahon/4x6", classes=True, workers=1)  # doctest: +SKIP
    Counts(solutions=54591488, distinct=106624, unique=53312, classes=13328)
    """
    modes = MODES if classes else DEFAULT_MODES
    res = answer(job(puzzle, "count", modes=modes, **options))
    return Counts(*(res.counts[m] for m in modes))


def maximize(puzzle: Puzzle | str | os.PathLike, **options: Any) -> Scored | None:
    """The board with the most inner edges that fit: every tile placed once, the frame and the
    clues kept.

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    **options
        As :func:`job` takes them: ``method`` (``auto``: :func:`satedge.jobs.job.policy` says
        its choice; or an engine ``methods("maximize")`` lists, each with its options),
        ``workers``, ``timeout`` (then the best board found so far, its ``bound`` the one
        proved), ...

    Returns
    -------
    Scored or None
        The board, its score and the highest score proved possible (``optimal`` when they are
        equal); ``None`` when no board keeps the frame and the clues.

    Raises
    ------
    TimeoutError
        When the ``timeout`` comes before any board: RC2 (``method="sat"``) gives its first
        board at the optimum; the other engines give one within the first second or so.

    Examples
    --------
    >>> best = maximize("hunde-spiel")
    >>> best.score, best.edges, best.optimal
    (12, 12, True)
    """
    j = job(puzzle, "maximize", **options)
    res = answer(j)
    if not res.solutions or res.score is None or res.bound is None:
        return None
    return Scored(j.board, res.solutions[0], res.score, res.bound)
