"""The backtracker's search loop compiled with numba (a core dependency).

:func:`satedge.backtrack.solutions` uses it when numba is installed: the same cells in the same
order, the same candidates in the same order, so the same solutions in the same order as the
pure-Python loop, several times faster.  A cell's candidates are the tiles of a bit mask looked
up by the labels of its first two placed neighbours, less the tiles in use (a mask too): no
candidate in use is ever looked at.  A tile that fits those labels in several rotations is in
several layers of masks, one rotation each; further neighbours (on a torus) are checked one by
one.  :mod:`.split` shares its tree among worker processes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ..errors import SatedgeError
from ..system.extras import require
from ..system.progress import REPORT_SECONDS
from . import native
from .kernels import Step, numba_kernel

__all__ = [
    "CALL_BUDGET",
    "MAX_TABLE_BYTES",
    "advance",
    "compiled_advance",
    "stepper",
    "Tables",
    "tables",
    "layers",
    "State",
    "at_root",
    "place",
    "run",
    "search",
]


# candidates tried per call of advance(): a tenth of a second or so, so that Ctrl-C is seen between
# calls and the workers' shares of the counts follow the search closely
CALL_BUDGET = 1 << 22
# the rotation table (a byte per key, layer and tile) may take this much memory
MAX_TABLE_BYTES = 2**28


def advance(
    ndeps,
    dep_cell,
    dep_side,
    own_side,
    need,
    shown,
    n_labels,
    kind,
    masks,
    turn,
    words,
    d0,
    s0,
    d1,
    s1,
    prev,
    extra,
    twin,
    nkp,
    base,
    allow,
    placed,
    word,
    bits,
    keys,
    used,
    spent,
    best,
    depth,
    floor,
    last,
    budget,
    counts,
):
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
    no identical tiles.

    With a budget of misfits (``allow`` not None, the tables of :func:`tables` with
    ``misfits``): ``allow[i]`` is the most misfits the placements of positions ``0..i`` may
    have, ``spent[i]`` those of positions ``0..i - 1``.  A cell's keys come in three phases of
    ``nkp`` keys each: the placements that fit both of its first two earlier neighbours, those
    that miss one, those that miss both; once a phase's candidates are tried, the next phase's
    are, while the budget lasts.  A placement costs its phase and each further neighbour it
    misses.  ``allow`` None: no misfit, and this code is compiled away.  The rotation table is
    then flat (one row): key ``k``'s entries start at ``base[k]``.  ``best`` (with a budget; None:
    not kept) keeps the deepest placements made, the fewest misfits among equally deep:
    ``best[0]`` placements, ``best[1]`` misfits, the placements from ``best[2]`` on."""
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
            if allow is not None and key < 2 * nkp and spent[i] + key // nkp < allow[i]:
                key += nkp  # the next phase: one misfit more
                keys[i], w = key, 0
                m = masks[0, key] & ~(u0 if tw == 0 else used[0])
                continue
            i -= 1
            if i < floor:
                depth[0] = floor
                word[floor], bits[floor] = 0, zero
                used[0] = u0 if tw == 0 else used[0]
                counts[0] += given - budget
                counts[1] += nodes
                return Step.DONE
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
            return Step.PAUSED
        b = trailing_zeros(m)
        m &= m - one
        t = (w & tw) * 64 + b
        if twin is not None:  # compiled away for puzzles without identical tiles (twin None)
            p = twin[t]
            if p >= 0 and ((u0 if tw == 0 else used[p >> 6]) >> np.uint64(p & 63)) & one == zero:
                continue  # a copy of an identical tile: only once the copy before it is placed
        budget -= 1
        o = t * 4 + turn[key if base is None else 0, (0 if base is None else base[key]) + w * 64 + b]
        miss = 0 if allow is None else key // nkp
        if (key if allow is None else key % nkp) >= extra:
            fits = True
            for q in range(2, ndeps[i]):
                if shown[o * 4 + own_side[i, q]] != need[placed[dep_cell[i, q]] * 4 + dep_side[i, q]]:
                    miss += 1
                    if allow is None or spent[i] + miss > allow[i]:
                        fits = False
                        break
            if not fits:
                continue
        if allow is not None:
            spent[i + 1] = spent[i] + miss
        placed[i] = o
        if best is not None and i + 1 >= best[0] and (i + 1 > best[0] or spent[i + 1] < best[1]):
            best[0], best[1] = i + 1, spent[i + 1]
            best[2 : i + 3] = placed[: i + 1]
        nodes += 1
        if i == last:
            depth[0], word[i], bits[i] = i, w, m
            used[0] = u0 if tw == 0 else used[0]
            counts[0] += given - budget
            counts[1] += nodes
            return Step.FOUND
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
    return numba_kernel(advance, trailing_zeros=require("numba.cpython.unsafe.numbers").trailing_zeros)


