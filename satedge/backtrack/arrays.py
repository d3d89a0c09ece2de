"""The search loop's read-only arrays for one puzzle in one cell order (:class:`Tables`, built by
:func:`tables`): per position its earlier neighbours and kind, and per key (a kind and the labels
its first two earlier neighbours ask for) the tiles that fit, as bit masks, with their rotations.
Every loop reads them by name (:func:`satedge.backtrack.loop.arguments`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import SatedgeError
from . import native

__all__ = ["MAX_TABLE_BYTES", "Breaks", "Tables", "tables", "layers", "budgeted"]

# the rotation table (a byte per key, layer and tile) may take this much memory
MAX_TABLE_BYTES = 2**28


@dataclass(frozen=True)
class Breaks:
    """Which misfits the tables of misfits hold: at most ``most`` per placement (1 or 2, of its
    first two earlier neighbours), and none on a side where the placement shows, or its neighbour
    asks for, one of the label ids ``hard`` (a frame's run of labels, say).  A further earlier
    neighbour (a torus's, a clue's placed first) is checked one by one, and its misfit counts
    against the budget of misfits whatever these say.

    >>> Breaks()
    Breaks(most=2, hard=frozenset())
    """

    most: int = 2
    hard: frozenset = frozenset()


@dataclass(frozen=True, eq=False)
class Tables:
    """The search's read-only arrays, each named as the loops' parameters name it
    (:func:`satedge.backtrack.advance.advance` says what each holds), the number of tiles and the C
    loop's own copy of the candidates."""

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
    # the C loop's own copy of the candidates (:func:`satedge.backtrack.native.entries`)
    cmasks: Any = None
    cstart: Any = None
    cturn: Any = None
    clabels: Any = None


def budgeted(t: Tables) -> bool:
    """Whether ``t`` has the keys of misfits (:func:`tables` with ``misfits``)."""
    return t.masks.shape[1] > t.nkp


def layers(placements: Sequence[tuple[int, int]], sides: Sequence[int], shown: Any) -> list[int]:
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
    allowed: Sequence[Sequence[tuple[int, int]]],
    n_labels: int,
    n_tiles: int,
    shown: Any,
    need: Any,
    checks: Sequence[Sequence[tuple[int, int, int]]],
    twin: Any = None,
    misfits: bool | Breaks = False,
) -> Tables:
    """The arrays (numpy) for a puzzle: ``allowed``, its placements per position in the search
    order; per placement ``o = tile * 4 + rotation`` the label ids it ``shows`` on its four sides
    and those it ``needs`` next door; per position its earlier neighbours ``checks`` ``(own
    side, earlier position, its side)``; per tile the ``twin`` placed before it, or -1 (None:
    no identical tiles; see :func:`satedge.backtrack.search.tables`); ``misfits``: the keys of the
    placements that miss one and both of the first two earlier neighbours too, for a search
    with a budget of misfits (:func:`satedge.backtrack.advance.advance`); :class:`Breaks` in its
    place: only the misfits it allows."""
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
    breaks = misfits if isinstance(misfits, Breaks) else Breaks()
    missing = (
        _missing(kinds, shown, n_labels, nkp, tile_words, breaks) if misfits else np.zeros((0, 4), np.int64)
    )
    # words of layers x tiles: a key's entries in the rotation table take this many times 64
    fit_words, miss_words = (
        int(e[:, 1].max(initial=0)) // tile_words * tile_words + tile_words for e in (fitting, missing)
    )
    phases = 3 if misfits else 1
    size = nkp * fit_words * 64 + (phases - 1) * nkp * miss_words * 64
    if size > MAX_TABLE_BYTES:
        raise SatedgeError(
            f"the compiled backtracker's tables would take over {MAX_TABLE_BYTES // 2**20:,} MB for "
            "this puzzle; run it without workers (the pure-Python loop, loop=python)"
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
        ndeps=ndeps,
        dep_cell=dep_cell,
        dep_side=dep_side,
        own_side=own_side,
        need=np.array(flat_need, np.int64),
        shown=np.array(flat_shown, np.int64),
        n_labels=n_labels,
        kind=kind,
        masks=masks,
        turn=turn,
        words=words,
        d0=d0,
        s0=s0,
        d1=d1,
        s1=s1,
        prev=d0 == np.arange(n + 1) - 1,
        extra=extra,
        twin=None if twin is None else np.array(twin, np.int64),
        nkp=nkp,
        base=base,
        n_tiles=n_tiles,
    )
    return replace(t, **native.entries(t))  # once per puzzle, not for each subtree's run


def _missing(kinds: dict, shown: Any, n_labels: int, nkp: int, tile_words: int, breaks: Breaks) -> np.ndarray:
    """The entries ``(key, word, bit, rotation)`` of the placements that miss one (keys from
    ``nkp`` on) or both (from ``2 * nkp`` on) of a cell's first two earlier neighbours, for every
    pair of labels those neighbours may ask for; a tile's rotations in one key take layers in the
    order of the kind's placements, as :func:`layers` gives them for the placements that fit;
    only those ``breaks`` allows."""
    square = n_labels * n_labels
    out = []
    for k, ((placements, sides, _), _) in enumerate(kinds.items()):
        if not sides or not placements:
            continue  # no earlier neighbour: nothing to miss
        tiles = np.array([t for t, _ in placements], np.int64)
        turns = np.array([r for _, r in placements], np.int64)
        own = np.array([[shown[t * 4 + r][s] for s in sides] for t, r in placements], np.int64)
        asked = np.arange(n_labels)
        # a side misses where the label shown is not the one asked for; a miss barred (a hard
        # label on either side of it) or one too many leaves the placement out of the key
        hard = np.isin(np.arange(n_labels), list(breaks.hard))
        first = own[:, 0, None, None] != asked[None, :, None]  # placement, a, b
        barred = first & (hard[own[:, 0]][:, None, None] | hard[None, :, None])
        miss = first.astype(np.int64)
        if len(sides) == 2:
            second = own[:, 1, None, None] != asked[None, None, :]
            barred = barred | second & (hard[own[:, 1]][:, None, None] | hard[None, None, :])
            miss = miss + second
        miss = np.where(barred | (miss > breaks.most), 0, miss)
        if (
            len(sides) == 1
        ):  # a cell with one earlier neighbour asks for label 0 on the second: keys with b = 0
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
