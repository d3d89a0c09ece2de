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

import hashlib
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Callable, Iterator

from . import backtrack, cluster, cpsat, cubes, solving, symmetry
from .dimacs import write_dimacs
from .encode import Encoded
from .encode.presets import Preset, encode_preset, resolve, size_preset, too_big
from .errors import SatedgeError
from .process import MAX_WORKERS, Limits, Outcome, call
from .proctree import forked_map
from .puzzle import Puzzle, Solution
from .shuffle import check_seed, shuffle
from .solvers import DEFAULT_SOLVER, check_solver, command_words, solver_options

DEFAULT_ENCODING = "edgecolor-corners"  # every command's default: the best preset without symmetry breaking
TASKS = ("solve", "count", "encode")
STRATEGIES = ("portfolio", "cubes")  # how the SAT method uses several workers
Note = Callable[[dict], None]


@dataclass(frozen=True)
class Job:
    """What to run; checked when made (bad values raise :class:`SatedgeError`).

    ``preset``: the encoding of the ``sat`` and ``cmd`` engines (default :data:`DEFAULT_ENCODING`);
    ``solver``: a PySAT solver name (``sat``) or a command line (``cmd``); ``modes``: what
    ``count`` counts, or with ``solve`` the mode of the solutions (one of ``solutions``,
    ``distinct``, ``unique``); ``limit``: at most this many solutions; ``workers``: processes of
    the backtracker and of the SAT method, search workers of CP-SAT; ``strategy``: how the SAT
    method uses several workers (``portfolio`` or ``cubes``, see :func:`default_strategy`);
    ``scheduler``: the address of a Dask scheduler whose workers run the job's parts (the SAT
    method and the backtracker); ``shuffle``: a shuffle seed (:mod:`satedge.shuffle`):
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
    strategy: str | None = None
    scheduler: str | None = None

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
        if self.strategy is not None and self.strategy not in STRATEGIES:
            raise SatedgeError(f"unknown strategy {self.strategy!r}; choose from {', '.join(STRATEGIES)}")
        if self.strategy is not None and self.engine not in ("sat", "cmd"):
            raise SatedgeError("a strategy applies to the SAT method only")
        if self.scheduler is not None and self.engine == "cpsat":
            raise SatedgeError("a Dask scheduler applies to the SAT method and the backtracker, not to cpsat")

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
    solutions each of ``solutions`` stands for (its board-turn orbit, with symmetry breaking);
    ``parallel``: how several workers shared the job (the strategy, the winning portfolio
    member, the cubes and the seconds each took)."""

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
    parallel: dict = field(default_factory=dict)

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
    if job.workers > 1 or job.scheduler is not None:
        return (_portfolio if (job.strategy or default_strategy(job)) == "portfolio" else _cubes)(job, note)
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
    mode = job.modes[0]  # one_per_picture may skip solutions: then ask for all, stop after the limit
    limit = job.limit if job.task == "solve" and mode == "solutions" else None
    with _connected(job) as client:  # before anything starts
        stopped: list[Outcome] = []
        if client is None:
            inner = backtrack.solutions(puzzle, limit, workers=job.workers)
        else:
            inner = _on_cluster(client, puzzle, job, limit, stopped)
        found = map(back, inner)
        try:
            if job.task == "count":
                res.counts = _counts(job.puzzle, found, job.modes)
            else:
                res.solutions = list(islice(symmetry.one_per_picture(job.puzzle, found, mode), job.limit))
        finally:
            getattr(inner, "close", lambda: None)()  # stops the worker processes or the cluster's tasks
        if stopped:
            return _stopped(stopped[0])
    res.solve_seconds = time.perf_counter() - t0
    return _found(res)


def _on_cluster(client, puzzle: Puzzle, job: Job, limit: int | None, stopped: list[Outcome]) -> Iterator[Solution]:
    """The backtracker's subtrees as Dask tasks, two per core; an outcome without an answer goes
    to ``stopped``."""
    workers = cluster.cores(client) if job.workers == 1 else job.workers
    shares = _chunks(backtrack.prefixes(puzzle, workers), 2 * workers)
    for outcome in cluster.parts(client, backtrack.subtrees, [(puzzle, p, limit) for p in shares], job.limits):
        if outcome.status != "OK":
            stopped.append(outcome)
            return
        yield from outcome.value


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


# ---------------------------------------------------------------------------- several workers
def default_strategy(job: Job) -> str:
    """The SAT method's strategy with several workers when none is given: cubes.  To count and to
    enumerate they partition the solution set, so the work divides; to find one solution they
    were the better of the two on the peak puzzles of ``experiments/bench-parallel.yaml`` (PAR-2
    35.1 against 39.0 for the portfolio, whose first member, the job itself, won every race)."""
    return "cubes"


