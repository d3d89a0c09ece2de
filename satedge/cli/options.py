"""The command line's parser (satedge's one-line errors and exit status 2, defaults in the help,
an option given once) and the options several commands take, with their types and defaults."""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Callable, Sequence
from difflib import get_close_matches
from typing import Any, NoReturn

from ..encode import DEFAULT_ENCODING
from ..errors import SatedgeError
from ..jobs.job import policy
from ..jobs.registry import declared, engines, methods
from ..jobs.solver import SolverConfig, by_name
from ..puzzle.shuffle import MAX_SEED
from ..puzzle.symmetry import MODES
from ..sat.certify import CHECKERS, DEFAULT_CHECKER
from ..system.cluster import BATCH_SYSTEMS, Batch
from ..system.files import quoted
from ..system.process import MAX_MEMORY_MB, MAX_TIMEOUT, MAX_WORKERS, default_memory_mb

__all__ = [
    "Help",
    "Parser",
    "number",
    "seconds",
    "add_puzzles",
    "add_memory",
    "add_encoding",
    "add_method",
    "add_method_choice",
    "add_engine_options",
    "add_certify",
    "memory_limit",
]


class Help(argparse.HelpFormatter):
    """Every option's help ends with its default, unless it has none or says it already; lines
    break between words only, never inside a word with a hyphen (OR-Tools, --solver-cmd)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if (
            action.option_strings
            and action.default not in (None, False, "", argparse.SUPPRESS)
            and "default" not in text
        ):
            text += " (default: %(default)s)"
        return text


class _Once(argparse._StoreAction):
    """An option that takes a value once: given again, it is an error, not a silent override."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given: set[str] = getattr(namespace, "_given", set())
        if self.dest in given:
            parser.error(f"{option_string} is given twice: give it once")
        namespace._given = given | {self.dest}
        super().__call__(parser, namespace, values, option_string)


class Parser(argparse.ArgumentParser):
    """argparse with the project's one-line error and exit status 2, defaults in the help, and
    an option that takes a value given once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Help)
        super().__init__(*args, **kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[Any, list[str]]:
        for action in self._actions:  # those of its groups too
            if type(action) is argparse._StoreAction and action.option_strings:
                action.__class__ = _Once
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
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
            commands = {
                name: p
                for a in self._actions
                if isinstance(a, argparse._SubParsersAction)
                for name, p in a.choices.items()
            }  # the command's options: unrecognized at the top
            choices = [o for p in [self, *commands.values()] for a in p._actions for o in a.option_strings]
            word = typed.group(1).partition("=")[0]
            having = [
                name for name, p in commands.items() if any(word in a.option_strings for a in p._actions)
            ]
            if having:  # spelled right, given to a command that has it not
                names = sorted(having)
                listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
                return f" ({word} is an option of {listed}, not of this command)"
        close = get_close_matches(word, choices, 1, 0.8)
        return f" (did you mean {close[0]}?)" if close else ""


def number(low: int = 1, high: int = 10**9) -> Callable[[str], int]:
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
        raise argparse.ArgumentTypeError(
            f"must be at most {MAX_TIMEOUT:,} seconds, not {quoted(text, 30)[1:-1]}"
        )
    return t


# ---------------------------------------------------------------------------- option groups
def add_memory(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--memory",
        type=number(1, MAX_MEMORY_MB),
        metavar="MB",
        help="stop with an error (exit 2) once the "
        "job's whole process tree holds more than this; pages forked workers share count once (default: "
        "80%% of the memory available at the start)",
    )


def add_puzzles(
    p: argparse.ArgumentParser, dest: str = "puzzles", metavar: str = "PUZZLE", several: bool = True
) -> None:
    """The positional argument of the puzzle files a command reads, and the formats it reads."""
    formats = ".yaml, .puz, .txt, tile_dict.yaml"
    p.add_argument(
        dest,
        nargs="+" if several else None,
        metavar=metavar,
        help=f"puzzle files ({formats})" if several else f"a puzzle file ({formats})",
    )


def add_encoding(p: argparse.ArgumentParser, default: str = DEFAULT_ENCODING) -> None:
    p.add_argument(
        "--encoding",
        metavar="PRESET|BASE",
        help=f"a preset, a base encoding, a preset file or an encoding of your own (FILE.py:FUNCTION, "
        f"package.module:FUNCTION, an installed package's by name), with options after + if you like "
        f"(edgecolor+card=ladder); see `satedge encodings` (default: {default})",
    )
    p.set_defaults(default_encoding=default)
    p.add_argument(
        "--card",
        help="exactly-one encoding: pairwise, seqcounter, ladder, totalizer, bitwise, "
        "sortnetwrk, cardnetwrk, mtotalizer, kmtotalizer (default: the encoding's)",
    )
    p.add_argument(
        "--symmetry",
        choices=["none", "rotation"],
        help="break the board-rotation symmetry (default: the encoding's)",
    )
    p.add_argument(
        "--redundant", choices=["true", "false"], help="add implied clauses (default: the encoding's)"
    )
    p.add_argument(
        "--counts",
        metavar="FAMILY[,FAMILY]",
        help="add the puzzle's global counts: sides (how many sides of each class show each label), "
        "signs (the tiles on the black squares of a chessboard, tile-signed), tiles (each tile on one "
        "cell), each with a card encoding if you like (sides:seqcounter); "
        "'' for none (default: the encoding's)",
    )
    p.add_argument(
        "--shuffle",
        type=number(0, MAX_SEED - 1),
        metavar="SEED",
        help="work on the puzzle with its "
        "tiles reordered and turned by this seed (a SAT formula also gets its variables renumbered and "
        "its clauses reordered); solutions are given in the puzzle's own numbering (default: no shuffle)",
    )


def engines_by_name(task: str) -> str:
    """The engines a solver string names by themselves for ``task``, each with what it does
    and the extra it needs (the engine table's words: for ``maximize`` its maximize task's, which
    differ from what it does to solve): ``--solver``'s help."""
    return "; ".join(
        f"{e.name}: {(e.tasks[task].summary or e.summary) if task == 'maximize' else e.summary}"
        + (f" (extra {e.needs.extra})" if e.needs and e.needs.extra else "")
        for e in engines().values()
        if by_name(e.name) and task in e.tasks
    )


