"""The values of the job API: a :class:`Job` says what to run, a :class:`Result` what it found.

Both are checked or filled in one place, so that a job made by a command, a spec, a test or a
user's script is refused for the same reasons in the same words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..encode import DEFAULT_ENCODING, Encoding
from ..engines import ENGINES
from ..errors import SatedgeError
from ..files import shown
from ..process import Limits, Outcome
from ..puzzle import Puzzle, Solution
from ..shuffle import check_seed
from ..certify import CHECKERS
from ..solvers import SolverConfig
from ..solving import Stats
from ..symmetry import MODES

__all__ = ["TASKS", "Note", "Job", "Result"]

TASKS = ("solve", "count", "encode")
Note = Callable[[dict], None]  # what a job reports before it ends: a formula's size


@dataclass(frozen=True)
class Job:
    """What to run; checked when made (bad values raise :class:`SatedgeError`).

    Attributes
    ----------
    puzzle : Puzzle
        The puzzle.
    task : str
        ``solve`` (up to ``limit`` solutions, one per picture with the modes ``distinct``
        and ``unique``), ``count`` (each of ``modes``), or ``encode`` (the formula's size
        and DIMACS bytes only)
    solver
        A :class:`satedge.solvers.SolverConfig` (or a string it reads): the engine, its
        workers and strategy; default CaDiCaL 1.9.5
    encoding
        An :class:`satedge.encode.Encoding` (or a string it reads) for the engines that
        solve a formula; default :data:`satedge.encode.DEFAULT_ENCODING`; the engines with a
        model of their own (``backtrack``, ``cpsat``) take none
    modes
        What ``count`` counts, or with ``solve`` the mode of the solutions (one of
        ``solutions``, ``distinct``, ``unique``); ``limit``: at most this many solutions
    limits
        The time limit and memory cap of the job's whole process tree
    shuffle
        A shuffle seed (:mod:`satedge.shuffle`): every engine works on the puzzle with its
        tiles reordered and turned (a formula also renumbered and reordered) and gives its
        solutions in the original numbering
    scheduler
        The address of a Dask scheduler whose workers run the job's parts
    certify
        The proof checker (``dratify`` or ``drup``) that certifies an UNSAT answer or a
        count (:mod:`satedge.certify`); ``proof``: a folder to write the checked formula,
        its proof and a manifest to, for checkers of your own
    progress
        Report what the search has done while it runs through the job's notes, about every
        second or two (the backtracker always reports its nodes; a SAT solver then solves in
        slices of conflicts to report its statistics).
    """

    puzzle: Puzzle
    task: str = "solve"
    solver: SolverConfig = SolverConfig()
    encoding: Encoding | None = None
    modes: tuple[str, ...] = ("solutions",)
    limit: int | None = None
    limits: Limits = Limits()
    shuffle: int | None = None
    scheduler: str | None = None
    certify: str | None = None
    proof: str | None = field(default=None, compare=False)
    progress: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.puzzle, Puzzle):
            raise SatedgeError(f"a job's puzzle is a satedge.Puzzle, not {shown(self.puzzle)}")
        modes = (self.modes,) if isinstance(self.modes, str) else tuple(self.modes)
        object.__setattr__(self, "modes", modes)
        bad = [m for m in modes if m not in MODES]
        if bad or not modes or (self.task == "solve" and len(modes) != 1):
            raise SatedgeError(f"modes must be {'one' if self.task == 'solve' else 'some'} of "
                               f"{', '.join(MODES)}, not {', '.join(map(shown, modes)) or 'none'}")
        if self.limit is not None and (isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 1):
            raise SatedgeError(f"limit must be a positive integer, not {shown(self.limit)}")
        if not isinstance(self.limits, Limits):
            raise SatedgeError(f"limits must be satedge.process.Limits, not {shown(self.limits)}")
        solver, encoding = self.check_settings(self.task, self.solver, self.encoding, self.shuffle, self.scheduler,
                                               self.certify)
        if self.certify is not None and self.task == "solve" and modes != ("solutions",):
            raise SatedgeError("a certified answer is of every solution (mode solutions): distinct and unique are counts")
        if self.proof is not None and self.certify is None:
            raise SatedgeError("a proof folder goes with a certified answer: name a checker")
        object.__setattr__(self, "solver", solver)
        object.__setattr__(self, "encoding", encoding)

    @staticmethod
    def check_settings(task: str, solver: SolverConfig | str | None, encoding: Encoding | str | None = None,
                       shuffle: int | None = None, scheduler: str | None = None,
                       certify: str | None = None) -> tuple[SolverConfig, Encoding | None]:
        """The rules about which settings go together, without a puzzle (a command checks them
        before it reads one): the solver and the encoding a job of ``task`` gets."""
        if task not in TASKS:
            raise SatedgeError(f"unknown task {shown(task)}; choose from {', '.join(TASKS)}")
        solver = SolverConfig.of(solver)
        if solver.has_formula:
            encoding = Encoding.of(encoding if encoding is not None else DEFAULT_ENCODING)
        elif encoding is not None:
            raise SatedgeError(f"{solver.engine} has its own model: it takes no encoding ({shown(str(encoding))})")
        if task == "encode" and not solver.has_formula:
            raise SatedgeError(f"{solver.engine} has its own model: there is no formula to encode")
        solver.check_installed()
        if shuffle is not None:
            check_seed(shuffle)
        if scheduler is not None:
            if not isinstance(scheduler, str) or not scheduler.strip():
                raise SatedgeError("the Dask scheduler's address is empty: give one, e.g. tcp://10.0.0.1:8786")
            if not ENGINES[solver.engine].cluster:
                raise SatedgeError(f"a Dask scheduler applies to the engines whose parts run there "
                                   f"({', '.join(e.called for e in ENGINES.values() if e.cluster)}), not to {solver.engine}")
        if solver.strategy is not None and solver.workers == 1 and scheduler is None:
            raise SatedgeError("a strategy applies with workers=N (N at least 2) or a Dask scheduler")
        if certify is not None:
            if certify not in CHECKERS:
                raise SatedgeError(f"unknown proof checker {shown(certify)}; choose from {', '.join(CHECKERS)}")
            if task == "encode" or not ENGINES[solver.engine].certify:
                raise SatedgeError(f"a certified answer needs an engine that proves what it answers "
                                   f"({' and '.join(e.called for e in ENGINES.values() if e.certify)}), not {solver}")
            if scheduler is not None or solver.strategy == "portfolio":
                raise SatedgeError("a certified answer uses this machine's workers (a proof checked in parts, or "
                                   "strategy=cubes): no Dask scheduler, no portfolio")
        return solver, encoding

    @property
    def parallel(self) -> bool:
        """Whether the job's parts run on several processes (or a cluster)."""
        return self.solver.workers > 1 or self.scheduler is not None


