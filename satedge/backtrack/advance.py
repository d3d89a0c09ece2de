"""The backtracker's search loop as one kernel, :func:`advance`: plain Python over numpy arrays,
which runs as it is (the ``python`` loop: slow, for tests and checks) and compiled by numba (the
``numba`` loop, :func:`compiled_advance`).  The C loop (:mod:`satedge.backtrack.native`) is the same
loop written per cell order.  Its arguments are the search's tables
(:class:`satedge.backtrack.arrays.Tables`) and state (:class:`satedge.backtrack.loop.State`), each
passed by its name (:func:`satedge.backtrack.loop.arguments`).

A cell's candidates are the tiles of a bit mask looked up by the labels of its first two placed
neighbours, less the tiles in use (a mask too): no candidate in use is ever looked at.  A tile that
fits those labels in several rotations is in several layers of masks, one rotation each; further
neighbours (on a torus) are checked one by one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from ..system.extras import require
from .kernels import Step, numba_kernel

__all__ = ["advance", "trailing_zeros", "compiled_advance"]


def advance(
    ndeps: Any,
    dep_cell: Any,
    dep_side: Any,
    own_side: Any,
    need: Any,
    shown: Any,
    n_labels: int,
    kind: Any,
    masks: Any,
    turn: Any,
    words: Any,
    d0: Any,
    s0: Any,
    d1: Any,
    s1: Any,
    prev: Any,
    extra: int,
    twin: Any,
    nkp: int,
    base: Any,
    allow: Any,
    qsides: Any,
    quota: Any,
    placed: Any,
    word: Any,
    bits: Any,
    keys: Any,
    used: Any,
    spent: Any,
    qsum: Any,
    best: Any,
    depth: Any,
    floor: int,
    last: int,
    budget: int,
    counts: Any,
) -> int:
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

    With a budget of misfits (``allow`` not None, the tables of :func:`satedge.backtrack.arrays.tables` with
    ``misfits``): ``allow[i]`` is the most misfits the placements of positions ``0..i`` may
    have, ``spent[i]`` those of positions ``0..i - 1``.  A cell's keys come in three phases of
    ``nkp`` keys each: the placements that fit both of its first two earlier neighbours, those
    that miss one, those that miss both; once a phase's candidates are tried, the next phase's
    are, while the budget lasts.  A placement costs its phase and each further neighbour it
    misses.  ``allow`` None: no misfit, and this code is compiled away.  The rotation table is
    then flat (one row): key ``k``'s entries start at ``base[k]``.  ``best`` (with a budget; None:
    not kept) keeps the deepest placements made, the fewest misfits among equally deep:
    ``best[0]`` placements, ``best[1]`` misfits, the placements from ``best[2]`` on.

    With a quota (``quota`` not None; None compiles it away): ``qsides[t]`` is the number of
    tile ``t``'s sides whose label is one of the quota's, ``quota[i]`` the least number of such
    sides the placements of positions ``0..i`` must show, and ``qsum[i]`` those of positions
    ``0..i - 1``.  The tiles are numbered with the most quota sides first, so once a candidate
    falls short, so does every later one of its layer: the loop goes on with the next layer (or
    phase) at once."""
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
        if quota is not None and qsum[i] + qsides[t] < quota[i]:
            w = (w // (tw + 1) + 1) * (tw + 1) - 1  # the rest of this layer fall short too
            m = zero
            continue
        budget -= 1
        # the rotation as a whole number: a byte of the table would keep numpy's sum a byte (NEP 50)
        o = t * 4 + np.int64(
            turn[key if base is None else 0, (0 if base is None else base[key]) + w * 64 + b]
        )
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
        if quota is not None:
            qsum[i + 1] = qsum[i] + qsides[t]
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


def trailing_zeros(x: int) -> int:
    """The number of zero bits below the lowest one of ``x`` (compiled: the processor's
    instruction)."""
    x = int(x)
    return (x & -x).bit_length() - 1


@cache
def compiled_advance() -> Callable:
    """:func:`advance` compiled by numba (once per process; numba keeps the machine code on
    disk), with numba's intrinsic for :func:`trailing_zeros`."""
    return numba_kernel(advance, trailing_zeros=require("numba.cpython.unsafe.numbers").trailing_zeros)
