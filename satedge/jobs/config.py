"""The one value that names an engine with its settings: :class:`SolverConfig`, checked when
made against the engine table (:data:`satedge.jobs.engines.ENGINES`).

A solver configuration is written (in specs, rows, reports, ``--solver``) as

* a SAT solver (:class:`satedge.sat.solvers.SatSolver`): a PySAT solver that works here,
  CaDiCaL's with options after a colon (``cadical195:sat,seed=2``), or ``cmd:COMMAND``, a
  DIMACS solver binary;
* the name of any other engine of the table (``backtrack``, ``cpsat``, ``clasp``, ``lns``);

with the options the engine's entry takes after a colon (:attr:`Engine.settings`): ``workers=N``,
``strategy=portfolio|cubes`` (how the SAT method uses several workers:
``kissat404:workers=2,strategy=cubes``), ``enumeration=auto|blocking|subspaces`` (how models
are enumerated: :mod:`satedge.sat.solving`) and ``order=`` one of
:data:`satedge.backtrack.orders.ORDERS` (the order in which the backtracker fills the cells),
``schedule=START/STEP/MOST`` and ``cap=N`` (the restarts' schedule of misfits and placements
each: :mod:`satedge.backtrack.restarts`).
A binary with options is written ``cmd,workers=2,strategy=cubes:COMMAND``.

>>> c = SolverConfig.parse("cadical195:seed=2,workers=2,sat")
>>> c.engine, c.name, c.options, c.workers, str(c)
('pysat', 'cadical195', ('sat', 'seed=2'), 2, 'cadical195:sat,seed=2,workers=2')
>>> str(SolverConfig(engine="backtrack", workers=2)), str(SolverConfig.parse("cmd:cadical -q"))
('backtrack:workers=2', 'cmd:cadical -q')
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import get_close_matches

from ..backtrack.orders import ORDERS
from ..errors import SatedgeError
from ..sat.binaries import command_words
from ..sat.maxsat import EVALUATION_SOLVERS
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
from ..system.files import quoted
from ..system.process import MAX_WORKERS
from .engines import ENGINES, EVALUATION, OPTIONS, PYSAT, STRATEGIES, Engine, takers

__all__ = ["CHOICES", "SolverConfig", "by_name"]

# the choices of the options that take one (workers takes a number)
CHOICES: dict[str, tuple[str, ...]] = {
    "strategy": tuple(STRATEGIES),
    "enumeration": ENUMERATIONS,
    "order": ORDERS,
}


def by_name(text: str) -> Engine | None:
    """The engine a solver string's first word names by itself (``backtrack``, ``cpsat``,
    ``clasp``), or ``None`` (a PySAT solver's name, or ``cmd``, which takes a command)."""
    found = ENGINES.get(text)
    return found if found is not None and found.name not in (PYSAT, EVALUATION, BINARY) else None


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

    engine: str = PYSAT
    name: str | None = None
    options: tuple[str, ...] = ()
    workers: int = 1
    strategy: str | None = None
    enumeration: str | None = None
    order: str | None = None
    schedule: str | None = None
    cap: int | None = None

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
            ("schedule", "a schedule of misfits"),
            ("cap", "a cap of placements"),
        ):
            if key not in own.settings and getattr(self, key) not in (None, 1):
                raise SatedgeError(
                    f"{where} applies to {takers(key)} only, not to {self.name or self.engine}"
                )
        if self.schedule is not None:
            _schedule(str(self.schedule), f"schedule {quoted(str(self.schedule), 30)}")
        if self.cap is not None and (
            isinstance(self.cap, bool) or not isinstance(self.cap, int) or self.cap < 1
        ):
            raise SatedgeError(
                f"cap must be a positive number of placements, not {quoted(str(self.cap), 30)}"
            )
        if self.enumeration == "auto":
            object.__setattr__(self, "enumeration", None)  # the default: one configuration, one name
        if self.order == "auto":
            object.__setattr__(self, "order", None)  # the default: one configuration, one name
        if self.enumeration == "subspaces" and self.engine != PYSAT:
            raise SatedgeError(f"enumeration=subspaces needs an incremental PySAT solver, not {self.engine}")
        if self.engine == EVALUATION:
            if self.name not in EVALUATION_SOLVERS:
                raise SatedgeError(
                    f"unknown MaxSAT solver {quoted(str(self.name), 40)}; choose from {', '.join(EVALUATION_SOLVERS)}"
                )
            if self.options:
                raise SatedgeError(f"the MaxSAT solver {self.name} takes no options")
            return
        if self.engine not in (PYSAT, BINARY):
            if self.name not in (None, self.engine):
                what = "is a solver of its own" if own.solves_formula else "has its own model"
                raise SatedgeError(f"{self.engine} {what}: it takes no solver ({quoted(str(self.name), 40)})")
            object.__setattr__(self, "name", None)
            if self.options:
                raise SatedgeError(f"{self.engine} takes no solver options")
            return
        if self.engine == PYSAT:
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
        if self.engine not in (PYSAT, BINARY):
            return None
        return SatSolver(self.name, self.options, self.engine == BINARY, self.enumeration)

    @property
    def has_formula(self) -> bool:
        """Whether the engine solves a SAT formula (and so takes an encoding)."""
        return ENGINES[self.engine].solves_formula

    @property
    def incremental(self) -> bool:
        """Whether one solver instance can be asked again after new clauses (enumeration)."""
        return self.engine == PYSAT and self.sat.incremental

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
            + ([f"schedule={self.schedule}"] if self.schedule else [])
            + ([f"cap={self.cap}"] if self.cap else [])
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
        if name in EVALUATION_SOLVERS:
            return cls(engine=EVALUATION, name=name, options=options, **own)
        other = by_name(name)
        if other is not None:
            if options:
                takes = " and ".join(f"{k}=" for k in other.settings) or "no option"
                raise SatedgeError(f"solver {quoted(text, 40)}: {name} takes {takes}")
            return cls(engine=name, **own)
        return cls(engine=PYSAT, name=name, options=options, **own)

    @classmethod
    def of(cls, value: SolverConfig | str | None) -> SolverConfig:
        """``value`` itself, the default solver for ``None``, or a string :meth:`parse` reads."""
        if value is None:
            return cls()
        return value if isinstance(value, cls) else cls.parse(value)


def _schedule(text: str, what: str) -> tuple[int, int, int]:
    """``START/STEP/MOST`` (:class:`satedge.backtrack.restarts.Schedule`) as three numbers."""
    parts = text.split("/")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 9 for p in parts) or int(parts[1]) < 1:
        raise SatedgeError(f"{what}: write START/STEP/MOST, whole numbers, STEP at least 1 (190/4/14)")
    return tuple(map(int, parts))


def _own_options(text: str, items: list[str]) -> dict:
    """``workers``, ``strategy``, ``enumeration``, ``order``, ``schedule`` and ``cap`` among the
    items of a solver string."""
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
        elif key == "schedule":
            _schedule(value, f"solver {quoted(text, 40)}")
            own[key] = value
        elif key == "cap":
            if not (value.isdigit() and len(value) <= 15 and int(value) >= 1):
                raise SatedgeError(f"solver {quoted(text, 40)}: cap=N takes a positive number of placements")
            own[key] = int(value)
    return own