class Tables(NamedTuple):
    """The search's read-only arrays (the first twenty arguments of :func:`advance`), the
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
    nkp: int  # keys per phase: all of them, or with misfits a third
    base: Any  # with misfits, where each key's entries start in the flat rotation table; else None
    n_tiles: int
    # the C loop's table of the labels each entry of ``turn`` needs (:func:`satedge.backtrack.native.labels`)
    labels: Any


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


def tables(
    allowed, n_labels: int, n_tiles: int, shown, need, checks, twin=None, misfits: bool = False
) -> Tables:
    """The arrays (numpy) for a puzzle: ``allowed``, its placements per position in the search
    order; per placement ``o = tile * 4 + rotation`` the label ids it ``shows`` on its four sides
    and those it ``needs`` next door; per position its earlier neighbours ``checks`` ``(own
    side, earlier position, its side)``; per tile the ``twin`` placed before it, or -1 (None:
    no identical tiles; see :func:`satedge.backtrack.tables`); ``misfits``: the keys of the
    placements that miss one and both of the first two earlier neighbours too, for a search
    with a budget of misfits (:func:`advance`)."""
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
        (d0[i], s0[i]), (d1[i], s1[i]) = ([(j, other) for _, j, other in cell_checks[:2]] + [(n, 0), (n, 0)])[
            :2
        ]
    # kinds: positions with the same placements keyed by the same own sides share their masks;
    # those with further neighbours come last
    kinds: dict = {}
    for i in sorted(range(n), key=lambda i: len(checks[i]) > 2):
        kinds.setdefault((allowed[i], tuple(s for s, _, _ in checks[i][:2]), len(checks[i]) > 2), []).append(
            i
        )
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
            entries.append(
                (k * square + labels[0] * n_labels + labels[1], layer * tile_words + t // 64, t % 64, r)
            )
    nkp = max(len(kinds), 1) * square
    fitting = np.array(entries, np.int64).reshape(-1, 4)
    missing = _missing(kinds, shown, n_labels, nkp, tile_words) if misfits else np.zeros((0, 4), np.int64)
    # words of layers x tiles: a key's entries in the rotation table take this many times 64
    fit_words, miss_words = (
        int(e[:, 1].max(initial=0)) // tile_words * tile_words + tile_words for e in (fitting, missing)
    )
    phases = 3 if misfits else 1
    size = nkp * fit_words * 64 + (phases - 1) * nkp * miss_words * 64
    if size > MAX_TABLE_BYTES:
        raise SatedgeError(
            f"the compiled backtracker's tables would take over {MAX_TABLE_BYTES // 2**20:,} MB for "
            "this puzzle; run it without workers (the pure-Python loop, compiled=False)"
        )
    masks = np.zeros((max(fit_words, miss_words if misfits else 0), phases * nkp), np.uint64)
    words = np.zeros(phases * nkp, np.int64)
    # the rotation table: a row of fit_words * 64 entries per key, or with misfits a flat table
    # whose keys start at base[key] (those of the fitting placements as compact as without)
    if misfits:
        base = np.r_[
            np.arange(nkp) * fit_words * 64, nkp * fit_words * 64 + np.arange(2 * nkp) * miss_words * 64
        ]
        turn = np.zeros((1, size), np.uint8)
    else:
        base, turn = None, np.zeros((nkp, fit_words * 64), np.uint8)
    key, w, bit, r = np.concatenate([fitting, missing]).T
    np.bitwise_or.at(masks, (w, key), np.left_shift(np.uint64(1), bit.astype(np.uint64)))
    np.maximum.at(words, key, (w // tile_words + 1) * tile_words)
    if base is None:
        turn[key, w * 64 + bit] = r
    else:
        turn[0, base[key] + w * 64 + bit] = r
    flat_need = [x for labels in need for x in labels] + [0] * 4
    flat_shown = [x for labels in shown for x in labels] + [0] * 4
    t = Tables(
        ndeps,
        dep_cell,
        dep_side,
        own_side,
        np.array(flat_need, np.int64),
        np.array(flat_shown, np.int64),
        n_labels,
        kind,
        masks,
        turn,
        words,
        d0,
        s0,
        d1,
        s1,
        d0 == np.arange(n + 1) - 1,
        extra,
        None if twin is None else np.array(twin, np.int64),
        nkp,
        base,
        n_tiles,
        None,
    )
    return t._replace(labels=native.labels(t))  # once per puzzle, not for each subtree's run


def _missing(kinds: dict, shown, n_labels: int, nkp: int, tile_words: int) -> np.ndarray:
    """The entries ``(key, word, bit, rotation)`` of the placements that miss one (keys from
    ``nkp`` on) or both (from ``2 * nkp`` on) of a cell's first two earlier neighbours, for every
    pair of labels those neighbours may ask for; a tile's rotations in one key take layers in the
    order of the kind's placements, as :func:`layers` gives them for the placements that fit."""
    square = n_labels * n_labels
    out = []
    for k, ((placements, sides, _), _) in enumerate(kinds.items()):
        if not sides or not placements:
            continue  # no earlier neighbour: nothing to miss
        tiles = np.array([t for t, _ in placements], np.int64)
        turns = np.array([r for _, r in placements], np.int64)
        own = np.array([[shown[t * 4 + r][s] for s in sides] for t, r in placements], np.int64)
        asked = np.arange(n_labels)
        miss = (own[:, 0, None, None] != asked[None, :, None]).astype(np.int64)  # placement, a, b
        if len(sides) == 2:
            miss = miss + (own[:, 1, None, None] != asked[None, None, :])
        else:  # a cell with one earlier neighbour asks for label 0 on the second: keys with b = 0
            miss = np.concatenate(
                [miss, np.zeros((len(placements), n_labels, n_labels - 1), np.int64)], axis=2
            )
        p, a, b = np.nonzero(miss)
        key = miss[p, a, b] * nkp + k * square + a * n_labels + b
        order = np.lexsort((p, tiles[p], key))  # by key, then tile, then placement: the layers
        key, p = key[order], p[order]
        group = np.r_[True, (key[1:] != key[:-1]) | (tiles[p][1:] != tiles[p][:-1])]
        starts = np.maximum.accumulate(np.where(group, np.arange(len(key)), 0))
        layer = np.arange(len(key)) - starts
        t = tiles[p]
        out.append(np.stack([key, layer * tile_words + t // 64, t % 64, turns[p]], axis=1))
    return np.concatenate(out) if out else np.zeros((0, 4), np.int64)


COMPILING = "compiling the C loop, once per board shape"  # the stage a progress report names


def run(
    t: Tables,
    prefix: list[int],
    last: int,
    parent: int | None = None,
    counts=None,
    paused: Callable[..., None] | None = None,
    start: tuple[int, ...] | None = None,
    allow=None,
) -> Iterator[list[int]]:
    """Placements of cells ``0..last`` that extend ``prefix`` (the placements of the first
    cells), lazily, in the search order; with ``parent``, it stops early once the process with
    that id is no longer this one's parent.  ``counts`` (two int64s) gains the candidates tried and
    the nodes placed; ``paused`` is called about every
    :data:`satedge.system.progress.REPORT_SECONDS` while nothing is found (and with
    :data:`COMPILING` before a loop is compiled).  ``start``: the ``(word, bits)`` of the next
    cell's candidates left to try, and with misfits their phase (a branch of
    :func:`satedge.backtrack.split.branches`), instead of all of them.  ``allow``: with the
    tables of misfits, the most misfits per depth (:func:`advance`; default none)."""
    if len(prefix) > last:
        yield list(prefix)
        return
    if paused is not None and native.compiles(t):
        paused(COMPILING)  # the few seconds before the first placement: the progress line says why
    state = at_root(t, counts, allow)
    place(t, state, prefix, start)
    reported = time.monotonic()
    while True:
        outcome = state.step(len(prefix), last, CALL_BUDGET)
        if outcome == Step.DONE:
            return
        if outcome == Step.FOUND:
            yield state.placed[: last + 1].tolist()
        elif parent is not None and os.getppid() != parent:
            return
        elif paused is not None and time.monotonic() - reported >= REPORT_SECONDS:
            reported = time.monotonic()
            paused()


class State(NamedTuple):
    """A search's state arrays (as :func:`advance` has them) and the loop bound to them; with the
    tables of misfits, ``allow`` (the most misfits per depth, which may be set again between
    searches), ``spent`` (the misfits so far per depth) and ``best`` (the deepest placements, or
    None where they are not kept)."""

    placed: Any
    word: Any
    bits: Any
    keys: Any
    used: Any
    depth: Any
    allow: Any
    spent: Any
    best: Any
    step: Callable[[int, int, int], int]


def budgeted(t: Tables) -> bool:
    """Whether ``t`` has the keys of misfits (:func:`tables` with ``misfits``)."""
    return t.masks.shape[1] > t.nkp


def at_root(t: Tables, counts=None, allow=None, deepest: bool = False) -> State:
    """The search's state arrays, set at the root, with the loop that steps them (``counts``
    gains what it costs; ``allow`` the most misfits per depth, default none; ``deepest``: keep
    the deepest placements in ``best``): :func:`place` sets them again for another subtree, so
    that a worker binds the loop once for all its subtrees."""
    n = len(t.ndeps)
    placed = np.zeros(n + 1, np.int64)
    placed[n] = 4 * t.n_tiles  # the neighbour of cells with fewer than two: its labels are 0
    arrays = (
        placed,
        np.zeros(n, np.int64),
        np.zeros(n, np.uint64),
        np.zeros(n, np.int64),
        np.zeros(native.tile_words(t.n_tiles), np.uint64),
        np.zeros(1, np.int64),
        np.zeros(n, np.int64) if allow is None else np.array(allow, np.int64),
        np.zeros(n + 1, np.int64),
        np.zeros(n + 2, np.int64) if deepest else None,
    )
    if len(arrays[6]) != n or np.any(np.diff(arrays[6]) < 0) or np.any(arrays[6] < 0):
        raise ValueError(f"allow is {n} non-decreasing numbers of misfits, at least 0")
    if (deepest or (allow is not None and np.any(arrays[6]))) and not budgeted(t):
        raise ValueError("misfits need the tables of misfits (tables(..., misfits=True))")
    place(t, State(*arrays, None), [], None)  # the compiled loop trains its branch profile from here
    return State(*arrays, stepper(t, *arrays, np.zeros(2, np.int64) if counts is None else counts))


def misses(t: Tables, placed, i: int, o: int) -> int:
    """The misfits of placement ``o`` at position ``i`` with its earlier neighbours in ``placed``."""
    return sum(
        int(t.shown[o * 4 + t.own_side[i, q]] != t.need[placed[t.dep_cell[i, q]] * 4 + t.dep_side[i, q]])
        for q in range(t.ndeps[i])
    )


def place(t: Tables, state: State, prefix: list[int], start: tuple[int, ...] | None) -> None:
    """``state`` set to go on below ``prefix`` (``start`` as :func:`run` has it)."""
    floor = len(prefix)
    placed, used = state.placed, state.used
    used[:] = 0
    for i, o in enumerate(prefix):
        placed[i] = o
        used[o >> 8] |= np.uint64(1) << np.uint64((o >> 2) & 63)
        state.spent[i + 1] = state.spent[i] + (misses(t, placed, i, o) if budgeted(t) else 0)
    key = int(
        t.kind[floor]
        + t.need[placed[t.d0[floor]] * 4 + t.s0[floor]] * t.n_labels
        + t.need[placed[t.d1[floor]] * 4 + t.s1[floor]]
    )
    if start is None:
        state.word[floor], state.bits[floor] = 0, t.masks[0, key] & ~used[0]
    else:
        key += t.nkp * (start[2] if len(start) > 2 else 0)
        state.word[floor], state.bits[floor] = start[0], np.uint64(start[1])
    state.keys[floor], state.depth[0] = key, floor


def stepper(
    t: Tables, placed, word, bits, keys, used, depth, allow, spent, best, counts
) -> Callable[[int, int, int], int]:
    """:func:`advance` over ``t`` and the state arrays, as ``(floor, last, budget) -> outcome``:
    the C search written for this order (:mod:`satedge.backtrack.native`) where a C compiler is
    found, else numba's."""
    step = native.kernel(t, placed, word, bits, keys, used, depth, allow, spent, best, counts)
    if step is not None:
        return step
    kernel = compiled_advance()
    limit = allow if budgeted(t) else None  # without misfits numba compiles the budget away

    def advance(floor: int, last: int, budget: int) -> int:
        return kernel(
            *t[:20], limit, placed, word, bits, keys, used, spent, best, depth, floor, last, budget, counts
        )

    return advance


def search(t: Tables, counts=None, paused: Callable[[], None] | None = None) -> Iterator[list[int]]:
    """Placements (``tile * 4 + rotation`` per cell, row-major) of every solution, lazily
    (``counts`` and ``paused`` as :func:`run` has them)."""
    return run(t, [], len(t.ndeps) - 1, counts=counts, paused=paused)
