"""The ``cubes`` strategy: cube-and-conquer (:mod:`satedge.sat.cubes`) on the job's workers, forked
processes of this machine or Dask tasks; solutions come back in the original numbering and
counts add up over the cubes, which partition the models."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator, Iterator
from itertools import islice

from ..encode import Encoded
from ..errors import SatedgeError
from ..puzzle import symmetry
from ..puzzle.model import Solution
from ..sat import cubes, solving
from ..system import cluster
from ..system.process import Outcome
from ..system.progress import REPORT_SECONDS
from .formula import encode_and_note, encoding_of, progress_of
from .job import Job
from .parts import chunks, connected, worker_count
from .result import Note, Result

__all__ = ["fingerprint", "cube_part", "run"]


def fingerprint(formula: Encoded) -> str:
    """A digest of the formula's clauses: a part encoded again elsewhere must equal its parent's."""
    h = hashlib.sha256()
    for clause in formula.cnf.clauses:
        h.update(repr(clause).encode())
    return h.hexdigest()


def cube_part(
    job: Job, found: str, part: list[tuple[int, tuple[int, ...]]], limit: int | None
) -> list[cubes.Cube]:
    """A Dask task's share of a cube-and-conquer job: the formula encoded again (it must be the
    one the cubes were made on: ``found``, its :func:`fingerprint`) and the cubes of ``part``
    (index, literals) solved one after the other with one solver, which keeps what it learnt."""
    formula = encoding_of(job).encode(job.board, job.shuffle)
    if fingerprint(formula) != found:
        raise SatedgeError("a Dask worker encoded a different formula (check that it runs the same satedge)")
    return cubes.solve_cubes(formula, job.solver, [c for _, c in part], limit, indices=[i for i, _ in part])


def run(job: Job, note: Note | None = None) -> Result:
    with connected(job) as client:  # before anything starts
        res = Result("UNSAT")
        t0 = time.perf_counter()
        formula = encode_and_note(job, res, note)
        workers = worker_count(job, client)
        if job.task == "count" and solving.by_pictures(
            formula, job.solver.get("enumeration"), ("solutions",)
        ):
            # one solution per picture, its models counted from multiplicities: a count of few
            # solver calls, here, which cubes (each blocking pictures others hold too) cannot share;
            # where only the puzzle's symmetries would make it one per class, the cubes share the walk
            res.counts = solving.count_modes(
                formula, job.solver, job.modes, stats=res.stats, progress=progress_of(job, note)
            )
            res.solve_seconds = time.perf_counter() - t0 - (res.encode_seconds or 0.0)
            res.parallel = {"strategy": "cubes", "workers": workers, "cubes": 0, "by_pictures": True}
            return res.settled()
        walk = job.task == "count" or job.limit is None  # every model, not the first few
        split = cubes.split(
            formula, (cubes.WALK_CUBES_PER_WORKER if walk else cubes.CUBES_PER_WORKER) * workers
        )
        mode = job.modes[0]
        per_cube = job.limit if job.task == "solve" and mode == "solutions" else None
        seconds: dict[int, float] = {}
        ended: list[Outcome] = []
        only_count = job.task == "count" and set(job.modes) == {"solutions"}  # no solution needs to travel
        total = [0]  # solutions found over the cubes
        progress, told = progress_of(job, note), [time.monotonic()]

        def stream() -> Iterator[cubes.Cube]:
            if client is None:
                yield from cubes.conquer(
                    formula, split.cubes, workers, job.solver, per_cube, keep=not only_count
                )
                return
            shares = chunks(
                list(enumerate(split.cubes)), 2 * workers
            )  # two tasks per core: balance, few startups
            digest = fingerprint(formula)
            for outcome in cluster.parts(
                client, cube_part, [(job, digest, p, per_cube) for p in shares], job.limits
            ):
                if outcome.status != "OK":
                    ended.append(outcome)
                    return
                yield from outcome.value

        def solutions() -> Generator[Solution, None, None]:
            for c in stream():
                seconds[c.index] = c.seconds
                res.stats.calls += c.calls
                res.stats.models += c.models
                if c.counters is not None:
                    res.stats.merge(c.counters)
                total[0] += c.found
                if progress is not None and time.monotonic() - told[0] >= REPORT_SECONDS:
                    told[0] = time.monotonic()
                    progress({"solutions": formula.orbit * total[0]})  # of the cubes done
                yield from c.solutions

        found = solutions()
        try:
            if only_count:
                sum(1 for _ in found)  # runs every cube
                res.counts = {"solutions": formula.orbit * total[0], "models": res.stats.models}
            elif job.task == "count":
                res.counts = symmetry.counts(job.board, list(found), job.modes, formula.orbit)
                if "solutions" in job.modes:
                    res.counts["models"] = res.stats.models
            else:
                res.solutions = list(
                    islice(symmetry.one_per_picture(job.board, found, mode, formula.orbit), job.limit)
                )
        finally:
            found.close()
        if ended:
            return Result.stopped(ended[0])
    res.solve_seconds = time.perf_counter() - t0 - (res.encode_seconds or 0.0)
    res.parallel = {
        "strategy": "cubes",
        "workers": workers,
        "cubes": len(split.cubes),
        "refuted": split.refuted,
        "split_seconds": round(split.seconds, 4),
        "cube_seconds": [round(seconds[i], 4) if i in seconds else None for i in range(len(split.cubes))],
    }
    return res.settled()
