"""What to run: a :class:`Job`, checked when made against the engine table
(:data:`satedge.jobs.engines.ENGINES`: what the engine does for the job's task), so that a job
made by a command, a spec, a test or a user's script is refused for the same reasons in the same
words."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..encode import DEFAULT_ENCODING, Encoding
from ..encode.maxsat import maxsat_encoding
from ..errors import SatedgeError
from ..puzzle.checker import board_problem
from ..puzzle.model import Puzzle, Solution
from ..puzzle.shuffle import check_seed
from ..puzzle.symmetry import MODES
from ..sat.certify import CHECKERS
from ..system.cluster import Batch
from ..system.files import shown
from ..system.process import Limits
from .config import SolverConfig
from .engines import ENGINES, TASKS, doing, prose, takers

__all__ = ["Job", "check_engine"]


@dataclass(frozen=True)
class Job:
    """What to run; checked when made (bad values raise :class:`SatedgeError`).

    Attributes
    ----------
    puzzle : Puzzle
        The puzzle.
    task : str
        ``solve`` (up to ``limit`` solutions, one per picture with the modes ``distinct``
        and ``unique``), ``count`` (each of ``modes``), ``encode`` (the formula's size
        and DIMACS bytes only), or ``maximize`` (the board with the most inner edges that fit;
        a formula engine takes a MaxSAT encoding, :mod:`satedge.encode.maxsat`)
    solver
        A :class:`satedge.jobs.config.SolverConfig` (or a string it reads): the engine, its
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
        A shuffle seed (:mod:`satedge.puzzle.shuffle`): every engine works on the puzzle with its
        tiles reordered and turned (a formula also renumbered and reordered) and gives its
        solutions in the original numbering
    scheduler
        The address of a Dask scheduler whose workers run the job's parts
    certify
        The proof checker (``dratify`` or ``drup``) that certifies an UNSAT answer or a
        count (:mod:`satedge.sat.certify`); ``proof``: a folder to write the checked formula,
        its proof and a manifest to, for checkers of your own
    progress
        Report what the search has done while it runs through the job's notes, about every
        second or two (the backtracker always reports its nodes; a SAT solver then solves in
        slices of conflicts to report its statistics).
    start
        To maximize: a board to start from (one that keeps the frame and the clues), for the
        engines whose task allows it (:attr:`satedge.jobs.engines.Task.resumes`): an interrupted
        or stopped anytime search goes on from its best board.
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
    start: Solution | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.puzzle, Puzzle):
            raise SatedgeError(f"a job's puzzle is a satedge.Puzzle, not {shown(self.puzzle)}")
        modes = (self.modes,) if isinstance(self.modes, str) else tuple(self.modes)
        object.__setattr__(self, "modes", modes)
        bad = [m for m in modes if m not in MODES]
        if bad or not modes or (self.task == "solve" and len(modes) != 1):
            raise SatedgeError(
                f"modes must be {'one' if self.task == 'solve' else 'some'} of "
                f"{', '.join(MODES)}, not {', '.join(map(shown, modes)) or 'none'}"
            )
        if self.limit is not None and (
            isinstance(self.limit, bool) or not isinstance(self.limit, int) or self.limit < 1
        ):
            raise SatedgeError(f"limit must be a positive integer, not {shown(self.limit)}")
        if not isinstance(self.limits, Limits):
            raise SatedgeError(f"limits must be satedge.Limits, not {shown(self.limits)}")
        solver, encoding = self.check_settings(
            self.task,
            self.solver,
            self.encoding,
            self.shuffle,
            self.scheduler,
            self.certify,
            modes,
            self.limit,
            self.proof,
        )
        self.check_timeout(self.task, solver, self.limits.timeout)
        if self.start is not None:
            self.check_start(solver)
        if self.certify is not None and self.task == "solve" and modes != ("solutions",):
            raise SatedgeError(
                "a certified answer is of every solution (mode solutions): distinct and unique are counts"
            )
        object.__setattr__(self, "solver", solver)
        batch = Batch.parse(self.scheduler)
        if batch is not None:  # its jobs' name fixed here, which the job's process and this one share
            object.__setattr__(self, "scheduler", str(batch))
        object.__setattr__(self, "encoding", encoding)

    def check_start(self, solver: SolverConfig) -> None:
        """That the job's engine starts from a board for its task, and that the board keeps the
        puzzle's hard rules."""
        own = ENGINES[solver.engine].tasks.get(self.task)
        if own is None or not own.resumes:
            raise SatedgeError(
                f"a board to start from applies to {prose(doing('maximize', 'resumes'))}, not to {solver.engine}"
            )
        problem = board_problem(self.puzzle, self.start)
        if problem is not None:
            raise SatedgeError(f"the board to start from is not a board of this puzzle: {problem}")

    @staticmethod
    def check_timeout(task: str, solver: SolverConfig, timeout: float | None) -> None:
        """That an engine which runs ``task`` until its time limit has one."""
        if ENGINES[solver.engine].tasks[task].timeout and timeout is None:
            raise SatedgeError(f"{solver.engine} runs until its time limit: give a timeout")

    @staticmethod
    def check_settings(
        task: str,
        solver: SolverConfig | str | None,
        encoding: Encoding | str | None = None,
        shuffle: int | None = None,
        scheduler: str | None = None,
        certify: str | None = None,
        modes: tuple[str, ...] = ("solutions",),
        limit: int | None = 1,
        proof: str | None = None,
    ) -> tuple[SolverConfig, Encoding | None]:
        """The rules about which settings go together, without a puzzle (a command checks them
        before it reads one): the solver and the encoding a job of ``task`` gets.  What the
        engine can do is the engine table's word (:func:`check_engine`)."""
        if certify is not None and certify not in CHECKERS:
            raise SatedgeError(f"unknown proof checker {shown(certify)}; choose from {', '.join(CHECKERS)}")
        if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
            raise SatedgeError("the Dask scheduler's address is empty: give one, e.g. tcp://10.0.0.1:8786")
        solver = check_engine(task, solver, encoding, modes, limit, scheduler, certify is not None)
        if solver.has_formula and task == "maximize":
            encoding = maxsat_encoding(encoding)
        elif solver.has_formula:
            encoding = Encoding.of(encoding if encoding is not None else DEFAULT_ENCODING)
        if shuffle is not None:
            check_seed(shuffle)
        if solver.get("strategy") is not None and solver.workers == 1 and scheduler is None:
            raise SatedgeError("a strategy applies with workers=N (N at least 2) or a Dask scheduler")
        if certify is not None and (scheduler is not None or solver.get("strategy") == "portfolio"):
            raise SatedgeError(
                "a certified answer uses this machine's workers (a proof checked in parts, or "
                "strategy=cubes): no Dask scheduler, no portfolio"
            )
        if proof is not None and certify is None:
            raise SatedgeError("a proof folder goes with a certified answer: name a checker")
        return solver, encoding

    @property
    def parallel(self) -> bool:
        """Whether the job's parts run on several processes (or a cluster)."""
        return self.solver.workers > 1 or self.scheduler is not None


