"""The backtracker's search loop compiled with numba (a core dependency).

:func:`satedge.backtrack.solutions` uses it when numba is installed: the same cells in the same
order, the same candidates in the same order, so the same solutions in the same order as the
pure-Python loop, several times faster.  A cell's candidates are the tiles of a bit mask looked
up by the labels of its first two placed neighbours, less the tiles in use (a mask too): no
candidate in use is ever looked at.  A tile that fits those labels in several rotations is in
several layers of masks, one rotation each; further neighbours (on a torus) are checked one by
one.

With ``workers > 1`` (:func:`parallel_search`) the tree is cut at a depth where it has many
subtrees; worker processes search the subtrees, first to last as workers come free, and
every solution is found exactly once, though not in the sequential order.
"""

from __future__ import annotations

import multiprocessing
import os
import time
import types
from functools import cache, partial
from typing import Any, Callable, Iterator, NamedTuple

import numpy as np

from ..errors import SatedgeError
from ..system.extras import require
from ..system.proctree import forked_map
from ..system.progress import REPORT_SECONDS
from . import native

__all__ = [
    "CALL_BUDGET", "SUBTREES_PER_WORKER", "MAX_TABLE_BYTES", "advance", "compiled_advance", "stepper", "Tables", "tables", "layers",
    "run", "search", "cut", "parallel_search"
]


# outcomes of advance()
DONE, FOUND, PAUSED = 0, 1, 2
# candidates tried per call of advance(): a tenth of a second or so, so that Ctrl-C is seen between
# calls and the workers' shares of the counts follow the search closely
CALL_BUDGET = 1 << 22
# with workers, cut the tree where it has at least this many subtrees per worker
SUBTREES_PER_WORKER = 256
# the rotation table (a byte per key, layer and tile) may take this much memory
MAX_TABLE_BYTES = 2**28


def advance(ndeps, dep_cell, dep_side, own_side, need, shown, n_labels, kind, masks, turn, words, d0, s0, d1, s1,
            prev, extra, twin, placed, word, bits, keys, used, depth, floor, last, budget, counts):
    """Run the search from ``depth[0]`` until the next placement of cells ``0..last`` (FOUND,
    ``placed`` holds it), the end (DONE) or ``budget`` candidates (PAUSED).  Cells below
    ``floor`` stay as placed.  The state arrays ``placed, word, bits, keys, used, depth`` carry
    over calls; ``counts[0]`` gains the candidates tried, ``counts[1]`` the placements made (the
    search tree's nodes).

    A cell's key is its kind's offset plus the labels its first two earlier neighbours ask for;
    ``masks[w, key]`` holds the tiles that fit it (word ``w``: tiles ``64 * (w % W)`` on, in the
    rotation layer ``w // W``, ``W`` words of tiles), ``turn[key, 64 * w + bit]`` their
    rotation, ``words[key]`` the number of words to look at; ``used`` has a bit per tile in use.
    ``prev[i]``: the first earlier neighbour ``d0[i]`` is position ``i - 1``, whose placement
    the loop has at hand when it steps down to ``i``.  Keys from ``extra`` on have further
    neighbours to check.  ``twin[t]``: the copy of tile ``t``
    that must be in use before it is tried (identical tiles go in order), or -1; ``twin`` None:
    no identical tiles."""
    i = depth[0]
    w, m, key = word[i], bits[i], keys[i]
    tw = used.shape[0] - 1  # words of tiles - 1, a power of two - 1
    u0 = used[0]  # the first word of used, kept in a register when it is the only one
    given, nodes = budget, 0
    one, zero = np.uint64(1), np.uint64(0)
    while True:
        if m == zero:
            w += 1
            if w < words[key]:
                m = masks[w, key] & ~(u0 if tw == 0 else used[w & tw])
                continue
            i -= 1
            if i < floor:
                depth[0] = floor
                word[floor], bits[floor] = 0, zero
                used[0] = u0 if tw == 0 else used[0]
                counts[0] += given - budget
                counts[1] += nodes
                return DONE
            t = placed[i] >> 2
            if tw == 0:
                u0 ^= one << np.uint64(t)
            else:
                used[t >> 6] ^= one << np.uint64(t & 63)
            w, m, key = word[i], bits[i], keys[i]
            continue
        if budget == 0:
            depth[0], word[i], bits[i] = i, w, m
            used[0] = u0 if tw == 0 else used[0]
            counts[0] += given - budget
            counts[1] += nodes
            return PAUSED
        b = trailing_zeros(m)
        m &= m - one
        t = (w & tw) * 64 + b
        if twin is not None:  # compiled away for puzzles without identical tiles (twin None)
            p = twin[t]
            if p >= 0 and ((u0 if tw == 0 else used[p >> 6]) >> np.uint64(p & 63)) & one == zero:
                continue  # a copy of an identical tile: only once the copy before it is placed
        budget -= 1
        o = t * 4 + turn[key, w * 64 + b]
        if key >= extra:
            fits = True
            for q in range(2, ndeps[i]):
                if shown[o * 4 + own_side[i, q]] != need[placed[dep_cell[i, q]] * 4 + dep_side[i, q]]:
                    fits = False
                    break
            if not fits:
                continue
        placed[i] = o
        nodes += 1
        if i == last:
            depth[0], word[i], bits[i] = i, w, m
            used[0] = u0 if tw == 0 else used[0]
            counts[0] += given - budget
            counts[1] += nodes
            return FOUND
        if tw == 0:
            u0 ^= one << np.uint64(t)
        else:
            used[t >> 6] ^= one << np.uint64(t & 63)
        word[i], bits[i] = w, m
        i += 1
        left = o if prev[i] else placed[d0[i]]  # the placement just made, mostly: no store and load again
        key = kind[i] + need[left * 4 + s0[i]] * n_labels + need[placed[d1[i]] * 4 + s1[i]]
        keys[i] = key
        w = 0
        m = masks[0, key] & ~(u0 if tw == 0 else used[0])