def add_method(p: argparse.ArgumentParser, counting: bool) -> None:
    task = "count" if counting else "solve"
    add_method_choice(p, task)
    add_encoding(p)
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--solver",
        help=f"a PySAT solver name (default: {SolverConfig()}, CaDiCaL in its sat configuration; see "
        "`satedge solvers`); "
        "CaDiCaL takes options after a colon: its configurations sat and unsat, and seed=N "
        f"(cadical195:sat,seed=2); or an engine by its name: {engines_by_name(task)}",
    )
    which.add_argument(
        "--solver-cmd",
        metavar="COMMAND",
        help="a DIMACS solver binary instead, e.g. 'cadical -q' "
        "(run on the exported CNF; enumeration re-runs it with blocking clauses) (default: none)",
    )
    p.add_argument(
        "--workers",
        "--cpsat-workers",
        type=number(1, MAX_WORKERS),
        metavar="N",
        help="processes: of the SAT method (see --strategy), of the backtracker, or search workers of "
        "--solver cpsat (default: every core with --method auto, else 1, for fair comparisons)",
    )
    add_engine_options(p, task)
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the job's parts on this Dask cluster (extra dist), "
        "each under --timeout and --memory; --workers N: N parts at a time (default: the cluster's cores)",
    )
    add_cluster(p)
    p.add_argument(
        "--timeout",
        type=seconds,
        metavar="SECONDS",
        help="kill the job and every process it started "
        "after this long: status TIMEOUT, exit 3 (default: no limit)",
    )
    add_memory(p)
    add_certify(
        p,
        "certify the answer: DRAT proofs, logged as the models are found, that the formula (with the "
        "blocking clauses of the models found) has no further model, checked before anything is printed, in "
        "parts on --workers N processes (one proof per cube with --strategy cubes) (the SAT method; extra "
        "certify)",
    )
    if counting:
        p.add_argument(
            "--mode",
            choices=MODES,
            help="count only this; classes: pictures up to every symmetry of the puzzle (board turns "
            "and mirrors with the relabellings that keep its tiles and rules), which it names "
            "(default: solutions, distinct and unique)",
        )
    else:
        p.add_argument(
            "--mode",
            choices=MODES,
            help="with --all or --limit: every solution, one per picture, one per picture up to "
            "turns, or one per picture up to the puzzle's symmetries (default: solutions)",
        )
        p.add_argument(
            "--limit",
            type=number(),
            metavar="N",
            help="at most N solutions (implies --all) (default: 1, or every one with --all)",
        )


