"""What the commands share: the parser with satedge's one-line errors, answering a request
puzzle by puzzle under its limits, and the words their output shares."""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
import time
from difflib import get_close_matches
from pathlib import Path
from typing import Iterator

from ..api import Request
from ..errors import OutOfMemory, SatedgeError
from ..jobs import Job, Result, run
from ..puzzle.formats import load_puzzle
from ..puzzle.model import Puzzle
from ..system.files import digits
from ..system.limits import OutOfTime, OverMemory, within
from ..system.progress import progress_bar, status_line

__all__ = [
    "Help", "Parser", "many", "engine_of", "answered_by", "unproved", "certified", "needs_more_memory",
    "beyond_memory", "answered", "run_job", "answers", "output_folder"
]


class Help(argparse.HelpFormatter):
    """Every option's help ends with its default, unless it has none or says it already; lines
    break between words only, never inside a word with a hyphen (OR-Tools, --solver-cmd)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _get_help_string(self, action) -> str:
        text = action.help or ""
        if action.option_strings and action.default not in (None, False, "", argparse.SUPPRESS) and "default" not in text:
            text += " (default: %(default)s)"
        return text


class _Once(argparse._StoreAction):
    """An option that takes a value once: given again, it is an error, not a silent override."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, "_given", set())
        if self.dest in given:
            parser.error(f"{option_string} is given twice: give it once")
        namespace._given = given | {self.dest}
        super().__call__(parser, namespace, values, option_string)


class Parser(argparse.ArgumentParser):
    """argparse with the project's one-line error and exit status 2, defaults in the help, and
    an option that takes a value given once."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", Help)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args=None, namespace=None):
        for action in self._actions:  # those of its groups too
            if type(action) is argparse._StoreAction and action.option_strings:
                action.__class__ = _Once
        return super().parse_known_args(args, namespace)

    def error(self, message: str):  # noqa: D401
        raise SatedgeError(message + self._did_you_mean(message))

    def _did_you_mean(self, message: str) -> str:
        """`` (did you mean X?)`` for a mistyped command, choice or option, where one is close."""
        typed = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
        if typed:
            choices = [c.strip(" '") for c in typed.group(2).split(",")]
            word = typed.group(1)
        else:
            typed = re.search(r"unrecognized arguments: (-\S+)", message)
            if not typed:
                return ""
            parsers = [self] + [p for a in self._actions if isinstance(a, argparse._SubParsersAction)
                                for p in a.choices.values()]  # the command's options: unrecognized at the top
            choices = [o for p in parsers for a in p._actions for o in a.option_strings]
            word = typed.group(1).partition("=")[0]
        close = get_close_matches(word, choices, 1, 0.8)
        return f" (did you mean {close[0]}?)" if close else ""


def many(n: int, thing: str) -> str:
    """'1 solution', '2 solutions': a count (of any size) and its noun, in the plural unless it is one."""
    return f"{digits(n)} {thing}{'s' * (n != 1)}"


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
    if folder is not None and res.certificate is not None and not res.certificate.proved:
        print(f"satedge: warning: {path}: nothing to prove, each solution given is checked by satedge's checker: "
              f"--proof {folder} left as it was", file=sys.stderr)


def certified(res: Result) -> str:
    """How a certified answer says so on its text line: ``, certified by dratify (a proof of N
    lemmas, K kB, checked in S s)``; empty for an answer without a certificate."""
    c = res.certificate
    if c is None:
        return ""
    if not c.proved:
        return ", certified by satedge's checker"
    pieces = f" in {c.pieces} pieces" if c.pieces > 1 else ""
    early = f"{c.early:,} lemmas checked as it was logged, the rest" if c.early else "checked"
    return (f", certified by {c.checker} (a proof of {c.lemmas:,} lemmas{pieces}, {c.bytes / 1000:,.0f} kB, "
            f"{early} in {c.check_seconds:.2f} s)")


def needs_more_memory(limit_mb: int) -> str:
    """How a command says that a formula does not fit under ``--memory``."""
    return f"needs more than {limit_mb} MB of memory (--memory MB to allow more)"


def beyond_memory(what: str, limit_mb: float) -> SatedgeError:
    return SatedgeError(f"{what} {needs_more_memory(int(limit_mb))}")


def answered(path: str, request: Request, **fields) -> tuple[Puzzle | None, Job | None, Result]:
    """Read the puzzle ``path``, make its job (:meth:`satedge.api.Request.job`) and run it
    (:func:`run_job`), all under the request's limits (:func:`satedge.system.limits.within`):
    from reading the file to the answer, this process's work (the size checks) as well as the
    job's.  A time that runs out is a ``TIMEOUT`` result (with the puzzle and the job when they
    were made); a memory cap passed here is the one-line error of a job's."""
    puzzle = job = None
    with within(request.limits.timeout, request.limits.memory_mb) as left:
        try:
            puzzle = load_puzzle(path)
            job = request.job(puzzle, timeout=left(), **fields)
            return puzzle, job, run_job(path, job)
        except OutOfTime:
            return puzzle, job, Result("TIMEOUT")
        except OverMemory:
            raise beyond_memory(f"{path}: reading and preparing its job", request.limits.memory_mb) from None


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


def answers(paths: list[str], request: Request, what: str, **fields) -> Iterator[tuple]:
    """Each puzzle file of ``paths`` :func:`answered` in turn, as ``(path, puzzle, job, result,
    seconds)``, ``seconds`` from reading the file to the answer: a single job shows its own
    progress (on a terminal), several a progress bar of the puzzles."""
    if len(paths) == 1:
        yield _timed(paths[0], request, dict(fields, progress=sys.stderr.isatty()))
        return
    with progress_bar(len(paths), what, "puzzle") as bar:
        for path in paths:
            yield _timed(path, request, dict(fields, progress=False))
            bar.update()


def _timed(path: str, request: Request, fields: dict) -> tuple:
    t0 = time.perf_counter()
    return (path, *answered(path, request, **fields), time.perf_counter() - t0)


def output_folder(path: Path, when: str) -> None:
    """Make the folder ``-o`` names (and its parents); a file there is an error."""
    if path.exists() and not path.is_dir():
        raise SatedgeError(f"-o must be a folder {when}", path)
    path.mkdir(parents=True, exist_ok=True)
