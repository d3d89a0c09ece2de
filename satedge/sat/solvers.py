"""The SAT solvers behind the engines that solve a formula: :class:`SatSolver`, a PySAT solver
by its name (with CaDiCaL's options) or a DIMACS solver binary by its command, with how it
enumerates models; the PySAT solvers that work here; their statistics.

A SAT solver is written (``--solver``, specs, rows) as a PySAT solver that works here
(:func:`solver_names`), CaDiCaL's with options after a colon: its named configurations
``sat`` and ``unsat`` and ``seed=N`` (``cadical195:sat,seed=2``); or ``cmd:COMMAND``, a DIMACS
solver binary, run on the formula written to a file (exit 10 SAT with ``v`` lines, 20 UNSAT),
killed with the process that started it (:func:`satedge.system.proctree.popen`).  The engine
that runs it, with its workers and strategy, is named by
:class:`satedge.jobs.solver.SolverConfig`.

>>> s = SatSolver.parse("cadical195:seed=2,sat")
>>> s.name, s.options, str(s), str(SatSolver.parse("cmd:cadical -q"))
('cadical195', ('sat', 'seed=2'), 'cadical195:sat,seed=2', 'cmd:cadical -q')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from pysat.solvers import Solver, SolverNames

from ..errors import SatedgeError
from ..system.files import quoted
from .binaries import PROBE, ExternalSolver, command_words

__all__ = [
    "Configured",
    "Solverish",
    "ENUMERATIONS",
    "DEFAULT_OPTIONS",
    "DEFAULT_SOLVER",
    "BINARY",
    "NON_INCREMENTAL",
    "PROOF_SOLVERS",
    "PROOF_OPTIONS",
    "BINARY_PROOFS",
    "CADICAL_CONFIGS",
    "CONFIGURABLE",
    "DECIDING",
    "deciding",
    "CADICAL_MAX_SEED",
    "STAT_KEYS",
    "SatSolver",
    "Stats",
    "pysat_names",
    "solver_names",
    "pysat_works",
    "new_solver",
    "canonical",
]

# how models are enumerated (satedge.sat.solving): auto (the default) blocks a clause per model, or per
# picture where a picture has many models (identical tiles) and a count is asked for; blocking: a
# clause per model, always; subspaces: disjoint subspaces under assumptions, no clause added
ENUMERATIONS = ("auto", "blocking", "subspaces")
DEFAULT_SOLVER = "cadical195"
# the SAT method's configuration of it where a job names no solver: CaDiCaL's sat configuration,
# which solved the 70 peak puzzles in 0.83 times default CaDiCaL's PAR-2 (95% interval 0.68 to
# 0.99, Wilcoxon p = 0.0105; docs/results/bench-solve.md); a low-level SatSolver() keeps CaDiCaL's own
DEFAULT_OPTIONS = ("sat",)
BINARY = "cmd"  # how a solver string names a binary: cmd:COMMAND
NON_INCREMENTAL = {"kissat404"}  # PySAT solvers that enumerate by solving again
# PySAT's solvers whose DRAT proof of a whole enumeration (with_proof=True, blocking clauses added
# between calls) checks; MapleSAT logs one too, but it does not check once clauses were added
PROOF_SOLVERS = (
    "cadical153",
    "cadical195",
    "glucose3",
    "glucose4",
    "glucose42",
    "lingeling",
    "maplechrono",
    "maplecm",
)
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
DECIDING = ("cadical195",)  # the PySAT solvers that take an external propagator (IPASIR-UP)
CADICAL_MAX_SEED = 10**9  # seed=N takes N below this
STAT_KEYS = ("conflicts", "decisions", "propagations", "restarts")


def deciding(name: str, binary: bool = False) -> None:
    """Refuse a solver that cannot decide in a fill order (``decide=backtracker``)."""
    if binary or name not in DECIDING:
        raise SatedgeError(
            f"decide=backtracker needs a solver that takes an external propagator "
            f"({', '.join(DECIDING)}), not {BINARY + ':' if binary else ''}{name}"
        )


@dataclass(frozen=True)
class SatSolver:
    """A SAT solver that enumerates a formula's models; checked when made (bad values raise
    :class:`SatedgeError`).

    Attributes
    ----------
    name
        The PySAT solver (default ``cadical195``), or with ``binary`` the command line
    options
        CaDiCaL's options, ``sat``, ``unsat`` and ``seed=N`` (kept in that order)
    binary
        Whether ``name`` is a DIMACS solver binary's command
    enumeration
        How models are enumerated: ``auto`` (``None``, the default), ``blocking`` clauses or
        disjoint ``subspaces`` under assumptions, which add no clause (:mod:`satedge.sat.solving`)
    order
        The cells of the formula's board in the order the solver is to place tiles on them
        (:mod:`satedge.sat.decide`: the backtracker's decisions); ``None``, the default: the
        solver's own decisions.  Only the solvers of :data:`DECIDING` take one.
    """

    name: str = DEFAULT_SOLVER
    options: tuple[str, ...] = ()
    binary: bool = False
    enumeration: str | None = None
    order: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.order is not None:
            deciding(self.name, self.binary)
        if self.enumeration is not None and self.enumeration not in ENUMERATIONS:
            raise SatedgeError(
                f"unknown enumeration {quoted(str(self.enumeration), 30)}; choose from "
                f"{', '.join(ENUMERATIONS)}"
            )
        if self.enumeration == "auto":
            object.__setattr__(self, "enumeration", None)  # the default: one configuration, one name
        if self.binary:
            if self.enumeration == "subspaces":
                raise SatedgeError(f"enumeration=subspaces needs an incremental PySAT solver, not {BINARY}")
            if self.options:
                raise SatedgeError("a solver binary takes its options on its command line")
            command_words(self.name or "", look_up=False)  # PATH is looked up when a job is made
            return
        name = self.name
        if not (name in pysat_names() and pysat_works(name)):
            raise SatedgeError(
                f"unknown solver {quoted(str(name), 40)}; choose a PySAT solver (satedge solvers "
                "lists those that work here) or cmd:COMMAND"
            )
        if self.enumeration == "subspaces" and name in NON_INCREMENTAL:
            raise SatedgeError(
                f"enumeration={self.enumeration} needs an incremental solver; {name} is not one"
            )
        options = tuple(self.options)
        if options and name not in CONFIGURABLE:
            raise SatedgeError(f"solver {name!r} takes no options; only {', '.join(CONFIGURABLE)} do")
        seeds = [item for item in options if item.startswith("seed=")]
        for item in options:
            value = item[5:] if item.startswith("seed=") else ""
            if item not in CADICAL_CONFIGS and not (value.isdigit() and int(value) < CADICAL_MAX_SEED):
                raise SatedgeError(f"solver option {quoted(item, 30)} of {name}: use sat, unsat or seed=N")
        if len(seeds) > 1:
            raise SatedgeError(f"{name} takes one seed, not {', '.join(seeds)}")
        # one order, so that one configuration has one name: the named configurations, then the seed
        order = [c for c in CADICAL_CONFIGS if c in options] + [f"seed={int(s[5:])}" for s in seeds]
        object.__setattr__(self, "options", tuple(order))

    @property
    def incremental(self) -> bool:
        """Whether one solver instance can be asked again after new clauses (enumeration)."""
        return not self.binary and self.name not in NON_INCREMENTAL

    def pysat_options(self) -> dict[str, int]:
        """CaDiCaL's option values of :attr:`options` (``Solver.configure``).

        >>> SatSolver.parse("cadical195:sat,seed=2").pysat_options()
        {'elimreleff': 10, 'stabilizeonly': 1, 'subsumereleff': 60, 'seed': 2}
        """
        out: dict[str, int] = {}
        for item in self.options:
            out.update(CADICAL_CONFIGS.get(item) or {"seed": int(item[5:])})
        return out

    def __str__(self) -> str:
        if self.binary:
            return f"{BINARY}:{self.name}"
        items = [*self.options] + ([f"enumeration={self.enumeration}"] if self.enumeration else [])
        return self.name + (":" + ",".join(items) if items else "")

    @classmethod
    def parse(cls, text: str) -> SatSolver:
        """The SAT solver ``cadical195:sat,seed=2`` or ``cmd:COMMAND`` names."""
        if not isinstance(text, str):
            raise SatedgeError(f"a solver is a string such as cadical195:sat, not {quoted(repr(text), 40)}")
        if text.startswith(BINARY + ":"):
            return cls(name=text[len(BINARY) + 1 :], binary=True)
        name, colon, rest = text.partition(":")
        items = rest.split(",") if colon else []
        enumeration = [i.partition("=")[2] for i in items if i.startswith("enumeration=")]
        return cls(
            name=name,
            options=tuple(i for i in items if not i.startswith("enumeration=")),
            enumeration=enumeration[-1] if enumeration else None,
        )

    @classmethod
    def of(cls, value: Solverish) -> SatSolver:
        """``value`` itself, the default solver for ``None``, a string :meth:`parse` reads, or the
        SAT solver of an engine's configuration (its ``sat``:
        :attr:`satedge.jobs.solver.SolverConfig.sat`)."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        sat = getattr(value, "sat", None)
        if sat is None:
            raise SatedgeError(
                f"{value} is not a PySAT solver or a solver binary: it enumerates no models here"
            )
        return sat


