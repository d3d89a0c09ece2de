"""The engine table: every way satedge answers a puzzle, declared once.

An :class:`Engine` is the whole contract of a way to answer: its name, what it is, whether it
solves a SAT formula (and so takes an encoding), the options its solver string takes, what it
needs beyond the core, whether ``--method`` names it, and per task a :class:`Task`: the job
function that runs it and what the task allows (workers, a Dask cluster, a time limit it needs,
the counting modes, several solutions, a certified answer).  An engine's tasks are the keys of
that mapping.  Everything else asks the table: the request's checks
(:meth:`satedge.jobs.job.Job.check_settings`), the dispatch
(:func:`satedge.jobs.dispatch.execute`), each command's ``--method`` choices (:func:`methods`)
and ``auto``'s policy (:func:`satedge.api.choose`), solver strings
(:class:`satedge.jobs.config.SolverConfig`), the cross-check, ``satedge solvers``, the help texts
and the documentation.  A new engine is its job module, one entry here, its tests and a line in
the docs.

>>> list(ENGINES)
['pysat', 'hermax', 'cmd', 'backtrack', 'budget', 'restarts', 'field', 'lns', 'cpsat', 'clasp']
>>> list(ENGINES["lns"].tasks), ENGINES["lns"].tasks["maximize"].timeout, methods("maximize")
(['maximize'], True, ('auto', 'sat', 'backtrack', 'budget', 'restarts', 'field', 'lns'))
>>> ENGINES["clasp"].solves_formula, ENGINES["clasp"].needs.extra, REFERENCE, methods("count")
(True, 'asp', 'backtrack', ('auto', 'sat', 'backtrack'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..backtrack.loop import LOOPS
from ..backtrack.orders import ORDERS
from ..backtrack.search import at_speed
from ..best.field import depths, labels, ramp
from ..best.restarts import Schedule
from ..errors import SatedgeError
from ..puzzle.model import Puzzle
from ..puzzle.symmetry import MODES
from ..sat.maxsat import EVALUATION_SOLVERS, HERMAX
from ..sat.solvers import BINARY, ENUMERATIONS
from ..system.extras import Need
from ..system.files import quoted
from . import best, clasp, conquer, cpsat, exact, portfolio, sat
from .result import Note, Result

__all__ = [
    "Option",
    "STRATEGY_OPTION",
    "ENUMERATION_OPTION",
    "ORDER_OPTION",
    "SCHEDULE_OPTION",
    "CAP_OPTION",
    "LOOP_OPTION",
    "FIELD_OPTIONS",
    "declared",
    "option_names",
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
    "doing",
    "prose",
]


@dataclass(frozen=True, kw_only=True)
class Option:
    """A setting an engine declares: its solver strings take it as ``NAME=VALUE``
    (:class:`satedge.jobs.config.SolverConfig`), the commands whose tasks it runs as ``--NAME``,
    Python as a keyword (:meth:`satedge.api.Request.make`) and specs in their solver strings.

    Attributes
    ----------
    name
        Its name, in all of these.
    what
        What an error calls it (``a cell order applies to backtrack and budget only``).
    help
        The flag's help (its default is added).
    choices
        The values it takes, for a choice (``auto``, where it is one, means the default and is
        kept as ``None``); else ``convert`` reads it.
    noun
        What an unknown choice is called (``unknown cell order 'x'``); default its name.
    convert
        For a free value: the value from its text (or from a value given in Python), a
        :class:`ValueError` where it is not one.
    wrong
        For a free value given in Python, the error, ``{value}`` the value quoted.
    written
        For a free value in a solver string, what it takes (after ``solver '...':``).
    metavar
        The flag's placeholder.
    tasks
        The tasks whose commands take it as a flag (default: every task of the engines that
        declare it).
    """

    name: str
    what: str
    help: str
    tasks: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    noun: str | None = None
    convert: Callable[[Any], Any] | None = None
    wrong: str = ""
    written: str = ""
    metavar: str | None = None

    def value(self, given: Any) -> Any:
        """``given`` (a string or a value) as the option holds it; ``None`` for a choice's ``auto``."""
        if self.choices:
            if given not in self.choices:
                raise SatedgeError(
                    f"unknown {self.noun or self.name} {quoted(str(given), 30)}; choose from {', '.join(self.choices)}"
                )
            return None if given == "auto" else given
        try:
            return self.convert(given)
        except (ValueError, TypeError):
            raise SatedgeError(self.wrong.format(value=quoted(str(given), 30))) from None

    def read(self, text: str, solver: str) -> Any:
        """The value of ``NAME=text`` in the solver string ``solver`` (:meth:`value`, its error
        in the words of a solver string)."""
        try:
            return self.value(text)
        except SatedgeError:
            takes = f"{self.name} is one of {', '.join(self.choices)}" if self.choices else self.written
            raise SatedgeError(f"solver {quoted(solver, 40)}: {takes}") from None


