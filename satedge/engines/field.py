"""The ``field`` engine: the field's construction of good boards (:mod:`satedge.best.field`: long
depth-first attempts that spend a quota of labels early and allow a ladder of breaks late, each
deeper partial board completed exactly), on ``workers`` processes until its time limit, proving
nothing but a board where every edge fits.  ``--method auto``'s choice to maximize a framed board
of more than 36 cells, given a time limit.

Its settings are derived from the puzzle (:meth:`satedge.best.field.Settings.of`), each option
given in their place (:func:`field_settings`)."""

from __future__ import annotations

from ..best import field
from ..best.budget import PROVABLE
from ..errors import SatedgeError
from ..jobs.anytime import anytime
from ..jobs.engine import Auto, Engine, Option, Task, whole
from ..jobs.job import Job
from ..jobs.result import Note, Result
from ..jobs.searching import LOOP
from ..jobs.solver import SolverConfig
from ..puzzle.model import Puzzle
from ..system.limits import cores

__all__ = ["OPTIONS", "field_settings", "by_field", "ENGINE"]

OPTIONS = (
    Option(
        tasks=("maximize",),
        name="quota",
        what="a quota of labels",
        convert=field.labels,
        wrong="quota {value}: write labels with slashes (13/16/10), or none",
        written="quota=L/L/... takes labels with slashes, or none",
        metavar="L/L/...",
        help="--method field: the labels of the colour quota, or none (default: the frame-run label and the two "
        "other labels whose sides gather on the fewest tiles)",
    ),
    Option(
        tasks=("maximize",),
        name="ramp",
        what="a ramp of the quota",
        convert=field.ramp,
        wrong="ramp {value}: write DEPTH:SIDES points with slashes, depths rising (16:0/26:28/160:119)",
        written="ramp=D:Q/... takes DEPTH:SIDES points with slashes, depths rising",
        metavar="D:Q/...",
        help="--method field: the quota's ramp, the least sides of its labels among the tiles placed after the "
        "clues, by how many there are, linear between the points and none after the last (default: Eternity II's "
        "scaled to the board and to the quota's sides, lowered for each clue past the first)",
    ),
    Option(
        tasks=("maximize",),
        name="ladder",
        what="a ladder of breaks",
        convert=field.depths,
        wrong="ladder {value}: write depths with slashes (201/206/211), or none",
        written="ladder=D/D/... takes depths with slashes, or none",
        metavar="D/D/...",
        help="--method field: the depths from which one more break (a misfit) is allowed, or none (default: "
        "Eternity II's 201/206/.../251 scaled to where the board's columns begin)",
    ),
    Option(
        tasks=("maximize",),
        name="attempt",
        what="an attempt's length",
        convert=whole,
        wrong="attempt must be a positive number of placements, not {value}",
        written="attempt=N takes a positive number of placements",
        metavar="N",
        help="--method field: placements per attempt before a new one starts with a new tie order (default: "
        "9000000000)",
    ),
    Option(
        tasks=("maximize",),
        name="completion",
        what="a completion",
        choices=("auto", "exact", "fill"),
        help="--method field: how a partial board becomes whole: exact (a branch and bound over its empty cells "
        "for a better board) or fill (an assignment of the tiles left, then windows) (default: exact)",
    ),
)


def field_settings(puzzle: Puzzle, solver: SolverConfig) -> field.Settings:
    """The field's settings for ``puzzle``: derived from it (:meth:`satedge.best.field.Settings.of`),
    each option the ``solver`` gives in their place; a one-line error for one that cannot apply
    to the puzzle."""
    given = {
        name: solver.get(name)
        for name in ("quota", "ramp", "ladder", "attempt")
        if solver.get(name) is not None
    }
    labels = {x for tile in puzzle.tiles for x in tile} - {puzzle.frame}
    unknown = [x for x in given.get("quota", ()) if x not in labels]
    if unknown:
        raise SatedgeError(
            f"quota: {unknown[0]!r} is not a label of the puzzle's tiles (the frame's is no quota label)"
        )
    for name, depths in (
        ("ladder", given.get("ladder", ())),
        ("ramp", [d for d, _ in given.get("ramp", ())]),
    ):
        if any(d >= puzzle.n for d in depths):
            raise SatedgeError(f"{name}: depth {max(depths)} is past the board's last cell ({puzzle.n - 1})")
    settings = field.Settings.of(puzzle, given)
    if settings.quota is None and solver.get("ramp") is not None:  # a ramp of no labels counts nothing
        raise SatedgeError("ramp: there is no quota for it to count (quota none)")
    if settings.quota is not None:  # a count no board can show: no attempt would pass its depth
        sides = field.label_sides(puzzle, settings.quota.labels)
        unmet = settings.quota.unmet(sides)
        if unmet is not None:
            raise SatedgeError(
                f"ramp: {unmet[1]} sides of the quota's labels by depth {unmet[0]}, but the tiles have {sides}"
            )
    return settings.with_(complete=solver.get("completion") != "fill")


def by_field(job: Job, note: Note | None = None) -> Result:
    """The best board the field's construction finds in the job's time, its settings from the
    puzzle and the solver string (:func:`field_settings`); it proves nothing (status
    ``TIMEOUT``) unless every edge fits."""
    settings = field_settings(job.board, job.solver)
    return anytime(
        job,
        note,
        field.search,
        "the field's construction",
        settings=settings,
        loop=job.solver.get("loop") or "auto",
    )


def _large_framed(puzzle: Puzzle, timeout: float | None) -> int | None:
    """Framed boards beyond what the budgets prove in good time, given a time limit: every core."""
    return cores() if puzzle.frame is not None and puzzle.n > PROVABLE and timeout is not None else None


ENGINE = Engine(
    name="field",
    options=(*OPTIONS, LOOP),
    method=True,
    tasks={
        "maximize": Task(
            run=by_field,
            resumes=True,
            workers=True,
            every_core=True,
            timeout=True,
            summary="the field's construction (a colour quota, a ladder of breaks, long attempts, each "
            "deeper board completed exactly) on --workers processes until --timeout: good boards of large "
            "framed puzzles, proving nothing",
            # it found better boards than the restarts and the large-neighbourhood search in the same
            # time on Eternity II (benchmarks/maximize/bench-maximize.md)
            auto=Auto(
                rank=0,
                picks=_large_framed,
                when=f"field on framed boards of more than {PROVABLE} cells with a --timeout",
            ),
        )
    },
    summary="the field's construction of good boards: long depth-first attempts that spend a quota of "
    "labels early and allow a ladder of breaks late, each deeper partial board completed exactly, on every "
    "core until its time limit",
)
