"""What to run: a :class:`Job`, the one value a command, a spec, a test or a script makes, checked
once when made against its engine's declaration (:mod:`satedge.jobs.registry`), so that it is
refused for the same reasons in the same words wherever it was made.

A job made before its puzzle is known (``puzzle=None``: a command's options, checked before any
puzzle is read) gives each puzzle's job with :meth:`Job.of`; there ``--method auto`` picks the
engine for the puzzle (:func:`choose`, from the engines' preferences).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..encode import DEFAULT_ENCODING, Encoding
from ..encode.maxsat import maxsat_encoding
from ..errors import SatedgeError
from ..puzzle.checker import board_problem
from ..puzzle.model import Puzzle, Solution
from ..puzzle.shuffle import check_seed, shuffle
from ..puzzle.symmetry import DEFAULT_MODES, MODES
from ..sat.certify import CHECKERS
from ..sat.proofdir import PROOF_FILES
from ..system.cluster import Batch
from ..system.files import check_folder, shown
from ..system.limits import cores
from ..system.process import Limits, default_memory_mb
from .engine import TASKS, prose
from .registry import REFERENCE, declared, doing, engines, methods, option_names, takers
from .solver import AUTO, SolverConfig

__all__ = ["Job", "choose", "policy"]

# the fields of a job that Job.make passes on as they are
_FIELDS = ("modes", "limit", "shuffle", "scheduler", "certify", "proof", "progress", "start")


@dataclass(frozen=True)
class Job:
    """What to run; checked when made (bad values raise :class:`SatedgeError`).

    Attributes
    ----------
    puzzle : Puzzle or None
        The puzzle; ``None``: a job for every puzzle, each one's made by :meth:`of`.
    task : str
        ``solve`` (up to ``limit`` solutions, one per picture with the modes ``distinct``
        and ``unique``), ``count`` (each of ``modes``), ``encode`` (the formula's size
        and DIMACS bytes only), or ``maximize`` (the board with the most inner edges that fit;
        a formula engine takes a MaxSAT encoding, :mod:`satedge.encode.maxsat`)
    solver
        A :class:`satedge.jobs.solver.SolverConfig` (or a string it reads): the engine, its
        workers and options; default CaDiCaL 1.9.5 in its ``sat`` configuration.  :meth:`make` gives ``--method auto``'s
        choice, made for each puzzle.
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
        engines whose task allows it (:attr:`satedge.jobs.engine.Task.resumes`): an interrupted
        or stopped anytime search goes on from its best board.
    """

    puzzle: Puzzle | None = None
    task: str = "solve"
    solver: SolverConfig = field(default_factory=SolverConfig)
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
        if self.puzzle is not None and not isinstance(self.puzzle, Puzzle):
            raise SatedgeError(f"a job's puzzle is a satedge.Puzzle, not {shown(self.puzzle)}")
        if self.task not in TASKS:
            raise SatedgeError(f"unknown task {shown(self.task)}; choose from {', '.join(TASKS)}")
        modes = (self.modes,) if isinstance(self.modes, str) else tuple(self.modes)
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
        if self.certify is not None and self.certify not in CHECKERS:
            raise SatedgeError(
                f"unknown proof checker {shown(self.certify)}; choose from {', '.join(CHECKERS)}"
            )
        if self.scheduler is not None and (not isinstance(self.scheduler, str) or not self.scheduler.strip()):
            raise SatedgeError("the Dask scheduler's address is empty: give one, e.g. tcp://10.0.0.1:8786")
        if self.shuffle is not None:
            check_seed(self.shuffle)
        if self.proof is not None and self.certify is None:
            raise SatedgeError("a proof folder goes with a certified answer: name a checker")
        if self.certify is not None and self.task == "solve" and modes != ("solutions",):
            raise SatedgeError(
                "a certified answer is of every solution (mode solutions): distinct and unique are counts"
            )
        solver = SolverConfig.of(self.solver)
        if solver.engine == AUTO and self.puzzle is not None:  # the engine auto picks for the puzzle
            solver = choose(self.puzzle, self.task, solver.workers or None, self.limits.timeout)
        object.__setattr__(self, "modes", modes)
        object.__setattr__(self, "solver", solver)
        # of auto's job before its puzzle: what it picks where it can, with the workers it gives it
        checked = SolverConfig(engine=REFERENCE) if solver.engine == AUTO else solver
        self._check_engine(checked)
        if solver.has_formula:
            chosen = self.encoding if self.encoding is not None else None
            encoding = (
                maxsat_encoding(chosen)
                if self.task == "maximize"
                else Encoding.of(chosen or DEFAULT_ENCODING)
            )
            object.__setattr__(self, "encoding", encoding)
        if solver.engine != AUTO and solver.declared.tasks[self.task].timeout and self.limits.timeout is None:
            raise SatedgeError(f"{solver.engine} runs until its time limit: give a timeout")
        if self.start is not None:
            self._check_start()
        batch = Batch.parse(self.scheduler)
        if batch is not None:  # its jobs' name fixed here, which the job's process and this one share
            object.__setattr__(self, "scheduler", str(batch))

    def _check_engine(self, solver: SolverConfig) -> None:
        """What the engine's declaration says of the job: it runs the task, and for it takes the
        modes (with the limit of solutions), the encoding, its workers, a Dask cluster and a
        certificate, and is installed here.  Each refusal is one line that names the engine and
        what it cannot do."""
        own = solver.declared
        if not own.solves_formula:
            if self.encoding is not None:
                raise _own_model(solver, self.encoding)
            if self.task == "encode":
                raise SatedgeError(f"{solver.engine} has its own model: there is no formula to encode")
        solver.check_installed()
        if self.task not in own.tasks:
            raise SatedgeError(
                f"the {own.name} engine cannot {self.task}: it answers {prose(list(own.tasks))}"
            )
        does = own.tasks[self.task]
        if self.task == "solve" and self.limit != 1 and not does.enumerates:
            raise SatedgeError(
                f"the {own.name} engine finds one solution: it cannot list several (--all, --limit)"
            )
        if self.task in ("solve", "count"):
            missing = [m for m in self.modes if m not in does.modes]
            if missing:
                raise SatedgeError(
                    f"the {own.name} engine cannot answer mode {', '.join(missing)}: it answers "
                    f"{prose(list(does.modes))}"
                )
        if solver.workers > 1 and not does.workers:
            raise SatedgeError(
                f"the {own.name} engine runs {self.task} on one process: workers=N applies there to "
                f"{takers('workers', self.task)}"
            )
        if self.scheduler is not None and not does.cluster:
            there = doing(self.task, "cluster")
            raise SatedgeError(
                f"a Dask scheduler applies to the engines whose parts run there ({', '.join(there)}), "
                f"not to {solver.engine}"
                if there
                else f"no engine runs {self.task} on a Dask cluster: a Dask scheduler applies to "
                f"{prose([t for t in TASKS if doing(t, 'cluster')])}"
            )
        if self.certify is not None and not does.certifies:
            raise SatedgeError(
                f"a certified answer needs an engine that proves what it answers "
                f"({prose(doing(self.task, 'certifies'))}), not {solver}"
            )
        if solver.get("strategy") is not None and solver.workers == 1 and self.scheduler is None:
            raise SatedgeError("a strategy applies with workers=N (N at least 2) or a Dask scheduler")
        if solver.get("cubes") is not None and solver.get("strategy") == "portfolio":
            raise SatedgeError("cubes= applies to cube-and-conquer (the cubes strategy), not to a portfolio")
        if self.certify is not None and (self.scheduler is not None or solver.get("strategy") == "portfolio"):
            raise SatedgeError(
                "a certified answer uses this machine's workers (a proof checked in parts, or "
                "strategy=cubes): no Dask scheduler, no portfolio"
            )

    def _check_start(self) -> None:
        """That the job's engine starts from a board for its task, and that the board keeps the
        puzzle's hard rules."""
        own = None if self.solver.engine == AUTO else self.solver.declared.tasks.get(self.task)
        if own is None or not own.resumes:
            raise SatedgeError(
                f"a board to start from applies to {prose(doing('maximize', 'resumes'))}, not to {self.solver.engine}"
            )
        if self.puzzle is not None and self.start is not None:
            problem = board_problem(self.puzzle, self.start)
            if problem is not None:
                raise SatedgeError(f"the board to start from is not a board of this puzzle: {problem}")

    @classmethod
    def make(
        cls,
        puzzle: Puzzle | None = None,
        task: str = "solve",
        *,
        method: str = "auto",
        solver: SolverConfig | str | None = None,
        encoding: Encoding | str | None = None,
        workers: int | None = None,
        timeout: float | None = None,
        memory_mb: float | None = None,
        **given: Any,
    ) -> Job:
        """The job a command makes of these settings, with the command's defaults (``puzzle``
        ``None``: for every puzzle, :meth:`of`).

        ``method``: ``auto`` (the default), ``sat``, or an engine ``--method`` names for the task
        (:func:`satedge.jobs.registry.methods`); with ``auto``, the SAT method when a ``solver``,
        an ``encoding`` or ``certify`` is named, else the first engine that takes every option
        given (the SAT method for a formula engine's, the backtracker for an ``order``, the
        restarts for a ``schedule``), and else the engine chosen for each puzzle (:func:`choose`).
        ``workers``: processes (default: the method's; auto's choice, or every core for the
        engines that run on every core).  ``timeout`` and ``memory_mb``: the job's limits (default
        no time limit and 80% of the memory available now).  ``given``: any other field of a
        job (``modes``, ``limit``, ``shuffle``, ``scheduler``, ``certify``, ``proof``,
        ``progress``, ``start``; ``modes`` of a count, by default all three) and the options the
        engines declare (:func:`satedge.jobs.registry.declared`: ``strategy``, ``order``,
        ``schedule``, ...), ``None`` where not given (a ``limit`` of ``None``: every solution)."""
        choices = methods(task) if task in TASKS else methods("solve")
        if method not in choices:
            raise SatedgeError(f"method is one of {', '.join(choices)}, not {shown(method)}")
        options = declared()
        unknown = [k for k in given if k not in options and k not in _FIELDS]
        if unknown:
            raise SatedgeError(
                f"unknown setting {shown(unknown[0])}; a job takes {', '.join(_FIELDS)} and the engines "
                f"take {', '.join(option_names())}"
            )
        settings = {k: v for k, v in given.items() if k in options and v is not None}
        fields = {k: v for k, v in given.items() if k in _FIELDS and v is not None}
        if method == "auto":
            if any(v is not None for v in (solver, encoding, fields.get("certify"))):
                method = "sat"
            elif settings:  # the options given name the first engine that takes them all
                takes = [
                    e
                    for e in engines().values()
                    if task in e.tasks and all(k in e.settings for k in settings)
                ]
                named = ["sat" if e.solves_formula else e.name for e in takes if e.solves_formula or e.method]
                method = named[0] if named else method
        if method == "auto":
            config = SolverConfig(engine=AUTO, workers=workers or 0)
        elif method == "sat" or isinstance(solver, SolverConfig):
            config = SolverConfig.of(solver).with_settings(workers=workers or None, **settings)
        else:
            does = engines()[method].tasks.get(task)
            config = SolverConfig(
                engine=method,
                name=solver,
                workers=workers or (cores() if does is not None and does.every_core else 1),
                settings=settings,
            )
        if fields.get("proof") is not None:
            check_folder(fields["proof"], "--proof", PROOF_FILES, "a certificate")
        limits = Limits(timeout=timeout, memory_mb=default_memory_mb() if memory_mb is None else memory_mb)
        if task == "count":
            fields.setdefault("modes", DEFAULT_MODES)
        return cls(
            puzzle,
            task,
            config,
            Encoding.of(encoding) if encoding is not None else None,
            limits=limits,
            **fields,
        )

    def of(self, puzzle: Puzzle, timeout: float | None = None, **changes: Any) -> Job:
        """This job for ``puzzle`` (the engine chosen for it where auto chooses one); ``timeout``:
        less time than the job's; ``changes``: other fields (``progress``, ``start``, ...)."""
        limits = self.limits if timeout is None else replace(self.limits, timeout=timeout)
        return replace(self, puzzle=puzzle, limits=limits, **changes)

    @property
    def reporting(self) -> bool:
        """Whether the job notes its progress as it goes: where asked (``progress``), and always of
        a count, so that a count stopped at its time limit keeps what it had counted
        (:attr:`satedge.jobs.result.Result.at_least`)."""
        return self.progress or self.task == "count"

    @property
    def parallel(self) -> bool:
        """Whether the job's parts run on several processes (or a cluster)."""
        return self.solver.workers > 1 or self.scheduler is not None

    @property
    def board(self) -> Puzzle:
        """The job's puzzle (a job for every puzzle has none to run)."""
        if self.puzzle is None:
            raise SatedgeError("a job for every puzzle runs none: give it one, Job.of(puzzle)")
        return self.puzzle

    def shuffled(self) -> tuple[Puzzle, Any]:
        """The puzzle an engine without a formula works on (under the job's shuffle), and the
        map of its solutions back to the job's numbering."""
        if self.shuffle is None:
            return self.board, lambda s: s
        moved, sh = shuffle(self.board, self.shuffle)
        return moved, sh.to_original

    def start_board(self) -> Solution | None:
        """The board to start from in the numbering of :meth:`shuffled`'s puzzle."""
        if self.start is None or self.shuffle is None:
            return self.start
        return shuffle(self.board, self.shuffle)[1].to_shuffled(self.start)