def _placements(value: Any) -> int:
    """A cap of placements: a whole number from 1 to 10^15, or its digits."""
    if isinstance(value, str) and value.isdigit() and len(value) <= 15:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**15:
        raise ValueError(value)
    return value


def _schedule(value: Any) -> Schedule:
    return value if isinstance(value, Schedule) else Schedule.parse(value)


# how the SAT method uses several workers; without a strategy: cubes, which partition the solution
# set (to count and to enumerate the work divides) and found a first solution sooner than the
# portfolio on the peak puzzles of benchmarks/parallel/bench-parallel.yaml (PAR-2 35.1 against 39.0, where
# the portfolio's first member, the job itself, won every race)
STRATEGIES: dict[str, Callable[[object, Note | None], Result]] = {
    "portfolio": portfolio.run,
    "cubes": conquer.run,
}
DEFAULT_STRATEGY = "cubes"

# how the SAT method uses several workers: portfolio or cubes
STRATEGY_OPTION = Option(
    tasks=("solve", "count"),
    name="strategy",
    what="a strategy",
    choices=tuple(STRATEGIES),
    help="how the SAT method uses several workers: portfolio (diverse solvers and shuffles race, the first "
    "answer wins) or cubes (cube-and-conquer: the search split into disjoint cubes) (default: cubes)",
)
ENUMERATION_OPTION = Option(
    tasks=("solve", "count"),
    name="enumeration",
    what="an enumeration",
    choices=ENUMERATIONS,
    help="how the SAT method enumerates models: auto (blocking clauses; a count of a puzzle whose pictures "
    "have many models, identical tiles, blocks a clause per picture and counts its models from "
    "multiplicities), blocking (a clause per model, always: the formula grows) or subspaces (disjoint "
    "subspaces under assumptions, no clause added; PySAT's incremental solvers) (default: auto)",
)
ORDER_OPTION = Option(
    tasks=("solve", "count"),
    name="order",
    what="a cell order",
    noun="cell order",
    choices=ORDERS,
    help="the order in which the backtracker fills the cells (implies --method backtrack): rows, columns, "
    "spiral, border, or auto, the one with the smallest search tree estimated from the puzzle's colours "
    "(default: auto)",
)
SCHEDULE_OPTION = Option(
    tasks=("maximize",),
    name="schedule",
    what="a schedule of misfits",
    convert=_schedule,
    wrong="schedule {value}: write START/STEP/MOST, whole numbers, STEP at least 1 (190/4/14)",
    written="write START/STEP/MOST, whole numbers, STEP at least 1 (190/4/14)",
    metavar="START/STEP/MOST",
    help="--method restarts: no misfit among the first START placements, one more every STEP depths, at "
    "most MOST (default: from the board's size, 190/4/14 on a 16x16)",
)
CAP_OPTION = Option(
    tasks=("maximize",),
    name="cap",
    what="a cap of placements",
    convert=_placements,
    wrong="cap must be a positive number of placements, not {value}",
    written="cap=N takes a positive number of placements",
    metavar="N",
    help="--method restarts: placements per restart (default: 200,000,000)",
)
# the field's construction (satedge.best.field): its settings, each from the puzzle by default
FIELD_OPTIONS = (
    Option(
        tasks=("maximize",),
        name="quota",
        what="a quota of labels",
        convert=labels,
        wrong="quota {value}: write labels with slashes (13/16/10), or none",
        written="quota=L/L/... takes labels with slashes, or none",
        metavar="L/L/...",
        help="--method field: the labels of the colour quota, or none (default: the puzzle file's field: quota, "
        "else the frame-run label and the two inner labels with the fewest sides)",
    ),
    Option(
        tasks=("maximize",),
        name="ramp",
        what="a ramp of the quota",
        convert=ramp,
        wrong="ramp {value}: write DEPTH:SIDES points with slashes, depths rising (16:0/26:28/160:119)",
        written="ramp=D:Q/... takes DEPTH:SIDES points with slashes, depths rising",
        metavar="D:Q/...",
        help="--method field: the quota's ramp, the least sides of its labels by depth, linear between the points "
        "and none after the last (default: the puzzle file's, else Eternity II's scaled to the board and to the "
        "quota's sides)",
    ),
    Option(
        tasks=("maximize",),
        name="ladder",
        what="a ladder of breaks",
        convert=depths,
        wrong="ladder {value}: write depths with slashes (201/206/211), or none",
        written="ladder=D/D/... takes depths with slashes, or none",
        metavar="D/D/...",
        help="--method field: the depths from which one more break (a misfit) is allowed, or none (default: the "
        "puzzle file's, else Eternity II's 201/206/.../251 scaled to where the board's columns begin)",
    ),
    Option(
        tasks=("maximize",),
        name="attempt",
        what="an attempt's length",
        convert=_placements,
        wrong="attempt must be a positive number of placements, not {value}",
        written="attempt=N takes a positive number of placements",
        metavar="N",
        help="--method field: placements per attempt before a new one starts with a new tie order (default: the "
        "puzzle file's, else 10^15, one attempt)",
    ),
    Option(
        tasks=("maximize",),
        name="completion",
        what="a completion",
        choices=("auto", "exact", "fill"),
        help="--method field: how a partial board becomes whole: exact (a branch and bound over its empty cells "
        "for a better board) or fill (an assignment of the tiles left, then windows) (default: exact)",
    ),
)
LOOP_OPTION = Option(
    name="loop",
    what="a choice of search loop",
    noun="loop",
    choices=LOOPS,
    help="the backtracker's search loop: python (slow; for checks), numba, c (compiled for the board's cell "
    "order by the C compiler $CC or cc), or auto, the C loop where it builds and numba's otherwise (the "
    "pure-Python loop up to 16 cells when solving and counting) (default: auto)",
)
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
        The settings it takes beside ``workers`` (:class:`Option`), in its solver string, as
        flags of the commands and as keywords.
    method
        Whether ``--method`` names it, beside ``auto`` and ``sat`` (:func:`methods`).
    needs
        What it needs beyond the core (a Python module and its extra, or a program); ``None``:
        nothing.
    outside
        Whether its answers come from a program outside satedge whose "no" (UNSAT, an optimum)
        is its word alone: such an answer is flagged unless a certificate checks it
        (:attr:`satedge.jobs.result.Result.checked`).
    fits
        Whether it answers a puzzle at its full speed here (``None``: every puzzle), which
        ``--method auto`` asks before it picks it (:func:`satedge.api.choose`).
    """

    name: str
    summary: str
    tasks: Mapping[str, Task]
    called: str | None = None
    solves_formula: bool = False
    options: tuple[Option, ...] = ()
    method: bool = False
    needs: Need | None = None
    outside: bool = False
    fits: Callable[[Puzzle], bool] | None = None

    def __post_init__(self) -> None:
        if self.called is None:
            object.__setattr__(self, "called", self.name)
        wrong = [t for t in self.tasks if t not in TASKS]
        wrong += [
            str(o) for o in self.options if not isinstance(o, Option) or o.name in ("workers", "solver")
        ]
        wrong += [m for task in self.tasks.values() for m in task.modes if m not in MODES]
        if "encode" in self.tasks and not self.solves_formula:
            wrong.append("encode without a formula")
        if wrong or not self.tasks:
            raise SatedgeError(
                f"engine {self.name}: {', '.join(wrong) or 'no task'} is not something an engine can take or do"
            )

    @property
    def settings(self) -> tuple[str, ...]:
        """The names of the settings its solver string takes: ``workers`` where a task of it
        takes workers, and those of :attr:`options`."""
        return ("workers",) * any(t.workers for t in self.tasks.values()) + tuple(
            o.name for o in self.options
        )

    def installed(self) -> bool:
        """Whether what it needs is here."""
        return self.needs is None or self.needs.met()

    def takes(self, puzzle: Puzzle) -> bool:
        """Whether ``--method auto`` may pick it for ``puzzle``: what it needs is here, and it
        answers the puzzle at its full speed (:attr:`fits`)."""
        return self.installed() and (self.fits is None or self.fits(puzzle))

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


_BACKTRACK = Task(run=exact.run, workers=True, cluster=True, summary="the reference backtracker")
ENGINES: dict[str, Engine] = {
    e.name: e
    for e in (
        Engine(
            name="pysat",
            called="PySAT solvers",
            solves_formula=True,
            options=(STRATEGY_OPTION, ENUMERATION_OPTION),
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
            options=(STRATEGY_OPTION, ENUMERATION_OPTION),
            tasks=_formula(sat.run, sat.maxsat_binary),
            summary="a DIMACS solver binary, cmd:COMMAND (cmd:'cadical -q'), run afresh on the formula and its "
            "blocking clauses for each model; to maximize, a MaxSAT solver binary on the WCNF (the MaxSAT "
            "Evaluation's format and answer)",
        ),
        Engine(
            name="backtrack",
            options=(ORDER_OPTION, LOOP_OPTION),
            method=True,
            fits=at_speed,
            tasks={
                "solve": _BACKTRACK,
                "count": _BACKTRACK,
                "maximize": Task(
                    run=best.by_branch_and_bound,
                    certifies=True,
                    summary="the backtracker's branch and bound, anytime, which proves its best board optimal",
                ),
            },
            summary="the reference backtracker on the puzzle itself, compiled with numba, on every core; to "
            "maximize, its branch and bound (one process), anytime, which proves its best board optimal",
        ),
        Engine(
            name="budget",
            options=(ORDER_OPTION, LOOP_OPTION),
            method=True,
            tasks={
                "maximize": Task(
                    run=best.by_budgets,
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
            options=(SCHEDULE_OPTION, CAP_OPTION, LOOP_OPTION),
            method=True,
            tasks={
                "maximize": Task(
                    run=best.by_restarts,
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
            name="field",
            options=(*FIELD_OPTIONS, LOOP_OPTION),
            method=True,
            tasks={
                "maximize": Task(
                    run=best.by_field,
                    resumes=True,
                    workers=True,
                    every_core=True,
                    timeout=True,
                    summary="the field's construction (a colour quota, a ladder of breaks, long attempts, each "
                    "deeper board completed exactly) on --workers processes until --timeout: good boards of large "
                    "framed puzzles, proving nothing",
                )
            },
            summary="the field's construction of good boards: long depth-first attempts that spend a quota of "
            "labels early and allow a ladder of breaks late, each deeper partial board completed exactly, on every "
            "core until its time limit",
        ),
        Engine(
            name="lns",
            method=True,
            tasks={
                "maximize": Task(
                    run=best.by_lns,
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
            options=(ENUMERATION_OPTION,),
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


def declared(task: str | None = None) -> dict[str, Option]:
    """The options the engines of the table declare (with ``task``: of the engines that run it,
    those its command takes as flags), by name, in the table's order; the table is read at each
    call, so an engine added to it counts."""
    found: dict[str, Option] = {}
    for e in ENGINES.values():
        if task is None or task in e.tasks:
            for o in e.options:
                if task is None or not o.tasks or task in o.tasks:
                    found.setdefault(o.name, o)
    return found


def option_names() -> tuple[str, ...]:
    """``workers`` and the name of every option an engine declares: what a solver string, a
    request and a spec take beside a PySAT solver's own options."""
    return ("workers", *declared())