def check_engine(
    task: str,
    solver: SolverConfig | str | None,
    encoding=None,
    modes: tuple[str, ...] = ("solutions",),
    limit: int | None = 1,
    scheduler: str | None = None,
    certify: bool = False,
) -> SolverConfig:
    """What the engine table says of a request: the engine ``solver`` names runs ``task``, and
    for it takes ``modes`` (with ``limit`` solutions; ``None``: every one), ``encoding``, its
    workers, ``scheduler``'s cluster and ``certify``, and is installed here.  Each refusal is
    one line that names the engine and what it cannot do.  Returns the solver's configuration."""
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
        raise SatedgeError(f"the {own.name} engine cannot {task}: it answers {prose(list(own.tasks))}")
    does = own.tasks[task]
    if task == "solve" and limit != 1 and not does.enumerates:
        raise SatedgeError(
            f"the {own.name} engine finds one solution: it cannot list several (--all, --limit)"
        )
    if task in ("solve", "count"):
        missing = [m for m in modes if m not in does.modes]
        if missing:
            raise SatedgeError(
                f"the {own.name} engine cannot answer mode {', '.join(missing)}: it answers "
                f"{prose(list(does.modes))}"
            )
    if solver.workers > 1 and not does.workers:
        raise SatedgeError(
            f"the {own.name} engine runs {task} on one process: workers=N applies there to "
            f"{takers('workers', task)}"
        )
    if scheduler is not None and not does.cluster:
        there = doing(task, "cluster")
        raise SatedgeError(
            f"a Dask scheduler applies to the engines whose parts run there ({', '.join(there)}), "
            f"not to {solver.engine}"
            if there
            else f"no engine runs {task} on a Dask cluster: a Dask scheduler applies to "
            f"{prose([t for t in TASKS if doing(t, 'cluster')])}"
        )
    if certify and not does.certifies:
        raise SatedgeError(
            f"a certified answer needs an engine that proves what it answers "
            f"({prose(doing(task, 'certifies'))}), not {solver}"
        )
    return solver
