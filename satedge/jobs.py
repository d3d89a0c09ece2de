"""The job API: one frozen :class:`Job` says what to run; :func:`run` runs it under its limits.

A job is a puzzle, a task and an engine:

* tasks: ``solve`` (up to ``limit`` solutions, one per picture with the modes ``distinct`` and
  ``unique``), ``count`` (each of ``modes``), ``encode`` (the formula's size and DIMACS bytes only);
* engines (:func:`engines`, a name to a callable): ``sat`` (a SAT encoding, ``preset``, through a
  PySAT solver, ``solver``), ``cmd`` (the same through a DIMACS solver binary, ``solver`` being
  its command line), ``backtrack`` (the reference backtracker, ``workers`` processes) and
  ``cpsat`` (the CP-SAT model, ``workers`` search workers).

With limits (``Limits(timeout, memory_mb)``) the job runs in a child process of the limits layer
(:mod:`satedge.process`), and its :class:`Result` says ``TIMEOUT``, ``MEMOUT`` or ``ERROR`` the
same way whoever started it: a command or an experiment's run.

>>> two = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> run(Job(two, task="count", modes=("solutions", "distinct", "unique"))).counts
{'solutions': 2, 'distinct': 1, 'unique': 1, 'models': 2}
>>> run(Job(two, engine="backtrack", limits=Limits(timeout=60))).status
'SAT'
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable

from . import backtrack, cpsat, solving, symmetry
from .dimacs import write_dimacs
from .encode.presets import Preset, encode_preset, resolve, size_preset, too_big
from .errors import SatedgeError
from .process import Limits, Outcome, call
from .puzzle import Puzzle, Solution
from .shuffle import check_seed, shuffle
from .solvers import DEFAULT_SOLVER, check_solver, command_words

DEFAULT_ENCODING = "edgecolor-corners"  # every command's default: the best preset without symmetry breaking
TASKS = ("solve", "count", "encode")
Note = Callable[[dict], None]


@dataclass(frozen=True)
class Job:
    """What to run; checked when made (bad values raise :class:`SatedgeError`).

    ``preset``: the encoding of the ``sat`` and ``cmd`` engines (default :data:`DEFAULT_ENCODING`);
    ``solver``: a PySAT solver name (``sat``) or a command line (``cmd``); ``modes``: what
    ``count`` counts, or with ``solve`` the mode of the solutions (one of ``solutions``,
    ``distinct``, ``unique``); ``limit``: at most this many solutions; ``workers``: processes of
    the backtracker or search workers of CP-SAT; ``shuffle``: a shuffle seed (:mod:`satedge.shuffle`):
    every engine works on the puzzle with its tiles reordered and turned (a SAT formula also
    renumbered and reordered), and gives its solutions in the original puzzle's numbering."""

    puzzle: Puzzle
    task: str = "solve"
    engine: str = "sat"
    preset: Preset | None = None
    solver: str = DEFAULT_SOLVER
    modes: tuple[str, ...] = ("solutions",)
    limit: int | None = None
    limits: Limits = Limits()
    workers: int = 1
    shuffle: int | None = None

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise SatedgeError(f"unknown task {self.task!r}; choose from {', '.join(TASKS)}")
        if self.engine not in engines():
            raise SatedgeError(f"unknown engine {self.engine!r}; choose from {', '.join(engines())}")
        bad = [m for m in self.modes if m not in solving.MODES]
        if bad or not self.modes or (self.task == "solve" and len(self.modes) != 1):
            raise SatedgeError(f"modes must be {'one' if self.task == 'solve' else 'some'} of "
                               f"{', '.join(solving.MODES)}, not {', '.join(map(str, self.modes)) or 'none'}")
        for name, value in (("limit", self.limit), ("workers", self.workers)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise SatedgeError(f"{name} must be a positive integer, not {value!r}")
        if self.engine == "sat":
            check_solver(self.solver)
        elif self.engine == "cmd":
            command_words(self.solver)
        if self.engine in ("sat", "cmd") and self.preset is None:
            object.__setattr__(self, "preset", resolve(DEFAULT_ENCODING))
        if self.shuffle is not None:
            check_seed(self.shuffle)
        if self.task == "encode" and self.engine not in ("sat", "cmd"):
            raise SatedgeError(f"the {self.engine} engine has no formula to encode")

    @property
    def sat_solver(self) -> str:
        """The solver as :mod:`satedge.solving` names it (``cmd:COMMAND`` for a binary)."""
        return f"cmd:{self.solver}" if self.engine == "cmd" else self.solver


@dataclass
class Result:
    """What a job found and what it cost.

    ``status``: ``SAT``, ``UNSAT``, ``ENCODED`` (task ``encode``), ``TIMEOUT``, ``MEMOUT`` or
    ``ERROR`` (then ``outcome.unwrap()`` raises the error); the formula's size is known once it is
    encoded, even when the job is stopped later.  ``counts`` has the counts of the job's modes
    (and for a SAT encoding ``models``, the formula's own model count); ``orbit``: how many
    solutions each of ``solutions`` stands for (its board-turn orbit, with symmetry breaking)."""

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
    stats: solving.Stats = field(default_factory=solving.Stats)
    orbit: int = 1
    wall_seconds: float | None = None
    cpu_seconds: float | None = None
    peak_memory_mb: float | None = None
    outcome: Outcome | None = None

    @property
    def error(self) -> str | None:
        return self.outcome.error if self.outcome is not None and self.status in ("MEMOUT", "ERROR") else None


# ---------------------------------------------------------------------------- engines
def _found(res: Result) -> Result:
    res.status = "SAT" if (any(res.counts.values()) if res.counts else res.solutions) else "UNSAT"
    return res


def _counts(puzzle: Puzzle, sols, modes: tuple[str, ...]) -> dict[str, int]:
    """The counts ``modes`` asks for of a complete set of solutions; pictures are only made and
    canonicalized when a mode needs them."""
    if set(modes) == {"solutions"}:
        return {"solutions": sum(1 for _ in sols)}
    c = symmetry.count(puzzle, sols)
    return {m: getattr(c, m) for m in modes}


def _sat(job: Job, note: Note | None) -> Result:
    res = Result("UNSAT")
    t0 = time.perf_counter()
    encoded = encode_preset(job.puzzle, job.preset, job.shuffle)
    res.variables, res.clauses, res.orbit = encoded.nv, len(encoded.cnf.clauses), encoded.orbit
    t1 = time.perf_counter()
    res.encode_seconds = t1 - t0
    if note is not None:
        note({"variables": res.variables, "clauses": res.clauses, "encode_seconds": res.encode_seconds})
    if job.task == "count":
        res.counts = solving.count_modes(encoded, job.sat_solver, job.modes, stats=res.stats)
    else:
        res.solutions = list(solving.solutions(encoded, job.sat_solver, job.modes[0], job.limit, res.stats))
    res.solve_seconds = time.perf_counter() - t1
    return _found(res)


def _shuffled(job: Job) -> tuple[Puzzle, Callable[[Solution], Solution]]:
    """The puzzle an engine without a formula works on, and the map of its solutions back."""
    if job.shuffle is None:
        return job.puzzle, lambda s: s
    moved, sh = shuffle(job.puzzle, job.shuffle)
    return moved, sh.to_original


def _backtrack(job: Job, note: Note | None) -> Result:
    res = Result("UNSAT")
    t0 = time.perf_counter()
    puzzle, back = _shuffled(job)
    if job.task == "count":
        res.counts = _counts(job.puzzle, map(back, backtrack.solutions(puzzle, workers=job.workers)), job.modes)
    else:
        mode = job.modes[0]  # one_per_picture may skip solutions: then ask for all, stop after the limit
        found = map(back, backtrack.solutions(puzzle, job.limit if mode == "solutions" else None, workers=job.workers))
        res.solutions = list(islice(symmetry.one_per_picture(job.puzzle, found, mode), job.limit))
    res.solve_seconds = time.perf_counter() - t0
    return _found(res)


def _cpsat(job: Job, note: Note | None) -> Result:
    res = Result("UNSAT")
    t0 = time.perf_counter()
    first_only = job.task == "solve" and job.limit == 1
    puzzle, back = _shuffled(job)
    sols = [back(s) for s in cpsat.solutions(puzzle, limit=1 if first_only else None, workers=job.workers,
                                             stats=res.stats.counters)]
    res.stats.reported = True
    if job.task == "count":
        res.counts = _counts(job.puzzle, sols, job.modes)
    else:
        res.solutions = list(islice(symmetry.one_per_picture(job.puzzle, sols, job.modes[0]), job.limit))
    res.solve_seconds = time.perf_counter() - t0
    return _found(res)


def engines() -> dict[str, Callable[[Job, Note | None], Result]]:
    """The engines by name: each takes a job (and a callable for what it knows early) and returns
    its result."""
    return {"sat": _sat, "cmd": _sat, "backtrack": _backtrack, "cpsat": _cpsat}


class _Sink:
    """A text stream that only counts: the DIMACS bytes of a formula, without writing them."""

    def write(self, text: str) -> None:
        pass


def _encode(job: Job, note: Note | None) -> Result:
    t0 = time.perf_counter()
    encoded = encode_preset(job.puzzle, job.preset, job.shuffle)
    t1 = time.perf_counter()
    res = Result("ENCODED", variables=encoded.nv, clauses=len(encoded.cnf.clauses),
                 literals=sum(map(len, encoded.cnf.clauses)), encode_seconds=t1 - t0, solve_seconds=0.0)
    res.dimacs_bytes = write_dimacs(encoded, _Sink(), job.preset.name)
    res.write_seconds = time.perf_counter() - t1
    return res


def execute(job: Job, note: Note | None = None) -> Result:
    """Run ``job`` in this process, without its limits; ``note`` is called with what is known
    before the search starts (a SAT formula's size and encode time)."""
    if job.task == "encode":
        return _encode(job, note)
    return engines()[job.engine](job, note)


def run(job: Job, fresh: bool = False, cancel: threading.Event | None = None) -> Result:
    """Run ``job``: in this process when it has no limits (errors raise), else in a child process
    under them (:func:`satedge.process.call`; ``fresh``: a new interpreter rather than a fork;
    ``cancel``: an event that stops it).  A stopped job's result keeps what was known: the
    formula's size."""
    if job.limits.unlimited and not fresh and cancel is None:
        return execute(job)
    if job.engine in ("sat", "cmd") and job.limits.memory_mb is not None:  # what cannot fit is not built
        try:
            size = size_preset(job.puzzle, job.preset, job.shuffle)
        except SatedgeError as e:  # an encoding that does not cover the puzzle
            return Result("ERROR", wall_seconds=0.0, cpu_seconds=0.0,
                          outcome=Outcome("ERROR", error=str(e), bad_input=True, limits=job.limits))
        error = too_big(job.preset, size, job.limits.memory_mb)
        if error is not None:
            return Result("MEMOUT", variables=size.variables, clauses=size.clauses, wall_seconds=0.0,
                          cpu_seconds=0.0, outcome=Outcome("MEMOUT", error=str(error), limits=job.limits))
    outcome = call(execute, (job,), job.limits, fresh=fresh, notes=True, cancel=cancel)
    if outcome.status == "OK":
        res = outcome.value
    else:
        known = {k: v for k, v in outcome.notes.items() if k in ("variables", "clauses", "encode_seconds")}
        res = Result(outcome.status, **known)
    res.outcome, res.wall_seconds, res.cpu_seconds = outcome, outcome.wall_seconds, outcome.cpu_seconds
    res.peak_memory_mb = outcome.peak_mb
    return res


def parse_solver(name: str) -> tuple[str, str, int]:
    """``(engine, solver, workers)`` of a solver as experiment specs name it: a PySAT solver (with
    CaDiCaL's options), ``cmd:COMMAND``, ``cpsat`` or ``backtrack``, the last two optionally
    with ``:workers=N``.

    >>> parse_solver("backtrack:workers=2"), parse_solver("cpsat"), parse_solver("cadical195:sat")
    (('backtrack', 'backtrack', 2), ('cpsat', 'cpsat', 1), ('sat', 'cadical195:sat', 1))
    """
    if name.startswith("cmd:"):
        command_words(name[4:])
        return "cmd", name[4:], 1
    base, colon, rest = name.partition(":")
    if base not in ("cpsat", "backtrack"):
        return "sat", check_solver(name), 1
    if not colon:
        return base, base, 1
    key, _, value = rest.partition("=")
    if key != "workers" or not value.isdigit() or int(value) < 1:
        raise SatedgeError(f"solver {name!r}: {base} takes one option, workers=N (N at least 1)")
    return base, base, int(value)
