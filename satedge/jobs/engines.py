"""The engine table: every way satedge answers a puzzle, declared once.

An :class:`Engine` is the whole contract of a way to answer: its name, what it is, whether it
solves a SAT formula (and so takes an encoding), the options its solver string takes, what it
needs beyond the core, whether ``--method`` names it, and per task a :class:`Task`: the job
function that runs it and what the task allows (workers, a Dask cluster, a time limit it needs,
the counting modes, several solutions, a certified answer).  An engine's tasks are the keys of
that mapping.  Everything else asks the table: the request's checks
(:meth:`satedge.jobs.job.Job.check_settings`), the dispatch
(:func:`satedge.jobs.dispatch.execute`), each command's ``--method`` choices (:func:`methods`)
and ``auto``'s policy beside it (:mod:`satedge.jobs.auto`), solver strings
(:class:`satedge.jobs.config.SolverConfig`), the cross-check, ``satedge solvers``, the help texts
and the documentation.  A new engine is its job module, one entry here, its tests and a line in
the docs.

>>> list(ENGINES)
['pysat', 'hermax', 'cmd', 'backtrack', 'budget', 'restarts', 'lns', 'cpsat', 'clasp']
>>> list(ENGINES["lns"].tasks), ENGINES["lns"].tasks["maximize"].timeout, methods("maximize")
(['maximize'], True, ('auto', 'sat', 'backtrack', 'budget', 'restarts', 'lns'))
>>> ENGINES["clasp"].solves_formula, ENGINES["clasp"].needs.extra, REFERENCE, methods("count")
(True, 'asp', 'backtrack', ('auto', 'sat', 'backtrack'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..errors import SatedgeError
from ..puzzle.symmetry import MODES
from ..sat.maxsat import EVALUATION_SOLVERS, HERMAX
from ..sat.solvers import BINARY
from ..system.extras import Need
from . import backtrack, budget, clasp, conquer, cpsat, lns, portfolio, restarts, sat
from .result import Note, Result

__all__ = [
    "OPTIONS",
    "TASKS",
    "Task",
    "Engine",
    "ENGINES",
    "REFERENCE",
    "PYSAT",
    "EVALUATION",
    "STRATEGIES",
    "DEFAULT_STRATEGY",
    "methods",
    "takers",
    "prose",
]

# the options a solver string may give an engine, beside a PySAT solver's own
# (satedge.jobs.config.SolverConfig); workers=N where one of its tasks takes workers
OPTIONS = ("workers", "strategy", "enumeration", "order", "schedule", "cap")
# what a job may be: a first solution or several (solve), counts, a formula's size (encode), or
# the board with the most inner edges that fit (maximize)
TASKS = ("solve", "count", "encode", "maximize")


@dataclass(frozen=True, kw_only=True)
class Task:
    """What an engine does for one task: its job function and what the task allows.

    Attributes
    ----------
    run
        The job function, ``run(job, note) -> Result``.
    workers
        Whether it takes ``workers=N`` (processes; CP-SAT's search workers).
    every_core
        Whether, named by ``--method``, it runs on every core unless told how many (else on one).
    cluster
        Whether its parts run on a Dask cluster.
    timeout
        Whether it runs until its time limit, and so needs one.
    modes
        The counting modes (:data:`satedge.puzzle.symmetry.MODES`) it answers (solve, count).
    enumerates
        Whether it lists several solutions (``solve --all``, ``--limit N``), not only a first.
    certifies
        Whether it gives certified answers (:mod:`satedge.jobs.certified`).
    resumes
        To maximize: whether it starts from a board it is given (``Job.start``, ``--resume-from``).
    summary
        What it does for the task, in a few words (``--method``'s help; for a formula engine,
        the SAT method's).
    """

    run: Callable[..., Result]
    workers: bool = False
    every_core: bool = False
    cluster: bool = False
    timeout: bool = False
    modes: tuple[str, ...] = MODES
    enumerates: bool = True
    certifies: bool = False
    resumes: bool = False
    summary: str = ""


@dataclass(frozen=True, kw_only=True)
class Engine:
    """One way to answer a puzzle: what it is, what it does for each task and what it needs.

    Attributes
    ----------
    name
        How solver strings name it: a PySAT solver goes by its own name (``cadical195``), a
        solver binary by ``cmd:COMMAND``, every other engine by this name.
    summary
        What it is, in one line.
    tasks
        Per task it runs (of :data:`TASKS`; ``encode`` only where it solves a formula), its
        :class:`Task`.
    called
        What prose calls it (``PySAT solvers``, ``solver binaries``); default its name.
    solves_formula
        Whether it solves the SAT formula of an encoding; else it has a model of its own and
        takes no encoding.
    options
        Which of :data:`OPTIONS` beside ``workers`` its solver string takes.
    method
        Whether ``--method`` names it, beside ``auto`` and ``sat`` (:func:`methods`).
    needs
        What it needs beyond the core (a Python module and its extra, or a program); ``None``:
        nothing.
    outside
        Whether its answers come from a program outside satedge whose "no" (UNSAT, an optimum)
        is its word alone: such an answer is flagged unless a certificate checks it
        (:attr:`satedge.jobs.result.Result.checked`).
    """

    name: str
    summary: str
    tasks: Mapping[str, Task]
    called: str | None = None
    solves_formula: bool = False
    options: tuple[str, ...] = ()
    method: bool = False
    needs: Need | None = None
    outside: bool = False

    def __post_init__(self) -> None:
        if self.called is None:
            object.__setattr__(self, "called", self.name)
        wrong = [t for t in self.tasks if t not in TASKS]
        wrong += [o for o in self.options if o not in OPTIONS or o == "workers"]
        wrong += [m for task in self.tasks.values() for m in task.modes if m not in MODES]
        if "encode" in self.tasks and not self.solves_formula:
            wrong.append("encode without a formula")
        if wrong or not self.tasks:
            raise SatedgeError(
                f"engine {self.name}: {', '.join(wrong) or 'no task'} is not something an engine can take or do"
            )

    @property
    def settings(self) -> tuple[str, ...]:
        """The options of :data:`OPTIONS` its solver string takes: ``workers`` where a task of it
        takes workers, and :attr:`options`."""
        return ("workers",) * any(t.workers for t in self.tasks.values()) + self.options

    def installed(self) -> bool:
        """Whether what it needs is here."""
        return self.needs is None or self.needs.met()

    def check_installed(self) -> None:
        """That what it needs is here; else the one-line error that names the extra or the
        program."""
        if self.needs is not None:
            self.needs.check(f"the {self.name} engine")


def _formula(run: Callable[..., Result], maximize: Callable[..., Result]) -> dict[str, Task]:
    """The tasks of an engine that solves the formula of an encoding (a PySAT solver, a binary)."""
    answers = Task(run=run, workers=True, cluster=True, certifies=True, summary="a SAT encoding and --solver")
    return {
        "solve": answers,
        "count": answers,
        "encode": Task(run=sat.encode_only),
        "maximize": Task(
            run=maximize,
            certifies=True,
            summary="RC2 (PySAT's MaxSAT solver) over --solver on the MaxSAT form of --encoding",
        ),
    }


_BACKTRACK = Task(run=backtrack.run, workers=True, cluster=True, summary="the reference backtracker")
ENGINES: dict[str, Engine] = {
    e.name: e
    for e in (
        Engine(
            name="pysat",
            called="PySAT solvers",
            solves_formula=True,
            options=("strategy", "enumeration"),
            tasks=_formula(sat.run, sat.rc2),
            summary="a PySAT solver by its name (cadical195, minisat22, ...; `satedge solvers` lists those that "
            "work here), enumerating with blocking clauses; to maximize, RC2 (PySAT's MaxSAT solver) over it",
        ),
        Engine(
            name="hermax",
            called="MaxSAT Evaluation solvers",
            solves_formula=True,
            needs=HERMAX,
            tasks={
                "maximize": Task(
                    run=sat.evaluation,
                    certifies=True,
                    summary="a MaxSAT Evaluation solver (--solver uwrmaxsat, ...) on the MaxSAT form of --encoding",
                )
            },
            summary="the exact solvers of the MaxSAT Evaluations by their names ("
            + ", ".join(EVALUATION_SOLVERS)
            + "), in-process through hermax: to maximize, on the MaxSAT form of an encoding",
        ),
        Engine(
            name=BINARY,
            called="solver binaries",
            solves_formula=True,
            outside=True,
            options=("strategy", "enumeration"),
            tasks=_formula(sat.run, sat.maxsat_binary),
            summary="a DIMACS solver binary, cmd:COMMAND (cmd:'cadical -q'), run afresh on the formula and its "
            "blocking clauses for each model; to maximize, a MaxSAT solver binary on the WCNF (the MaxSAT "
            "Evaluation's format and answer)",
        ),
        Engine(
            name="backtrack",
            options=("order",),
            method=True,
            tasks={
                "solve": _BACKTRACK,
                "count": _BACKTRACK,
                "maximize": Task(
                    run=backtrack.branch_and_bound,
                    certifies=True,
                    summary="the backtracker's branch and bound, anytime, which proves its best board optimal",
                ),
            },
            summary="the reference backtracker on the puzzle itself, compiled with numba, on every core; to "
            "maximize, its branch and bound (one process), anytime, which proves its best board optimal",
        ),
        Engine(
            name="budget",
            options=("order",),
            method=True,
            tasks={
                "maximize": Task(
                    run=budget.run,
                    resumes=True,
                    workers=True,
                    every_core=True,
                    cluster=True,
                    certifies=True,
                    summary="the backtracker with a budget of misfits, raised from 0 until a board keeps within "
                    "it, on --workers processes: proves the optimum",
                )
            },
            summary="the backtracker with a budget of misfits: the best board proved by searching for one with a "
            "misfit fewer until none is, its tree shared among workers or a Dask cluster",
        ),
        Engine(
            name="restarts",
            options=("schedule", "cap"),
            method=True,
            needs=restarts.needs,
            tasks={
                "maximize": Task(
                    run=restarts.run,
                    resumes=True,
                    workers=True,
                    every_core=True,
                    timeout=True,
                    summary="restarts of the backtracker with a schedule of misfits on --workers processes until "
                    "--timeout, the best board polished: good boards of large puzzles, proving nothing",
                )
            },
            summary="restarts of the backtracker with a schedule of misfits (none until late depths, then a few "
            "more), each from another tile order and capped in placements, on every core until its time limit",
        ),
        Engine(
            name="lns",
            method=True,
            needs=lns.needs,
            tasks={
                "maximize": Task(
                    run=lns.run,
                    resumes=True,
                    workers=True,
                    every_core=True,
                    timeout=True,
                    summary="a large-neighbourhood search with simulated annealing on --workers processes until "
                    "--timeout, which proves nothing",
                )
            },
            summary="large-neighbourhood search and simulated annealing from a board that keeps the frame and the "
            "clues, on every core, until its time limit: good boards where none is proved best",
        ),
        Engine(
            name="cpsat",
            needs=cpsat.needs,
            tasks={
                **dict.fromkeys(("solve", "count"), Task(run=cpsat.run, workers=True)),
                "maximize": Task(
                    run=cpsat.maximize,
                    workers=True,
                    certifies=True,
                    summary="CP-SAT's model of the best board (Boolean placements, a match literal per edge) "
                    "with --workers search workers: proves the optimum, or its best board at --timeout",
                ),
            },
            summary="the CP-SAT model of the puzzle (OR-Tools), with its own search workers; to maximize, its "
            "model of the best board",
        ),
        Engine(
            name="clasp",
            solves_formula=True,
            options=("enumeration",),
            needs=clasp.needs,
            tasks={
                **dict.fromkeys(("solve", "count"), Task(run=clasp.run)),
                "encode": Task(run=sat.encode_only),
            },
            summary="clasp (clingo) on the formula: every model enumerated natively, projected on the decision "
            "variables, with no blocking clause",
        ),
    )
}

REFERENCE = "backtrack"  # the engine every other is cross-checked against
PYSAT = "pysat"  # the engine a PySAT solver's name (and the default solver) names
EVALUATION = "hermax"  # the engine a MaxSAT Evaluation solver's name names
# how the SAT method uses several workers; without a strategy: cubes, which partition the solution
# set (to count and to enumerate the work divides) and found a first solution sooner than the
# portfolio on the peak puzzles of experiments/bench-parallel.yaml (PAR-2 35.1 against 39.0, where
# the portfolio's first member, the job itself, won every race)
STRATEGIES: dict[str, Callable[[object, Note | None], Result]] = {
    "portfolio": portfolio.run,
    "cubes": conquer.run,
}
DEFAULT_STRATEGY = "cubes"


def methods(task: str) -> tuple[str, ...]:
    """The choices of ``--method`` for ``task``: ``auto`` (:mod:`satedge.jobs.auto`), ``sat`` (an
    encoding and a solver) where a formula engine runs the task, and the engines ``--method``
    names that run it."""
    formula = any(e.solves_formula and task in e.tasks for e in ENGINES.values())
    named = tuple(e.name for e in ENGINES.values() if e.method and task in e.tasks)
    return ("auto",) + ("sat",) * formula + named


def takers(option: str, task: str | None = None) -> str:
    """The engines that take ``option`` (one of :data:`OPTIONS`; with ``task``, ``workers`` for
    that task), as prose calls them.

    >>> takers("order"), takers("strategy"), takers("workers", "maximize")
    ('backtrack and budget', 'PySAT solvers and solver binaries', 'budget, restarts, lns and cpsat')
    """
    return prose(
        [
            e.called
            for e in ENGINES.values()
            if option in e.settings and (task is None or (task in e.tasks and e.tasks[task].workers))
        ]
    )


def prose(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0] if names else "none"
