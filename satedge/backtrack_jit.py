"""The backtracker's search loop compiled with numba (the optional extra ``fast``).

:func:`satedge.backtrack.solutions` uses it when numba is installed: the same cells in the same
order, the same candidates in the same order, so the same solutions in the same order as the
pure-Python loop, about 20 times faster.  Only the arrays change: a cell's candidates are
looked up by the labels of its first two placed neighbours in a dense ``cells x L x L`` table
(L labels), and further neighbours (on a torus) are checked one by one.

With ``workers > 1`` (:func:`parallel_search`) the tree is cut at a depth where it has many
subtrees; worker processes search the subtrees, first to last as workers come free, and
every solution is found exactly once, though not in the sequential order.
"""

from __future__ import annotations

import multiprocessing
import os
from functools import cache, partial
from typing import Any, Callable, Iterator, NamedTuple

import numpy as np

from .extras import require
from .proctree import forked_map

__all__ = [
    "BUDGET", "SUBTREES_PER_WORKER", "advance", "compiled_advance", "Tables", "tables", "run", "search", "cut",
    "parallel_search"
]


# outcomes of advance()
DONE, FOUND, PAUSED = 0, 1, 2
# candidates tried per call of advance(): about a second, so that Ctrl-C is seen between calls
BUDGET = 100_000_000
# with workers, cut the tree where it has at least this many subtrees per worker
SUBTREES_PER_WORKER = 256


def advance(ndeps, dep_cell, dep_side, own_side, need, shown, n_labels, start, stop, cand,
            placed, pos, end, used, depth, floor, last, budget, counts):
    """Run the search from ``depth[0]`` until the next placement of cells ``0..last`` (FOUND,
    ``placed`` holds it), the end (DONE) or ``budget`` candidates (PAUSED).  Cells below
    ``floor`` stay as placed.  The state arrays ``placed, pos, end, used, depth`` carry over
    calls; ``counts[0]`` gains the candidates tried, ``counts[1]`` the placements made (the
    search tree's nodes)."""
    i = depth[0]
    p, e = pos[i], end[i]  # the current cell's next candidate and end, kept out of the arrays
    given, nodes = budget, 0
    while True:
        if p >= e:
            i -= 1
            if i < floor:
                depth[0] = floor
                pos[floor] = end[floor]
                counts[0] += given - budget
                counts[1] += nodes
                return DONE
            used[placed[i] >> 2] = False
            p, e = pos[i], end[i]
            continue
        if budget == 0:
            depth[0], pos[i] = i, p
            counts[0] += given - budget
            counts[1] += nodes
            return PAUSED
        budget -= 1
        o = cand[p]
        p += 1
        if used[o >> 2]:
            continue
        k = ndeps[i]
        if k > 2:
            fits = True
            for q in range(2, k):
                if shown[o * 4 + own_side[i, q]] != need[placed[dep_cell[i, q]] * 4 + dep_side[i, q]]:
                    fits = False
                    break
            if not fits:
                continue
        placed[i] = o
        nodes += 1
        if i == last:
            depth[0], pos[i] = i, p
            counts[0] += given - budget
            counts[1] += nodes
            return FOUND
        used[o >> 2] = True
        pos[i] = p
        i += 1
        k = ndeps[i]
        key = 0
        if k >= 1:
            key = need[placed[dep_cell[i, 0]] * 4 + dep_side[i, 0]]
        if k >= 2:
            key = key * n_labels + need[placed[dep_cell[i, 1]] * 4 + dep_side[i, 1]]
        p, e = start[i, key], stop[i, key]
        end[i] = e


@cache
def compiled_advance():
    """:func:`advance` compiled by numba (once per process; numba keeps the machine code on disk)."""
    return require("numba").njit(cache=True)(advance)


class Tables(NamedTuple):
    """The search's read-only arrays (the first ten arguments of :func:`advance`) and the number
    of tiles."""

    ndeps: Any
    dep_cell: Any
    dep_side: Any
    own_side: Any
    need: Any
    shown: Any
    n_labels: int
    start: Any
    stop: Any
    cand: Any
    n_tiles: int


def tables(allowed, n_labels: int, n_tiles: int, shown, need, checks) -> Tables:
    """The arrays (numpy) for a puzzle: ``allowed``, its placements per cell; per placement ``o =
    tile * 4 + rotation`` the label ids it ``shows`` on its four sides and those it ``needs`` next
    door; per cell its placed neighbours ``checks`` ``(own side, earlier cell, its side)`` (see
    :func:`satedge.backtrack.tables`)."""
    n = len(checks)
    width = max(len(c) for c in checks) if n else 0
    ndeps = np.array([len(c) for c in checks], np.int64)
    own_side = np.zeros((n, max(width, 1)), np.int64)
    dep_cell = np.zeros_like(own_side)
    dep_side = np.zeros_like(own_side)
    for i, cell_checks in enumerate(checks):
        for q, (side, j, other) in enumerate(cell_checks):
            own_side[i, q], dep_cell[i, q], dep_side[i, q] = side, j, other
    start = np.zeros((n, n_labels * n_labels), np.int64)
    stop = np.zeros_like(start)
    cand: list[int] = []
    for i, cell_checks in enumerate(checks):
        index: dict[int, list[int]] = {}
        for t, r in allowed[i]:
            o = t * 4 + r
            key = 0
            for side, _, _ in cell_checks[:2]:
                key = key * n_labels + shown[o][side]
            index.setdefault(key, []).append(o)
        for key, os_ in index.items():
            start[i, key] = len(cand)
            cand.extend(os_)
            stop[i, key] = len(cand)
    return Tables(ndeps, dep_cell, dep_side, own_side,
                  np.array([x for labels in need for x in labels] or [0], np.int64),
                  np.array([x for labels in shown for x in labels] or [0], np.int64),
                  n_labels, start, stop, np.array(cand or [0], np.int64), n_tiles)