def methods(task: str) -> tuple[str, ...]:
    """The choices of ``--method`` for ``task``: ``auto`` (:func:`satedge.api.choose`), ``sat`` (an
    encoding and a solver) where a formula engine runs the task, and the engines ``--method``
    names that run it."""
    formula = any(e.solves_formula and task in e.tasks for e in ENGINES.values())
    named = tuple(e.name for e in ENGINES.values() if e.method and task in e.tasks)
    return ("auto",) + ("sat",) * formula + named


def takers(option: str, task: str | None = None) -> str:
    """The engines that take ``option`` (``workers`` or a declared option; with ``task``,
    ``workers`` for that task), as prose calls them.

    >>> takers("order"), takers("strategy"), takers("workers", "maximize")
    ('backtrack and budget', 'PySAT solvers and solver binaries', 'budget, restarts, field, lns and cpsat')
    """
    return prose(
        [
            e.called
            for e in ENGINES.values()
            if option in e.settings and (task is None or (task in e.tasks and e.tasks[task].workers))
        ]
    )


def doing(task: str, what: str, but: str | None = None) -> list[str]:
    """The engines whose ``task`` allows ``what`` (a :class:`Task` field), as prose calls them;
    with ``but``, only those where that field is false.

    >>> doing("maximize", "resumes")
    ['budget', 'restarts', 'field', 'lns']
    """
    return [
        e.called
        for e in ENGINES.values()
        if task in e.tasks and getattr(e.tasks[task], what) and not (but and getattr(e.tasks[task], but))
    ]


def prose(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0] if names else "none"
