"""The ``satedge`` command: one small module per command, each of which parses its options into
satedge's values (:class:`satedge.jobs.Job`, :class:`satedge.sat.solvers.SolverConfig`,
:class:`satedge.encode.Encoding`, ...), calls the library and prints.

Exit statuses: 0 success, 1 a negative answer (UNSAT, an invalid solution, a mismatch), 2 bad
input or an error (one line ``satedge: error: ...`` on stderr), 3 timeout, 130 interrupted.
"""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
import threading
from types import FrameType
from typing import NoReturn

from ..errors import EncodingError, SatedgeError
from ..system.files import cut
from ..system.proctree import sweep
from ..system.resources import __version__
from . import (
    check,
    check_proof,
    convert,
    count,
    crosscheck,
    decode,
    encode,
    encodings,
    generate,
    maximize,
    puzzles,
    render,
    report,
    run,
    solve,
    solvers,
)
from .options import Parser, scheduler_of

__all__ = ["COMMANDS", "EXIT_STATUSES", "build_parser", "main"]

COMMANDS = (
    solve,
    count,
    maximize,
    encodings,
    encode,
    decode,
    solvers,
    puzzles,
    generate,
    crosscheck,
    run,
    report,
    render,
    check,
    check_proof,
    convert,
)
EXIT_STATUSES = (
    "exit statuses: 0 success, 1 a negative answer (UNSAT, an invalid solution, a mismatch), 2 bad input "
    "or an error (one line 'satedge: error: ...'), 3 timeout, 130 interrupted"
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="satedge", description="Edge-matching puzzles and their SAT encodings.", epilog=EXIT_STATUSES
    )
    parser.add_argument("--version", action="version", version=f"satedge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        command.add(sub)
    return parser


def _stop(signum: int, frame: FrameType | None) -> NoReturn:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    """Run one command; ``kill`` (SIGTERM) and a closed terminal (SIGHUP) stop it as Ctrl-C does,
    so that it leaves no child process (a solving job, an experiment's runs) and no temporary
    file behind."""
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {sig: signal.signal(sig, _stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    sweep()  # the scratch folders of satedge processes that were killed before they could remove them
    try:
        return _main(argv)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    command = None
    try:
        args = parser.parse_args(argv)
        command = args.command
        args.typed = "satedge " + shlex.join(sys.argv[1:] if argv is None else argv)  # as a header records it
        if args.command is None:
            parser.print_help()
            return 2
        if hasattr(args, "cluster"):  # --cluster and its options, as the scheduler they name
            args.scheduler = scheduler_of(args)
        return args.func(args)
    except (SatedgeError, EncodingError) as e:
        print(f"satedge: error: {cut(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as e:  # a folder that cannot be made, a disk that is full: the file system's word for it
        where = f"{e.filename}: " if e.filename else ""
        print(f"satedge: error: {cut(where + (e.strerror or str(e)))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:  # Ctrl-C: what stopped, in one line (a command that says more has said it)
        if not getattr(e, "said", False):
            print(
                f"satedge: interrupted: {command or 'satedge'} stopped before its answer, with every process it "
                "started; no file is left half-written",
                file=sys.stderr,
            )
        return 130
