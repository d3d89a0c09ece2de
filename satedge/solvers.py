"""What answers a puzzle: :class:`SolverConfig`, the one value that names an engine and its
settings, with its one parser and its one string form; and the SAT solvers behind it.

A solver configuration is written (in specs, rows, reports, ``--solver``) as

* a PySAT solver that works here (:func:`solver_names`), CaDiCaL's with options after a colon:
  its named configurations ``sat`` and ``unsat`` and ``seed=N`` (``cadical195:sat,seed=2``);
* ``cmd:COMMAND``: a DIMACS solver binary, run on the formula written to a file (exit 10 SAT with
  ``v`` lines, 20 UNSAT), killed with the process that started it (:func:`satedge.proctree.popen`);
* ``backtrack``: the reference backtracker; ``cpsat``: the CP-SAT model (extra ``cp``);

and every one but a binary takes ``workers=N`` among its options, the SAT method also
``strategy=portfolio|cubes`` (``kissat404:workers=2,strategy=cubes``), a PySAT solver
``enumeration=blocking|subspaces`` (how it enumerates models: :mod:`satedge.solving`) and the
backtracker ``order=`` one of :data:`satedge.orders.ORDERS` (the order it fills the cells in).  A binary
with workers is written ``cmd,workers=2,strategy=cubes:COMMAND``.

>>> c = SolverConfig.parse("cadical195:seed=2,workers=2,sat")
>>> c.engine, c.name, c.options, c.workers, str(c)
('sat', 'cadical195', ('sat', 'seed=2'), 2, 'cadical195:sat,seed=2,workers=2')
>>> str(SolverConfig(engine="backtrack", workers=2)), str(SolverConfig.parse("cmd:cadical -q"))
('backtrack:workers=2', 'cmd:cadical -q')
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pysat.solvers import Solver, SolverNames

from .dimacs import parse_model, write_plain
from .errors import SatedgeError
from .files import quoted
from .orders import ORDERS
from .process import MAX_WORKERS
from .proctree import kill_tree, popen, scratch

__all__ = [
    "ENGINES", "STRATEGIES", "ENUMERATIONS", "DEFAULT_SOLVER", "NON_INCREMENTAL", "PROOF_SOLVERS", "CADICAL_CONFIGS", "CONFIGURABLE",
    "KNOWN_BINARIES", "MAX_SEED", "RESULT_FILE", "MAX_ANSWER_BYTES", "SolverConfig", "pysat_names", "solver_names",
    "command_words", "solver_binaries", "ExternalSolver", "new_solver"
]

ENGINES = ("sat", "cmd", "backtrack", "cpsat")  # sat: PySAT; cmd: a solver binary; the others have their own model
STRATEGIES = ("portfolio", "cubes")  # how the SAT method uses several workers
ENUMERATIONS = ("blocking", "subspaces")  # how a PySAT solver enumerates models (satedge.solving)
DEFAULT_SOLVER = "cadical195"
NON_INCREMENTAL = {"kissat404"}  # PySAT solvers that enumerate by solving again
# PySAT's solvers that log DRUP proofs (with_proof=True)
PROOF_SOLVERS = ("cadical153", "cadical195", "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm",
                 "maplesat")
# CaDiCaL's own named configurations (its --sat and --unsat options, src/config.cpp)
CADICAL_CONFIGS = {
    "sat": {"elimreleff": 10, "stabilizeonly": 1, "subsumereleff": 60},
    "unsat": {"stabilize": 0, "walk": 0},
}
CONFIGURABLE = ("cadical153", "cadical195", "cadical300")
KNOWN_BINARIES = ("cadical", "kissat", "minisat", "glucose", "glucose-syrup", "cryptominisat5", "lingeling",
                  "plingeling", "picosat", "clasp", "varisat", "mergesat")
MAX_SEED = 10**9
RESULT_FILE = ("minisat",)  # binaries that write their model to a file named after the formula, not to stdout
MAX_ANSWER_BYTES = 2**30  # a model of millions of variables takes tens of MB
# a probe: (x1 or x2), (not x1 or x2), (not x2 or x3), incremental: then (not x3 or x1)
_PROBE = [[1, 2], [-1, 2], [-2, 3]]


@dataclass(frozen=True)
class SolverConfig:
    """An engine and its settings; checked when made (bad values raise :class:`SatedgeError`).

    Attributes
    ----------
    engine
        ``sat`` (a PySAT solver), ``cmd`` (a DIMACS solver binary), ``backtrack`` or
        ``cpsat`` (engines with a model of their own, which take no encoding)
    name
        The PySAT solver (``sat``, default ``cadical195``) or the command line (``cmd``);
        ``None`` for the engines with their own model
    options
        CaDiCaL's options, ``sat``, ``unsat`` and ``seed=N`` (kept in that order)
    workers
        Processes of the SAT method and of the backtracker, search workers of CP-SAT
    strategy
        How the SAT method uses several workers, ``portfolio`` or ``cubes`` (``None``:
        cubes).
    enumeration
        How a PySAT solver enumerates models: ``blocking`` clauses (``None``: the default) or
        disjoint ``subspaces`` under assumptions, which add no clause (:mod:`satedge.solving`).
    order
        The order in which the backtracker fills the cells (:mod:`satedge.orders`; ``None``:
        ``auto``, the order with the smallest estimated search tree).

    ``str()`` gives the one string form, which :meth:`parse` reads back into the same value.
    """

    engine: str = "sat"
    name: str | None = None
    options: tuple[str, ...] = ()
    workers: int = 1
    strategy: str | None = None
    enumeration: str | None = None
    order: str | None = None

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise SatedgeError(f"unknown engine {quoted(str(self.engine), 30)}; choose from {', '.join(ENGINES)}")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or not 1 <= self.workers <= MAX_WORKERS:
            raise SatedgeError(f"workers must be an integer from 1 to {MAX_WORKERS:,}, not {quoted(str(self.workers), 30)}")
        if self.strategy is not None and self.strategy not in STRATEGIES:
            raise SatedgeError(f"unknown strategy {quoted(str(self.strategy), 30)}; choose from {', '.join(STRATEGIES)}")
        if self.enumeration is not None:
            if self.enumeration not in ENUMERATIONS:
                raise SatedgeError(f"unknown enumeration {quoted(str(self.enumeration), 30)}; choose from "
                                   f"{', '.join(ENUMERATIONS)}")
            if self.engine != "sat":
                raise SatedgeError("an enumeration applies to a PySAT solver only")
            if self.enumeration == "blocking":
                object.__setattr__(self, "enumeration", None)  # the default: one configuration, one name
        if self.order is not None:
            if self.order not in ORDERS:
                raise SatedgeError(f"unknown cell order {quoted(str(self.order), 30)}; choose from {', '.join(ORDERS)}")
            if self.engine != "backtrack":
                raise SatedgeError("a cell order applies to the backtracker only")
            if self.order == "auto":
                object.__setattr__(self, "order", None)  # the default: one configuration, one name
        if self.engine in ("backtrack", "cpsat"):
            if self.name not in (None, self.engine):
                raise SatedgeError(f"{self.engine} has its own model: it takes no solver ({quoted(str(self.name), 40)})")
            object.__setattr__(self, "name", None)
            if self.options:
                raise SatedgeError(f"{self.engine} takes no solver options")
            if self.strategy is not None:
                raise SatedgeError("a strategy applies to the SAT method only")
            return
        if self.engine == "cmd":
            if self.options:
                raise SatedgeError("a solver binary takes its options on its command line")
            command_words(self.name or "")
            return
        name = DEFAULT_SOLVER if self.name is None else self.name
        object.__setattr__(self, "name", name)
        if not (name in pysat_names() and _pysat_works(name)):
            raise SatedgeError(f"unknown solver {quoted(str(name), 40)}; choose a PySAT solver (satedge solvers "
                               "lists those that work here), cpsat, backtrack or cmd:COMMAND")
        if self.enumeration and name in NON_INCREMENTAL:
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
        return self.engine in ("sat", "cmd")

    @property
    def incremental(self) -> bool:
        """Whether one solver instance can be asked again after new clauses (enumeration)."""
        return self.engine == "sat" and self.name not in NON_INCREMENTAL

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
        if self.engine == "cmd":
            return "cmd" + "".join("," + e for e in extra) + ":" + self.name
        items = [*self.options, *extra]
        return (self.name or self.engine) + (":" + ",".join(items) if items else "")

    @classmethod
    def parse(cls, text: str) -> "SolverConfig":
        """The configuration a solver string names (see the module's docstring); the one parser
        of solver strings in satedge."""
        if not isinstance(text, str):
            raise SatedgeError(f"a solver is a string such as cadical195:sat or backtrack, not {quoted(repr(text), 40)}")
        if text.startswith("cmd:") or text.startswith("cmd,"):
            head, colon, command = text.partition(":")
            if not colon:
                raise SatedgeError(f"solver {quoted(text, 40)}: write cmd,workers=N:COMMAND")
            return cls(engine="cmd", name=command, **_own_options(text, head.split(",")[1:]))
        name, colon, rest = text.partition(":")
        items = rest.split(",") if colon else []
        own = _own_options(text, items)
        options = tuple(item for item in items if item.partition("=")[0] not in ("workers", "strategy", "enumeration",
                                                                                   "order"))
        if name in ("backtrack", "cpsat"):
            if options:
                takes = "workers=N and order=ORDER" if name == "backtrack" else "one option, workers=N"
                raise SatedgeError(f"solver {quoted(text, 40)}: {name} takes {takes}")
            return cls(engine=name, **own)
        return cls(engine="sat", name=name, options=options, **own)

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
        elif key == "strategy":
            if value not in STRATEGIES:
                raise SatedgeError(f"solver {quoted(text, 40)}: strategy is one of {', '.join(STRATEGIES)}")
            own["strategy"] = value
        elif key == "enumeration":
            if value not in ENUMERATIONS:
                raise SatedgeError(f"solver {quoted(text, 40)}: enumeration is one of {', '.join(ENUMERATIONS)}")
            own["enumeration"] = value
        elif key == "order":
            if value not in ORDERS:
                raise SatedgeError(f"solver {quoted(text, 40)}: order is one of {', '.join(ORDERS)}")
            own["order"] = value
    return own


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


def command_words(command: str) -> list[str]:
    """The words of a solver command line; an empty one, one that does not parse or one that
    names no program on PATH is bad input."""
    if not isinstance(command, str) or not command.strip():
        raise SatedgeError("the solver command is empty: give a solver binary and its options, e.g. 'cadical -q'")
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise SatedgeError(f"solver command {quoted(command, 60)}: {e}") from None
    if shutil.which(words[0]) is None:
        raise SatedgeError(f"solver command {quoted(command, 60)} not found on PATH")
    return words


def _binary_works(path: str) -> bool:
    """Whether a binary solves a small formula as satedge runs it: exit 10 and a model on stdout."""
    with scratch() as folder:
        cnf = folder / "probe.cnf"
        with open(cnf, "w") as fh:
            write_plain(_PROBE, 3, fh)
        try:
            r = subprocess.run([path, str(cnf)], capture_output=True, text=True, timeout=10)
            return r.returncode == 10 and set(parse_model(r.stdout, path, 3) or ()) >= {2, 3}
        except (OSError, subprocess.TimeoutExpired, SatedgeError):
            return False


def solver_binaries() -> dict[str, str]:
    """Well-known DIMACS solver binaries on PATH that work as ``cmd:NAME``, with their paths."""
    found = {b: shutil.which(b) for b in KNOWN_BINARIES}
    return {b: path for b, path in found.items() if path and _binary_works(path)}


class ExternalSolver:
    """A DIMACS solver binary behind PySAT's interface (non-incremental: each ``solve`` writes the
    formula to a temporary file and runs the command on it; exit 10 SAT, 20 UNSAT).

    Its output goes to files, not pipes, and its answer is taken when it exits, whatever its own
    children still hold open; they are killed then.  The model is read from SAT-competition
    output (``s``/``v`` lines) or, for the binaries of :data:`RESULT_FILE`, from the result file
    they are given after the formula (MiniSat's ``SAT`` then literals)."""

    def __init__(self, command: str, bootstrap_with: list[list[int]], nv: int):
        self.command = command_words(command)
        self.clauses = bootstrap_with
        self.nv = nv  # the formula's variables; blocking clauses use no others
        self.model: list[int] | None = None

    def solve(self) -> bool:
        with scratch() as folder:
            cnf, result = folder / "formula.cnf", folder / "result.txt"
            with open(cnf, "w") as fh:
                write_plain(self.clauses, self.nv, fh)
            words = self.command + [str(cnf)] + ([str(result)] if Path(self.command[0]).name in RESULT_FILE else [])
            with open(folder / "stdout.txt", "w+b") as out, open(folder / "stderr.txt", "w+b") as err:
                proc = popen(words, stdout=out, stderr=err, start_new_session=True)
                try:
                    code = proc.wait()
                finally:
                    kill_tree(proc.pid)  # what it left running, its own process group too
                    proc.wait()
                answer = _tail(out, MAX_ANSWER_BYTES)
                last = _tail(err, 4096).decode("utf-8", "replace").strip().splitlines()[-1:]
            if code == 20:
                return False
            name = " ".join(self.command)
            if code != 10:
                said = last or answer.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
                raise SatedgeError(f"solver command {quoted(name, 60)} exited with {code}: {quoted(said[0], 120)}")
            text = result.read_bytes()[:MAX_ANSWER_BYTES] if result.is_file() and result.stat().st_size else answer
            self.model = parse_model(text.decode("utf-8", "replace"), f"the output of {quoted(name, 60)}", self.nv)
        return self.model is not None

    def get_model(self) -> list[int] | None:
        return self.model

    def accum_stats(self) -> dict:
        raise NotImplementedError("an external binary reports no statistics")

    def delete(self) -> None:
        self.model = None


def _tail(fh, limit: int) -> bytes:
    """What a binary wrote to the file ``fh``: all of it up to ``limit`` bytes (a model), else its end."""
    size = fh.seek(0, os.SEEK_END)
    fh.seek(max(0, size - limit))
    return fh.read(limit)


def new_solver(config: SolverConfig, clauses: list[list[int]], nv: int, proof: bool = False):
    """A solver holding ``clauses``: a PySAT solver configured as ``config`` says (with ``proof``,
    one that logs a DRUP proof), or a binary."""
    if config.engine == "cmd":
        return ExternalSolver(config.name, clauses, nv)
    solver = Solver(name=config.name, bootstrap_with=clauses, with_proof=proof) if proof else \
        Solver(name=config.name, bootstrap_with=clauses)
    if config.options:
        solver.configure(config.pysat_options())
    return solver
