"""The ``portfolio`` strategy: diverse configurations of one job race, the first answer wins and
the others are killed at once (each member a process of its own, or a Dask task)."""

from __future__ import annotations

from dataclasses import replace

from ..system import cluster
from ..system.proctree import forked_map
from .formula import encoding_of, solve_here
from .job import Job
from .parts import connected, worker_count
from .result import Note, Result

__all__ = ["members", "describe", "run"]


def members(job: Job, size: int | None = None) -> list[Job]:
    """The ``size`` (default: the job's workers) configurations of a portfolio: the job itself,
    then alternately the other of Kissat and CaDiCaL (``sat`` configuration, its own decisions; a
    solver binary stays itself) and the job's solver, each member under its own shuffle (seeds 1, 2, ...
    skipping the job's), so that no two members search alike.  Every member gives the same
    answers."""
    alone = job.solver.with_settings(workers=1, strategy=None)
    name, options = ("cadical195", ("sat",)) if alone.name == "kissat404" else ("kissat404", ())
    other = (
        alone
        if alone.formula_solver.binary
        else replace(alone.with_settings(decide=None), name=name, options=options)
    )  # a binary stays itself
    seeds = (k for k in range(1, 1 << 20) if k != job.shuffle)
    first = replace(job, solver=alone, scheduler=None)
    out = [first]
    for i in range(1, size or job.solver.workers):
        out.append(replace(first, solver=other if i % 2 else alone, shuffle=next(seeds)))
    return out


def describe(member: Job) -> str:
    """A member as the ``parallel`` field of a result names it."""
    shuffle = "" if member.shuffle is None else f", shuffle {member.shuffle}"
    return f"{member.encoding}/{member.solver}{shuffle}"


def _member(index: int, member: Job) -> tuple[int, Result]:
    return index, solve_here(member)


def run(job: Job, note: Note | None = None) -> Result:
    with connected(job) as client:
        racers = members(job, worker_count(job, client))
        if note is not None:  # the members' formulas have the job's size: known before the race
            size = encoding_of(job).size(job.board, job.shuffle)
            if size is not None:
                note({"variables": size.variables, "clauses": size.clauses})
        if client is not None:
            for outcome in cluster.parts(client, _member, list(enumerate(racers)), job.limits):
                if outcome.status != "OK":
                    return Result.stopped(outcome)
                index, res = outcome.value
                break
        else:
            race = forked_map(lambda: lambda task: _member(*task), list(enumerate(racers)), len(racers))
            try:
                index, res = next(race)
            finally:
                race.close()  # the others are killed
    res.parallel = {"strategy": "portfolio", "workers": len(racers), "winner": describe(racers[index])}
    return res