def portfolio(job: Job, size: int | None = None) -> list[Job]:
    """The ``size`` (default ``job.workers``) configurations of a portfolio: the job itself, then
    alternately the other of Kissat and CaDiCaL (``sat`` configuration; a solver binary stays
    itself) and the job's solver, each member under its own shuffle (seeds 1, 2, ... skipping the
    job's), so that no two members search alike.  Every member gives the same answers."""
    other = "kissat404" if solver_options(job.solver)[0] != "kissat404" else "cadical195:sat"
    seeds = (k for k in range(1, 1 << 20) if k != job.shuffle)
    members = [replace(job, workers=1, strategy=None, scheduler=None)]
    for i in range(1, size or job.workers):
        solver = other if i % 2 and job.engine == "sat" else job.solver
        members.append(replace(members[0], solver=solver, shuffle=next(seeds)))
    return members


def _describe(member: Job) -> str:
    shuffle = "" if member.shuffle is None else f", shuffle {member.shuffle}"
    return f"{member.preset.name}/{member.sat_solver}{shuffle}"


def _member(index: int, member: Job) -> tuple[int, Result]:
    return index, execute(member)


def _portfolio(job: Job, note: Note | None) -> Result:
    """Race the members of :func:`portfolio` (each in a process of its own, or as Dask tasks):
    the first to finish gives the answer and the others are killed at once."""
    with _connected(job) as client:
        members = portfolio(job, cluster.cores(client) if client is not None and job.workers == 1 else None)
        if note is not None:  # the members' formulas have the job's size: known before the race
            size = size_preset(job.puzzle, job.preset, job.shuffle)
            note({"variables": size.variables, "clauses": size.clauses})
        if client is not None:
            for outcome in cluster.parts(client, _member, list(enumerate(members)), job.limits):
                if outcome.status != "OK":
                    return _stopped(outcome)
                index, res = outcome.value
                break
        else:
            race = forked_map(lambda: lambda task: _member(*task), list(enumerate(members)), len(members))
            try:
                index, res = next(race)
            finally:
                race.close()  # the others are killed
    res.parallel = {"strategy": "portfolio", "workers": len(members), "winner": _describe(members[index])}
    return res


@contextmanager
def _connected(job: Job) -> Iterator:
    """The Dask client of ``job.scheduler`` for the block (None without one); a scheduler that does
    not answer is an error before anything starts."""
    if job.scheduler is None:
        yield None
        return
    client = cluster.connect(job.scheduler, "--scheduler")
    try:
        yield client
    finally:
        client.close()


def _stopped(outcome: Outcome) -> Result:
    """The result of a job one of whose parts ended without an answer; its error raises."""
    if outcome.status == "ERROR":
        outcome.unwrap("a part of the job")
    return Result(outcome.status, outcome=outcome)


def fingerprint(encoded: Encoded) -> str:
    """A digest of the formula's clauses: a part encoded again elsewhere must equal its parent's."""
    h = hashlib.sha256()
    for clause in encoded.cnf.clauses:
        h.update(repr(clause).encode())
    return h.hexdigest()


def cube_part(job: Job, found: str, part: list[tuple[int, tuple[int, ...]]], limit: int | None) -> list[cubes.Cube]:
    """A Dask task's share of a cube-and-conquer job: the formula encoded again (it must be the
    one the cubes were made on: ``found``, its :func:`fingerprint`) and the cubes of ``part``
    (index, literals) solved one after the other with one solver, which keeps what it learnt."""
    encoded = encode_preset(job.puzzle, job.preset, job.shuffle)
    if fingerprint(encoded) != found:
        raise SatedgeError("a Dask worker encoded a different formula (check that it runs the same satedge)")
    return cubes.solve_cubes(encoded, job.sat_solver, [c for _, c in part], limit, indices=[i for i, _ in part])


def _chunks(items: list, n: int) -> list[list]:
    """``items`` dealt round-robin into at most ``n`` non-empty lists."""
    return [items[i::n] for i in range(min(n, len(items)))]


def _cubes(job: Job, note: Note | None) -> Result:
    """Cube-and-conquer (:mod:`satedge.cubes`) on ``job.workers`` forked processes or on the Dask
    cluster; solutions come back in the original numbering and counts add up over the cubes."""
    with _connected(job) as client:  # before anything starts
        res = Result("UNSAT")
        t0 = time.perf_counter()
        encoded = encode_preset(job.puzzle, job.preset, job.shuffle)
        res.variables, res.clauses, res.orbit = encoded.nv, len(encoded.cnf.clauses), encoded.orbit
        res.encode_seconds = time.perf_counter() - t0
        if note is not None:
            note({"variables": res.variables, "clauses": res.clauses, "encode_seconds": res.encode_seconds})
        return _conquer(job, encoded, client, res, t0)


