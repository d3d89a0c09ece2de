"""What a long command is doing, on stderr, shown only when stderr is a terminal (tqdm, loaded
then and only then): a progress bar over many items, and a status line of one job's own
progress."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator

__all__ = ["progress_bar", "describe", "status_line"]


class _Silent:
    """A bar that shows nothing: stderr is not a terminal (a pipe, a log)."""

    n = 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix_str(self, text: str, refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> "_Silent":
        return self

    def __exit__(self, *exc) -> None:
        pass


def _bar(**kwargs):
    if not sys.stderr.isatty():
        return _Silent()
    from tqdm import tqdm

    return tqdm(file=sys.stderr, leave=False, dynamic_ncols=True, **kwargs)


def progress_bar(total: int | None, what: str, unit: str):
    """A bar of ``total`` steps named ``what`` (a context manager; ``update()`` per step); silent
    when stderr is not a terminal, so pipes and logs get no bar."""
    return _bar(total=total, desc=what, unit=unit)


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
    bar = _bar(total=None, desc=what, bar_format="{desc}: {elapsed}{postfix}")
    try:
        yield lambda report: bar.set_postfix_str(describe(report), refresh=True)
    finally:
        bar.close()
