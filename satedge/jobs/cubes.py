"""The ``cubes`` strategy: cube-and-conquer (:mod:`satedge.sat.cubes`) on the job's workers, forked
processes of this machine or Dask tasks; solutions come back in the original numbering and
counts add up over the cubes, which partition the models.

The cubes come from look-ahead on the formula (:func:`satedge.sat.cubes.split`, the default), or
with ``cubes=backtracker`` from the backtracker's tree (:func:`tree_split`): a hybrid in which the
backtracker fills the first cells of its fill order, and the SAT solver, keeping what it learns
from cube to cube, completes each partial board in the backtracker's order of trying them.  With
``cubes=`` given, the job is cube-and-conquer on one worker too.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator, Iterator
from itertools import islice

from ..backtrack import search as backtrack
from ..encode import Encoded
from ..errors import SatedgeError
from ..puzzle import symmetry
from ..puzzle.model import Solution
from ..sat import cubes, solving
from ..system import cluster
from ..system.process import Outcome
from ..system.progress import REPORT_SECONDS
from .engine import Option
from .formula import encode_and_note, encoding_of, progress_of, sat_solver
from .job import Job
from .parts import chunks, connected, worker_count
from .result import Note, Result

__all__ = ["MAKERS", "CUBES", "fingerprint", "tree_split", "split", "cube_part", "run"]

# how the cubes are made: look-ahead on the formula, or the backtracker's tree cut where it has
# enough subtrees
MAKERS = ("lookahead", "backtracker")
CUBES = Option(
    tasks=("solve", "count"),
    name="cubes",
    what="a way to make cubes",
    choices=MAKERS,
    help="how cube-and-conquer splits the search (the cubes strategy; given, on one worker too): "
    "lookahead (look-ahead on the formula's decision variables, as march does) or backtracker (the "
    "backtracker's tree cut where it has enough subtrees: each cube places the first cells of its fill "
    "order, and the cubes are solved in the order it would try them) (default: lookahead)",
)


def fingerprint(formula: Encoded) -> str:
    """A digest of the formula's clauses: a part encoded again elsewhere must equal its parent's."""
    h = hashlib.sha256()
    for clause in formula.cnf.clauses:
        h.update(repr(clause).encode())
    return h.hexdigest()


def tree_split(formula: Encoded, target: int) -> cubes.Split:
    """At least ``target`` disjoint cubes covering every model of ``formula`` (fewer when the
    tree ends first), from the backtracker's tree: its search of the placements the formula
    allows (:attr:`Encoded.cells`), with every turn and every copy of a tile tried, cut at the
    shallowest depth with ``target`` subtrees; each root's placements become a cube, the
    placement literal and the literals of the turn of each of its tiles.  Every model shows a
    partial board the search reaches, so the cubes cover the models; two roots differ at some
    cell, in its tile or in the labels it shows, which no model holds both of, so no model is
    in two cubes (roots that give the same literals, turns that look the same to the formula,
    are one cube).  In the backtracker's order; ``refuted``: none (the backtracker drops what
    does not fit without saying how much).

    >>> from satedge.puzzle import Puzzle
    >>> from satedge.encode import encode
    >>> e = encode(Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0), "direct-pairwise")
    >>> s = tree_split(e, 2)
    >>> len(s.cubes), sorted(len(cubes.solve_cubes(e, "cadical195", [c])[0].solutions) for c in s.cubes)
    (2, [1, 1])
    """
    t0 = time.perf_counter()
    read = formula.cells()
    where = [{(t, r): (v, lits) for v, t, turns in cell for r, lits in turns} for cell in read]
    allowed = tuple(tuple(cell) for cell in where)
    search = backtrack.plan(formula.puzzle, allowed=allowed, distinct=False, twins=False)
    out, seen = cubes.Split(), set()
    for root in backtrack.prefixes(formula.puzzle, 1, search, subtrees=target, what="--cubes backtracker"):
        lits: list[int] = []
        for cell, o in zip(search.cells, root):
            v, shown = where[cell][o >> 2, o & 3]
            lits += [v, *shown]
        cube = tuple(dict.fromkeys(lits))
        key = frozenset(cube)
        if key not in seen:
            seen.add(key)
            out.cubes.append(cube)
    out.seconds = time.perf_counter() - t0
    return out


def split(job: Job, formula: Encoded, target: int) -> cubes.Split:
    """The job's cubes of ``formula``, at least ``target`` where there are as many, made as its
    solver's ``cubes=`` says (:data:`MAKERS`)."""
    if job.solver.get("cubes") == "backtracker":
        return tree_split(formula, target)
    return cubes.split(formula, target)


def cube_part(
    job: Job, found: str, part: list[tuple[int, tuple[int, ...]]], limit: int | None
) -> list[cubes.Cube]:
    """A Dask task's share of a cube-and-conquer job: the formula encoded again (it must be the
    one the cubes were made on: ``found``, its :func:`fingerprint`) and the cubes of ``part``
    (index, literals) solved one after the other with one solver, which keeps what it learnt."""
    formula = encoding_of(job).encode(job.board, job.shuffle)
    if fingerprint(formula) != found:
        raise SatedgeError("a Dask worker encoded a different formula (check that it runs the same satedge)")
    return cubes.solve_cubes(
        formula, sat_solver(job), [c for _, c in part], limit, indices=[i for i, _ in part]
    )


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
                formula, sat_solver(job), job.modes, stats=res.stats, progress=progress_of(job, note)
            )
            res.solve_seconds = time.perf_counter() - t0 - (res.encode_seconds or 0.0)
            res.parallel = {"strategy": "cubes", "workers": workers, "cubes": 0, "by_pictures": True}
            return res.settled()
        walk = job.task == "count" or job.limit is None  # every model, not the first few
        made = split(
            job, formula, (cubes.WALK_CUBES_PER_WORKER if walk else cubes.CUBES_PER_WORKER) * workers
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
                    formula, made.cubes, workers, sat_solver(job), per_cube, keep=not only_count
                )
                return
            shares = chunks(
                list(enumerate(made.cubes)), 2 * workers
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
        "made_by": job.solver.get("cubes") or MAKERS[0],
        "cubes": len(made.cubes),
        "refuted": made.refuted,
        "split_seconds": round(made.seconds, 4),
        "cube_seconds": [round(seconds[i], 4) if i in seconds else None for i in range(len(made.cubes))],
    }
    return res.settled()
