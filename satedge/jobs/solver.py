"""The one value that names an engine with its settings: :class:`SolverConfig`, checked when
made against the engine's declaration (:mod:`satedge.jobs.registry`).

A solver configuration is written (in specs, rows, reports, ``--solver``) as

* a SAT solver (:class:`satedge.sat.solvers.SatSolver`): a PySAT solver that works here,
  CaDiCaL's with options after a colon (``cadical195:sat,seed=2``), or ``cmd:COMMAND``, a
  DIMACS solver binary;
* the name of any other engine (``backtrack``, ``cpsat``, ``clasp``, ``lns``, or one of yours);

with the options the engine declares after a colon (:attr:`Engine.settings`): ``workers=N``,
``strategy=portfolio|cubes`` (how the SAT method uses several workers:
``kissat404:workers=2,strategy=cubes``), ``enumeration=auto|blocking|subspaces`` (how models
are enumerated: :mod:`satedge.sat.solving`) and ``order=`` one of
:data:`satedge.backtrack.orders.ORDERS` (the order in which the backtracker fills the cells),
``schedule=START/STEP/MOST`` and ``cap=N`` (the restarts' schedule of misfits and placements
each: :mod:`satedge.best.restarts`).
A binary with options is written ``cmd,workers=2,strategy=cubes:COMMAND``.

>>> c = SolverConfig.parse("cadical195:seed=2,workers=2,sat")
>>> c.engine, c.name, c.options, c.workers, str(c)
('pysat', 'cadical195', ('sat', 'seed=2'), 2, 'cadical195:sat,seed=2,workers=2')
>>> str(SolverConfig(engine="backtrack", workers=2)), str(SolverConfig.parse("cmd:cadical -q"))
('backtrack:workers=2', 'cmd:cadical -q')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from difflib import get_close_matches
from typing import Any

from ..errors import SatedgeError
from ..sat.binaries import command_words
from ..sat.maxsat import EVALUATION_SOLVERS
from ..sat.solvers import (
    BINARY,
    DEFAULT_OPTIONS,
    DEFAULT_SOLVER,
    SatSolver,
    canonical,
    deciding,
    pysat_names,
    pysat_works,
    solver_names,
)
from ..system.files import quoted
from ..system.process import MAX_WORKERS
from .engine import Engine, prose
from .registry import declared, engine, engines, option_names, takers

__all__ = ["PYSAT", "EVALUATION", "AUTO", "SolverConfig", "by_name"]

PYSAT = "pysat"  # the engine a PySAT solver's name (and the default solver) names
EVALUATION = "hermax"  # the engine a MaxSAT Evaluation solver's name names
# not an engine: what --method auto leaves to each puzzle (satedge.jobs.job.choose), in a job made
# before its puzzle is known (workers 0: as auto chooses)
AUTO = "auto"


def by_name(text: str) -> Engine | None:
    """The engine a solver string's first word names by itself (``backtrack``, ``cpsat``,
    ``clasp``), or ``None`` (a PySAT solver's name, or ``cmd``, which takes a command)."""
    found = engines().get(text)
    return found if found is not None and found.named else None


@dataclass(frozen=True)
class SolverConfig:
    """An engine and its settings; checked when made (bad values raise :class:`SatedgeError`).

    Attributes
    ----------
    engine
        The engine's name (:func:`satedge.jobs.registry.engines`): ``pysat`` (a PySAT solver),
        ``cmd`` (a DIMACS solver binary), or an engine with a model of its own or a solver of its
        own (``backtrack``, ``cpsat``, ``clasp``); :data:`AUTO` in a job made before its puzzle
        is known, for the engine ``--method auto`` chooses for each
    name
        The PySAT solver (``pysat``, default ``cadical195``) or the command line (``cmd``);
        ``None`` for the other engines
    options
        CaDiCaL's options, ``sat``, ``unsat`` and ``seed=N`` (kept in that order); of the
        default solver given with none, :data:`satedge.sat.solvers.DEFAULT_OPTIONS` (``sat``)
    workers
        Processes of the SAT method and of the backtracker, search workers of CP-SAT (of
        :data:`AUTO`, 0: as it chooses)
    settings
        The values of the options the engine declares (:class:`satedge.jobs.engine.Option`:
        a ``strategy``, an ``enumeration``, a cell ``order``, a ``schedule`` of misfits, a
        ``cap`` of placements, ...), by name; given as a mapping, kept as sorted pairs, read with
        :meth:`get`.  An option not given (or a choice's ``auto``) is its default and absent.

    ``str()`` gives the one string form, which :meth:`parse` reads back into the same value.
    """

    engine: str = PYSAT
    name: str | None = None
    options: tuple[str, ...] = ()
    workers: int = 1
    settings: Mapping[str, Any] | tuple[tuple[str, Any], ...] = ()

    def get(self, option: str) -> Any:
        """The value of the option named ``option``, ``None`` where it is not given."""
        return dict(self.settings).get(option)

    def with_settings(self, workers: int | None = None, **changes: Any) -> SolverConfig:
        """This configuration with ``workers`` and the options ``changes`` names (``None``:
        the option's default, not given), checked as a new one is."""
        settings = {**dict(self.settings), **changes}
        return replace(self, workers=self.workers if workers is None else workers, settings=settings)

    def __post_init__(self) -> None:
        if self.engine == AUTO:
            if self.name is not None or self.options or self.settings:
                raise SatedgeError("auto chooses an engine for each puzzle: it takes no solver and no option")
            if (
                isinstance(self.workers, bool)
                or not isinstance(self.workers, int)
                or not 0 <= self.workers <= MAX_WORKERS
            ):
                raise SatedgeError(
                    f"workers must be an integer from 1 to {MAX_WORKERS:,}, not {quoted(str(self.workers), 30)}"
                )
            object.__setattr__(self, "settings", ())
            return
        own = engine(self.engine)
        if (
            isinstance(self.workers, bool)
            or not isinstance(self.workers, int)
            or not 1 <= self.workers <= MAX_WORKERS
        ):
            raise SatedgeError(
                f"workers must be an integer from 1 to {MAX_WORKERS:,}, not {quoted(str(self.workers), 30)}"
            )
        given = dict(self.settings)
        options = declared()
        unknown = [k for k in given if k not in options]
        if unknown:
            raise SatedgeError(
                f"unknown option {quoted(str(unknown[0]), 30)}; the engines take {', '.join(option_names())}"
            )
        settings = {}
        for key, option in options.items():  # each checked, then whether this engine takes it
            if given.get(key) is not None:
                settings[key] = option.value(given[key])
        if self.workers != 1 and "workers" not in own.settings:
            raise SatedgeError(
                f"workers=N applies to {takers('workers')} only, not to {self.name or self.engine}"
            )
        for key in settings:
            if key not in own.settings and settings[key] is not None:
                raise SatedgeError(
                    f"{options[key].what} applies to {takers(key)} only, not to {self.name or self.engine}"
                )
        # the defaults (a choice's auto) are absent: one configuration, one name
        object.__setattr__(
            self, "settings", tuple(sorted((k, v) for k, v in settings.items() if v is not None))
        )
        if self.get("enumeration") == "subspaces" and self.engine != PYSAT:
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
            if self.name is None and not self.options:  # the default solver in its default configuration
                object.__setattr__(self, "options", DEFAULT_OPTIONS)
            name = (
                DEFAULT_SOLVER if self.name is None else canonical(str(self.name))
            )  # PySAT's short names too
            object.__setattr__(self, "name", name)
            if not (name in pysat_names() and pysat_works(name)):
                close = [
                    f" (did you mean {n}?)"
                    for n in get_close_matches(name, [*solver_names(), *engines()], 1, 0.8)
                ]
                raise SatedgeError(
                    f"unknown solver {quoted(str(name), 40)}{''.join(close)}; choose a PySAT solver (satedge "
                    f"solvers lists those that work here), cmd:COMMAND or {', '.join(filter(by_name, engines()))}"
                )
        object.__setattr__(self, "options", self.formula_solver.options)  # checked, in their one order
        if self.get("decide") is not None:
            deciding(self.formula_solver.name, self.formula_solver.binary)

    @property
    def sat(self) -> SatSolver | None:
        """The SAT solver of a PySAT solver or a binary (what :mod:`satedge.sat.solving`
        runs); ``None`` for the other engines."""
        if self.engine not in (PYSAT, BINARY) or self.name is None:
            return None
        return SatSolver(self.name, self.options, self.engine == BINARY, self.get("enumeration"))

    @property
    def formula_solver(self) -> SatSolver:
        """:attr:`sat`, of a configuration that has one (a PySAT solver or a binary)."""
        solver = self.sat
        if solver is None:
            raise SatedgeError(f"{self} is no SAT solver: a PySAT solver or cmd:COMMAND is")
        return solver

    @property
    def declared(self) -> Engine:
        """Its engine's declaration."""
        return engine(self.engine)

    @property
    def has_formula(self) -> bool:
        """Whether the engine solves a SAT formula (and so takes an encoding)."""
        return self.engine != AUTO and self.declared.solves_formula

    @property
    def incremental(self) -> bool:
        """Whether one solver instance can be asked again after new clauses (enumeration)."""
        return self.engine == PYSAT and self.formula_solver.incremental

    def check_installed(self) -> None:
        """That the engine can run here: what it needs installed (else an error that names the
        extra), a solver binary's program on PATH."""
        if self.engine == AUTO:
            return
        self.declared.check_installed()
        if self.engine == BINARY and self.name is not None:
            command_words(self.name)

    def pysat_options(self) -> dict[str, int]:
        """CaDiCaL's option values of :attr:`options` (``Solver.configure``)."""
        return self.formula_solver.pysat_options()

    def __repr__(self) -> str:
        return f"SolverConfig({str(self)!r})"

    def __str__(self) -> str:
        given = dict(self.settings)
        extra = ([f"workers={self.workers}"] if self.workers > 1 else []) + [
            f"{key}={given[key]}" for key in declared() if key in given
        ]
        if self.engine == BINARY:
            return BINARY + "".join("," + e for e in extra) + ":" + str(self.name)
        if self.engine == AUTO:
            return AUTO + (f":workers={self.workers}" if self.workers else "")
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
        options = tuple(item for item in items if item.partition("=")[0] not in option_names())
        if name in EVALUATION_SOLVERS:
            return cls(engine=EVALUATION, name=name, options=options, **own)
        other = by_name(name)
        if other is not None:
            if options:
                takes = prose([f"{k}=" for k in other.settings]) if other.settings else "no option"
                raise SatedgeError(f"solver {quoted(text, 40)}: {name} takes {takes}")
            return cls(engine=name, **own)
        return cls(engine=PYSAT, name=name, options=options, **own)

    @classmethod
    def of(cls, value: SolverConfig | str | None) -> SolverConfig:
        """``value`` itself, the default solver for ``None``, or a string :meth:`parse` reads."""
        if value is None:
            return cls()
        return value if isinstance(value, SolverConfig) else cls.parse(value)


def _own_options(text: str, items: list[str]) -> dict:
    """``workers`` and the declared options (:func:`satedge.jobs.registry.declared`) among the
    items of a solver string, as :class:`SolverConfig` takes them."""
    own: dict = {}
    options = declared()
    for item in items:
        key, eq, value = item.partition("=")
        if key == "workers":
            if not (eq and value.isdigit() and len(value) <= 5 and 1 <= int(value) <= MAX_WORKERS):
                raise SatedgeError(f"solver {quoted(text, 40)}: workers=N takes N from 1 to {MAX_WORKERS:,}")
            own["workers"] = int(value)
        elif key in options:
            own.setdefault("settings", {})[key] = options[key].read(value, text)
    return own
