"""The ``lns`` engine: a large-neighbourhood search with simulated annealing
(:func:`satedge.best.lns.search`) from a board that keeps the frame and the clues, on ``workers``
processes until its time limit: good boards where none is proved best."""

from __future__ import annotations

from ..best import lns
from ..jobs.anytime import anytime
from ..jobs.engine import Engine, Task
from ..jobs.job import Job
from ..jobs.result import Note, Result

__all__ = ["by_lns", "ENGINE"]


def by_lns(job: Job, note: Note | None = None) -> Result:
    """The best board the large-neighbourhood search finds in the job's time; it proves nothing
    (status ``TIMEOUT``) unless every edge fits."""
    return anytime(job, note, lns.search, "the large-neighbourhood search")


ENGINE = Engine(
    name="lns",
    method=True,
    tasks={
        "maximize": Task(
            run=by_lns,
            resumes=True,
            workers=True,
            every_core=True,
            timeout=True,
            summary="a large-neighbourhood search with simulated annealing on --workers processes until "
            "--timeout, which proves nothing",
        )
    },
    summary="large-neighbourhood search and simulated annealing from a board that keeps the frame and the "
    "clues, on every core, until its time limit: good boards where none is proved best",
)
