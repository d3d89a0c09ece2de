"""The report's columns, each declared once: its key (``summary.csv``'s header), its heading (the
printed tables') and how it is computed, in the three tables of ``satedge report``: per
configuration (:data:`SUMMARY`, from the configuration's runs), per formula of an encode task
(:data:`ENCODE`, from its row) and what holds up (:data:`STATS`, from a configuration's line of
:func:`satedge.experiment.stats.summary`).  A benchmark's report names them by key.

>>> by_key("par2").heading, by_key("solved").value([{"status": "SAT"}, {"status": "TIMEOUT"}])
('PAR-2 per run (s)', 1)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import SatedgeError
from ..system.files import shown
from .rows import SOLVED, par2, run_time

__all__ = ["Column", "SUMMARY", "ENCODE", "STATS", "by_key", "whole"]


@dataclass(frozen=True)
class Column:
    """A column of a report's table.

    Attributes
    ----------
    key
        Its name in ``summary.csv`` and in the table's rows.
    heading
        What the printed table calls it.
    value
        How it is computed from what a line of its table is made of (a configuration's runs, a
        row, a line of statistics); ``None``: the line's name, given with it.
    optional
        Left out of a line (and of the table) where it has no value: a figure only some
        experiments have (scores, proofs).
    """

    key: str
    heading: str
    value: Callable[[Any], Any] | None = None
    optional: bool = False


def whole(x: float) -> float | int:
    """``23`` for ``23.0`` (a median of two equal scores), ``22.5`` as it is."""
    return int(x) if float(x).is_integer() else x


def _solved(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["status"] in SOLVED]


def _mean(values: list[float], digits: int | None) -> float | None:
    return round(statistics.fmean(values), digits) if values else None


def _median_score(rows: list[dict]) -> float | int | None:
    scores = [r["score"] for r in rows if r.get("score") is not None]
    return whole(statistics.median(scores)) if scores else None


def _proved(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r.get("check_seconds") is not None]


def _finite(x: float) -> float | None:
    """``x`` to the millisecond; ``None`` for ``nan`` (no run to score)."""
    return None if math.isnan(x) else round(x, 3)


def _interval(v: Any) -> Any:
    return f"{v[0]:.1f} to {v[1]:.1f}" if isinstance(v, list) else v


# per configuration, from its runs (a run's time is encode + solve: satedge.experiment.rows)
SUMMARY = (
    Column("configuration", "configuration"),
    Column("runs", "runs", len),
    Column("solved", "solved runs", lambda rs: len(_solved(rs))),
    Column("timeouts", "timeouts", lambda rs: sum(r["status"] == "TIMEOUT" for r in rs)),
    Column("memouts", "out of memory", lambda rs: sum(r["status"] == "MEMOUT" for r in rs)),
    Column("errors", "errors", lambda rs: sum(r["status"] == "ERROR" for r in rs)),
    Column("par2", "PAR-2 per run (s)", lambda rs: _finite(par2(rs))),
    Column("median_s", "median s (solved)", lambda rs: _median([run_time(r) for r in _solved(rs)])),
    Column("mean_s", "mean s (solved)", lambda rs: _mean([run_time(r) for r in _solved(rs)], 3)),
    Column(
        "conflicts",
        "mean conflicts (solved)",
        lambda rs: _mean([r["stats"]["conflicts"] for r in _solved(rs) if r.get("stats")], None),
    ),
    Column(
        "variables",
        "variables",
        lambda rs: _mean([r["variables"] for r in rs if r.get("variables") is not None], None),
    ),
    Column(
        "clauses",
        "clauses",
        lambda rs: _mean([r["clauses"] for r in rs if r.get("clauses") is not None], None),
    ),
    Column("median_score", "median score", _median_score, optional=True),
    Column(
        "proof_kb",
        "mean proof kB",
        lambda rs: (
            round(statistics.fmean(r["proof_bytes"] for r in _proved(rs)) / 1000, 1) if _proved(rs) else None
        ),
        optional=True,
    ),
    Column(
        "check_s",
        "mean check s",
        lambda rs: _mean([r["check_seconds"] for r in _proved(rs)], 3),
        optional=True,
    ),
)


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def _done(row: dict, value: Any) -> Any:
    return value if row["status"] == "ENCODED" else None


# per formula of an encode task, from its row
ENCODE = (
    Column("puzzle", "puzzle", lambda r: r["puzzle_name"]),
    Column("cells", "cells", lambda r: r["rows"] * r["cols"]),
    Column("encoding", "encoding", lambda r: r["encoding"]),
    Column("status", "status", lambda r: r["status"]),
    Column("variables", "variables", lambda r: _done(r, r.get("variables"))),
    Column("clauses", "clauses", lambda r: _done(r, r.get("clauses"))),
    Column("literals", "literals", lambda r: _done(r, r.get("literals"))),
    Column("encode_s", "encode s", lambda r: _done(r, round(r["encode_seconds"] or 0.0, 2))),
    Column("literals_per_s", "literals/s", lambda r: _done(r, r.get("literals_per_second"))),
    Column("dimacs_mb", "DIMACS MB", lambda r: _done(r, round((r.get("dimacs_bytes") or 0) / 1e6, 1))),
    Column("write_s", "write s", lambda r: _done(r, round(r.get("write_seconds") or 0.0, 2))),
    Column("peak_mb", "peak MB", lambda r: r.get("peak_memory_mb")),
)

# what holds up, per configuration, from its line of satedge.experiment.stats.summary
STATS = (
    Column("configuration", "configuration", lambda s: s["configuration"]),
    Column("instances", "instances", lambda s: s["instances"]),
    Column(
        "solved_ci",
        "instances solved (share of their runs, 95% interval)",
        lambda s: (
            None
            if not s["instances"]
            else f"{whole(s['solved_instances'])} of {s['instances']}"
            + (f" ({_interval(s['solved_ci'])})" if s["solved_ci"] else "")
        ),
    ),
    Column(
        "par2_ci",
        "PAR-2 per instance (s, 95% interval)",
        lambda s: (
            None
            if math.isnan(s["par2"])
            else f"{s['par2']:.1f}" + (f" ({_interval(s['par2_ci'])})" if s["par2_ci"] else "")
        ),
    ),
    Column("shuffles", "shuffles", lambda s: s["shuffles"] or None, optional=True),
    Column(
        "par2_shuffle",
        "PAR-2 per shuffle (s): median (range)",
        lambda s: (
            None
            if s["par2_shuffle_median"] is None
            else f"{s['par2_shuffle_median']:.1f} ({_interval(s['par2_shuffle_range'])})"
        ),
        optional=True,
    ),
)


def by_key(key: str) -> Column:
    """The column declared with ``key`` (a benchmark's report names them so)."""
    for column in (*SUMMARY, *ENCODE, *STATS):
        if column.key == key:
            return column
    raise SatedgeError(f"no report column {shown(key)}")
