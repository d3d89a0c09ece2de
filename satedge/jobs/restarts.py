"""The ``restarts`` engine: restarts of the budgeted search with a schedule of misfits
(:func:`satedge.backtrack.restarts.search`), on ``workers`` processes until a second before the
job's time limit, each better board noted as it is found (a stopped job's result keeps the last)."""

from __future__ import annotations

from ..backtrack import restarts
from ..system.extras import Need
from .result import Note, Result, Work
from .shared import anytime

__all__ = ["needs", "run"]

needs = Need(module="scipy", extra="stats")  # the assignments that fill a restart's board


def run(job: Work, note: Note | None = None) -> Result:
    """The best board the restarts find in the job's time; it proves nothing (status
    ``TIMEOUT``) unless every edge fits."""
    cap = job.solver.get("cap") or restarts.CAP
    return anytime(job, note, restarts.search, "the restarts", schedule=job.solver.get("schedule"), cap=cap)
