"""The ``restarts`` engine: restarts of the budgeted search with a schedule of misfits
(:func:`satedge.best.restarts.search`), each from another tile order and capped in placements, on
``workers`` processes until a second before its time limit; good boards of large puzzles, proving
nothing but a board where every edge fits.  ``--method auto``'s choice to maximize a board of
more than 36 cells without a frame, given a time limit."""

from __future__ import annotations

from typing import Any

from ..best import restarts
from ..best.budget import PROVABLE
from ..jobs.anytime import anytime
from ..jobs.engine import Auto, Engine, Option, Task, whole
from ..jobs.job import Job
from ..jobs.result import Note, Result
from ..jobs.searching import LOOP
from ..puzzle.model import Puzzle
from ..system.limits import cores

__all__ = ["SCHEDULE_OPTION", "CAP_OPTION", "by_restarts", "ENGINE"]


def _schedule(value: Any) -> restarts.Schedule:
    return value if isinstance(value, restarts.Schedule) else restarts.Schedule.parse(value)


SCHEDULE_OPTION = Option(
    tasks=("maximize",),
    name="schedule",
    what="a schedule of misfits",
    convert=_schedule,
    wrong="schedule {value}: write START/STEP/MOST, whole numbers, STEP at least 1 (190/4/14)",
    written="write START/STEP/MOST, whole numbers, STEP at least 1 (190/4/14)",
    metavar="START/STEP/MOST",
    help="--method restarts: no misfit among the first START placements, one more every STEP depths, at "
    "most MOST (default: from the board's size, 190/4/14 on a 16x16)",
)
CAP_OPTION = Option(
    tasks=("maximize",),
    name="cap",
    what="a cap of placements",
    convert=whole,
    wrong="cap must be a positive number of placements, not {value}",
    written="cap=N takes a positive number of placements",
    metavar="N",
    help="--method restarts: placements per restart (default: 200,000,000)",
)


def by_restarts(job: Job, note: Note | None = None) -> Result:
    """The best board the restarts find in the job's time; it proves nothing (status ``TIMEOUT``)
    unless every edge fits."""
    return anytime(
        job,
        note,
        restarts.search,
        "the restarts",
        schedule=job.solver.get("schedule"),
        cap=job.solver.get("cap") or restarts.CAP,
        loop=job.solver.get("loop") or "auto",
    )


def _large(puzzle: Puzzle, timeout: float | None) -> int | None:
    """Boards beyond what the budgets prove in good time, given a time limit: every core."""
    return cores() if puzzle.n > PROVABLE and timeout is not None else None


ENGINE = Engine(
    name="restarts",
    options=(SCHEDULE_OPTION, CAP_OPTION, LOOP),
    method=True,
    tasks={
        "maximize": Task(
            run=by_restarts,
            resumes=True,
            workers=True,
            every_core=True,
            timeout=True,
            summary="restarts of the backtracker with a schedule of misfits on --workers processes until "
            "--timeout, the best board polished: good boards of large puzzles, proving nothing",
            # it found better boards than the large-neighbourhood search in the same time on the
            # large boards of benchmarks/maximize/bench-maximize.md
            auto=Auto(
                rank=1,
                picks=_large,
                when=f"restarts on other boards of more than {PROVABLE} cells with a --timeout",
            ),
        )
    },
    summary="restarts of the backtracker with a schedule of misfits (none until late depths, then a few "
    "more), each from another tile order and capped in placements, on every core until its time limit",
)