def trailing_zeros(x) -> int:
    """The number of zero bits below the lowest one of ``x`` (compiled: the processor's
    instruction)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@cache
def compiled_advance():
    """:func:`advance` compiled by numba (once per process; numba keeps the machine code on
    disk), with numba's intrinsic for :func:`trailing_zeros`."""
    numba = require("numba")
    intrinsic = require("numba.cpython.unsafe.numbers").trailing_zeros
    kernel = types.FunctionType(advance.__code__, {**advance.__globals__, "trailing_zeros": intrinsic}, "advance")
    kernel.__module__, kernel.__qualname__ = advance.__module__, advance.__qualname__
    return numba.njit(cache=True)(kernel)


class Tables(NamedTuple):
    """The search's read-only arrays (the first eighteen arguments of :func:`advance`), the
    number of tiles and the C loop's table of labels."""

    ndeps: Any
    dep_cell: Any
    dep_side: Any
    own_side: Any
    need: Any
    shown: Any
    n_labels: int
    kind: Any
    masks: Any
    turn: Any
    words: Any
    d0: Any
    s0: Any
    d1: Any
    s1: Any
    prev: Any
    extra: int
    twin: Any
    n_tiles: int
    labels: Any  # the C loop's table of the labels each entry of ``turn`` needs (:func:`satedge.backtrack.native.labels`)


def layers(placements, sides, shown) -> list[int]:
    """Per placement ``(tile, rotation)`` of one cell, its layer in the compiled search: how many
    rotations of the same tile before it show the same labels on ``sides`` (the cell's sides
    towards its first two earlier neighbours; ``shown`` as :func:`tables` has it).  Both loops
    try a cell's candidates by layer, then by tile."""
    seen: dict = {}
    out = []
    for t, r in placements:
        key = (t, tuple(shown[t * 4 + r][s] for s in sides))
        out.append(seen.get(key, 0))
        seen[key] = out[-1] + 1
    return out