class Configured(Protocol):
    """An engine's configuration that names a SAT solver (:class:`satedge.jobs.solver.SolverConfig`)."""

    @property
    def sat(self) -> SatSolver | None: ...


# what the functions that run a SAT solver take: the solver, its string, a configuration that names
# one, or None for the default
Solverish = SatSolver | str | Configured | None


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
def pysat_works(name: str) -> bool:
    """Whether PySAT's solver ``name`` solves here, incrementally too (some PySAT builds list
    solvers they do not ship)."""
    try:
        s = Solver(name=name, bootstrap_with=PROBE)  # incremental: then (not x3 or x1)
        try:
            first = s.solve() and set(s.get_model()) >= {2, 3}
            s.add_clause([-3, 1])
            return bool(first and s.solve() and s.get_model() == [1, 2, 3])
        finally:
            s.delete()
    except Exception:
        return False


def canonical(name: str) -> str:
    """A PySAT solver's main name for any name PySAT's table gives it (``m22``, ``cd19``, ``g4``),
    or ``name`` itself.

    >>> canonical("m22"), canonical("cd19"), canonical("nonesuch")
    ('minisat22', 'cadical195', 'nonesuch')
    """
    return next(
        (
            k
            for k, v in vars(SolverNames).items()
            if not k.startswith("_") and isinstance(v, tuple) and name in v
        ),
        name,
    )


