"""SAT solvers by name: PySAT's solvers (CaDiCaL with options) and DIMACS solver binaries.

A solver name is

* a PySAT solver that works here (:func:`solver_names`), CaDiCaL's with options after a colon:
  its named configurations ``sat`` and ``unsat`` and ``seed=N`` (``cadical195:sat,seed=2``);
* ``cmd:COMMAND``: a DIMACS solver binary, run on the formula written to a file (exit 10 SAT with
  ``v`` lines, 20 UNSAT), killed with the process that started it (:func:`satedge.proctree.popen`).
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from functools import cache

from pysat.solvers import Solver, SolverNames

from .dimacs import parse_model, write_plain
from .errors import SatedgeError
from .proctree import popen, scratch

DEFAULT_SOLVER = "cadical195"
NON_INCREMENTAL = {"kissat404"}  # PySAT solvers that enumerate by solving again
# CaDiCaL's own named configurations (its --sat and --unsat options, src/config.cpp)
CADICAL_CONFIGS = {
    "sat": {"elimreleff": 10, "stabilizeonly": 1, "subsumereleff": 60},
    "unsat": {"stabilize": 0, "walk": 0},
}
CONFIGURABLE = ("cadical153", "cadical195", "cadical300")
KNOWN_BINARIES = ("cadical", "kissat", "minisat", "glucose", "glucose-syrup", "cryptominisat5", "lingeling",
                  "plingeling", "picosat", "clasp", "varisat", "mergesat")
# a probe: (x1 or x2), (not x1 or x2), (not x2 or x3), incremental: then (not x3 or x1)
_PROBE = [[1, 2], [-1, 2], [-2, 3]]


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


def solver_names() -> list[str]:
    """Every PySAT solver that works here, by its main name."""
    names = sorted(k for k, v in vars(SolverNames).items() if not k.startswith("_") and isinstance(v, tuple))
    return [n for n in names if _pysat_works(n)]


def solver_options(name: str) -> tuple[str, dict[str, int]]:
    """Split ``NAME:ITEM,ITEM`` into the PySAT solver name and the options to set.  An item is one
    of CaDiCaL's configurations (``sat``, ``unsat``) or ``seed=N``; only CaDiCaL takes them.

    >>> solver_options("cadical195:sat,seed=2")
    ('cadical195', {'elimreleff': 10, 'stabilizeonly': 1, 'subsumereleff': 60, 'seed': 2})
    >>> solver_options("kissat404")
    ('kissat404', {})
    """
    base, colon, rest = name.partition(":")
    if not colon:
        return name, {}
    if base not in CONFIGURABLE:
        raise SatedgeError(f"solver {base!r} takes no options; only {', '.join(CONFIGURABLE)} do")
    options: dict[str, int] = {}
    for item in rest.split(","):
        key, eq, value = item.partition("=")
        if not eq and key in CADICAL_CONFIGS:
            options.update(CADICAL_CONFIGS[key])
        elif eq and key == "seed" and value.isdigit() and len(value) <= 9:
            options["seed"] = int(value)
        else:
            raise SatedgeError(f"solver option {item!r} of {name!r}: use {', '.join(CADICAL_CONFIGS)} or seed=N")
    return base, options


def command_words(command: str) -> list[str]:
    """The words of a solver command line; one that does not parse or names no program on PATH
    is bad input."""
    try:
        words = shlex.split(command)
    except ValueError as e:
        raise SatedgeError(f"solver command {command!r}: {e}") from None
    if not words or shutil.which(words[0]) is None:
        raise SatedgeError(f"solver command {command!r} not found on PATH")
    return words


def check_solver(name: str) -> str:
    """``name`` when it is a PySAT solver that works here (CaDiCaL's with options) or
    ``cmd:COMMAND`` for a binary on PATH; else a one-line error listing the choices."""
    if name.startswith("cmd:"):
        command_words(name[4:])
        return name
    base, _ = solver_options(name)
    if base not in solver_names():
        raise SatedgeError(f"unknown solver {base!r}; choose from {', '.join(solver_names())}, cpsat, "
                           "or cmd:COMMAND")
    return name


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
    formula to a temporary file and runs the command on it; exit 10 SAT, 20 UNSAT)."""

    def __init__(self, command: str, bootstrap_with: list[list[int]], nv: int):
        self.command = command_words(command)
        self.clauses = bootstrap_with
        self.nv = nv  # the formula's variables; blocking clauses use no others
        self.model: list[int] | None = None

    def solve(self) -> bool:
        with scratch() as folder:
            cnf = folder / "formula.cnf"
            with open(cnf, "w") as fh:
                write_plain(self.clauses, self.nv, fh)
            proc = popen(self.command + [str(cnf)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            try:
                out, err = proc.communicate()
            finally:
                proc.kill()
                proc.wait()
        if proc.returncode == 20:
            return False
        if proc.returncode != 10:
            raise SatedgeError(f"solver command {' '.join(self.command)!r} exited with {proc.returncode}: "
                               f"{(err or out).strip().splitlines()[-1:] or ['no output']}")
        self.model = parse_model(out, self.command[0], self.nv)
        return self.model is not None

    def get_model(self) -> list[int] | None:
        return self.model

    def accum_stats(self) -> dict:
        raise NotImplementedError("an external binary reports no statistics")

    def delete(self) -> None:
        self.model = None


def new_solver(name: str, clauses: list[list[int]], nv: int):
    """A solver holding ``clauses``: a PySAT solver configured as ``name`` says, or a binary."""
    if name.startswith("cmd:"):
        return ExternalSolver(name[4:], clauses, nv)
    base, options = solver_options(name)
    solver = Solver(name=base, bootstrap_with=clauses)
    if options:
        solver.configure(options)
    return solver
