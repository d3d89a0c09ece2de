"""What the commands share: the parser with satedge's one-line errors, argument types, the option
groups several commands take, and the values they turn into (parsed here, once)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator

import psutil

from ..encode import DEFAULT_ENCODING, Encoding
from ..engines import ENGINES, REFERENCE, by_name
from ..errors import OutOfMemory, SatedgeError
from ..files import digits, quoted
from ..api import METHODS
from ..api import job as make_job
from ..formats import load_puzzle
from ..puzzle import Puzzle
from ..certify import CHECKERS, DEFAULT_CHECKER
from ..proofdir import check_folder
from ..jobs import DEFAULT_STRATEGY, STRATEGIES, Job, Result, run
from ..process import MAX_MEMORY_MB, MAX_TIMEOUT, MAX_WORKERS, default_memory_mb
from ..progress import progress_bar, status_line
from ..shuffle import MAX_SEED
from ..solvers import DEFAULT_SOLVER, ENUMERATIONS, SolverConfig
from ..orders import ORDERS
from ..symmetry import MODES

__all__ = [
    "Help", "Parser", "many", "count", "seconds", "add_memory", "add_encoding", "add_method", "encoding_of",
    "SAT_OPTIONS", "solver_of", "memory_limit", "job_settings", "engine_of", "answered_by", "unproved", "certified",
    "too_big",
    "beyond_memory", "GRACE", "answered", "run_job", "with_progress", "output_folder"
]


class Help(argparse.HelpFormatter):
    """Every option's help ends with its default, unless it has none or says it already."""

    def _get_help_string(self, action) -> str:
        text = action.help or ""
        if action.option_strings and action.default not in (None, False, "", argparse.SUPPRESS) and "default" not in text:
            text += " (default: %(default)s)"
        return text


