"""satedge from Python, as the command line does it, with the same defaults: :func:`solve`,
:func:`solutions`, :func:`count` and :func:`maximize` of a puzzle (a :class:`Puzzle`, a file or a
shipped puzzle's name), or any :func:`job` of the tasks ``solve``, ``count``, ``encode`` and
``maximize``, with the methods ``auto`` (:func:`choose`), ``sat`` and the engines of the table
that ``--method`` names for the task (:func:`satedge.jobs.engines.methods`):

>>> from satedge.jobs.engines import methods
>>> methods("count"), methods("maximize")
(('auto', 'sat', 'backtrack'), ('auto', 'sat', 'backtrack', 'budget', 'restarts', 'field', 'lns'))
>>> from satedge import count, solve
>>> count("hunde-spiel")
Counts(solutions=16, distinct=8, unique=2)
>>> solve("hunde-spiel").solution
Solution(1/0 7/0 2/0 0/0 4/0 5/0 8/3 6/3 3/3)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .backtrack.search import SMALL
from .encode import Encoding
from .errors import SatedgeError
from .jobs import Job, Result, run
from .jobs.config import SolverConfig
from .jobs.engines import ENGINES, REFERENCE, TASKS, declared, methods, option_names
from .puzzle.checker import Scored
from .puzzle.formats import load_puzzle
from .puzzle.model import Puzzle, Solved
from .puzzle.symmetry import MODES, Counts
from .sat.proofdir import PROOF_FILES
from .system.files import check_folder, shown
from .system.limits import cores
from .system.process import Limits, default_memory_mb

__all__ = [
    "METHODS",
    "PROVABLE",
    "POLICY",
    "choose",
    "Request",
    "job",
    "answer",
    "solve",
    "solutions",
    "count",
    "maximize",
]

PROVABLE = 36  # cells: the largest boards whose best score auto searches to the proof

# the policy in words, per task, for the help texts and the documentation
POLICY = {
    "solve": "the engine that answers soonest (the compiled backtracker on every core; with --encoding, --solver "
    "or another SAT option: sat)",
    "maximize": f"field on framed boards of more than {PROVABLE} cells with a --timeout, restarts on other boards "
    "that large, else budget",
}
POLICY["count"] = POLICY["solve"]


def choose(
    puzzle: Puzzle, task: str = "solve", workers: int | None = None, timeout: float | None = None
) -> SolverConfig:
    """The solver of ``--method auto`` for ``task`` (``solve``, ``count`` or ``maximize``) on
    ``puzzle`` with ``workers`` processes (default: every core): the engine that answered soonest
    in ``benchmarks/auto/bench-auto.md``.  On the peak puzzles (framed 7x7 and 8x8 of tunable
    hardness) and on puzzles with 10^3 to 10^5 solutions to count, the backtracker answered sooner
    than every SAT configuration, the best one included; so it is the backtracker: on boards of at
    most 16 cells its pure-Python loop on one core (loading the compiled one takes longer than
    solving them), beyond that compiled on every core.  Where the compiled search cannot take the
    puzzle (numba does not import, or its table does not fit), larger boards go to the default
    SAT configuration instead.  To maximize: the backtracker with a budget of misfits on every
    core, which proved the optimum sooner than its branch and bound and RC2 on the generated 4x4
    to 6x6 boards of ``benchmarks/maximize/bench-maximize.md``; on boards of more than :data:`PROVABLE`
    cells with a ``timeout``, the field's construction on framed boards
    (:mod:`satedge.best.field`) and restarts of the budgeted search on others, on every core, which
    prove nothing but found better boards than the large-neighbourhood search in the same time on
    Eternity II (``benchmarks/maximize/bench-maximize.md``).  Each engine is picked only where the table says it takes
    the puzzle (:meth:`satedge.jobs.engines.Engine.takes`: installed, and at its speed)."""
    if task == "maximize":  # the first of them that the table says takes it
        large = puzzle.n > PROVABLE and timeout is not None
        anytime = ("field", "restarts") if puzzle.frame is not None else ("restarts",)
        choices = (*anytime, "budget") if large else ("budget",)
        engine = next(name for name in choices if ENGINES[name].takes(puzzle))
        return SolverConfig(engine=engine, workers=workers or cores())
    if ENGINES["backtrack"].takes(puzzle):
        return SolverConfig(engine="backtrack", workers=workers or (1 if puzzle.n <= SMALL else cores()))
    return SolverConfig(workers=workers or 1)


METHODS = methods("solve")  # the best engine here; an encoding and a SAT solver; the reference


@dataclass(frozen=True)
class Request:
    """What a command's options, or :func:`job`'s keywords, ask of every puzzle: all of a
    :class:`Job` but the puzzle, checked once, before any puzzle is read (:meth:`make`).

    Attributes
    ----------
    task
        ``solve``, ``count``, ``encode`` or ``maximize``.
    method
        ``auto``, ``sat`` or an engine ``--method`` names for the task
        (:func:`satedge.jobs.engines.methods`).
    solver
        The engine and its settings; ``None``: chosen per puzzle (``--method auto``,
        :func:`satedge.api.choose`).
    encoding
        For the engines that solve a formula.
    workers
        Processes (CP-SAT: search workers); ``None``: the method's default.
    limits
        The time limit and memory cap of each job's whole process tree.
    shuffle, scheduler, certify, proof
        As :class:`Job` has them.
    """

    task: str = "solve"
    method: str = "auto"
    solver: SolverConfig | None = None
    encoding: Encoding | None = None
    workers: int | None = None
    limits: Limits = Limits()
    shuffle: int | None = None
    scheduler: str | None = None
    certify: str | None = None
    proof: str | None = None

    @classmethod
    def make(
        cls,
        task: str = "solve",
        *,
        method: str = "auto",
        solver: SolverConfig | str | None = None,
        encoding: Encoding | str | None = None,
        workers: int | None = None,
        timeout: float | None = None,
        memory_mb: float | None = None,
        shuffle: int | None = None,
        scheduler: str | None = None,
        certify: str | None = None,
        proof: str | None = None,
        modes: tuple[str, ...] | None = None,
        limit: int | None = 1,
        **settings,
    ) -> Request:
        """The request these settings make, with the commands' defaults, checked as a job of them
        would be (:meth:`Job.check_settings`, the engine table's word).  ``settings``: the
        options the engines declare (:func:`satedge.jobs.engines.declared`: ``strategy``,
        ``enumeration``, ``order``, ``schedule``, ``cap``, ...), ``None`` where not given.  The
        defaults: with ``method`` ``auto``, the SAT method when a ``solver``, an ``encoding`` or
        ``certify`` is named, else the first engine of the table that takes every option given
        (the SAT method for a formula engine's, the backtracker for an ``order``, the restarts
        for a ``schedule`` or a ``cap``), and else the engine chosen per puzzle;
        ``memory_mb``: 80% of the memory available now."""
        choices = methods(task) if task in TASKS else METHODS
        if method not in choices:
            raise SatedgeError(f"method is one of {', '.join(choices)}, not {shown(method)}")
        options = declared()
        unknown = [k for k in settings if k not in options]
        if unknown:
            raise SatedgeError(
                f"unknown setting {shown(unknown[0])}; the engines take {', '.join(option_names())}"
            )
        given = {k: v for k, v in settings.items() if v is not None}
        if method == "auto":
            if any(v is not None for v in (solver, encoding, certify)):
                method = "sat"
            elif given:  # the options given name the first engine that takes them all
                takes = [
                    e for e in ENGINES.values() if task in e.tasks and all(k in e.settings for k in given)
                ]
                named = ["sat" if e.solves_formula else e.name for e in takes if e.solves_formula or e.method]
                method = named[0] if named else method
        if method == "auto":
            config = None
        elif method == "sat" or isinstance(solver, SolverConfig):
            config = SolverConfig.of(solver).with_settings(workers=workers or None, **given)
        else:
            does = ENGINES[method].tasks.get(task)
            config = SolverConfig(
                engine=method,
                name=solver,
                workers=workers or (cores() if does is not None and does.every_core else 1),
                settings=given,
            )
        # auto: what it picks where it can, with the workers auto gives it per puzzle
        checked = config or SolverConfig(engine=REFERENCE)
        checked, encoding = Job.check_settings(
            task,
            checked,
            encoding,
            shuffle,
            scheduler,
            certify,
            modes or (MODES if task == "count" else ("solutions",)),
            limit,
            proof,
        )
        if proof is not None:
            check_folder(proof, "--proof", PROOF_FILES, "a certificate")
        if config is not None:
            Job.check_timeout(task, checked, timeout)
        limits = Limits(timeout=timeout, memory_mb=default_memory_mb() if memory_mb is None else memory_mb)
        return cls(
            task=task,
            method=method,
            solver=checked if config is not None else None,
            encoding=encoding,
            workers=workers,
            limits=limits,
            shuffle=shuffle,
            scheduler=scheduler,
            certify=certify,
            proof=proof,
        )

    def job(self, puzzle: Puzzle, **fields) -> Job:
        """The job of ``puzzle`` (the solver chosen for it where the request names none);
        ``fields``: any other of :class:`Job` (``modes``, ``limit``, ``progress``), and
        ``timeout`` to give it less time than the request."""
        timeout = fields.pop("timeout", self.limits.timeout)
        config = self.solver if self.solver is not None else choose(puzzle, self.task, self.workers, timeout)
        return Job(
            puzzle,
            self.task,
            solver=config,
            encoding=self.encoding,
            limits=Limits(timeout=timeout, memory_mb=self.limits.memory_mb),
            shuffle=self.shuffle,
            scheduler=self.scheduler,
            certify=self.certify,
            proof=self.proof,
            **fields,
        )


def job(
    puzzle: Puzzle | str | os.PathLike,
    task: str = "solve",
    method: str = "auto",
    solver: SolverConfig | str | None = None,
    encoding: Encoding | str | None = None,
    workers: int | None = None,
    timeout: float | None = None,
    memory_mb: float | None = None,
    **fields,
) -> Job:
    """The :class:`Job` a command makes, with the command's defaults.

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    task : str
        ``solve``, ``count``, ``encode`` or ``maximize``.
    method : str
        ``auto`` (the default: the engine of :func:`satedge.api.choose`, unless a
        ``solver`` or an ``encoding`` is named, which means ``sat``), ``sat``, or an engine
        ``--method`` names for the task (:func:`satedge.jobs.engines.methods`).
    solver : SolverConfig or str, optional
        The engine and its settings (``cadical195:sat``, ``backtrack:workers=2``, ``cpsat``,
        ``clasp``, ``cmd:COMMAND``).
    encoding : Encoding or str, optional
        For the SAT method; default ``edgecolor-corners`` (to maximize, ``support``).
    workers : int, optional
        Processes (CP-SAT: search workers).
    timeout : float, optional
        Seconds of wall-clock time for the whole job.
    memory_mb : float, optional
        MB for the job's process tree; default 80% of the memory available now.
    **fields
        Any other field of :class:`Job` (``modes``, ``limit``, ``shuffle``, ``certify``, ...).

    Returns
    -------
    Job

    Raises
    ------
    SatedgeError
        When the values do not go together, in the words of the command line.
    """
    p = puzzle if isinstance(puzzle, Puzzle) else load_puzzle(puzzle)
    made = ("shuffle", "scheduler", "certify", "proof", *declared())  # the request's; the rest, the job's
    given = {k: fields.pop(k) for k in made if k in fields}
    request = Request.make(
        task,
        method=method,
        solver=solver,
        encoding=encoding,
        workers=workers,
        timeout=timeout,
        memory_mb=memory_mb,
        **given,
    )
    return request.job(p, **fields)


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
        raise TimeoutError(f"no answer in {j.limits.timeout:g} s")
    return res


def solve(puzzle: Puzzle | str | os.PathLike, **options) -> Solved | None:
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
    return Solved(j.puzzle, res.solutions[0]) if res.solutions else None


def solutions(
    puzzle: Puzzle | str | os.PathLike, mode: str = "solutions", limit: int | None = None, **options
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
    return [Solved(j.puzzle, s) for s in answer(j).solutions]


def count(puzzle: Puzzle | str | os.PathLike, **options) -> Counts:
    """The three counts of a puzzle.

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    **options
        As :func:`job` takes them.

    Returns
    -------
    Counts
        Solutions, distinct pictures, pictures up to board turns.
    """
    res = answer(job(puzzle, "count", modes=MODES, **options))
    return Counts(*(res.counts[m] for m in MODES))


def maximize(puzzle: Puzzle | str | os.PathLike, **options) -> Scored | None:
    """The board with the most inner edges that fit: every tile placed once, the frame and the
    clues kept.

    Parameters
    ----------
    puzzle : Puzzle, str or path-like
        A puzzle, a puzzle file, or a shipped puzzle's name.
    **options
        As :func:`job` takes them: ``method`` (``auto``: ``budget``, or with a ``timeout`` on
        boards of more than 36 cells ``field`` where they are framed and ``restarts`` where not;
        ``budget``, budgets of misfits raised until a board keeps within one, which proves the
        optimum; ``restarts``, restarts of that search with a ``schedule`` of misfits, which need
        a ``timeout``; ``field``, the field's construction (a ``quota``, its ``ramp``, a
        ``ladder`` of breaks, ``attempt`` lengths, a ``completion``), which needs a ``timeout``;
        ``backtrack``, the branch and
        bound; ``sat``, RC2 over a PySAT ``solver`` on a MaxSAT ``encoding``; ``lns``, the
        large-neighbourhood search, which needs a ``timeout``; ``budget``, ``restarts``,
        ``field`` and ``lns`` on ``workers`` processes, every core by default), ``timeout`` (then the best
        board found so far, its ``bound`` the one proved), ...

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
    if not res.solutions:
        return None
    return Scored(j.puzzle, res.solutions[0], res.score, res.bound)
