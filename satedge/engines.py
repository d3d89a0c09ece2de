"""The engines: every way satedge answers a puzzle, declared once.

Each :class:`Engine` says its name, whether it solves a SAT formula (and so takes an encoding)
or the puzzle itself, the options its solver string takes, the extra that brings its library,
the tasks it runs, the job module that runs it, and a line about it.  The solver strings
(:class:`satedge.solvers.SolverConfig`), the job dispatch (:mod:`satedge.jobs.dispatch`),
``--method``, the cross-check, ``satedge solvers``, the help texts and the documentation all
read this table: a new engine is its module under :mod:`satedge.jobs` (a ``run(job, note)``),
one entry here, its tests and its docs.

>>> [e.name for e in ENGINES.values()]
['pysat', 'cmd', 'backtrack', 'cpsat', 'clasp']
>>> ENGINES["clasp"].formula, ENGINES["clasp"].extra, REFERENCE
(True, 'asp', 'backtrack')
"""

from __future__ import annotations

from dataclasses import dataclass

from .extras import available

__all__ = ["OPTIONS", "TASKS", "Engine", "ENGINES", "REFERENCE", "engine", "by_name", "takers", "installed"]

# the options a solver string may give an engine, beside a PySAT solver's own (see SolverConfig)
OPTIONS = ("workers", "strategy", "enumeration", "order")
# what an engine may be asked: a first solution, every solution (solve --all or --limit), a count
TASKS = ("solve", "enumerate", "count")


@dataclass(frozen=True)
class Engine:
    """One way to answer a puzzle.

    Attributes
    ----------
    name
        How solver strings name it: a PySAT solver goes by its own name (``cadical195``), a
        solver binary by ``cmd:COMMAND``, every other engine by this name.
    formula
        Whether it solves the SAT formula of an encoding; else it has a model of its own and
        takes no encoding.
    options
        Which of :data:`OPTIONS` its solver string takes.
    extra, module
        The extra (``pip install 'satedge[EXTRA]'``) that brings the library it needs, and that
        library's module; ``None``: the core has it.
    tasks
        Which of :data:`TASKS` it runs.
    run
        Its module under :mod:`satedge.jobs`, whose ``run(job, note)`` runs a job.
    cluster
        Whether its parts run on a Dask cluster.
    certify
        Whether it gives certified answers (a checked proof of a formula).
    called
        What prose calls it (``PySAT solvers``, ``solver binaries``, ``backtrack``).
    summary
        What it is, in one line.
    """

    name: str
    formula: bool
    options: tuple[str, ...]
    extra: str | None
    module: str | None
    tasks: tuple[str, ...]
    run: str
    cluster: bool
    certify: bool
    called: str
    summary: str


ENGINES: dict[str, Engine] = {e.name: e for e in (
    Engine("pysat", True, ("workers", "strategy", "enumeration"), None, None, TASKS, "sat", True, True, "PySAT solvers",
           "a PySAT solver by its name (cadical195, minisat22, ...; `satedge solvers` lists those that work "
           "here), enumerating with blocking clauses"),
    Engine("cmd", True, ("workers", "strategy", "enumeration"), None, None, TASKS, "sat", True, True, "solver binaries",
           "a DIMACS solver binary, cmd:COMMAND (cmd:'cadical -q'), run afresh on the formula and its blocking "
           "clauses for each model"),
    Engine("backtrack", False, ("workers", "order"), None, None, TASKS, "backtrack", True, False, "backtrack",
           "the reference backtracker on the puzzle itself, compiled with numba, on every core"),
    Engine("cpsat", False, ("workers",), "cp", "ortools", TASKS, "cpsat", False, False, "cpsat",
           "the CP-SAT model of the puzzle (OR-Tools), with its own search workers"),
    Engine("clasp", True, ("enumeration",), "asp", "clingo", TASKS, "clasp", False, False, "clasp",
           "clasp (clingo) on the formula: every model enumerated natively, projected on the decision "
           "variables, with no blocking clause"),
)}

REFERENCE = "backtrack"  # the engine every other is cross-checked against, and --method's other choice


def engine(name: str) -> Engine:
    """The engine named ``name`` (a key of :data:`ENGINES`)."""
    return ENGINES[name]


def by_name(text: str) -> Engine | None:
    """The engine a solver string's first word names by itself (``backtrack``, ``cpsat``,
    ``clasp``), or ``None`` (a PySAT solver's name, or ``cmd``, which takes a command)."""
    found = ENGINES.get(text)
    return found if found is not None and found.name not in ("pysat", "cmd") else None


def takers(option: str) -> str:
    """The engines that take ``option`` (one of :data:`OPTIONS`), as prose calls them.

    >>> takers("order"), takers("strategy")
    ('backtrack', 'PySAT solvers and solver binaries')
    """
    names = [e.called for e in ENGINES.values() if option in e.options]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def installed(e: Engine) -> bool:
    """Whether the library ``e`` needs can be imported here."""
    return e.module is None or available(e.module)