class Parser(argparse.ArgumentParser):
    """argparse with the project's one-line error and exit status 2, and defaults in the help."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # noqa: D401
        raise SatedgeError(message)


def many(n: int, thing: str) -> str:
    """'1 solution', '2 solutions': a count (of any size) and its noun, in the plural unless it is one."""
    return f"{digits(n)} {thing}{'s' * (n != 1)}"


def count(low: int = 1, high: int = 10**9):
    """argparse type of a number of things (workers, solutions, puzzles): an integer from ``low``
    to ``high``."""
    def parse(text: str) -> int:
        try:
            n = int(text) if len(text) <= 30 else None
        except ValueError:
            n = None
        if n is None:
            raise argparse.ArgumentTypeError(f"expected an integer, found {quoted(text, 30)}")
        if n < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {n}")
        if n > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:,}, not {n:,}")
        return n

    return parse


def seconds(text: str) -> float:
    """argparse type of a time limit: a positive number of seconds, at most MAX_TIMEOUT."""
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, found {quoted(text, 30)}") from None
    if not 0 < t < float("inf"):
        raise argparse.ArgumentTypeError(f"must be positive and finite, not {quoted(text, 30)[1:-1]}")
    if t > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_TIMEOUT:,} seconds, not {quoted(text, 30)[1:-1]}")
    return t


# ---------------------------------------------------------------------------- option groups
def add_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument("--memory", type=count(1, MAX_MEMORY_MB), metavar="MB", help="stop with an error (exit 2) once the "
                   "job's whole process tree holds more than this; pages forked workers share count once (default: "
                   "80%% of the memory available at the start)")


def add_encoding(p: argparse.ArgumentParser) -> None:
    p.add_argument("--encoding", metavar="PRESET|BASE", help=f"a preset, a base encoding or a preset file, with "
                   f"options after + if you like (edgecolor+card=ladder); see `satedge encodings` (default: "
                   f"{DEFAULT_ENCODING})")
    p.add_argument("--card", help="exactly-one encoding: pairwise, seqcounter, ladder, totalizer, bitwise, "
                                  "sortnetwrk, cardnetwrk, mtotalizer, kmtotalizer (default: the encoding's)")
    p.add_argument("--symmetry", choices=["none", "rotation"], help="break the board-rotation symmetry "
                   "(default: the encoding's)")
    p.add_argument("--redundant", choices=["true", "false"], help="add implied clauses (default: the encoding's)")
    p.add_argument("--shuffle", type=count(0, MAX_SEED - 1), metavar="SEED", help="work on the puzzle with its "
                   "tiles reordered and turned by this seed (a SAT formula also gets its variables renumbered and "
                   "its clauses reordered); solutions are given in the puzzle's own numbering (default: no shuffle)")


def add_method(p: argparse.ArgumentParser, counting: bool) -> None:
    p.add_argument("--method", choices=list(METHODS), default="auto",
                   help="auto: the engine that answers soonest (the compiled backtracker on every core; with "
                        "--encoding, --solver or another SAT option: sat); sat: a SAT encoding and --solver; "
                        f"{REFERENCE}: the reference backtracker")
    add_encoding(p)
    which = p.add_mutually_exclusive_group()
    others = "; ".join(f"{e.name}: {e.summary}" + (f" (extra {e.extra})" if e.extra else "")
                       for e in ENGINES.values() if by_name(e.name))
    which.add_argument("--solver", help=f"a PySAT solver name (default: {DEFAULT_SOLVER}; see `satedge solvers`); "
                       "CaDiCaL takes options after a colon: its configurations sat and unsat, and seed=N "
                       f"(cadical195:sat,seed=2); {others}")
    which.add_argument("--solver-cmd", metavar="COMMAND", help="a DIMACS solver binary instead, e.g. 'cadical -q' "
                       "(run on the exported CNF; enumeration re-runs it with blocking clauses) (default: none)")
    p.add_argument("--workers", "--cpsat-workers", type=count(1, MAX_WORKERS), metavar="N",
                   help="processes: of the SAT method (see --strategy), of the backtracker, or search workers of "
                        "--solver cpsat (default: every core with --method auto, else 1, for fair comparisons)")
    p.add_argument("--strategy", choices=list(STRATEGIES), help="how the SAT method uses several workers: portfolio "
                   "(diverse solvers and shuffles race, the first answer wins) or cubes (cube-and-conquer: the search "
                   f"split into disjoint cubes) (default: {DEFAULT_STRATEGY})")
    p.add_argument("--enumeration", choices=list(ENUMERATIONS), help="how the SAT method enumerates models: "
                   "auto (blocking clauses; a count of a puzzle whose pictures have many models, identical tiles, "
                   "blocks a clause per picture and counts its models from multiplicities), blocking (a clause per "
                   "model, always: the formula grows) or subspaces (disjoint subspaces under assumptions, no clause "
                   "added; PySAT's incremental solvers) (default: auto)")
    p.add_argument("--order", choices=list(ORDERS), help="the order in which the backtracker fills the cells "
                   "(implies --method backtrack): rows, columns, spiral, border, or auto, the one with the smallest "
                   "search tree estimated from the puzzle's colours (default: auto)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run the job's parts on this Dask cluster (extra dist), "
                   "each under --timeout and --memory; --workers N: N parts at a time (default: the cluster's cores)")
    p.add_argument("--timeout", type=seconds, metavar="SECONDS", help="kill the job and every process it started "
                   "after this long: status TIMEOUT, exit 3 (default: no limit)")
    add_memory(p)
    p.add_argument("--certify", action="store_true", help="certify the answer: DRAT proofs, logged as the models are found, "
                   "that the formula (with the blocking clauses of the models found) has no further model, checked "
                   "before anything is printed, in parts on --workers N processes (one proof per cube with "
                   "--strategy cubes) (the SAT method; extra certify)")
    p.add_argument("--checker", choices=list(CHECKERS), help=f"with --certify: the proof checker, dratify (fast) or "
                   f"drup (formally verified, slow) (default: {DEFAULT_CHECKER})")
    p.add_argument("--proof", metavar="DIR", help="with --certify: write the certificate there as checked: the formula "
                   "(formula.cnf), each piece's clauses and DRAT proof (pieces/) and manifest.json, for check-proof "
                   "and checkers of your own (default: none)")
    if counting:
        p.add_argument("--mode", choices=MODES, help="count only this (default: all three)")
    else:
        p.add_argument("--mode", choices=MODES, help="with --all or --limit: every solution, one per picture, or one "
                       "per picture up to turns (default: solutions)")
        p.add_argument("--limit", type=count(), metavar="N", help="at most N solutions (implies --all) (default: 1, or every one with --all)")


# ---------------------------------------------------------------------------- the values they give
def encoding_of(args) -> Encoding | None:
    """The encoding --encoding and its options name; ``None`` when none of them is given."""
    if all(getattr(args, k) is None for k in ("encoding", "card", "symmetry", "redundant")):
        return None
    redundant = None if args.redundant is None else args.redundant == "true"
    return Encoding.parse(args.encoding or DEFAULT_ENCODING).with_options(card=args.card, symmetry=args.symmetry,
                                                                          redundant=redundant)


SAT_OPTIONS = ("encoding", "card", "symmetry", "redundant", "solver", "solver_cmd", "strategy", "enumeration", "certify")


def solver_of(args) -> SolverConfig | None:
    """The solver configuration --method, --solver, --solver-cmd, --workers, --strategy,
    --enumeration and --order name;
    ``None`` for --method auto without any SAT option or --order: chosen per puzzle
    (:func:`satedge.api.job`)."""
    method = args.method
    if method == "auto":
        if all(getattr(args, k) in (None, False) for k in SAT_OPTIONS):
            if args.order is None:
                return None
            method = REFERENCE
        else:
            method = "sat"
    if method == "sat":
        base = SolverConfig.parse(args.solver or DEFAULT_SOLVER) if args.solver_cmd is None else \
            SolverConfig.parse("cmd:" + args.solver_cmd)
        return replace(base, workers=args.workers or base.workers, strategy=args.strategy or base.strategy,
                       enumeration=args.enumeration or base.enumeration, order=args.order)
    return SolverConfig(engine=method, name=args.solver or args.solver_cmd, workers=args.workers or 1,
                        strategy=args.strategy, enumeration=args.enumeration, order=args.order)


def memory_limit(limit_mb: int | None) -> int | None:
    """``--memory``, by default 80% of the memory available now."""
    return default_memory_mb() if limit_mb is None else limit_mb


def job_settings(args, task: str) -> dict:
    """What a command's options give to :func:`satedge.api.job` (all but the puzzle, the task and
    the modes), checked before any puzzle is read (:meth:`Job.check_settings`)."""
    given = [o for o, v in (("--checker", args.checker), ("--proof", args.proof)) if v is not None]
    if given and not args.certify:
        raise SatedgeError(f"{given[0]} applies with --certify")
    if args.puzzles.count("-") > 1:
        raise SatedgeError("- (standard input) is named more than once: it can be read once")
    if args.proof is not None:
        if len(args.puzzles) > 1:
            raise SatedgeError(f"--proof writes the proof of one puzzle; {len(args.puzzles)} puzzles would write over "
                               "each other's: give one puzzle per --proof folder")
        check_folder(args.proof)
    certify = (args.checker or DEFAULT_CHECKER) if args.certify else None
    solver = solver_of(args)
    if solver is not None:
        solver, encoding = Job.check_settings(task, solver, encoding_of(args), args.shuffle, args.scheduler, certify)
    else:
        encoding = None
        Job.check_settings(task, SolverConfig(engine=REFERENCE, workers=args.workers or 1), None, args.shuffle,
                           args.scheduler)
    return {"method": args.method, "solver": solver, "encoding": encoding, "workers": args.workers,
            "timeout": args.timeout, "memory_mb": memory_limit(args.memory), "shuffle": args.shuffle,
            "scheduler": args.scheduler, "certify": certify, "proof": args.proof}


def engine_of(job: Job) -> str:
    """What answers a job, as a command's text line says it: ``edgecolor-corners, cadical195``,
    ``backtrack:workers=2``, ``cpsat``."""
    return f"{job.encoding}, {job.solver}" if job.encoding is not None else str(job.solver)


def answered_by(job: Job) -> dict:
    """What answers a job, as JSON output and result rows say it: ``solver`` and ``encoding`` (an
    engine with a model of its own names itself as its encoding)."""
    return {"encoding": job.encoding.name if job.encoding is not None else str(job.solver), "solver": str(job.solver)}


def unproved(path: str, res: Result, folder: str | None) -> None:
    """Say on stderr that ``--proof`` got nothing to write: an answer of solutions only, each
    checked by satedge's checker, has no proof."""
    if folder is not None and res.certificate and res.certificate.get("checker") == "satedge.checker":
        print(f"satedge: warning: {path}: nothing to prove, each solution given is checked by satedge's checker: "
              f"--proof {folder} left as it was", file=sys.stderr)


