"""What a long command is doing, on stderr, shown only when stderr is a terminal (tqdm): a
progress bar over many items, and a status line of one job's own progress."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator

from tqdm import tqdm

__all__ = ["progress_bar", "describe", "status_line"]


def progress_bar(total: int | None, what: str, unit: str) -> tqdm:
    """A bar of ``total`` steps named ``what`` (a context manager; ``update()`` per step); silent
    when stderr is not a terminal, so pipes and logs get no bar."""
    return tqdm(total=total, desc=what, unit=unit, file=sys.stderr, disable=not sys.stderr.isatty(),
                dynamic_ncols=True, leave=False)


def describe(report: dict) -> str:
    """A job's progress report in words: the backtracker's nodes and their rate, a SAT solver's
    conflicts.

    >>> describe({"nodes": 2500000, "seconds": 2.0}), describe({"conflicts": 40000, "seconds": 3.5})
    ('2,500,000 nodes, 1,250,000 nodes/s', '40,000 conflicts, 11,429 conflicts/s')
    """
    for key in ("nodes", "conflicts"):
        if key in report:
            rate = report[key] / report["seconds"] if report.get("seconds") else 0
            return f"{report[key]:,} {key}, {rate:,.0f} {key}/s"
    return ""


@contextmanager
def status_line(what: str) -> Iterator[Callable[[dict], None]]:
    """A line on stderr (on a terminal only) with the time spent and the last progress report of
    a job; the block gets the callable that takes each report."""
    bar = tqdm(total=None, desc=what, bar_format="{desc}: {elapsed}{postfix}", file=sys.stderr,
               disable=not sys.stderr.isatty(), leave=False, dynamic_ncols=True)
    try:
        yield lambda report: bar.set_postfix_str(describe(report), refresh=True)
    finally:
        bar.close()