def add_engine_options(p: argparse.ArgumentParser, task: str) -> None:
    """``--NAME`` for each option the engines that run ``task`` declare for its command
    (:func:`satedge.jobs.registry.declared`): a choice's choices, a free value as text, read and
    checked by the option itself when the job is made."""
    for option in declared(task).values():
        p.add_argument(
            f"--{option.name}",
            choices=list(option.choices) or None,
            metavar=option.metavar,
            help=option.help,
        )


def add_method_choice(p: argparse.ArgumentParser, task: str) -> None:
    """``--method``: its choices for ``task`` and what each does, as the engines declare it (``sat``:
    as the default solver's engine does it)."""
    formula = SolverConfig().declared.tasks[task].summary
    named = [
        f"{e.name}: {e.tasks[task].summary or e.summary}"
        for e in engines().values()
        if e.method and task in e.tasks
    ]
    p.add_argument(
        "--method",
        choices=list(methods(task)),
        default="auto",
        help="; ".join([f"auto: {policy(task)}", f"sat: {formula}", *named]),
    )


def add_certify(p: argparse.ArgumentParser, what: str) -> None:
    """--certify (``what`` it does), --checker and --proof."""
    p.add_argument("--certify", action="store_true", help=what)
    p.add_argument(
        "--checker",
        choices=list(CHECKERS),
        help=f"with --certify: the proof checker, dratify (fast) or "
        f"drup (formally verified, slow) (default: {DEFAULT_CHECKER})",
    )
    p.add_argument(
        "--proof",
        metavar="DIR",
        help="with --certify: write the certificate there as checked: the formula "
        "(formula.cnf), each piece's clauses and DRAT proof (pieces/) and manifest.json, for check-proof "
        "and checkers of your own (default: none)",
    )


def memory_limit(limit_mb: int | None) -> int | None:
    """``--memory``, by default 80% of the memory available now."""
    return default_memory_mb() if limit_mb is None else limit_mb


def add_cluster(p: argparse.ArgumentParser) -> None:
    """``--cluster slurm`` and its options: Dask workers started as batch jobs for the command
    and ended with it (:class:`satedge.system.cluster.Batch`, extra ``hpc``)."""
    p.add_argument(
        "--cluster",
        choices=BATCH_SYSTEMS,
        help="run the parts on Dask workers started as batch jobs on this queue system for the command, "
        "ended with it (dask-jobqueue, extra hpc), instead of --scheduler (default: none)",
    )
    p.add_argument("--queue", help="with --cluster: the queue (Slurm's partition) (default: its default)")
    p.add_argument(
        "--jobs", type=number(1, 10_000), metavar="N", help="with --cluster: worker jobs (default: 1)"
    )
    p.add_argument(
        "--job-cores",
        type=number(1, 10_000),
        metavar="N",
        help="with --cluster: cores per worker job, its task threads (default: 1)",
    )
    p.add_argument(
        "--job-memory", metavar="SIZE", help="with --cluster: memory per worker job, e.g. 4GB (default: 2GB)"
    )
    p.add_argument(
        "--walltime",
        metavar="HH:MM:SS",
        help="with --cluster: each worker job's time limit (default: 01:00:00)",
    )


def scheduler_of(args: argparse.Namespace) -> str | None:
    """The scheduler the command's options name: ``--scheduler``'s address, or the batch cluster
    of ``--cluster`` and its options (its string form: :class:`satedge.system.cluster.Batch`);
    the command line sets ``args.scheduler`` to it once the options are parsed."""
    system = getattr(args, "cluster", None)
    given = {
        "queue": getattr(args, "queue", None),
        "jobs": getattr(args, "jobs", None),
        "cores": getattr(args, "job_cores", None),
        "memory": getattr(args, "job_memory", None),
        "walltime": getattr(args, "walltime", None),
    }
    flags = {
        "queue": "--queue",
        "jobs": "--jobs",
        "cores": "--job-cores",
        "memory": "--job-memory",
        "walltime": "--walltime",
    }
    if system is None:
        stray = [flags[k] for k, v in given.items() if v is not None]
        if stray:
            raise SatedgeError(f"{stray[0]} goes with --cluster slurm")
        return getattr(args, "scheduler", None)
    if getattr(args, "scheduler", None):
        raise SatedgeError("--cluster starts its own Dask workers: give it or --scheduler, not both")
    for key in ("memory", "walltime", "queue"):
        word = given[key]
        if isinstance(word, str) and (not word.strip() or any(c in word for c in ",= \n")):
            raise SatedgeError(f"{flags[key]} {quoted(word, 30)}: one word, no comma or equals sign")
    return str(Batch.parse(f"{system}:" + ",".join(f"{k}={v}" for k, v in given.items() if v is not None)))
