"""The ``lns`` engine: the large-neighbourhood search of best boards
(:func:`satedge.backtrack.lns.search`), on ``workers`` processes until a second before the job's
time limit, each better board noted as it is found (a stopped job's result keeps the last)."""

from __future__ import annotations

from ..backtrack import lns
from ..system.extras import Need
from .result import Note, Result, Work
from .shared import anytime

__all__ = ["needs", "run"]

needs = Need(module="scipy", extra="stats")  # the swaps' assignment problems


def run(job: Work, note: Note | None = None) -> Result:
    """The best board the search finds in the job's time; it proves nothing (status
    ``TIMEOUT``) unless every edge fits."""
    return anytime(job, note, lns.search, "the large-neighbourhood search")
