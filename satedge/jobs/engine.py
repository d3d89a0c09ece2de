"""What an engine declares, once, in its own module: an :class:`Engine`, its :class:`Task` for each
task it runs, the :class:`Option` values its solver strings and flags take, and its preference
for ``--method auto`` (:class:`Auto`).

satedge's engines are the modules of :mod:`satedge.engines`, each with an ``ENGINE``; yours is a
module of your own or an installed package's entry point (:mod:`satedge.jobs.registry`).  Every
other part of satedge reads the declarations: a job's checks (:class:`satedge.jobs.job.Job`),
the dispatch (:func:`satedge.jobs.dispatch.execute`), each command's ``--method`` and flags,
solver strings (:class:`satedge.jobs.solver.SolverConfig`), the cross-check, ``satedge
solvers``, the help texts and the documentation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import SatedgeError
from ..puzzle.model import Puzzle
from ..puzzle.symmetry import MODES
from ..system.extras import Need
from ..system.files import quoted

__all__ = ["TASKS", "Option", "Auto", "Task", "Engine", "whole", "prose"]

# what a job may be: a first solution or several (solve), counts, a formula's size (encode), or
# the board with the most inner edges that fit (maximize)
TASKS = ("solve", "count", "encode", "maximize")


@dataclass(frozen=True, kw_only=True)
class Option:
    """A setting an engine declares: its solver strings take it as ``NAME=VALUE``
    (:class:`satedge.jobs.solver.SolverConfig`), the commands whose tasks it runs as ``--NAME``,
    Python as a keyword (:meth:`satedge.jobs.job.Job.make`) and specs in their solver strings.

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
            if self.convert is None:
                raise ValueError(given)
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


def whole(value: Any) -> int:
    """A positive whole number of things (placements, tries), from 1 to 10^15, or its digits;
    a :class:`ValueError` for anything else (an :attr:`Option.convert`).

    >>> whole("1000000000000000"), whole(7)
    (1000000000000000, 7)
    """
    if isinstance(value, str) and value.isdigit() and len(value) <= 16:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**15:
        raise ValueError(value)
    return value


@dataclass(frozen=True, kw_only=True)
class Auto:
    """An engine's preference for ``--method auto`` on one task.

    Attributes
    ----------
    rank
        Where it stands among the engines that would take a puzzle: the lowest rank that picks
        it is chosen.
    picks
        ``picks(puzzle, timeout)``: the workers it runs the puzzle on when picked, ``None`` where
        it does not take it (a puzzle beyond its speed, a board it is not for, no time limit for
        an engine that needs one).
    when
        Where it is picked, in words, for the help of ``--method`` (``the backtracker, compiled,
        on every core``).
    """

    rank: int
    picks: Callable[[Puzzle, float | None], int | None]
    when: str


@dataclass(frozen=True, kw_only=True)
class Task:
    """What an engine does for one task: its job function and what the task allows.

    Attributes
    ----------
    run
        The job function, ``run(job, note) -> Result`` (:class:`satedge.jobs.job.Job`,
        :class:`satedge.jobs.result.Result`; ``note``, where given, takes what the job reports
        before it ends).
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
    auto
        Its preference for ``--method auto`` on this task (:class:`Auto`); ``None``: never picked.
    """

    run: Callable[..., Any]
    workers: bool = False
    every_core: bool = False
    cluster: bool = False
    timeout: bool = False
    modes: tuple[str, ...] = MODES
    enumerates: bool = True
    certifies: bool = False
    resumes: bool = False
    summary: str = ""
    auto: Auto | None = None


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
        Whether ``--method`` names it, beside ``auto`` and ``sat``.
    named
        Whether a solver string names it by its name alone (``backtrack``, ``cpsat``); the
        engines whose solvers have names of their own (a PySAT solver's, ``cmd:COMMAND``, a
        MaxSAT solver's) are not.
    needs
        What it needs beyond the core (a Python module and its extra, or a program); ``None``:
        nothing.
    outside
        Whether its answers come from a program outside satedge whose "no" (UNSAT, an optimum)
        is its word alone: such an answer is flagged unless a certificate checks it
        (:attr:`satedge.jobs.result.Result.checked`).
    source
        Where it is declared: a module of :mod:`satedge.engines`, or one of yours (its module
        and name, or its entry point).
    """

    name: str
    summary: str
    tasks: Mapping[str, Task]
    called: str | None = None
    solves_formula: bool = False
    options: tuple[Option, ...] = ()
    method: bool = False
    named: bool = True
    needs: Need | None = None
    outside: bool = False
    source: str = ""

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
    def prose(self) -> str:
        """What prose calls it."""
        return self.called or self.name

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

    def check_installed(self) -> None:
        """That what it needs is here; else the one-line error that names the extra or the
        program."""
        if self.needs is not None:
            self.needs.check(f"the {self.name} engine")


def prose(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> prose(["a", "b", "c"]), prose([])
    ('a, b and c', 'none')
    """
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0] if names else "none"