def run(t: Tables, prefix: list[int], last: int, parent: int | None = None, counts=None,
        paused: Callable[[], None] | None = None) -> Iterator[list[int]]:
    """Placements of cells ``0..last`` that extend ``prefix`` (the placements of the first
    cells), lazily, in the search order; with ``parent``, it stops early once the process with
    that id is no longer this one's parent.  ``counts`` (two int64s) gains the candidates tried and
    the nodes placed; ``paused`` is called every :data:`BUDGET` candidates (about a second)."""
    kernel = compiled_advance()
    n = len(t.ndeps)
    placed = np.zeros(n, np.int64)
    pos = np.zeros(n, np.int64)
    end = np.zeros(n, np.int64)
    used = np.zeros(t.n_tiles, np.bool_)
    depth = np.zeros(1, np.int64)
    counts = np.zeros(2, np.int64) if counts is None else counts
    floor = len(prefix)
    if floor > last:
        yield list(prefix)
        return
    for i, o in enumerate(prefix):
        placed[i] = o
        used[o >> 2] = True
    key = 0
    for q in range(min(int(t.ndeps[floor]), 2)):
        key = key * t.n_labels + int(t.need[placed[t.dep_cell[floor, q]] * 4 + t.dep_side[floor, q]])
    pos[floor], end[floor], depth[0] = t.start[floor, key], t.stop[floor, key], floor
    while True:
        outcome = kernel(*t[:10], placed, pos, end, used, depth, floor, last, BUDGET, counts)
        if outcome == DONE:
            return
        if outcome == FOUND:
            yield placed[:last + 1].tolist()
        elif parent is not None and os.getppid() != parent:
            return
        elif paused is not None:
            paused()


def search(t: Tables, counts=None, paused: Callable[[], None] | None = None) -> Iterator[list[int]]:
    """Placements (``tile * 4 + rotation`` per cell, row-major) of every solution, lazily
    (``counts`` and ``paused`` as :func:`run` has them)."""
    return run(t, [], len(t.ndeps) - 1, counts=counts, paused=paused)


# ---------------------------------------------------------------------------- with workers
def cut(t: Tables, workers: int, counts=None) -> tuple[int, list[list[int]]]:
    """The shallowest depth at which the tree has at least ``SUBTREES_PER_WORKER * workers``
    subtrees (or the last cell), and the placements of the cells above it; ``counts`` gains the
    candidates and nodes of the tree above that depth (with the subtrees', the whole tree's)."""
    n = len(t.ndeps)
    d, prefixes, above = 0, [[]], np.zeros(2, np.int64)
    while d < n - 1 and 0 < len(prefixes) < SUBTREES_PER_WORKER * workers:
        d += 1
        above = np.zeros(2, np.int64)
        prefixes = list(run(t, [], d - 1, counts=above))
    if counts is not None:
        counts += above
    return d, prefixes


def _subtree(t: Tables, parent: int, counts, task: tuple[list[int], int | None]) -> list[list[int]]:
    """A worker's task: the solutions (up to ``limit``) that extend ``prefix``, the candidates and
    nodes they cost added to ``counts`` (the worker's share of memory the parent reads); it gives
    up when ``parent``, the process that started it, is gone (where the kernel does not end it
    with its parent)."""
    prefix, limit = task
    found: list[list[int]] = []
    for placed in run(t, prefix, len(t.ndeps) - 1, parent, counts):
        found.append(placed)
        if limit is not None and len(found) >= limit:
            break
    if os.getppid() != parent:
        os._exit(0)  # nobody is left to take the answer
    return found


def parallel_search(t: Tables, workers: int, limit: int | None = None, counts=None,
                    paused: Callable[[], None] | None = None) -> Iterator[list[int]]:
    """Placements of every solution (at most ``limit``), searched by ``workers`` processes; each
    solution once, in no fixed order.  The processes stop when the iterator is closed.
    ``counts`` follows the candidates and nodes of the whole search as the workers go (each
    counts into a share of memory of its own); ``paused`` is called every half second of
    waiting."""
    counts = np.zeros(2, np.int64) if counts is None else counts
    n = len(t.ndeps)
    above = np.zeros(2, np.int64)
    _, prefixes = cut(t, workers, above)
    counts += above
    if len(prefixes) <= 1:
        for prefix in prefixes:
            yield from run(t, prefix, n - 1, counts=counts, paused=paused)
        return
    parent, ctx = os.getpid(), multiprocessing.get_context("fork")
    shared, taken = ctx.RawArray("q", 2 * workers), ctx.Value("i", 0)
    slots = np.frombuffer(shared, dtype=np.int64).reshape(workers, 2)
    start = counts.copy()

    def worker():
        with taken.get_lock():
            k, taken.value = taken.value, taken.value + 1
        return partial(_subtree, t, parent, slots[k])

    def follow() -> None:
        counts[:] = start + slots.sum(axis=0)
        if paused is not None:
            paused()

    results = forked_map(worker, [(prefix, limit) for prefix in prefixes], workers, idle=follow)
    try:
        for found in results:
            counts[:] = start + slots.sum(axis=0)
            yield from found
        counts[:] = start + slots.sum(axis=0)
    finally:
        results.close()
