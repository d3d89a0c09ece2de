"""Cube-and-conquer: one formula split into disjoint cubes, each solved under assumptions.

* :func:`split` builds the cubes by look-ahead (Heule, Kullmann, Wieringa and Biere, "Cube and
  conquer", 2011, in its simplest form): a binary tree over the formula's *decision* variables,
  built best first: the open cube with the most decision variables left free after propagation
  is split next.  At each node a few candidate variables are tried both ways with PySAT's
  ``propagate``, and the one whose two branches assign the most (the product of the two counts,
  as march does) is split on.  A branch that fails by propagation alone has no model and is
  dropped; a node with one failing branch takes the other's literal and is looked at again.
  The leaves are the cubes: every model of the formula lies in exactly one, so solutions found
  cube by cube partition the solution set, and counts add up exactly.  They are listed from
  the most free variables to the fewest, so that the largest (the slowest to enumerate, as a
  rule) start first.
* :func:`conquer` solves the cubes on ``workers`` forked processes of this machine, each with one
  solver that keeps what it learnt (and its blocking clauses, which stay true in every other
  cube) from cube to cube; cubes are handed out as workers come free.
* :func:`solve_cubes` is one worker's share in a process of its own: a Dask task's.
* :func:`makespan` schedules measured cube times greedily on any number of workers: what more
  cores than this machine has would give (a simulation).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import count
from typing import Any

from pysat.solvers import Solver

from ..encode import Encoded
from ..puzzle.model import Solution
from ..system.proctree import forked_map
from .solvers import Solverish
from .solving import Enumerator, Stats
from .subspaces import PROPAGATOR

__all__ = [
    "CUBES_PER_WORKER",
    "WALK_CUBES_PER_WORKER",
    "CANDIDATES",
    "LOOKAHEAD",
    "Cube",
    "Split",
    "split",
    "solve_cubes",
    "conquer",
    "makespan",
]

CUBES_PER_WORKER = 16  # many more cubes than workers: the hard ones are not known in advance
# to walk every model (count, solve --all): smaller cubes, each enumerated by blocking clauses
# in a short search under its assumptions (MiniSat counts 15,432 solutions 1.5 times faster
# on 2 workers with 64 cubes each than with 16)
WALK_CUBES_PER_WORKER = 64
CANDIDATES = 24  # decision variables looked ahead on at each node, the most frequent first
LOOKAHEAD = PROPAGATOR  # the solver whose propagate() the look-ahead uses


@dataclass(frozen=True)
class Cube:
    """A cube's outcome: its index, the solutions found in it (at most the limit; none kept when
    only their number is asked for), how many there are, the seconds its search took, the
    solver calls and models it cost, and the solver statistics it cost (``conflicts`` and so on;
    None from a solver that gives none)."""

    index: int
    solutions: tuple[Solution, ...]
    seconds: float
    calls: int = 0
    models: int = 0
    found: int = 0
    counters: dict | None = None


@dataclass
class Split:
    """The cubes (tuples of literals), how many look-ahead nodes were refuted, and the seconds the
    split took."""

    cubes: list[tuple[int, ...]] = field(default_factory=list)
    refuted: int = 0
    seconds: float = 0.0


def split(encoded: Encoded, target: int) -> Split:
    """At least ``target`` disjoint cubes over ``encoded``'s decision variables (fewer when the
    tree ends first), covering every model.

    >>> from satedge.puzzle import Puzzle
    >>> from satedge.encode import encode
    >>> e = encode(Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0), "direct-pairwise")
    >>> s = split(e, 2)
    >>> len(s.cubes), sorted(len(solve_cubes(e, "cadical195", [c])[0].solutions) for c in s.cubes)
    (2, [1, 1])
    """
    t0 = time.perf_counter()
    out = Split()
    counts: dict[int, int] = {}
    for clause in encoded.cnf.clauses:
        for lit in clause:
            counts[abs(lit)] = counts.get(abs(lit), 0) + 1
    order = sorted(encoded.decision, key=lambda v: (-counts.get(v, 0), v))
    decision = set(encoded.decision)

    def free(cube: Any, implied: Any) -> int:
        return len(decision) - len({abs(lit) for lit in implied} & decision | {abs(lit) for lit in cube})

    with Solver(name=LOOKAHEAD, bootstrap_with=encoded.cnf.clauses) as s:
        ok, _ = s.propagate()
        if not ok:
            out.seconds = time.perf_counter() - t0
            return out  # no model at all: no cube
        made = count(1)  # the heap's tie-break: the cube made first comes first
        open_: list[tuple[int, int, tuple[int, ...]]] = [(0, 0, ())]  # (-free variables, made, cube)
        done: list[tuple[int, int, tuple[int, ...]]] = []
        while open_ and len(open_) + len(done) < target:
            rank, _, cube = heapq.heappop(open_)
            ok, implied = s.propagate(assumptions=list(cube))
            if not ok:
                out.refuted += 1
                continue
            assigned = {abs(lit) for lit in implied} | {abs(lit) for lit in cube}
            best, best_score, forced = None, -1, None
            sides: tuple[tuple[tuple[int, ...], list[int]], ...] = ()
            tried = 0
            for v in order:
                if v in assigned:
                    continue
                tried += 1
                ok_pos, pos = s.propagate(assumptions=[*cube, v])
                ok_neg, neg = s.propagate(assumptions=[*cube, -v])
                if not ok_pos or not ok_neg:
                    forced = -v if ok_neg else v if ok_pos else 0
                    break
                score = (len(pos) - len(implied) + 1) * (len(neg) - len(implied) + 1)
                if score > best_score:
                    best, best_score, sides = v, score, (((*cube, v), pos), ((*cube, -v), neg))
                if tried >= CANDIDATES:
                    break
            if forced == 0:
                out.refuted += 1
            elif forced is not None:
                heapq.heappush(open_, (rank, next(made), (*cube, forced)))  # the same models: look again
            elif best is None:
                done.append((0, next(made), cube))  # every decision variable is set: one assignment at most
            else:
                for child, implied in sides:
                    heapq.heappush(open_, (-free(child, implied), next(made), child))
        out.cubes = [cube for *_, cube in sorted(open_ + done)]
    out.seconds = time.perf_counter() - t0
    return out


def _solve_one(
    e: Enumerator, index: int, cube: tuple[int, ...], limit: int | None, keep: bool = True
) -> Cube:
    """One cube with the solver of ``e``: its solutions (or with ``keep=False`` only their number)."""
    calls, models, before, t0 = e.stats.calls, e.stats.models, e.counters(), time.perf_counter()
    kept = tuple(e.solutions("solutions", limit, cube=cube)) if keep else ()
    n = len(kept) if keep else e.tally(cube)
    seconds, after = time.perf_counter() - t0, e.counters()
    spent = None if after is None else {k: v - (before or {}).get(k, 0) for k, v in after.items()}
    return Cube(index, kept, seconds, e.stats.calls - calls, e.stats.models - models, n, spent)


def solve_cubes(
    encoded: Encoded,
    solver: Solverish,
    cubes: list[tuple[int, ...]],
    limit: int | None = None,
    indices: list[int] | None = None,
) -> list[Cube]:
    """Every cube's solutions (at most ``limit`` each) with one solver, cube after cube;
    ``indices``: the cubes' indices (default 0, 1, ...).  Stops after the first cube with a
    solution when ``limit`` is 1."""
    out = []
    with Enumerator(encoded, solver, Stats(), reuse=False) as e:
        for i, cube in zip(indices or range(len(cubes)), cubes):
            out.append(_solve_one(e, i, cube, limit))
            if out[-1].solutions and limit == 1:
                break
    return out


def conquer(
    encoded: Encoded,
    cubes: list[tuple[int, ...]],
    workers: int,
    solver: Solverish = None,
    limit: int | None = None,
    keep: bool = True,
) -> Iterator[Cube]:
    """Solve ``cubes`` on ``workers`` forked processes, streaming each cube's outcome as it ends
    (at most ``limit`` solutions per cube; ``keep=False``: their number only, which spares
    sending them); the processes stop when the iterator is closed."""

    def worker() -> Callable[[Any], Any]:
        e = Enumerator(encoded, solver, Stats(), reuse=False)  # the worker's own, kept from cube to cube
        return lambda task: _solve_one(e, *task)

    return forked_map(worker, [(i, c, limit, keep) for i, c in enumerate(cubes)], workers)


def makespan(seconds: list[float], workers: int, sat: list[bool] | None = None) -> float:
    """The time ``workers`` would take on cubes of the measured ``seconds``, handed out in order
    as workers come free (a greedy list schedule): the end of the last cube, or with ``sat``
    (which cubes have a solution) the end of the first cube with one.

    >>> makespan([4, 1, 1, 1, 1], 2), makespan([4, 1, 1, 1, 1], 1), makespan([4, 1, 3], 2, [False, False, True])
    (4.0, 8.0, 4.0)
    """
    free = [0.0] * max(1, workers)
    ends = []
    for i, t in enumerate(seconds):
        start = heapq.heappop(free)
        ends.append(start + t)
        heapq.heappush(free, start + t)
    if sat is not None:
        found = [end for end, s in zip(ends, sat) if s]
        return min(found) if found else max(ends, default=0.0)
    return max(ends, default=0.0)
