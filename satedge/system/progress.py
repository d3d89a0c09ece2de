"""What a long command is doing, on stderr, shown only when stderr is a terminal (tqdm, loaded
then and only then): a progress bar over many items, and a status line of one job's own
progress."""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "REPORT_SECONDS",
    "STAGES",
    "UNKNOWN_WIDTH",
    "UNKNOWN_ROWS",
    "progress_bar",
    "describe",
    "fitted",
    "status_line",
]


class _Silent:
    """A bar that shows nothing: stderr is not a terminal (a pipe, a log)."""

    n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


UNKNOWN_WIDTH, UNKNOWN_ROWS = (
    80,
    24,
)  # the size assumed where a terminal reports none (0 x 0: script, some CI)


def _bar(**kwargs: Any) -> Any:
    if not sys.stderr.isatty():
        return _Silent()
    from tqdm import tqdm

    try:
        known = min(os.get_terminal_size(sys.stderr.fileno())) > 0
    except OSError:
        known = False
    # tqdm hides a line below a terminal's last row: of no rows, every line
    size = {"dynamic_ncols": True} if known else {"ncols": UNKNOWN_WIDTH, "nrows": UNKNOWN_ROWS}
    return tqdm(file=sys.stderr, leave=False, **size, **kwargs)


@contextmanager
def progress_bar(total: int | None, what: str, unit: str, initial: int = 0) -> Iterator:
    """A bar of ``total`` steps named ``what``, ``initial`` of them done before (a context
    manager; ``update()`` per step), whose clock goes on between steps; silent when stderr is
    not a terminal, so pipes and logs get no bar."""
    with _ticking(_bar(total=total, desc=what, unit=unit, initial=initial)) as bar:
        yield bar


@contextmanager
def _ticking(bar: Any) -> Iterator:
    """``bar`` redrawn every second, so that its clock goes on while nothing else changes; closed
    at the end."""
    stop = threading.Event()
    if not isinstance(bar, _Silent):

        def tick() -> None:
            while not stop.wait(1.0):
                bar.refresh()

        threading.Thread(target=tick, daemon=True).start()
    try:
        yield bar
    finally:
        stop.set()
        bar.close()


REPORT_SECONDS = 1.0  # how often a long search reports what it has done (a status line shows it)
STAGES = ("reading", "encoding", "solving", "checking", "certifying")


def describe(report: dict) -> str:
    """A job's progress report in words: its stage (one of :data:`STAGES`; ``solving`` unless it
    says, a maximisation's best score in its place), the solutions found so far, and the
    backtracker's nodes (placements: a tile put in a cell in one turn that fits its placed
    neighbours; every worker's, summed) or a SAT solver's conflicts, and their rate: the most
    telling first, as a narrow terminal cuts the end off.

    >>> describe({"nodes": 2500000, "seconds": 2.0, "solutions": 12})
    'solving, 12 solutions so far, 2,500,000 placements, 1,250,000 placements/s'
    >>> describe({"stage": "encoding"}), describe({"conflicts": 40000, "seconds": 3.5})
    ('encoding', 'solving, 40,000 conflicts, 11,429 conflicts/s')
    >>> describe({"score": 452, "bound": 480, "nodes": 10**6, "seconds": 1.0})
    'best score 452 (at most 480), 1,000,000 placements, 1,000,000 placements/s'
    >>> describe({"score": 37, "bound": 40, "allowed": 2, "nodes": 10**6, "seconds": 1.0})
    'best score 37 (at most 40), budget 2 misfits, 1,000,000 placements, 1,000,000 placements/s'
    >>> describe({"stage": "checking", "checked": 3, "proofs": 12, "lemmas": 47000, "checker": "drup"})
    'checking, 3 of 12 proofs checked by drup (47,000 lemmas in all)'

    """
    # a maximisation's best score comes first, in the place of the stage it is in while it
    # searches, so that a narrow line keeps it
    words = [] if "score" in report and "stage" not in report else [report.get("stage", "solving")]
    if "proofs" in report:  # check-proof: the pieces' proofs checked so far
        words.append(
            f"{report['checked']:,} of {report['proofs']:,} proof{'s' * (report['proofs'] != 1)} checked by "
            f"{report['checker']} ({report['lemmas']:,} lemmas in all)"
        )
    if "score" in report:  # a maximisation: its best board so far
        words.append(f"best score {report['score']:,} (at most {report['bound']:,})")
    if "allowed" in report:  # the budget of misfits whose boards a search is looking for
        words.append(f"budget {report['allowed']:,} misfit{'s' * (report['allowed'] != 1)}")
    for key in ("solutions", "pictures"):
        if report.get(key):
            words.append(f"{report[key]:,} {key} so far")
    for key, unit in (("nodes", "placements"), ("conflicts", "conflicts")):
        if key in report:
            rate = report[key] / report["seconds"] if report.get("seconds") else 0
            words.append(f"{report[key]:,} {unit}, {rate:,.0f} {unit}/s")
            break
    return ", ".join(words)


@contextmanager
def status_line(what: str) -> Iterator[Callable[[dict], None]]:
    """A line on stderr (on a terminal only) with the time spent and the last progress report of
    a job; the block gets the callable that takes each report."""
    with _ticking(_bar(total=None, desc=what, bar_format="{desc}: {elapsed}{postfix}")) as bar:
        bar.set_postfix_str("starting", refresh=True)
        yield lambda report: bar.set_postfix_str(
            fitted(describe(report), _columns() - len(what) - 10), refresh=True
        )


def fitted(text: str, room: int) -> str:
    """``text`` (fields separated by ``, ``) cut to its first fields that fit in ``room``
    characters, whole, so that a narrow terminal never shows half a number.

    >>> fitted("best score 428 (at most 480), 1,000 placements, 1,000 placements/s", 40)
    'best score 428 (at most 480)'
    """
    fields = text.split(", ")
    while len(fields) > 1 and len(", ".join(fields)) > room:
        fields.pop()
    return ", ".join(fields)


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns or UNKNOWN_WIDTH
    except OSError:
        return UNKNOWN_WIDTH
