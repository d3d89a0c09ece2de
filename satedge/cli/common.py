"""What the commands that answer puzzles share: the job their options make for every puzzle
(:meth:`satedge.jobs.Job.make`, checked once, before any puzzle is read), answering it puzzle by
puzzle under its limits, and the words their output shares."""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from ..encode import DEFAULT_ENCODING, Encoding
from ..errors import OutOfMemory, SatedgeError
from ..jobs import Job, Result, run
from ..jobs.registry import declared
from ..puzzle.formats import load_puzzle
from ..puzzle.solutions import load_board
from ..sat.certify import DEFAULT_CHECKER, Certificate
from ..system.files import check_output, not_inputs
from ..system.limits import OutOfTime, OverMemory, within
from ..system.progress import progress_bar, status_line

__all__ = [
    "checker_of",
    "encoding_of",
    "job_of",
    "engine_of",
    "answered_by",
    "measured",
    "certificate_words",
    "needs_more_memory",
    "beyond_memory",
    "answer_file",
    "answers",
    "output_folder",
    "grid_options",
    "UNCHECKED",
]

PIPED_WIDTH = 120  # the columns a grid may take when the output is not a terminal
UNCHECKED = ", on the solver's word (unchecked)"  # an answer that rests on a binary's word


def grid_options() -> dict:
    """How a command draws a board (:func:`~satedge.puzzle.drawing.ascii_grid`'s ``color`` and
    ``width``): in colour on a terminal, and compact when wider than the terminal (or than
    :data:`PIPED_WIDTH` columns in a pipe or a file)."""
    tty = sys.stdout.isatty()
    return {"color": tty, "width": shutil.get_terminal_size().columns if tty else PIPED_WIDTH}


def engine_of(job: Job) -> str:
    """What answers a job, as a command's text line says it: ``edgecolor-corners, cadical195:sat``,
    ``backtrack:workers=2``, ``cpsat``."""
    return f"{job.encoding}, {job.solver}" if job.encoding is not None else str(job.solver)


def answered_by(job: Job, res: Result | None = None) -> dict:
    """What answers a job, as JSON output says it: ``solver`` and ``encoding`` (an engine with a
    model of its own names itself, its options the solver's: ``backtrack``), and ``checked:
    false`` where the answer rests on a solver binary's word that nothing checked
    (:attr:`Result.checked`)."""
    return {
        "encoding": job.encoding.name if job.encoding is not None else job.solver.engine,
        "solver": str(job.solver),
        **({"checked": False} if res is not None and not res.checked else {}),
    }


def measured(res: Result) -> dict:
    """What a job's work took, as JSON output gives it beside the command's ``seconds``: the
    formula's ``encode_seconds`` and the search's ``solve_seconds`` (a compiled loop's compile
    apart, in ``compile_seconds``: :meth:`Result.search_figures`), where known."""
    return {
        key: round(value, 6)
        for key, value in (("encode_seconds", res.encode_seconds), ("solve_seconds", res.solve_seconds))
        if value is not None
    }


def certificate_words(res: Result) -> str:
    """How a certified answer says so on its text line: ``, certified by dratify (a proof of N
    lemmas, K kB, checked in S s)``; empty for an answer without a certificate."""
    c = res.certificate
    if not res.checked:
        return UNCHECKED
    if c is None:
        return ""
    if not c.proved:
        return ", certified by satedge's checker"
    pieces = f" in {c.pieces} pieces" if c.pieces > 1 else ""
    early = f"{c.early:,} lemmas checked as it was logged, the rest" if c.early else "checked"
    return (
        f", certified by {c.checker} (a proof of {c.lemmas:,} lemmas{pieces}, {c.bytes / 1000:,.0f} kB, "
        f"{early} in {c.check_seconds:.2f} s{assumption_words(c)})"
    )


