"""Solving and enumeration through PySAT, and time and memory limits that really stop.

Enumeration blocks each model on the decision variables only, so auxiliary variables never
yield one solution twice.  Three modes:

* ``solutions``: every solution;
* ``distinct``: one solution per picture; each one found is blocked with every labelled
  assignment of the same picture;
* ``unique``: one per picture up to board turns; the turned pictures are blocked too.

So the number of solutions a mode yields is its count.  Every decoded solution goes through
the independent checker; a failure raises :class:`EncodingError`.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import traceback
from itertools import islice
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from pysat.solvers import Solver, SolverNames

from .checker import validate
from .encode import Encoded
from .errors import SatedgeError
from .puzzle import Solution
from .symmetry import orbit

MODES = ("solutions", "distinct", "unique")
NON_INCREMENTAL = {"kissat404"}
STAT_KEYS = ("conflicts", "decisions", "propagations", "restarts")
DEFAULT_ENCODING = "edgecolor-corners"
DEFAULT_SOLVER = "cadical195"


class EncodingError(RuntimeError):
    """An encoding produced a model that is not a solution (kept in ``.solution``)."""

    def __init__(self, message: str, solution: Solution):
        super().__init__(message)
        self.solution = solution


def solver_names() -> list[str]:
    """Every SAT solver PySAT offers here, by its main name."""
    return sorted(k for k, v in vars(SolverNames).items() if not k.startswith("_") and isinstance(v, tuple))


# CaDiCaL's own named configurations (its --sat and --unsat options, src/config.cpp)
CADICAL_CONFIGS = {
    "sat": {"elimreleff": 10, "stabilizeonly": 1, "subsumereleff": 60},
    "unsat": {"stabilize": 0, "walk": 0},
}
CONFIGURABLE = ("cadical153", "cadical195", "cadical300")


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
        elif eq and key == "seed" and value.isdigit():
            options["seed"] = int(value)
        else:
            raise SatedgeError(f"solver option {item!r} of {name!r}: use {', '.join(CADICAL_CONFIGS)} or seed=N")
    return base, options


def own_solver(name: str) -> tuple[str, int] | None:
    """For the two solvers of an experiment spec that are not PySAT's, ``cpsat`` and
    ``backtrack``, optionally with ``:workers=N``, their name and number of workers; ``None``
    for any other name.

    >>> own_solver("backtrack:workers=2"), own_solver("cpsat"), own_solver("kissat404")
    (('backtrack', 2), ('cpsat', 1), None)
    """
    base, colon, rest = name.partition(":")
    if base not in ("cpsat", "backtrack"):
        return None
    if not colon:
        return base, 1
    key, _, value = rest.partition("=")
    if key != "workers" or not value.isdigit() or int(value) < 1:
        raise SatedgeError(f"solver {name!r}: {base} takes one option, workers=N (N at least 1)")
    return base, int(value)


def check_solver(name: str) -> str:
    """A PySAT solver name (CaDiCaL's with options: ``cadical195:sat,seed=2``), ``cpsat``, or
    ``cmd:<command line>`` for a DIMACS solver binary."""
    if name == "cpsat":
        return name
    if name.startswith("cmd:"):
        words = shlex.split(name[4:])
        if not words or shutil.which(words[0]) is None:
            raise SatedgeError(f"solver command {name[4:]!r} not found on PATH")
        return name
    base, _ = solver_options(name)
    if base not in solver_names():
        raise SatedgeError(f"unknown solver {base!r}; choose from {', '.join(solver_names())}, cpsat, "
                           "or cmd:COMMAND")
    return name


KNOWN_BINARIES = ("cadical", "kissat", "minisat", "glucose", "glucose-syrup", "cryptominisat5", "lingeling",
                  "plingeling", "picosat", "clasp", "varisat", "mergesat")


def solver_binaries() -> dict[str, str]:
    """Well-known DIMACS solver binaries found on PATH, with their paths."""
    found = {b: shutil.which(b) for b in KNOWN_BINARIES}
    return {b: path for b, path in found.items() if path}


class ExternalSolver:
    """A DIMACS solver binary behind PySAT's interface (non-incremental: each ``solve`` writes the
    formula to a temporary file and runs the command on it; exit 10 SAT, 20 UNSAT)."""

    def __init__(self, command: str, bootstrap_with: list[list[int]], nv: int):
        self.command = shlex.split(command)
        self.clauses = bootstrap_with
        self.nv = nv  # the formula's variables; blocking clauses use no others
        self.model: list[int] | None = None

    def solve(self) -> bool:
        from .dimacs import parse_model, write_plain

        with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as fh:
            write_plain(self.clauses, self.nv, fh)
        try:
            r = subprocess.run(self.command + [fh.name], capture_output=True, text=True)
        finally:
            os.unlink(fh.name)
        if r.returncode == 20:
            return False
        if r.returncode != 10:
            raise SatedgeError(f"solver command {' '.join(self.command)!r} exited with {r.returncode}: "
                               f"{(r.stderr or r.stdout).strip().splitlines()[-1:] or ['no output']}")
        self.model = parse_model(r.stdout, self.command[0], self.nv)
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


@dataclass
class Stats:
    """Accumulated solver statistics (``accum_stats``) and call counts of one enumeration;
    ``reported``: whether the solver gave any (Kissat and solver binaries give none)."""

    calls: int = 0
    models: int = 0
    counters: dict = field(default_factory=lambda: dict.fromkeys(STAT_KEYS, 0))
    reported: bool = False

    def add(self, solver: Solver) -> None:
        try:
            got = solver.accum_stats() or {}
        except NotImplementedError:  # kissat exposes none
            return
        self.reported = True
        for k in STAT_KEYS:
            self.counters[k] = self.counters.get(k, 0) + int(got.get(k, 0))


class Enumerator:
    """One solver for several enumerations of the same formula.  Each enumeration's blocking
    clauses carry a fresh activation literal, switched off when it ends, so the solver (and what
    it learnt) is reused.  With ``reuse=False`` (one enumeration only) blocking clauses are
    plain and no search runs under an assumption.  Solvers without incremental solving start
    afresh each time."""

    def __init__(self, encoded: Encoded, solver: str = DEFAULT_SOLVER, stats: Stats | None = None,
                 reuse: bool = True):
        self.encoded = encoded
        self.reuse = reuse
        self.spent = False
        self.name = check_solver(solver)
        self.stats = stats if stats is not None else Stats()
        self.top = encoded.nv
        self.solver: Solver | None = None
        if solver not in NON_INCREMENTAL and not solver.startswith("cmd:"):
            self.solver = new_solver(solver, encoded.cnf.clauses, encoded.nv)

    def close(self) -> None:
        if self.solver is not None:
            self.stats.add(self.solver)
            self.solver.delete()
            self.solver = None

    def __enter__(self) -> "Enumerator":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def solutions(self, mode: str = "solutions", limit: int | None = None) -> Iterator[Solution]:
        if mode not in MODES:
            raise SatedgeError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
        if limit is not None and limit <= 0:
            return
        encoded, puzzle, stats = self.encoded, self.encoded.puzzle, self.stats
        incremental = self.solver is not None
        if self.spent:
            raise RuntimeError("an Enumerator made with reuse=False enumerates once")
        self.spent = not self.reuse
        act = None
        if self.reuse:
            self.top += 1
            act = self.top
        blocks: list[list[int]] = []
        found = 0
        s = self.solver if incremental else None
        try:
            while True:
                stats.calls += 1
                if incremental:
                    # no assumption before the first blocking clause: CaDiCaL searches very
                    # differently under one (25 s instead of 0.07 s on a 7x7 framed puzzle)
                    sat = s.solve(assumptions=[act]) if act and found else s.solve()
                else:
                    s = new_solver(self.name, encoded.cnf.clauses + blocks, encoded.nv)
                    sat = s.solve()
                    stats.add(s)
                if not sat:
                    break
                model = s.get_model()
                if not incremental:
                    s.delete()
                    s = None
                stats.models += 1
                first = encoded.decode(model)
                batch = encoded.expand(first) if mode == "solutions" else [first]
                for sol in batch:
                    problem = validate(puzzle, sol)
                    if problem is not None:
                        raise EncodingError(f"{encoded.base} encoding gave an invalid solution: {problem}", sol)
                if mode == "solutions":
                    new = [encoded.literals(first)]
                else:
                    members = orbit(puzzle, first, turns=(mode == "unique"))
                    new = list({tuple(lits) for lits in map(encoded.literals, members) if lits is not None})
                for sol in batch:
                    yield sol
                    found += 1
                    if limit is not None and found >= limit:
                        return
                for lits in new:
                    if incremental:
                        s.add_clause([-lit for lit in lits] + ([-act] if act else []))
                    else:
                        blocks.append([-lit for lit in lits])
        finally:
            if incremental:
                if act:
                    s.add_clause([-act])  # this enumeration's blocking clauses are off from now on
            elif s is not None:
                s.delete()


def solutions(encoded: Encoded, solver: str = DEFAULT_SOLVER, mode: str = "solutions",
              limit: int | None = None, stats: Stats | None = None) -> Iterator[Solution]:
    """Stream the solutions of an encoded puzzle (see the module docstring for ``mode``)."""
    with Enumerator(encoded, solver, stats, reuse=False) as e:
        yield from e.solutions(mode, limit)


def solve(encoded: Encoded, solver: str = DEFAULT_SOLVER, stats: Stats | None = None) -> Solution | None:
    """The first solution, or ``None`` when the formula is unsatisfiable."""
    return next(solutions(encoded, solver, limit=1, stats=stats), None)


def count(encoded: Encoded, solver: str = DEFAULT_SOLVER, mode: str = "solutions", stats: Stats | None = None) -> int:
    return count_modes(encoded, solver, (mode,), stats)[mode]


def count_modes(encoded: Encoded, solver: str = DEFAULT_SOLVER, modes=MODES, stats: Stats | None = None) -> dict[str, int]:
    """Several counts with one solver."""
    with Enumerator(encoded, solver, stats, reuse=len(modes) > 1) as e:
        return {m: sum(1 for _ in e.solutions(m)) for m in modes}


# ---------------------------------------------------------------------------- limits
class Timeout(Exception):
    """The call ran past its time limit and its processes were killed."""


class OutOfMemory(Exception):
    """The call's processes held more than its memory limit and were killed."""