def _own_model(solver: SolverConfig, encoding: Encoding | str) -> SatedgeError:
    return SatedgeError(f"{solver.engine} has its own model: it takes no encoding ({shown(str(encoding))})")


def choose(
    puzzle: Puzzle, task: str = "solve", workers: int | None = None, timeout: float | None = None
) -> SolverConfig:
    """The engine ``--method auto`` runs ``task`` of ``puzzle`` on, with ``workers`` processes
    (default: the engine's choice): of the engines installed here whose preference for the task
    (:attr:`satedge.jobs.engine.Task.auto`) picks the puzzle, the one of the lowest rank.  The
    ranks follow what answered soonest in the project's studies (``benchmarks/auto/bench-auto.md``,
    ``benchmarks/maximize/bench-maximize.md``); :func:`policy` says them in words."""
    picked = []
    for e in engines().values():
        does = e.tasks.get(task)
        if does is not None and does.auto is not None and e.installed():
            wants = does.auto.picks(puzzle, timeout)
            if wants is not None:
                picked.append((does.auto.rank, e.name, wants))
    if not picked:
        raise SatedgeError(f"no engine installed here takes {task} of this puzzle: name one with --method")
    _, name, wants = min(picked)
    return SolverConfig(engine=name, workers=workers or wants)


def policy(task: str) -> str:
    """``--method auto``'s choice for ``task`` in words, from the engines' preferences."""
    ranked = [(a.rank, a.when) for e in engines().values() if (a := getattr(e.tasks.get(task), "auto", None))]
    return ", else ".join(when for _, when in sorted(ranked))