def assumption_words(c: Certificate) -> str:
    """What a certificate's text line adds when it assumes something (:attr:`Certificate.assumed`)."""
    if c.turned:
        return f"; its symmetry breaking proved, {c.turned} of its pieces turned from another"
    return "; its symmetry breaking assumed, not proved" if c.assumed else ""


def needs_more_memory(limit_mb: int) -> str:
    """How a command says that a formula does not fit under ``--memory``."""
    return f"needs more than {limit_mb} MB of memory (--memory MB to allow more)"


def beyond_memory(what: str, limit_mb: float | None) -> SatedgeError:
    return SatedgeError(f"{what} {needs_more_memory(int(limit_mb or 0))}")


def checker_of(args: argparse.Namespace) -> str | None:
    """The checker --certify and --checker name (``None``: no --certify); --checker and --proof
    without --certify are an error."""
    given = [o for o, v in (("--checker", args.checker), ("--proof", args.proof)) if v is not None]
    if given and not args.certify:
        raise SatedgeError(f"{given[0]} applies with --certify")
    if args.proof is not None and len(args.puzzles) > 1:
        raise SatedgeError(
            f"--proof writes the proof of one puzzle; {len(args.puzzles)} puzzles would write over "
            "each other's: give one puzzle per --proof folder"
        )
    return (args.checker or DEFAULT_CHECKER) if args.certify else None


def encoding_of(args: argparse.Namespace | SimpleNamespace) -> Encoding | None:
    """The encoding --encoding and its options name (options alone: of the command's default
    encoding, ``args.default_encoding``, else :data:`satedge.encode.DEFAULT_ENCODING`); ``None``
    when none of them is given."""
    if all(getattr(args, k, None) is None for k in ("encoding", "card", "symmetry", "redundant", "counts")):
        return None
    redundant = None if args.redundant is None else args.redundant == "true"
    counts = None if getattr(args, "counts", None) is None else [w for w in args.counts.split(",") if w]
    default = getattr(args, "default_encoding", DEFAULT_ENCODING)
    return Encoding.parse(args.encoding or default).with_options(
        card=args.card, symmetry=args.symmetry, redundant=redundant, counts=counts
    )


def job_of(args: argparse.Namespace, task: str) -> Job:
    """The job a command's options make for every puzzle (:meth:`satedge.jobs.Job.make`),
    checked before any puzzle is read; an option the command does not have counts as not given."""
    checker = checker_of(args)
    if args.puzzles.count("-") > 1:
        raise SatedgeError("- (standard input) is named more than once: it can be read once")
    solver_cmd = getattr(args, "solver_cmd", None)
    mode = getattr(args, "mode", None)
    limit = getattr(args, "limit", None)
    if task == "solve" and limit is None and not getattr(args, "all", False):
        limit = 1  # a first solution
    encoding = encoding_of(args)
    return Job.make(
        None,
        task,
        method=args.method,
        solver="cmd:" + solver_cmd if solver_cmd is not None else args.solver,
        encoding=encoding,
        workers=args.workers,
        timeout=args.timeout,
        memory_mb=args.memory,
        shuffle=args.shuffle,
        scheduler=getattr(args, "scheduler", None),
        certify=checker,
        proof=args.proof,
        modes=(mode,) if mode else None,
        limit=limit,
        **{name: getattr(args, name, None) for name in declared(task)},  # the engines' flags
    )


