"""What answers a puzzle: :class:`SolverConfig`, the one value that names an engine
(:data:`satedge.engines.ENGINES`) and its settings, with its one parser and its one string form;
and the SAT solvers behind the ``pysat`` and ``cmd`` engines.

A solver configuration is written (in specs, rows, reports, ``--solver``) as

* a PySAT solver that works here (:func:`solver_names`), CaDiCaL's with options after a colon:
  its named configurations ``sat`` and ``unsat`` and ``seed=N`` (``cadical195:sat,seed=2``);
* ``cmd:COMMAND``: a DIMACS solver binary, run on the formula written to a file (exit 10 SAT with
  ``v`` lines, 20 UNSAT), killed with the process that started it (:func:`satedge.proctree.popen`);
* the name of any other engine of the table (``backtrack``, ``cpsat``, ``clasp``);

with the options the engine's entry lists after a colon: ``workers=N``,
``strategy=portfolio|cubes`` (how the SAT method uses several workers:
``kissat404:workers=2,strategy=cubes``), ``enumeration=auto|blocking|subspaces`` (how models
are enumerated: :mod:`satedge.solving`) and ``order=`` one of :data:`satedge.orders.ORDERS` (the
order in which the backtracker fills the cells).  A binary with options is written
``cmd,workers=2,strategy=cubes:COMMAND``.

>>> c = SolverConfig.parse("cadical195:seed=2,workers=2,sat")
>>> c.engine, c.name, c.options, c.workers, str(c)
('pysat', 'cadical195', ('sat', 'seed=2'), 2, 'cadical195:sat,seed=2,workers=2')
>>> str(SolverConfig(engine="backtrack", workers=2)), str(SolverConfig.parse("cmd:cadical -q"))
('backtrack:workers=2', 'cmd:cadical -q')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from pysat.solvers import Solver, SolverNames

from .binaries import ExternalSolver, command_words
from .engines import ENGINES, OPTIONS, by_name, installed, takers
from .errors import SatedgeError
from .extras import require
from .files import quoted
from .orders import ORDERS
from .process import MAX_WORKERS

__all__ = [
    "STRATEGIES", "ENUMERATIONS", "DEFAULT_SOLVER", "NON_INCREMENTAL", "PROOF_SOLVERS", "PROOF_OPTIONS", "BINARY_PROOFS",
    "CADICAL_CONFIGS", "CONFIGURABLE",
    "MAX_SEED", "STAT_KEYS", "SolverConfig", "Stats", "pysat_names", "solver_names", "new_solver"
]

STRATEGIES = ("portfolio", "cubes")  # how the SAT method uses several workers
# how models are enumerated (satedge.solving): auto (the default) blocks a clause per model, or per
# picture where a picture has many models (identical tiles) and a count is asked for; blocking: a
# clause per model, always; subspaces: disjoint subspaces under assumptions, no clause added
ENUMERATIONS = ("auto", "blocking", "subspaces")
DEFAULT_SOLVER = "cadical195"
NON_INCREMENTAL = {"kissat404"}  # PySAT solvers that enumerate by solving again
# PySAT's solvers whose DRAT proof of a whole enumeration (with_proof=True, blocking clauses added
# between calls) checks; MapleSAT logs one too, but it does not check once clauses were added
PROOF_SOLVERS = ("cadical153", "cadical195", "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm")
# what a solver that logs its proof is set to: CaDiCaL without variable elimination and
# equivalent-literal substitution, which restore clauses without a proof line for them when a
# clause is added between calls (a blocking clause), so that the proof of an enumeration checks
PROOF_OPTIONS = {"cadical153": {"elim": 0, "decompose": 0}, "cadical195": {"elim": 0, "decompose": 0}}
BINARY_PROOFS = ("cadical153", "cadical195")  # their proofs are binary DRAT
# CaDiCaL's own named configurations (its --sat and --unsat options, src/config.cpp)
CADICAL_CONFIGS = {
    "sat": {"elimreleff": 10, "stabilizeonly": 1, "subsumereleff": 60},
    "unsat": {"stabilize": 0, "walk": 0},
}
CONFIGURABLE = ("cadical153", "cadical195", "cadical300")
MAX_SEED = 10**9
# a probe: (x1 or x2), (not x1 or x2), (not x2 or x3), incremental: then (not x3 or x1)
_PROBE = [[1, 2], [-1, 2], [-2, 3]]
STAT_KEYS = ("conflicts", "decisions", "propagations", "restarts")
_PYSAT, _CMD = ENGINES["pysat"].name, ENGINES["cmd"].name


@dataclass(frozen=True)
class SolverConfig:
    """An engine and its settings; checked when made (bad values raise :class:`SatedgeError`).

    Attributes
    ----------
    engine
        The engine's name in :data:`satedge.engines.ENGINES`: ``pysat`` (a PySAT solver),
        ``cmd`` (a DIMACS solver binary), or an engine with a model of its own or a solver of
        its own (``backtrack``, ``cpsat``, ``clasp``)
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
        disjoint ``subspaces`` under assumptions, which add no clause (:mod:`satedge.solving`).
    order
        The order in which the backtracker fills the cells (:mod:`satedge.orders`; ``None``:
        ``auto``, the order with the smallest estimated search tree).

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
            raise SatedgeError(f"unknown engine {quoted(str(self.engine), 30)}; choose from {', '.join(ENGINES)}")
        own = ENGINES[self.engine]
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or not 1 <= self.workers <= MAX_WORKERS:
            raise SatedgeError(f"workers must be an integer from 1 to {MAX_WORKERS:,}, not {quoted(str(self.workers), 30)}")
        if self.strategy is not None and self.strategy not in STRATEGIES:
            raise SatedgeError(f"unknown strategy {quoted(str(self.strategy), 30)}; choose from {', '.join(STRATEGIES)}")
        if self.enumeration is not None and self.enumeration not in ENUMERATIONS:
            raise SatedgeError(f"unknown enumeration {quoted(str(self.enumeration), 30)}; choose from "
                               f"{', '.join(ENUMERATIONS)}")
        if self.order is not None and self.order not in ORDERS:
            raise SatedgeError(f"unknown cell order {quoted(str(self.order), 30)}; choose from {', '.join(ORDERS)}")
        for key, where in (("workers", "workers=N"), ("strategy", "a strategy"),
                           ("enumeration", "an enumeration"), ("order", "a cell order")):
            if key not in own.options and getattr(self, key) not in (None, 1):
                raise SatedgeError(f"{where} applies to {takers(key)} only, not to {self.name or self.engine}")
        if self.enumeration == "auto":
            object.__setattr__(self, "enumeration", None)  # the default: one configuration, one name
        if self.order == "auto":
            object.__setattr__(self, "order", None)  # the default: one configuration, one name
        if self.enumeration == "subspaces" and self.engine != _PYSAT:
            raise SatedgeError(f"enumeration=subspaces needs an incremental PySAT solver, not {self.engine}")
        if self.engine not in (_PYSAT, _CMD):
            if self.name not in (None, self.engine):
                what = "is a solver of its own" if own.formula else "has its own model"
                raise SatedgeError(f"{self.engine} {what}: it takes no solver ({quoted(str(self.name), 40)})")
            object.__setattr__(self, "name", None)
            if self.options:
                raise SatedgeError(f"{self.engine} takes no solver options")
            return
        if self.engine == _CMD:
            if self.options:
                raise SatedgeError("a solver binary takes its options on its command line")
            command_words(self.name or "", look_up=False)  # PATH is looked up when a job is made
            return
        name = DEFAULT_SOLVER if self.name is None else self.name
        object.__setattr__(self, "name", name)
        if not (name in pysat_names() and _pysat_works(name)):
            raise SatedgeError(f"unknown solver {quoted(str(name), 40)}; choose a PySAT solver (satedge solvers "
                               f"lists those that work here), cmd:COMMAND or {', '.join(n for n in ENGINES if by_name(n))}")
        if self.enumeration == "subspaces" and name in NON_INCREMENTAL:
            raise SatedgeError(f"enumeration={self.enumeration} needs an incremental solver; {name} is not one")
        options = tuple(self.options)
        if options and name not in CONFIGURABLE:
            raise SatedgeError(f"solver {name!r} takes no options; only {', '.join(CONFIGURABLE)} do")
        seeds = [item for item in options if item.startswith("seed=")]
        for item in options:
            value = item[5:] if item.startswith("seed=") else ""
            if item not in CADICAL_CONFIGS and not (value.isdigit() and int(value) < MAX_SEED):
                raise SatedgeError(f"solver option {quoted(item, 30)} of {name}: use sat, unsat or seed=N")
        if len(seeds) > 1:
            raise SatedgeError(f"{name} takes one seed, not {', '.join(seeds)}")
        # one order, so that one configuration has one name: the named configurations, then the seed
        order = [c for c in CADICAL_CONFIGS if c in options] + [f"seed={int(s[5:])}" for s in seeds]
        object.__setattr__(self, "options", tuple(order))

    @property
    def has_formula(self) -> bool:
        """Whether the engine solves a SAT formula (and so takes an encoding)."""
        return ENGINES[self.engine].formula

    @property
    def incremental(self) -> bool:
        """Whether one solver instance can be asked again after new clauses (enumeration)."""
        return self.engine == _PYSAT and self.name not in NON_INCREMENTAL

    def check_installed(self) -> None:
        """That the engine can run here: its extra's library installed (else an error that names
        the extra), a solver binary's program on PATH."""
        own = ENGINES[self.engine]
        if not installed(own):
            require(own.module)  # the one-line error that names the extra
        if self.engine == _CMD:
            command_words(self.name)

    def pysat_options(self) -> dict[str, int]:
        """CaDiCaL's option values of :attr:`options` (``Solver.configure``).

        >>> SolverConfig.parse("cadical195:sat,seed=2").pysat_options()
        {'elimreleff': 10, 'stabilizeonly': 1, 'subsumereleff': 60, 'seed': 2}
        """
        out: dict[str, int] = {}
        for item in self.options:
            out.update(CADICAL_CONFIGS.get(item) or {"seed": int(item[5:])})
        return out

    def __repr__(self) -> str:
        return f"SolverConfig({str(self)!r})"

    def __str__(self) -> str:
        extra = ([f"workers={self.workers}"] if self.workers > 1 else []) + (
            [f"strategy={self.strategy}"] if self.strategy else []) + (
            [f"enumeration={self.enumeration}"] if self.enumeration else []) + (
            [f"order={self.order}"] if self.order else [])
        if self.engine == _CMD:
            return _CMD + "".join("," + e for e in extra) + ":" + self.name
        items = [*self.options, *extra]
        return (self.name or self.engine) + (":" + ",".join(items) if items else "")

    @classmethod
    def parse(cls, text: str) -> "SolverConfig":
        """The configuration a solver string names (see the module's docstring); the one parser
        of solver strings in satedge."""
        if not isinstance(text, str):
            raise SatedgeError(f"a solver is a string such as cadical195:sat or backtrack, not {quoted(repr(text), 40)}")
        if text.startswith(_CMD + ":") or text.startswith(_CMD + ","):
            head, colon, command = text.partition(":")
            if not colon:
                raise SatedgeError(f"solver {quoted(text, 40)}: write cmd,workers=N:COMMAND")
            return cls(engine=_CMD, name=command, **_own_options(text, head.split(",")[1:]))
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
    def of(cls, value: "SolverConfig | str | None") -> "SolverConfig":
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
            choices = {"strategy": STRATEGIES, "enumeration": ENUMERATIONS, "order": ORDERS}[key]
            if value not in choices:
                raise SatedgeError(f"solver {quoted(text, 40)}: {key} is one of {', '.join(choices)}")
            own[key] = value
    return own