def group_memory_mb(pgid: int) -> float | None:
    """Resident memory (MB) of the processes in process group ``pgid``: a solving child, the
    backtracker's workers and solver binaries it started; ``None`` without Linux's ``/proc``.
    With more than one process, each counts its proportional share (PSS) of the pages it shares
    with others, so that what a forked worker shares with its parent counts once, not in both.

    >>> group_memory_mb(2**22 + 1) in (0.0, None)  # no such group
    True
    """
    if not os.path.exists("/proc/self/stat"):
        return None
    rss = {}  # pid: resident pages
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[2]) == pgid:  # fields: state, ppid, pgrp, ... rss (the 22nd)
            rss[pid] = int(fields[21])
    page_kb, kb = os.sysconf("SC_PAGE_SIZE") / 1024, 0.0
    for pid, pages in rss.items():
        pss = _pss_kb(pid) if len(rss) > 1 else None
        kb += pages * page_kb if pss is None else pss
    return kb / 1024


def _pss_kb(pid: str) -> int | None:
    """The proportional set size of process ``pid`` in kB (Linux 4.14 and later), or ``None``.
    Reading it walks the process's page tables: about a millisecond per 100 MB."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            return next((int(line.split()[1]) for line in fh if line.startswith("Pss:")), None)
    except OSError:
        return None


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when ``parent``, the process that started it, ends, even
    by SIGKILL, which gives it no chance to clean up (Linux only; elsewhere nothing); if it has
    ended already, exit now."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # it ended before the call: this process has a new parent
        os._exit(1)


def default_kill_signals() -> None:
    """Give SIGTERM and SIGHUP back their default action in a forked process, so that they end it at
    once.  It inherits the handlers of its parent (the CLI raises SystemExit on them), and a
    Python handler waits for a solver's C code to return; a pool's ``terminate()`` would hang."""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def pool_worker(parent: int) -> None:
    """The initializer of a pool's forked workers (``parent``: the pool's process): Ctrl-C is the
    parent's, which stops the pool; SIGTERM and SIGHUP end a worker at once; and a worker ends
    with its parent, even when the parent is killed by SIGKILL (else the workers wait forever on
    the task queue's lock)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    default_kill_signals()
    die_with_parent(parent)


def _child(conn, fn, args, parent: int, scratch: str) -> None:
    os.setpgrp()  # its own process group: at a limit, the solver binaries it started are killed too
    die_with_parent(parent)
    default_kill_signals()
    tempfile.tempdir = os.environ["TMPDIR"] = scratch  # its temporary files, removed by the parent
    try:
        conn.send(("ok", fn(*args)))
    except SatedgeError as e:
        conn.send(("bad", str(e)))
    except BaseException:  # noqa: BLE001 - reported to the parent
        conn.send(("crash", traceback.format_exc()))
    finally:
        conn.close()


def call_limited(fn: Callable, args: tuple, timeout: float | None = None, memory_mb: float | None = None) -> Any:
    """Run ``fn(*args)`` in a child process and return its result; kill the child's process group
    after ``timeout`` seconds (raise :class:`Timeout`) or once it holds more than ``memory_mb`` MB
    (raise :class:`OutOfMemory`, Linux only).  Without limits, call ``fn`` here.  PySAT's CaDiCaL
    cannot be interrupted and its C++ encoders abort when memory runs out: a process can be killed.
    The child's temporary files (a solver binary's formula) go into a folder of their own, which
    is removed when the call ends, however it ends.

    >>> call_limited(sum, ([1, 2, 3],), timeout=60, memory_mb=4096)
    6
    """
    if timeout is None and memory_mb is None:
        return fn(*args)
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    scratch = tempfile.mkdtemp(prefix="satedge-")
    proc = ctx.Process(target=_child, args=(send, fn, args, os.getpid(), scratch))  # not a daemon: it may start workers
    proc.start()
    send.close()
    deadline = None if timeout is None else time.monotonic() + timeout
    step = 0.1 if memory_mb is not None else None  # seconds between looks at the memory
    try:
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise Timeout(f"no answer in {timeout:g} s")
            if recv.poll(min(x for x in (step, left) if x is not None)):  # the answer, the next look or the end
                break
            if step is not None:
                t0 = time.perf_counter()
                held = group_memory_mb(proc.pid)
                if held is not None and held > memory_mb:
                    raise OutOfMemory(f"more than {memory_mb:g} MB of memory")
                step = max(0.1, 20 * (time.perf_counter() - t0))  # at most 5% of a core, however many processes
        try:
            kind, value = recv.recv()
        except EOFError:
            proc.join()
            code = proc.exitcode or 0
            how = (f"killed by signal {-code}" + (", perhaps by the kernel for lack of memory" if code == -9 else "")
                   if code < 0 else f"exit status {code}")
            raise SatedgeError(f"the solving process died ({how})") from None
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.join()
        recv.close()
        shutil.rmtree(scratch, ignore_errors=True)
    if kind == "bad":
        raise SatedgeError(value)
    if kind == "crash":
        raise RuntimeError(value)
    return value


# ---------------------------------------------------------------------------- whole jobs
@dataclass
class Result:
    """What one solve or count job found (the CLI and the experiment runner print it)."""

    status: str  # SAT | UNSAT | TIMEOUT
    solutions: list[Solution] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    variables: int = 0
    clauses: int = 0
    encode_seconds: float = 0.0
    solve_seconds: float = 0.0
    stats: Stats = field(default_factory=Stats)


def _counts(puzzle, sols, modes: tuple[str, ...]) -> dict[str, int]:
    """The counts ``modes`` asks for of a complete set of solutions; pictures are only made and
    canonicalized when a mode needs them."""
    from . import symmetry

    if set(modes) == {"solutions"}:
        return {"solutions": sum(1 for _ in sols)}
    c = symmetry.count(puzzle, sols)
    return {m: getattr(c, m) for m in modes}


def _job(puzzle, method: str, preset, solver: str, task: str, modes: tuple[str, ...], limit: int | None,
         workers: int = 1, on_encoded: Callable[[Result], None] | None = None) -> Result:
    from . import backtrack, cpsat, symmetry
    from .encode.presets import encode_preset

    res = Result("UNSAT")
    t0 = time.perf_counter()
    if method == "sat" and solver == "cpsat":
        sols = list(cpsat.solutions(puzzle, limit=1 if task == "solve" and limit == 1 else None,
                                    workers=workers, stats=res.stats.counters))
        res.stats.reported = True
        if task == "count":
            res.counts = _counts(puzzle, sols, modes)
        else:
            res.solutions = list(islice(symmetry.one_per_picture(puzzle, sols, modes[0]), limit))
        res.status = "SAT" if sols else "UNSAT"
        res.solve_seconds = time.perf_counter() - t0
        return res
    if method == "backtrack":
        if task == "count":
            res.counts = _counts(puzzle, backtrack.solutions(puzzle, workers=workers), modes)
            res.status = "SAT" if any(res.counts.values()) else "UNSAT"
        else:
            # one_per_picture may skip solutions: ask the workers for all, stop after ``limit``
            found = backtrack.solutions(puzzle, limit if modes[0] == "solutions" else None, workers=workers)
            res.solutions = list(islice(symmetry.one_per_picture(puzzle, found, modes[0]), limit))
            res.status = "SAT" if res.solutions else "UNSAT"
        res.solve_seconds = time.perf_counter() - t0
        return res
    encoded = encode_preset(puzzle, preset)
    res.variables, res.clauses = encoded.nv, len(encoded.cnf.clauses)
    t1 = time.perf_counter()
    res.encode_seconds = t1 - t0
    if on_encoded is not None:
        on_encoded(res)
    if task == "count":
        res.counts = count_modes(encoded, solver, modes, stats=res.stats)
        res.status = "SAT" if any(res.counts.values()) else "UNSAT"
    else:
        res.solutions = list(solutions(encoded, solver, modes[0], limit=limit, stats=res.stats))
        res.status = "SAT" if res.solutions else "UNSAT"
    res.solve_seconds = time.perf_counter() - t1
    return res


def run(puzzle, task: str = "solve", method: str = "sat", preset=None, solver: str = DEFAULT_SOLVER,
        modes: tuple[str, ...] = ("solutions",), limit: int | None = None, timeout: float | None = None,
        workers: int = 1, on_encoded: Callable[[Result], None] | None = None,
        memory_mb: float | None = None) -> Result:
    """Solve (``task="solve"``, up to ``limit`` solutions) or count (``task="count"``, each of
    ``modes``) with the backtracker or a SAT encoding; ``workers``: processes of the backtracker,
    search workers of ``solver="cpsat"``; ``on_encoded``: called with the result so far
    (variables, clauses, encode seconds) once a SAT encoding is built, before the solver starts.

    With a ``timeout`` (seconds) or ``memory_mb`` the job runs in a child process
    (:func:`call_limited`): after the timeout the result is ``TIMEOUT``; beyond the memory
    :class:`OutOfMemory` is raised."""
    if method == "sat":
        check_solver(solver)
        if preset is None:
            from .encode.presets import resolve

            preset = resolve(DEFAULT_ENCODING)
    try:
        return call_limited(_job, (puzzle, method, preset, solver, task, modes, limit, workers, on_encoded),
                            timeout, memory_mb)
    except Timeout:
        return Result("TIMEOUT")