def answers(args: argparse.Namespace, task: str, outputs: tuple = (), **fields: Any) -> Iterator[tuple]:
    """The job the command's options make (:func:`job_of`; the files ``outputs`` names may not be
    puzzles, and must be writable), checked before any puzzle is read, then each puzzle file
    :func:`answer_file` in turn, as ``(path, puzzle, job, result, seconds)``, ``seconds`` from
    reading the file to the answer: a single job shows its own progress (on a terminal), several
    a progress bar of the puzzles."""
    request = job_of(args, task)
    not_inputs(list(outputs), args.puzzles)
    for out in outputs:  # a file that could not be written at the end is refused before the work
        check_output(out)
    with nullcontext() if len(args.puzzles) == 1 else progress_bar(len(args.puzzles), task, "puzzle") as bar:
        for path in args.puzzles:
            try:
                answered = answer_file(path, request, progress=bar is None and sys.stderr.isatty(), **fields)
            except (KeyboardInterrupt, SystemExit) as e:  # Ctrl-C, kill: a best board so far, then stop
                best, stopped = getattr(e, "best", None), getattr(e, "job", None)
                if best is None or stopped is None:
                    raise
                yield path, stopped.puzzle, stopped, best, None
                kept = "what it had counted" if task == "count" else "its best board so far"
                print(f"satedge: interrupted: {task} stopped with {kept} ({path})", file=sys.stderr)
                setattr(e, "said", True)  # nothing more to say
                raise
            yield answered
            if bar is not None:
                bar.update()


def answer_file(path: str, request: Job, **fields: Any) -> tuple:
    """Read the puzzle ``path``, make its job (``request``'s for it, :meth:`satedge.jobs.Job.of`) and run it
    (:func:`satedge.jobs.run`), all under the request's limits
    (:func:`satedge.system.limits.within`): from reading the file to the answer, this process's
    work (the size checks) as well as the job's; ``(path, puzzle, job, result, seconds)``.  A
    time that runs out is a ``TIMEOUT`` result (with the puzzle and the job when they were made);
    a memory cap passed here is the one-line error of a job's.  The job's errors are one line
    naming the puzzle file, beyond the memory cap ``FILE: solving needs more than N MB of
    memory``; a job that asks for its progress shows it on a status line (on a terminal); an
    answer that ``--proof`` has nothing to write for says so on stderr.  ``start_from``: a
    board file the job starts from (``Job.start``)."""
    puzzle = job = None
    t0 = time.perf_counter()
    start_from = fields.pop("start_from", None)
    try:
        with within(request.limits.timeout, request.limits.memory_mb) as left:
            puzzle = load_puzzle(path)
            if start_from is not None:
                fields["start"] = load_board(start_from, puzzle)
            job = request.of(puzzle, timeout=left(), **fields)
            with status_line(f"{path}: {engine_of(job)}") as show:
                res = run(job, progress=show if job.progress else None)
    except OutOfTime as e:  # a maximisation's best board so far, where the job had noted one
        res = getattr(e, "best", None) or Result("TIMEOUT")
    except OverMemory:
        raise beyond_memory(f"{path}: reading and preparing its job", request.limits.memory_mb) from None
    try:
        res.raise_error("solving")
    except OutOfMemory as e:
        raise beyond_memory(f"{path}: solving", e.memory_mb) from None
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None
    if not res.checked and job is not None:
        print(
            f"satedge: warning: {path}: the answer rests on the word of {job.solver}, which nothing "
            "checked: --certify checks it with a DRAT proof",
            file=sys.stderr,
        )
    if request.proof is not None and not (Path(request.proof) / "manifest.json").is_file():
        print(
            f"satedge: warning: {path}: {_unwritten(request.task, res)}: --proof {request.proof} left as it was",
            file=sys.stderr,
        )
    return path, puzzle, job, res, time.perf_counter() - t0


def _unwritten(task: str, res: Result) -> str:
    """Why an answer left nothing for ``--proof`` to write."""
    if res.status in ("TIMEOUT", "INTERRUPTED"):
        return "stopped before its answer was proved, nothing to write"
    if task == "maximize" and res.score is not None and res.score == res.bound:
        return "every edge fits, which the checker confirmed: nothing to prove"
    return "nothing to prove, each solution given is checked by satedge's checker"


def output_folder(path: Path, when: str) -> None:
    """Make the folder ``-o`` names (and its parents); a file there is an error."""
    if path.exists() and not path.is_dir():
        raise SatedgeError(f"-o must be a folder {when}", path)
    path.mkdir(parents=True, exist_ok=True)
