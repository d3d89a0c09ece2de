"""The SAT method of the engines that solve a formula with a SAT solver (a PySAT solver, a solver
binary): its options (how several workers share a job: a ``strategy``; how models are
enumerated: an ``enumeration``), its strategies (:mod:`.portfolio`, :mod:`.cubes`) and the tasks
such an engine declares (:func:`formula_tasks`)."""

from __future__ import annotations

from collections.abc import Callable

from ..sat.solvers import ENUMERATIONS
from . import cubes, portfolio
from .engine import Auto, Option, Task
from .formula import encode_only, solve_here
from .job import Job
from .result import Note, Result

__all__ = ["STRATEGIES", "DEFAULT_STRATEGY", "STRATEGY", "ENUMERATION", "DECIDE", "answer", "formula_tasks"]

# how the SAT method uses several workers; without a strategy: cubes, which partition the solution
# set (to count and to enumerate the work divides) and found a first solution sooner than the
# portfolio on the peak puzzles of benchmarks/parallel/bench-parallel.yaml (PAR-2 35.1 against 39.0, where
# the portfolio's first member, the job itself, won every race)
STRATEGIES: dict[str, Callable[[Job, Note | None], Result]] = {
    "portfolio": portfolio.run,
    "cubes": cubes.run,
}
DEFAULT_STRATEGY = "cubes"

STRATEGY = Option(
    tasks=("solve", "count"),
    name="strategy",
    what="a strategy",
    choices=tuple(STRATEGIES),
    help="how the SAT method uses several workers: portfolio (diverse solvers and shuffles race, the first "
    "answer wins) or cubes (cube-and-conquer: the search split into disjoint cubes) (default: cubes)",
)
ENUMERATION = Option(
    tasks=("solve", "count"),
    name="enumeration",
    what="an enumeration",
    choices=ENUMERATIONS,
    help="how the SAT method enumerates models: auto (blocking clauses; a count of a puzzle whose pictures "
    "have many models, identical tiles, blocks a clause per picture and counts its models from "
    "multiplicities), blocking (a clause per model, always: the formula grows) or subspaces (disjoint "
    "subspaces under assumptions, no clause added; PySAT's incremental solvers) (default: auto)",
)

DECIDE = Option(
    tasks=("solve", "count"),
    name="decide",
    what="a way to decide",
    choices=("auto", "backtracker"),
    help="who chooses the SAT solver's decisions: auto (the solver) or backtracker (the backtracker's: the "
    "first cell of its fill order without a tile gets the first tile not ruled out, the solver learning "
    "as ever; cadical195 only, through its external propagator) (default: auto)",
)


def answer(job: Job, note: Note | None = None) -> Result:
    """Solve or count ``job``: on this process, or on several workers (or a Dask cluster) by its
    strategy; with ``cubes=`` given, by cube-and-conquer on one worker too."""
    if not job.parallel and job.solver.get("cubes") is None:
        return solve_here(job, note)
    return STRATEGIES[job.solver.get("strategy") or DEFAULT_STRATEGY](job, note)


def formula_tasks(maximize: Callable[..., Result], summary: str, auto: Auto | None = None) -> dict[str, Task]:
    """The tasks of an engine that solves the formula of an encoding with a SAT solver: solve and
    count by the SAT method (``auto``: its preference for ``--method auto``), encode, and
    ``maximize`` (its MaxSAT solving, in words ``summary``)."""
    answers = Task(
        run=answer,
        workers=True,
        cluster=True,
        certifies=True,
        summary="a SAT encoding and --solver",
        auto=auto,
    )
    return {
        "solve": answers,
        "count": answers,
        "encode": Task(run=encode_only),
        "maximize": Task(run=maximize, certifies=True, summary=summary),
    }