def tables(allowed, n_labels: int, n_tiles: int, shown, need, checks, twin=None) -> Tables:
    """The arrays (numpy) for a puzzle: ``allowed``, its placements per position in the search
    order; per placement ``o = tile * 4 + rotation`` the label ids it ``shows`` on its four sides
    and those it ``needs`` next door; per position its earlier neighbours ``checks`` ``(own
    side, earlier position, its side)``; per tile the ``twin`` placed before it, or -1 (None:
    no identical tiles; see :func:`satedge.backtrack.tables`)."""
    n = len(checks)
    width = max((len(c) for c in checks), default=0)
    ndeps = np.array([len(c) for c in checks], np.int64)
    own_side = np.zeros((n, max(width, 1)), np.int64)
    dep_cell = np.zeros_like(own_side)
    dep_side = np.zeros_like(own_side)
    # d0, s0, d1, s1: the first two earlier neighbours; a missing one is position n, which holds
    # a placement past the last (its labels are 0), so every key is kind + label * L + label
    d0, s0 = np.full(n + 1, n, np.int64), np.zeros(n + 1, np.int64)
    d1, s1 = d0.copy(), s0.copy()
    for i, cell_checks in enumerate(checks):
        for q, (side, j, other) in enumerate(cell_checks):
            own_side[i, q], dep_cell[i, q], dep_side[i, q] = side, j, other
        (d0[i], s0[i]), (d1[i], s1[i]) = ([(j, other) for _, j, other in cell_checks[:2]] + [(n, 0), (n, 0)])[:2]
    # kinds: positions with the same placements keyed by the same own sides share their masks;
    # those with further neighbours come last
    kinds: dict = {}
    for i in sorted(range(n), key=lambda i: len(checks[i]) > 2):
        kinds.setdefault((allowed[i], tuple(s for s, _, _ in checks[i][:2]), len(checks[i]) > 2), []).append(i)
    square = n_labels * n_labels
    tile_words = native.tile_words(n_tiles)
    kind = np.zeros(n + 1, np.int64)
    extra = len(kinds) * square
    entries = []
    for k, ((placements, sides, more), positions) in enumerate(kinds.items()):
        kind[positions] = k * square
        if more:
            extra = min(extra, k * square)
        for (t, r), layer in zip(placements, layers(placements, sides, shown)):
            labels = [shown[t * 4 + r][s] for s in sides] + [0, 0]
            entries.append((k * square + labels[0] * n_labels + labels[1], layer * tile_words + t // 64, t % 64, r))
    depth_words = max((e[1] for e in entries), default=0) // tile_words * tile_words + tile_words
    if len(kinds) * square * depth_words * 64 > MAX_TABLE_BYTES:
        raise SatedgeError(f"the compiled backtracker's tables would take over {MAX_TABLE_BYTES // 2**20:,} MB for "
                           "this puzzle; run it without workers (the pure-Python loop, compiled=False)")
    masks = np.zeros((depth_words, max(len(kinds), 1) * square), np.uint64)
    turn = np.zeros((max(len(kinds), 1) * square, depth_words * 64), np.uint8)
    words = np.zeros(max(len(kinds), 1) * square, np.int64)
    for key, w, bit, r in entries:
        masks[w, key] |= np.uint64(1) << np.uint64(bit)
        turn[key, w * 64 + bit] = r
        words[key] = max(words[key], (w // tile_words + 1) * tile_words)
    flat_need = [x for labels in need for x in labels] + [0] * 4
    flat_shown = [x for labels in shown for x in labels] + [0] * 4
    t = Tables(ndeps, dep_cell, dep_side, own_side, np.array(flat_need, np.int64), np.array(flat_shown, np.int64),
                  n_labels, kind, masks, turn, words, d0, s0, d1, s1, d0 == np.arange(n + 1) - 1, extra,
                  None if twin is None else np.array(twin, np.int64), n_tiles, None)
    return t._replace(labels=native.labels(t))  # once per puzzle, not for each subtree's run


def run(t: Tables, prefix: list[int], last: int, parent: int | None = None, counts=None,
        paused: Callable[[], None] | None = None) -> Iterator[list[int]]:
    """Placements of cells ``0..last`` that extend ``prefix`` (the placements of the first
    cells), lazily, in the search order; with ``parent``, it stops early once the process with
    that id is no longer this one's parent.  ``counts`` (two int64s) gains the candidates tried and
    the nodes placed; ``paused`` is called about every :data:`satedge.system.progress.REPORT_SECONDS` while nothing is found."""
    n = len(t.ndeps)
    placed = np.zeros(n + 1, np.int64)
    placed[n] = 4 * t.n_tiles  # the neighbour of cells with fewer than two: its labels are 0
    word = np.zeros(n, np.int64)
    bits = np.zeros(n, np.uint64)
    keys = np.zeros(n, np.int64)
    used = np.zeros(native.tile_words(t.n_tiles), np.uint64)
    depth = np.zeros(1, np.int64)
    counts = np.zeros(2, np.int64) if counts is None else counts
    floor = len(prefix)
    if floor > last:
        yield list(prefix)
        return
    for i, o in enumerate(prefix):
        placed[i] = o
        used[o >> 8] |= np.uint64(1) << np.uint64((o >> 2) & 63)
    key = int(t.kind[floor] + t.need[placed[t.d0[floor]] * 4 + t.s0[floor]] * t.n_labels
              + t.need[placed[t.d1[floor]] * 4 + t.s1[floor]])
    keys[floor], depth[0] = key, floor
    bits[floor] = t.masks[0, key] & ~used[0]
    step = stepper(t, placed, word, bits, keys, used, depth, counts)
    reported = time.monotonic()
    while True:
        outcome = step(floor, last, CALL_BUDGET)
        if outcome == DONE:
            return
        if outcome == FOUND:
            yield placed[:last + 1].tolist()
        elif parent is not None and os.getppid() != parent:
            return
        elif paused is not None and time.monotonic() - reported >= REPORT_SECONDS:
            reported = time.monotonic()
            paused()


def stepper(t: Tables, placed, word, bits, keys, used, depth, counts) -> Callable[[int, int, int], int]:
    """:func:`advance` over ``t`` and the state arrays, as ``(floor, last, budget) -> outcome``:
    the C search written for this order (:mod:`satedge.backtrack.native`) where a C compiler is
    found, else numba's."""
    step = native.kernel(t, placed, word, bits, keys, used, depth, counts)
    if step is not None:
        return step
    kernel = compiled_advance()

    def advance(floor: int, last: int, budget: int) -> int:
        return kernel(*t[:18], placed, word, bits, keys, used, depth, floor, last, budget, counts)

    return advance


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