def certified(res: Result) -> str:
    """How a certified answer says so on its text line: ``, certified by dratify (a proof of N
    lemmas, K kB, checked in S s)``; empty for an answer without a certificate."""
    c = res.certificate
    if not c:
        return ""
    if c["checker"] == "satedge.checker":
        return ", certified by satedge's checker"
    pieces = f" in {c['pieces']} pieces" if c.get("pieces", 1) > 1 else ""
    early = f"{c['lemmas_checked_early']:,} lemmas checked as it was logged, the rest" if c.get("lemmas_checked_early") \
        else "checked"
    return (f", certified by {c['checker']} (a proof of {c['proof_lemmas']:,} lemmas{pieces}, "
            f"{c['proof_bytes'] / 1000:,.0f} kB, {early} in {c['check_seconds']:.2f} s)")


def too_big(limit_mb: int) -> str:
    return f"needs more than {limit_mb} MB of memory (--memory MB to allow more)"


def beyond_memory(what: str, limit_mb: float) -> SatedgeError:
    return SatedgeError(f"{what} {too_big(int(limit_mb))}")


class _OutOfTime(Exception):
    """The command's time for one puzzle ran out in this process (:func:`answered`)."""


class _OutOfMemory(Exception):
    """This process held more than the command's memory cap (:func:`answered`)."""


