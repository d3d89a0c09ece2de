"""The facts of a puzzle that every search of the backtracker reads: :class:`BoardTables`, built
once per puzzle by :func:`board_tables` and shared by the search loop
(:mod:`satedge.backtrack.loop`), the branch and bound
(:mod:`satedge.best.branch_and_bound`) and the neighbourhood search
(:mod:`satedge.best.lns`).

Labels are numbered (:attr:`satedge.puzzle.Puzzle.label_id`), cells are row-major, and a
placement is a tile turned: ``o = tile * 4 + turn``.

>>> from satedge.puzzle import Puzzle
>>> t = board_tables(Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0))
>>> t.shown[1, 0].tolist(), t.nbr.tolist(), t.edges, t.loops
([0, 0, 0, 1], [[-1, 7, -1, -1], [-1, -1, -1, 1]], 1, 0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..puzzle.model import Puzzle

__all__ = ["BoardTables", "board_tables"]


class BoardTables(NamedTuple):
    """A puzzle's facts as arrays of label ids.

    Attributes
    ----------
    shown
        ``shown[t, r, s]``: the label tile ``t`` turned ``r`` shows on side ``s``.
    need
        ``need[t, r, s]``: the label that fits it (``want[shown[t, r, s]]``).
    want
        Per label, the label that fits it (:meth:`satedge.puzzle.Puzzle.partner_id`).
    nbr
        ``nbr[c, s]``: the side next to side ``s`` of cell ``c``, as ``cell * 4 + side``; -1 at
        the rim and where a side meets its own cell (a rule of the cell, kept by its placements).
    edges
        The pairs of touching sides of two cells.
    loops
        The pairs of touching sides of one cell (on a torus one cell wide), which every board keeps.
    """

    shown: np.ndarray
    need: np.ndarray
    want: np.ndarray
    nbr: np.ndarray
    edges: int
    loops: int

    @property
    def n_labels(self) -> int:
        return len(self.want)


def board_tables(puzzle: Puzzle) -> BoardTables:
    """The :class:`BoardTables` of ``puzzle``."""
    ids = puzzle.label_id
    k = len(puzzle.tiles)
    shown = np.array(
        [[[ids[x] for x in puzzle.oriented(t, r)] for r in range(4)] for t in range(k)], dtype=np.int64
    ).reshape(k, 4, 4)
    want = np.array([puzzle.partner_id(i) for i in range(len(ids))] or [0], dtype=np.int64)
    nbr = np.full((puzzle.n, 4), -1, dtype=np.int64)
    loops = 0
    for adj in puzzle.board.adjacencies:
        if adj.a == adj.b:
            loops += 1
            continue
        nbr[adj.a, adj.side_a] = adj.b * 4 + adj.side_b
        nbr[adj.b, adj.side_b] = adj.a * 4 + adj.side_a
    edges = len(puzzle.board.adjacencies) - loops
    return BoardTables(shown, want[shown], want, nbr, edges, loops)