@dataclass
class Stats:
    """Accumulated solver statistics (``accum_stats``) and call counts of one enumeration;
    ``reported``: whether the solver gave any (Kissat and solver binaries give none)."""

    calls: int = 0
    models: int = 0
    counters: dict = field(default_factory=lambda: dict.fromkeys(STAT_KEYS, 0))
    reported: bool = False

    def add(self, solver: Solver) -> None:
        try:
            got = solver.accum_stats() or {}
        except NotImplementedError:  # kissat exposes none
            return
        self.merge(got)

    def merge(self, counters: dict) -> None:
        """Add ``counters`` (a solver's ``accum_stats``, or another Stats' counters)."""
        self.reported = True
        for k in STAT_KEYS:
            self.counters[k] = self.counters.get(k, 0) + int(counters.get(k, 0))


# ---------------------------------------------------------------------------- the solvers
@cache
def _pysat_works(name: str) -> bool:
    """Whether PySAT's solver ``name`` solves here, incrementally too (some PySAT builds list
    solvers they do not ship)."""
    try:
        s = Solver(name=name, bootstrap_with=_PROBE)
        try:
            first = s.solve() and set(s.get_model()) >= {2, 3}
            s.add_clause([-3, 1])
            return bool(first and s.solve() and s.get_model() == [1, 2, 3])
        finally:
            s.delete()
    except Exception:  # noqa: BLE001 - NoSuchSolverError and whatever a broken build raises
        return False