def _conquer(job: Job, encoded: Encoded, client, res: Result, t0: float) -> Result:
    workers = cluster.cores(client) if client is not None and job.workers == 1 else job.workers
    split = cubes.split(encoded, cubes.CUBES_PER_WORKER * workers)
    mode = job.modes[0]
    per_cube = job.limit if job.task == "solve" and mode == "solutions" else None
    seconds: dict[int, float] = {}
    stopped: list[Outcome] = []
    only_count = job.task == "count" and set(job.modes) == {"solutions"}  # no solution needs to travel
    total = [0]  # solutions found over the cubes

    def stream() -> Iterator[cubes.Cube]:
        if client is None:
            yield from cubes.conquer(encoded, split.cubes, workers, job.sat_solver, per_cube, keep=not only_count)
            return
        shares = _chunks(list(enumerate(split.cubes)), 2 * workers)  # two tasks per core: balance, few startups
        digest = fingerprint(encoded)
        for outcome in cluster.parts(client, cube_part, [(job, digest, p, per_cube) for p in shares], job.limits):
            if outcome.status != "OK":
                stopped.append(outcome)
                return
            yield from outcome.value

    def solutions() -> Iterator[Solution]:
        for c in stream():
            seconds[c.index] = c.seconds
            res.stats.calls += c.calls
            res.stats.models += c.models
            if c.counters is not None:
                res.stats.merge(c.counters)
            total[0] += c.found
            yield from c.solutions

    found = solutions()
    try:
        if only_count:
            sum(1 for _ in found)  # runs every cube
            res.counts = {"solutions": encoded.orbit * total[0], "models": res.stats.models}
        elif job.task == "count":
            res.counts = _orbit_counts(encoded, list(found), job.modes)
            if "solutions" in job.modes:
                res.counts["models"] = res.stats.models
        else:
            res.solutions = list(islice(symmetry.one_per_picture(job.puzzle, found, mode), job.limit))
    finally:
        found.close()
    if stopped:
        return _stopped(stopped[0])
    res.solve_seconds = time.perf_counter() - t0 - res.encode_seconds
    res.parallel = {"strategy": "cubes", "workers": workers, "cubes": len(split.cubes), "refuted": split.refuted,
                    "split_seconds": round(split.seconds, 4),
                    "cube_seconds": [round(seconds[i], 4) if i in seconds else None for i in range(len(split.cubes))]}
    return _found(res)


def _orbit_counts(encoded: Encoded, sols: list[Solution], modes: tuple[str, ...]) -> dict[str, int]:
    """The counts ``modes`` asks for from every solution of the formula: with symmetry breaking
    each stands for its board-turn orbit (all different solutions; their pictures are the turns
    of its picture)."""
    puzzle, k = encoded.puzzle, encoded.orbit
    if k == 1:
        return _counts(puzzle, sols, modes)
    pictures = {symmetry.picture(puzzle, s) for s in sols}
    every = {"solutions": k * len(sols),
             "distinct": len({symmetry.turn_picture(puzzle, p, t) for p in pictures for t in puzzle.board.turns()}),
             "unique": len({symmetry.canonical(puzzle, p) for p in pictures})}
    return {m: every[m] for m in modes}


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
    if (job.limits.unlimited or job.scheduler is not None) and not fresh and cancel is None:
        return execute(job)  # on a cluster every part runs under the job's limits
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


def parse_solver(name: str) -> dict:
    """The Job fields (``engine``, ``solver``, ``workers``, ``strategy``) of a solver as experiment
    specs name it: a PySAT solver (with CaDiCaL's options), ``cmd:COMMAND``, ``cpsat`` or
    ``backtrack``.  Options after a colon, comma-separated: ``workers=N`` (every solver but a
    binary), ``strategy=portfolio|cubes`` (PySAT solvers with workers), and CaDiCaL's own.

    >>> parse_solver("backtrack:workers=2")
    {'engine': 'backtrack', 'solver': 'backtrack', 'workers': 2, 'strategy': None}
    >>> parse_solver("cadical195:sat,workers=2,strategy=cubes")
    {'engine': 'sat', 'solver': 'cadical195:sat', 'workers': 2, 'strategy': 'cubes'}
    """
    if name.startswith("cmd:"):
        command_words(name[4:])
        return {"engine": "cmd", "solver": name[4:], "workers": 1, "strategy": None}
    base, colon, rest = name.partition(":")
    own: dict = {"workers": 1, "strategy": None}
    others = []
    for item in rest.split(",") if colon else []:
        key, eq, value = item.partition("=")
        if key == "workers" and eq:
            if not value.isdigit() or not 1 <= int(value) <= MAX_WORKERS:
                raise SatedgeError(f"solver {name!r}: workers=N takes N from 1 to {MAX_WORKERS}")
            own["workers"] = int(value)
        elif key == "strategy" and eq and base not in ("cpsat", "backtrack"):
            if value not in STRATEGIES:
                raise SatedgeError(f"solver {name!r}: strategy is one of {', '.join(STRATEGIES)}")
            own["strategy"] = value
        else:
            others.append(item)
    if base in ("cpsat", "backtrack"):
        if others:
            raise SatedgeError(f"solver {name!r}: {base} takes one option, workers=N (N at least 1)")
        return {"engine": base, "solver": base, **own}
    if own["strategy"] is not None and own["workers"] == 1:
        raise SatedgeError(f"solver {name!r}: a strategy needs workers=N with N at least 2")
    solver = check_solver(base + (":" + ",".join(others) if others else ""))
    return {"engine": "sat", "solver": solver, **own}