def pysat_names() -> list[str]:
    """Every solver PySAT's one name table lists, by its main name."""
    return sorted(k for k, v in vars(SolverNames).items() if not k.startswith("_") and isinstance(v, tuple))


@cache
def solver_names() -> tuple[str, ...]:
    """Every PySAT solver that works here (some PySAT builds list solvers they do not ship)."""
    return tuple(n for n in pysat_names() if pysat_works(n))


def new_solver(
    config: SatSolver, clauses: list[list[int]], nv: int, proof: bool = False, formula: int | None = None
) -> Any:
    """A solver holding ``clauses``: a PySAT solver configured as ``config`` says (with ``proof``,
    one that logs a DRAT proof, set as :data:`PROOF_OPTIONS` says), or a binary (``formula``: how
    many of the clauses are the formula's, the rest added to it, as its errors say)."""
    if config.binary:
        return ExternalSolver(config.name, clauses, nv, formula)
    options = {**config.pysat_options(), **(PROOF_OPTIONS.get(config.name, {}) if proof else {})}
    if not options:
        return (
            Solver(name=config.name, bootstrap_with=clauses, with_proof=proof)
            if proof
            else Solver(name=config.name, bootstrap_with=clauses)
        )
    solver = Solver(name=config.name, with_proof=proof) if proof else Solver(name=config.name)
    solver.configure(options)  # before the clauses: some options are read when the first one comes
    solver.append_formula(clauses)
    return solver