def pysat_names() -> list[str]:
    """Every solver PySAT's one name table lists, by its main name."""
    return sorted(k for k, v in vars(SolverNames).items() if not k.startswith("_") and isinstance(v, tuple))


@cache
def solver_names() -> tuple[str, ...]:
    """Every PySAT solver that works here (some PySAT builds list solvers they do not ship)."""
    return tuple(n for n in pysat_names() if _pysat_works(n))


def new_solver(config: SolverConfig, clauses: list[list[int]], nv: int, proof: bool = False,
               formula: int | None = None):
    """A solver holding ``clauses``: a PySAT solver configured as ``config`` says (with ``proof``,
    one that logs a DRAT proof, set as :data:`PROOF_OPTIONS` says), or a binary (``formula``: how
    many of the clauses are the formula's, the rest added to it, as its errors say)."""
    if config.engine == _CMD:
        return ExternalSolver(config.name, clauses, nv, formula)
    options = {**config.pysat_options(), **(PROOF_OPTIONS.get(config.name, {}) if proof else {})}
    if not options:
        return Solver(name=config.name, bootstrap_with=clauses, with_proof=proof) if proof else \
            Solver(name=config.name, bootstrap_with=clauses)
    solver = Solver(name=config.name, with_proof=proof) if proof else Solver(name=config.name)
    solver.configure(options)  # before the clauses: some options are read when the first one comes
    solver.append_formula(clauses)
    return solver
