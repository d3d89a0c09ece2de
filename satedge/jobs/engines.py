"""The engines: every way satedge answers a puzzle, declared once, and the one value that names
an engine with its settings (:class:`SolverConfig`).

Each :class:`Engine` is the whole contract of a way to answer: its name, the job function that
runs it, whether it solves a SAT formula (and so takes an encoding), the options its solver
string takes, the tasks and modes it answers, whether it enumerates, certifies and runs on a
Dask cluster, and what it needs beyond the core.  Solver strings, the checks a request gets
when it is parsed (:func:`check`), the dispatch (:func:`satedge.jobs.dispatch.execute`),
``--method``, the cross-check, ``satedge solvers``, the help texts and the documentation all
read this table: a new engine is its job module (a ``run(job, note)``), one entry here, its
tests and its docs.

>>> list(ENGINES)
['pysat', 'cmd', 'backtrack', 'lns', 'cpsat', 'clasp']
>>> ENGINES["clasp"].solves_formula, ENGINES["clasp"].needs.extra, REFERENCE
(True, 'asp', 'backtrack')

A solver configuration is written (in specs, rows, reports, ``--solver``) as

* a SAT solver (:class:`satedge.sat.solvers.SatSolver`): a PySAT solver that works here,
  CaDiCaL's with options after a colon (``cadical195:sat,seed=2``), or ``cmd:COMMAND``, a
  DIMACS solver binary;
* the name of any other engine of the table (``backtrack``, ``cpsat``, ``clasp``);

with the options the engine's entry lists after a colon: ``workers=N``,
``strategy=portfolio|cubes`` (how the SAT method uses several workers:
``kissat404:workers=2,strategy=cubes``), ``enumeration=auto|blocking|subspaces`` (how models
are enumerated: :mod:`satedge.sat.solving`) and ``order=`` one of
:data:`satedge.backtrack.orders.ORDERS` (the order in which the backtracker fills the cells).
A binary with options is written ``cmd,workers=2,strategy=cubes:COMMAND``.

>>> c = SolverConfig.parse("cadical195:seed=2,workers=2,sat")
>>> c.engine, c.name, c.options, c.workers, str(c)
('pysat', 'cadical195', ('sat', 'seed=2'), 2, 'cadical195:sat,seed=2,workers=2')
>>> str(SolverConfig(engine="backtrack", workers=2)), str(SolverConfig.parse("cmd:cadical -q"))
('backtrack:workers=2', 'cmd:cadical -q')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from difflib import get_close_matches

from ..backtrack.orders import ORDERS
from ..errors import SatedgeError
from ..puzzle.symmetry import MODES
from ..sat.binaries import command_words
from ..sat.solvers import (
    BINARY,
    DEFAULT_SOLVER,
    ENUMERATIONS,
    SatSolver,
    canonical,
    pysat_names,
    pysat_works,
    solver_names,
)
from ..system.extras import Need
from ..system.files import quoted, shown
from ..system.process import MAX_WORKERS
from . import backtrack, clasp, conquer, cpsat, maximize, portfolio, sat
from .result import Note, Result

__all__ = [
    "OPTIONS",
    "CHOICES",
    "TASKS",
    "Engine",
    "ENGINES",
    "REFERENCE",
    "STRATEGIES",
    "DEFAULT_STRATEGY",
    "SolverConfig",
    "by_name",
    "takers",
    "installed",
    "check",
]

# the options a solver string may give an engine, beside a PySAT solver's own (see SolverConfig)
OPTIONS = ("workers", "strategy", "enumeration", "order")
# what a job may be: a first solution or several (solve), counts, a formula's size (encode), or
# the board with the most inner edges that fit (maximize)
TASKS = ("solve", "count", "encode", "maximize")


@dataclass(frozen=True, kw_only=True)
class Engine:
    """One way to answer a puzzle: what it is, what it can do and what it needs.

    Attributes
    ----------
    name
        How solver strings name it: a PySAT solver goes by its own name (``cadical195``), a
        solver binary by ``cmd:COMMAND``, every other engine by this name.
    run
        The job function of the tasks ``solve`` and ``count``, ``run(job, note) -> Result``.
    summary
        What it is, in one line.
    called
        What prose calls it (``PySAT solvers``, ``solver binaries``); default its name.
    solves_formula
        Whether it solves the SAT formula of an encoding; else it has a model of its own and
        takes no encoding.
    options
        Which of :data:`OPTIONS` its solver string takes.
    tasks
        Which of :data:`TASKS` it runs (``encode`` only where it solves a formula).
    enumerates
        Whether it gives several solutions (``solve --all``, ``--limit N``), not only a first.
    modes
        Which of the counting modes (:data:`satedge.puzzle.symmetry.MODES`) it answers.
    certifies
        Whether it gives certified answers (a checked proof of a formula).
    on_cluster
        Whether its parts run on a Dask cluster.
    needs
        What it needs beyond the core (a Python module and its extra, or a program); ``None``:
        nothing.
    maximize
        The job function of the ``maximize`` task (:mod:`satedge.jobs.maximize`), for the
        engines whose ``tasks`` name it.
    """

    name: str
    summary: str
    run: Callable[..., Result] | None = None
    called: str | None = None
    solves_formula: bool = False
    options: tuple[str, ...] = ()
    tasks: tuple[str, ...] = ("solve", "count")
    enumerates: bool = True
    modes: tuple[str, ...] = MODES
    certifies: bool = False
    on_cluster: bool = False
    needs: Need | None = None
    maximize: Callable[..., Result] | None = None

    def __post_init__(self) -> None:
        if self.called is None:
            object.__setattr__(self, "called", self.name)
        wrong = (
            [o for o in self.options if o not in OPTIONS]
            + [t for t in self.tasks if t not in TASKS]
            + [m for m in self.modes if m not in MODES]
        )
        if ("maximize" in self.tasks) != (self.maximize is not None):
            wrong.append("maximize without its job function")
        if ("solve" in self.tasks or "count" in self.tasks) != (self.run is not None):
            wrong.append("solve and count without their job function")
        if wrong or ("encode" in self.tasks and not self.solves_formula):
            raise SatedgeError(
                f"engine {self.name}: {', '.join(wrong) or 'encode without a formula'} is not "
                "something an engine can take or do"
            )

    def check_installed(self) -> None:
        """That what it needs is here; else the one-line error that names the extra or the
        program."""
        if self.needs is not None:
            self.needs.check(f"the {self.name} engine")


LNS = "lns"  # the anytime search of best boards, which runs until its time limit
ENGINES: dict[str, Engine] = {
    e.name: e
    for e in (
        Engine(
            name="pysat",
            run=sat.run,
            called="PySAT solvers",
            solves_formula=True,
            options=("workers", "strategy", "enumeration"),
            tasks=TASKS,
            certifies=True,
            on_cluster=True,
            maximize=maximize.rc2,
            summary="a PySAT solver by its name (cadical195, minisat22, ...; `satedge solvers` lists those that work "
            "here), enumerating with blocking clauses; to maximize, RC2 (PySAT's MaxSAT solver) over it",
        ),
        Engine(
            name=BINARY,
            run=sat.run,
            called="solver binaries",
            solves_formula=True,
            options=("workers", "strategy", "enumeration"),
            tasks=TASKS,
            certifies=True,
            on_cluster=True,
            maximize=maximize.binary,
            summary="a DIMACS solver binary, cmd:COMMAND (cmd:'cadical -q'), run afresh on the formula and its "
            "blocking clauses for each model; to maximize, a MaxSAT solver binary on the WCNF (the MaxSAT "
            "Evaluation's format and answer)",
        ),
        Engine(
            name="backtrack",
            run=backtrack.run,
            options=("workers", "order"),
            on_cluster=True,
            tasks=("solve", "count", "maximize"),
            maximize=maximize.branch_and_bound,
            summary="the reference backtracker on the puzzle itself, compiled with numba, on every core; to maximize, "
            "its branch and bound (one process)",
        ),
        Engine(
            name=LNS,
            tasks=("maximize",),
            options=("workers",),
            maximize=maximize.lns,
            enumerates=False,
            needs=maximize.lns_needs,
            summary="large-neighbourhood search and simulated annealing from a board that keeps the frame and the "
            "clues, on every core, until its time limit: good boards where none is proved best",
        ),
        Engine(
            name="cpsat",
            run=cpsat.run,
            options=("workers",),
            needs=cpsat.needs,
            summary="the CP-SAT model of the puzzle (OR-Tools), with its own search workers",
        ),
        Engine(
            name="clasp",
            run=clasp.run,
            solves_formula=True,
            options=("enumeration",),
            tasks=("solve", "count", "encode"),
            needs=clasp.needs,
            summary="clasp (clingo) on the formula: every model enumerated natively, projected on the decision "
            "variables, with no blocking clause",
        ),
    )
}

REFERENCE = "backtrack"  # the engine every other is cross-checked against, and --method's other choice
# how the SAT method uses several workers; without a strategy: cubes, which partition the solution
# set (to count and to enumerate the work divides) and found a first solution sooner than the
# portfolio on the peak puzzles of experiments/bench-parallel.yaml (PAR-2 35.1 against 39.0, where
# the portfolio's first member, the job itself, won every race)
STRATEGIES: dict[str, Callable[[object, Note | None], Result]] = {
    "portfolio": portfolio.run,
    "cubes": conquer.run,
}
DEFAULT_STRATEGY = "cubes"
# the choices of the options that take one (workers takes a number)
CHOICES: dict[str, tuple[str, ...]] = {
    "strategy": tuple(STRATEGIES),
    "enumeration": ENUMERATIONS,
    "order": ORDERS,
}
_PYSAT = "pysat"


def by_name(text: str) -> Engine | None:
    """The engine a solver string's first word names by itself (``backtrack``, ``cpsat``,
    ``clasp``), or ``None`` (a PySAT solver's name, or ``cmd``, which takes a command)."""
    found = ENGINES.get(text)
    return found if found is not None and found.name not in (_PYSAT, BINARY) else None


def takers(option: str) -> str:
    """The engines that take ``option`` (one of :data:`OPTIONS`), as prose calls them.

    >>> takers("order"), takers("strategy")
    ('backtrack', 'PySAT solvers and solver binaries')
    """
    return _prose([e.called for e in ENGINES.values() if option in e.options])


def _prose(names: list[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def installed(e: Engine) -> bool:
    """Whether what ``e`` needs is here."""
    return e.needs is None or e.needs.met()


@dataclass(frozen=True)
class SolverConfig:
    """An engine and its settings; checked when made (bad values raise :class:`SatedgeError`).

    Attributes
    ----------
    engine
        The engine's name in :data:`ENGINES`: ``pysat`` (a PySAT solver), ``cmd`` (a DIMACS
        solver binary), or an engine with a model of its own or a solver of its own
        (``backtrack``, ``cpsat``, ``clasp``)
    name
        The PySAT solver (``pysat``, default ``cadical195``) or the command line (``cmd``);
        ``None`` for the other engines
    options
        CaDiCaL's options, ``sat``, ``unsat`` and ``seed=N`` (kept in that order)
    workers
        Processes of the SAT method and of the backtracker, search workers of CP-SAT
    strategy
        How the SAT method uses several workers, ``portfolio`` or ``cubes`` (``None``:
        cubes).
    enumeration
        How models are enumerated: ``auto`` (``None``, the default), ``blocking`` clauses or
        disjoint ``subspaces`` under assumptions, which add no clause (:mod:`satedge.sat.solving`).
    order
        The order in which the backtracker fills the cells (:mod:`satedge.backtrack.orders`;
        ``None``: ``auto``, the order with the smallest estimated search tree).

    ``str()`` gives the one string form, which :meth:`parse` reads back into the same value.
    """

    engine: str = _PYSAT
    name: str | None = None
    options: tuple[str, ...] = ()
    workers: int = 1
    strategy: str | None = None
    enumeration: str | None = None
    order: str | None = None

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise SatedgeError(
                f"unknown engine {quoted(str(self.engine), 30)}; choose from {', '.join(ENGINES)}"
            )
        own = ENGINES[self.engine]
        if (
            isinstance(self.workers, bool)
            or not isinstance(self.workers, int)
            or not 1 <= self.workers <= MAX_WORKERS
        ):
            raise SatedgeError(
                f"workers must be an integer from 1 to {MAX_WORKERS:,}, not {quoted(str(self.workers), 30)}"
            )
        for key, choices in CHOICES.items():
            value = getattr(self, key)
            if value is not None and value not in choices:
                what = "cell order" if key == "order" else key
                raise SatedgeError(
                    f"unknown {what} {quoted(str(value), 30)}; choose from {', '.join(choices)}"
                )
        for key, where in (
            ("workers", "workers=N"),
            ("strategy", "a strategy"),
            ("enumeration", "an enumeration"),
            ("order", "a cell order"),
        ):
            if key not in own.options and getattr(self, key) not in (None, 1):
                raise SatedgeError(
                    f"{where} applies to {takers(key)} only, not to {self.name or self.engine}"
                )
        if self.enumeration == "auto":
            object.__setattr__(self, "enumeration", None)  # the default: one configuration, one name
        if self.order == "auto":
            object.__setattr__(self, "order", None)  # the default: one configuration, one name
        if self.enumeration == "subspaces" and self.engine != _PYSAT:
            raise SatedgeError(f"enumeration=subspaces needs an incremental PySAT solver, not {self.engine}")
        if self.engine not in (_PYSAT, BINARY):
            if self.name not in (None, self.engine):
                what = "is a solver of its own" if own.solves_formula else "has its own model"
                raise SatedgeError(f"{self.engine} {what}: it takes no solver ({quoted(str(self.name), 40)})")
            object.__setattr__(self, "name", None)
            if self.options:
                raise SatedgeError(f"{self.engine} takes no solver options")
            return
        if self.engine == _PYSAT:
            name = (
                DEFAULT_SOLVER if self.name is None else canonical(str(self.name))
            )  # PySAT's short names too
            object.__setattr__(self, "name", name)
            if not (name in pysat_names() and pysat_works(name)):
                close = [
                    f" (did you mean {n}?)"
                    for n in get_close_matches(name, [*solver_names(), *ENGINES], 1, 0.8)
                ]
                raise SatedgeError(
                    f"unknown solver {quoted(str(name), 40)}{''.join(close)}; choose a PySAT solver (satedge "
                    f"solvers lists those that work here), cmd:COMMAND or {', '.join(filter(by_name, ENGINES))}"
                )
        object.__setattr__(self, "options", self.sat.options)  # checked, in their one order

    @property
    def sat(self) -> SatSolver | None:
        """The SAT solver of a PySAT solver or a binary (what :mod:`satedge.sat.solving`
        runs); ``None`` for the other engines."""
        if self.engine not in (_PYSAT, BINARY):
            return None
        return SatSolver(self.name, self.options, self.engine == BINARY, self.enumeration)

    @property
    def has_formula(self) -> bool:
        """Whether the engine solves a SAT formula (and so takes an encoding)."""
        return ENGINES[self.engine].solves_formula

    @property
    def incremental(self) -> bool:
        """Whether one solver instance can be asked again after new clauses (enumeration)."""
        return self.engine == _PYSAT and self.sat.incremental

    def check_installed(self) -> None:
        """That the engine can run here: what it needs installed (else an error that names the
        extra), a solver binary's program on PATH."""
        ENGINES[self.engine].check_installed()
        if self.engine == BINARY:
            command_words(self.name)

    def pysat_options(self) -> dict[str, int]:
        """CaDiCaL's option values of :attr:`options` (``Solver.configure``)."""
        return self.sat.pysat_options()

    def __repr__(self) -> str:
        return f"SolverConfig({str(self)!r})"

    def __str__(self) -> str:
        extra = (
            ([f"workers={self.workers}"] if self.workers > 1 else [])
            + ([f"strategy={self.strategy}"] if self.strategy else [])
            + ([f"enumeration={self.enumeration}"] if self.enumeration else [])
            + ([f"order={self.order}"] if self.order else [])
        )
        if self.engine == BINARY:
            return BINARY + "".join("," + e for e in extra) + ":" + self.name
        items = [*self.options, *extra]
        return (self.name or self.engine) + (":" + ",".join(items) if items else "")

    @classmethod
    def parse(cls, text: str) -> SolverConfig:
        """The configuration a solver string names (see the module's docstring); the one parser
        of solver strings in satedge."""
        if not isinstance(text, str):
            raise SatedgeError(
                f"a solver is a string such as cadical195:sat or backtrack, not {quoted(repr(text), 40)}"
            )
        if text.startswith(BINARY + ":") or text.startswith(BINARY + ","):
            head, colon, command = text.partition(":")
            if not colon:
                raise SatedgeError(f"solver {quoted(text, 40)}: write cmd,workers=N:COMMAND")
            return cls(engine=BINARY, name=command, **_own_options(text, head.split(",")[1:]))
        name, colon, rest = text.partition(":")
        items = rest.split(",") if colon else []
        own = _own_options(text, items)
        options = tuple(item for item in items if item.partition("=")[0] not in OPTIONS)
        other = by_name(name)
        if other is not None:
            if options:
                takes = " and ".join(f"{k}=" for k in other.options) or "no option"
                raise SatedgeError(f"solver {quoted(text, 40)}: {name} takes {takes}")
            return cls(engine=name, **own)
        return cls(engine=_PYSAT, name=name, options=options, **own)

    @classmethod
    def of(cls, value: SolverConfig | str | None) -> SolverConfig:
        """``value`` itself, the default solver for ``None``, or a string :meth:`parse` reads."""
        if value is None:
            return cls()
        return value if isinstance(value, cls) else cls.parse(value)


def _own_options(text: str, items: list[str]) -> dict:
    """``workers``, ``strategy``, ``enumeration`` and ``order`` among the items of a solver string."""
    own: dict = {}
    for item in items:
        key, eq, value = item.partition("=")
        if key == "workers":
            if not (eq and value.isdigit() and len(value) <= 5 and 1 <= int(value) <= MAX_WORKERS):
                raise SatedgeError(f"solver {quoted(text, 40)}: workers=N takes N from 1 to {MAX_WORKERS:,}")
            own["workers"] = int(value)
        elif key in ("strategy", "enumeration", "order"):
            choices = CHOICES[key]
            if value not in choices:
                raise SatedgeError(f"solver {quoted(text, 40)}: {key} is one of {', '.join(choices)}")
            own[key] = value
    return own


def check(
    task: str,
    solver: SolverConfig | str | None,
    encoding=None,
    modes: tuple[str, ...] = ("solutions",),
    limit: int | None = 1,
    scheduler: str | None = None,
    certify: bool = False,
) -> SolverConfig:
    """What the table says of a request: the engine ``solver`` names can run ``task`` in
    ``modes`` (with ``limit`` solutions; ``None``: every one), take ``encoding``, run on
    ``scheduler``'s cluster and ``certify``, and is installed here.  Each refusal is one line
    that names the engine and what it cannot do.  Returns the solver's configuration."""
    if task not in TASKS:
        raise SatedgeError(f"unknown task {shown(task)}; choose from {', '.join(TASKS)}")
    solver = SolverConfig.of(solver)
    own = ENGINES[solver.engine]
    if not own.solves_formula:
        if encoding is not None:
            raise SatedgeError(
                f"{solver.engine} has its own model: it takes no encoding ({shown(str(encoding))})"
            )
        if task == "encode":
            raise SatedgeError(f"{solver.engine} has its own model: there is no formula to encode")
    solver.check_installed()
    if task not in own.tasks:
        raise SatedgeError(f"the {own.name} engine cannot {task}: it answers {_prose(list(own.tasks))}")
    if task == "solve" and limit != 1 and not own.enumerates:
        raise SatedgeError(
            f"the {own.name} engine finds one solution: it cannot list several (--all, --limit)"
        )
    if task != "encode":
        missing = [m for m in modes if m not in own.modes]
        if missing:
            raise SatedgeError(
                f"the {own.name} engine cannot answer mode {', '.join(missing)}: it answers "
                f"{_prose(list(own.modes))}"
            )
    if scheduler is not None and not own.on_cluster:
        raise SatedgeError(
            f"a Dask scheduler applies to the engines whose parts run there "
            f"({', '.join(e.called for e in ENGINES.values() if e.on_cluster)}), not to {solver.engine}"
        )
    if certify and (
        task == "encode" or not (own.certifies or task == "maximize")
    ):  # a maximum: proved afterwards
        raise SatedgeError(
            f"a certified answer needs an engine that proves what it answers "
            f"({' and '.join(e.called for e in ENGINES.values() if e.certifies)}), not {solver}"
        )
    return solver