@contextmanager
def _within(timeout: float | None, memory_mb: float | None) -> Iterator[Callable[[], float | None]]:
    """The block under the command's limits in this process as well as in the job's: an alarm at
    ``timeout`` seconds (:class:`_OutOfTime`), and a look at this process's memory ten times a
    second (:class:`_OutOfMemory` past ``memory_mb``).  The block gets a callable that says how
    many seconds are left (``None``: no limit), for the job it starts."""
    start = time.monotonic()
    main = threading.current_thread() is threading.main_thread()
    handlers, stop = {}, threading.Event()

    def raise_(error):
        def handler(signum, frame):
            raise error()
        return handler

    if main:
        handlers = {signal.SIGALRM: signal.signal(signal.SIGALRM, raise_(_OutOfTime)),
                    signal.SIGUSR1: signal.signal(signal.SIGUSR1, raise_(_OutOfMemory))}
        if timeout is not None:
            signal.setitimer(signal.ITIMER_REAL, timeout + GRACE)  # the job stops itself first, at the timeout
        if memory_mb is not None:
            me, ident = psutil.Process(), threading.get_ident()

            def watch() -> None:
                while not stop.wait(0.1):
                    if me.memory_info().rss > memory_mb * 2**20:
                        signal.pthread_kill(ident, signal.SIGUSR1)
                        return

            threading.Thread(target=watch, daemon=True).start()
    try:
        yield lambda: None if timeout is None else max(0.001, timeout - (time.monotonic() - start))
    finally:
        stop.set()
        if main:
            signal.setitimer(signal.ITIMER_REAL, 0)
            for sig, old in handlers.items():
                signal.signal(sig, old)


GRACE = 0.5  # seconds past a job's timeout before this process stops waiting for it


def answered(path: str, task: str, settings: dict, **fields) -> tuple[Puzzle | None, Job | None, Result]:
    """Read the puzzle ``path``, make its job (:func:`satedge.api.job`) and run it
    (:func:`run_job`), all under the command's ``--timeout`` and ``--memory``: from reading the
    file to the answer, this process's work (the size checks) as well as the job's.  A time that
    runs out is a ``TIMEOUT`` result (with the puzzle and the job when they were made); a memory
    cap passed here is the one-line error of a job's."""
    puzzle = job = None
    with _within(settings["timeout"], settings["memory_mb"]) as left:
        try:
            puzzle = load_puzzle(path)
            job = make_job(puzzle, task, **{**settings, "timeout": left()}, **fields)
            return puzzle, job, run_job(path, job)
        except _OutOfTime:
            return puzzle, job, Result("TIMEOUT")
        except _OutOfMemory:
            raise beyond_memory(f"{path}: reading and preparing its job", settings["memory_mb"]) from None


def run_job(path: str, job: Job) -> Result:
    """:func:`satedge.jobs.run`; its errors are one line naming the puzzle file, beyond the memory
    cap ``FILE: solving needs more than N MB of memory``.  A job that asks for its progress shows
    it on a status line (on a terminal)."""
    with status_line(f"{path}: {engine_of(job)}") as show:
        res = run(job, progress=show if job.progress else None)
    try:
        return res.raise_error("solving")
    except OutOfMemory as e:
        raise beyond_memory(f"{path}: solving", e.memory_mb) from None
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None


def with_progress(items: list, what: str) -> Iterator:
    """``items`` one by one, with a progress bar on a terminal when there are several (a single
    job shows its own progress instead: :func:`run_job`)."""
    if len(items) == 1:
        yield items[0]
        return
    with progress_bar(len(items), what, "puzzle") as bar:
        for item in items:
            yield item
            bar.update()


def output_folder(path: Path, when: str) -> None:
    """Make the folder ``-o`` names (and its parents); a file there is an error."""
    if path.exists() and not path.is_dir():
        raise SatedgeError(f"-o must be a folder {when}", path)
    path.mkdir(parents=True, exist_ok=True)