@dataclass
class Result:
    """What a job found and what it cost.

    Attributes
    ----------
    status : str
        ``SAT``, ``UNSAT``, ``ENCODED`` (task ``encode``), ``TIMEOUT``, ``MEMOUT`` or ``ERROR``;
        :meth:`raise_error` turns the last two into exceptions, for callers who want them.
    solutions : list of Solution
        What task ``solve`` found.
    counts : dict
        Task ``count``: the counts of the job's modes, and for a formula ``models``, its own
        model count.
    orbit : int
        How many solutions each of ``solutions`` stands for (its board-turn orbit, with
        symmetry breaking).
    variables, clauses, literals, dimacs_bytes : int or None
        The formula's size, known once it is encoded, even when the job is stopped later.
    encode_seconds, write_seconds, solve_seconds : float
        Seconds spent encoding, writing and solving.
    stats : dict or None
        The solver's statistics (conflicts, decisions, propagations, restarts).
    wall_seconds, cpu_seconds, peak_memory_mb : float or None
        What the whole job cost.
    nodes, candidates : int or None
        The backtracker's search tree: placements made and candidates looked at.
    certificate : dict or None
        What certifies the answer (:meth:`satedge.certify.Certificate.as_dict`).
    parallel : dict or None
        How several workers shared the job (the strategy, the winning portfolio member, the
        cubes and the seconds each took).
    outcome : str or None
        How its process ended.
    stage : str or None
        What a stopped job was doing when it was stopped, when it said (``certifying (a proof by
        cadical195, checked by drup)``).
    """

    status: str
    solutions: list[Solution] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    variables: int | None = None
    clauses: int | None = None
    literals: int | None = None
    dimacs_bytes: int | None = None
    encode_seconds: float | None = None
    write_seconds: float | None = None
    solve_seconds: float | None = None
    stats: Stats = field(default_factory=Stats)
    nodes: int | None = None
    candidates: int | None = None
    certificate: dict | None = None
    orbit: int = 1
    wall_seconds: float | None = None
    cpu_seconds: float | None = None
    peak_memory_mb: float | None = None
    outcome: Outcome | None = None
    parallel: dict = field(default_factory=dict)
    stage: str | None = None

    def __repr__(self) -> str:
        """Short: the status, what was found and what it cost."""
        found = [f"{len(self.solutions)} solutions"] if self.solutions else []
        found += [f"counts {self.counts}"] if self.counts else []
        found += [f"{self.variables:,} variables, {self.clauses:,} clauses"] if self.variables and self.clauses else []
        found += [f"{self.wall_seconds:.3f} s"] if self.wall_seconds is not None else []
        found += [f"error {self.error!r}"] if self.error else []
        return f"Result({self.status!r}" + "".join(", " + f for f in found) + ")"

    @property
    def error(self) -> str | None:
        return self.outcome.error if self.outcome is not None and self.status in ("MEMOUT", "ERROR") else None

    def raise_error(self, what: str = "solving") -> "Result":
        """This result, unless it is ``MEMOUT`` (:class:`satedge.errors.OutOfMemory`, "``what``
        needs more than N MB of memory") or ``ERROR`` (:meth:`satedge.process.Outcome.unwrap`:
        bad input a :class:`SatedgeError`, a solution the checker rejects an
        :class:`satedge.errors.EncodingError`, any other failure a :class:`RuntimeError` with its
        traceback)."""
        if self.status in ("MEMOUT", "ERROR"):
            self.outcome.unwrap(what)
        return self
