"""Models in bulk: blocks of a formula's models decoded into arrays, each checked against the
puzzle in one vectorised pass (numpy), with the number of solutions each stands for.

* :class:`Decoder` reads an encoding's :attr:`~satedge.encode.Encoded.cells` once into index
  arrays; a block of models, a boolean matrix of which literals hold (:meth:`Decoder.block`),
  decodes to a tile and a rotation per model and cell, as :meth:`Encoded.decode` reads one;
* :class:`Checker` checks decoded blocks against the puzzle alone, as the independent checker
  (:func:`satedge.puzzle.checker.validate`) does: every tile once, clues, the frame, every adjacency;
* :func:`checked` does both and names the first model the checker rejects in the checker's
  own words.

The checker stays the reference: a property test shows that a block is rejected exactly where
the checker rejects the decoded solution of one of its models, corrupted models included.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter

import numpy as np

from ..encode import Encoded
from ..errors import EncodingError
from ..puzzle.checker import validate
from ..puzzle.model import Puzzle, Solution

__all__ = ["BLOCK", "Decoder", "Decoded", "Checker", "checked", "valid"]

BLOCK = 1024  # models decoded and checked at a time, at most (fewer on large boards: BLOCK_CELLS)
BLOCK_CELLS = 2**22  # models x cells x tiles per cell that one block may hold


@dataclass
class Decoded:
    """A block of decoded models: per model and cell a tile and a rotation (-1 where the model
    shows none), and per model how many solutions it stands for (``weights``, Python ints; the
    rotations of a tile that looks the same turned, which the encoding cannot tell apart)."""

    tiles: np.ndarray
    rots: np.ndarray
    weights: list[int]

    def __len__(self) -> int:
        return len(self.weights)

    def solution(self, i: int) -> Solution:
        return Solution(tuple(zip(self.tiles[i].tolist(), self.rots[i].tolist())))

    def solutions(self) -> list[Solution]:
        return [Solution(tuple(zip(t, r))) for t, r in zip(self.tiles.tolist(), self.rots.tolist())]


class Decoder:
    """An encoding's :attr:`~satedge.encode.Encoded.cells` as index arrays, and blocks to fill.

    A block is a boolean matrix, a row per model, over the variables decoding and blocking read
    (:attr:`read`: the decision variables and every literal of the cells): the ``k``-th of them
    (from 1) is column ``k`` where it is true, column ``R + 1 + k`` where it is false (``R``
    of them); column 0 always holds, column ``R + 1`` never (paddings)."""

    def __init__(self, encoded: Encoded):
        self.encoded = encoded
        self.nv = encoded.nv
        cells = encoded.cells()
        self.read = sorted(
            {
                abs(lit)
                for cell in cells
                for v, _, looks in cell
                for lit in [v, *(x for _, lits in looks for x in lits)]
            }
            | set(encoded.decision)
        )
        r = len(self.read)
        self._col = {v: k for k, v in enumerate(self.read, 1)}
        self._get = (
            itemgetter(*(v - 1 for v in self.read))
            if r > 1
            else (lambda m: (m[self.read[0] - 1],) if r else ())
        )
        n_entries = max(1, max((len(cell) for cell in cells), default=1))
        n_looks = max(1, max((len(looks) for cell in cells for _, _, looks in cell), default=1))
        n_lits = max(
            1, max((len(lits) for cell in cells for _, _, looks in cell for _, lits in looks), default=1)
        )
        never, nc = r + 1, len(cells)
        tv = [[never] * n_entries for _ in range(nc)]  # each entry's placement literal, as a column
        tile = [[-1] * n_entries for _ in range(nc)]
        pad = [never] * n_lits  # a rotation that is not there: its literals never hold
        lk = [[[pad] * n_looks for _ in range(n_entries)] for _ in range(nc)]  # each rotation's literals
        rot = [[[-1] * n_looks for _ in range(n_entries)] for _ in range(nc)]
        group = [[[1] * n_looks for _ in range(n_entries)] for _ in range(nc)]  # rotations alike in the model
        column = self.column
        for c, cell in enumerate(cells):
            for e, (v, t, looks) in enumerate(cell):
                tv[c][e], tile[c][e] = column(v), t
                sets = [frozenset(lits) for _, lits in looks]
                for j, (q, lits) in enumerate(looks):
                    rot[c][e][j] = q
                    lk[c][e][j] = [column(lit) for lit in lits] + [0] * (
                        n_lits - len(lits)
                    )  # 0: a padding that holds
                    group[c][e][j] = sets.count(sets[j])
        self.tv, self.tile = (
            np.array(tv, np.int64).reshape(nc, n_entries),
            np.array(tile, np.int64).reshape(nc, n_entries),
        )
        self.lk = np.array(lk, np.int64).reshape(nc, n_entries, n_looks, n_lits)
        self.rot = np.array(rot, np.int64).reshape(nc, n_entries, n_looks)
        self.group = np.array(group, np.int64).reshape(nc, n_entries, n_looks)
        self.alike = bool((self.group > 1).any())
        self._small = int(self.group.max()) ** len(cells) < 2**62  # a model's weight fits in an int64
        self._decision_cols = np.array([self._col[v] - 1 for v in encoded.decision], np.int64)
        self.size = max(1, min(BLOCK, BLOCK_CELLS // max(1, len(cells) * n_entries * n_looks * n_lits)))

    def column(self, lit: int) -> int:
        k = self._col[abs(lit)]
        return k if lit > 0 else len(self.read) + 1 + k

    def block(self, size: int | None = None) -> np.ndarray:
        """An empty block of ``size`` models (default: :attr:`size`)."""
        return np.zeros((size or self.size, 2 * len(self.read) + 2), bool)

    def put(self, block: np.ndarray, i: int, model: list[int], ordered: bool = False) -> list[int]:
        """Row ``i`` of ``block`` set to ``model``: a list of literals, ``ordered`` when its
        ``k``-th is variable ``k + 1`` or its negation for every variable (a PySAT solver's), else in
        any order, perhaps incomplete (an unassigned variable is neither true nor false).  The
        clause that blocks the model: not all of its true decision variables."""
        if not ordered:
            full = [0] * self.nv
            for lit in model:
                if 0 < abs(lit) <= self.nv:
                    full[abs(lit) - 1] = lit
            model = full
        values = np.array(self._get(model), dtype=np.int64)
        r = len(self.read)
        row = block[i]
        row[0], row[r + 1] = True, False
        true = values > 0
        row[1 : r + 1] = true
        row[r + 2 :] = values < 0
        return (-values[self._decision_cols[true[self._decision_cols]]]).tolist()

    def fill(self, block: np.ndarray, n: int, rows: np.ndarray, true: np.ndarray) -> None:
        """The first ``n`` rows of ``block`` set to complete models: model ``rows[i]`` has the
        variable of column ``true[i]`` true (``k`` for the ``k``-th variable of :attr:`read`,
        from 1), every other one false."""
        r = len(self.read)
        models = block[:n]
        models[:] = False
        models[rows, true] = True
        models[:, 0] = True
        models[:, r + 2 :] = ~models[:, 1 : r + 1]

    def decode(self, block: np.ndarray) -> Decoded:
        """Each model's tile and rotation per cell, as :func:`satedge.encode.core.decode_cells`
        reads them, and what each model stands for."""
        n = len(block)
        cells = np.arange(self.tv.shape[0])
        placed = block[:, self.tv]  # (models, cells, entries)
        first = placed.argmax(axis=2)
        has = np.take_along_axis(placed, first[:, :, None], axis=2)[:, :, 0]
        lits = self.lk[cells[None, :], first]  # (models, cells, looks, lits): columns of the block
        lits += (np.arange(n) * block.shape[1])[:, None, None, None]
        shown = np.take(block.ravel(), lits)
        holds = shown[..., 0]
        for k in range(1, shown.shape[3]):  # faster than all(axis=3) over a short axis
            holds &= shown[..., k]
        look = holds.argmax(axis=2)
        turned = np.take_along_axis(holds, look[:, :, None], axis=2)[:, :, 0]
        tiles = np.where(has, self.tile[cells[None, :], first], -1)
        rots = np.where(has & turned, self.rot[cells[None, :], first, look], -1)
        if self.alike:
            alike = self.group[cells[None, :], first, look]
            weights = (
                np.prod(alike, axis=1) if self._small else np.prod(alike.astype(object), axis=1)
            ).tolist()
        else:
            weights = [1] * n
        return Decoded(tiles, rots, weights)


class Checker:
    """The independent checker's rules over blocks of decoded solutions (numpy): the puzzle's
    label ids per placement, its clues, the frame's sides and the board graph's adjacencies."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        ids = puzzle.label_id
        self.labels = np.array(
            [[ids[x] for x in puzzle.oriented(t, r)] for t in range(len(puzzle.tiles)) for r in range(4)],
            np.int64,
        ).reshape(-1, 4)
        self.partner = np.array([puzzle.partner_id(i) for i in range(len(ids))], np.int64)
        board = puzzle.board
        self.clues = [(board.cell(c.row, c.col), c.tile, c.rotation) for c in puzzle.clues]
        self.frame = None if puzzle.frame is None else ids[puzzle.frame]
        self.border = np.array([ids[x] for x in puzzle.border], np.int64) if puzzle.border else None
        self.outer = np.zeros((puzzle.n, 4), bool)
        for c, s in board.outer:
            self.outer[c, s] = True
        adjs = board.adjacencies
        self.adj = tuple(
            np.array([getattr(a, k) for a in adjs], np.int64) for k in ("a", "side_a", "b", "side_b")
        )

    @cached_property
    def _all_tiles(self) -> np.ndarray:
        return np.arange(len(self.puzzle.tiles))

    def check(self, tiles: np.ndarray, rots: np.ndarray) -> np.ndarray:
        """Per row (a solution), whether the checker accepts it."""
        n_tiles = len(self.puzzle.tiles)
        ok = ((tiles >= 0) & (tiles < n_tiles) & np.isin(rots, self.puzzle.rotations)).all(axis=1)
        ok &= (np.sort(tiles, axis=1) == self._all_tiles).all(axis=1)  # as many tiles as cells: each once
        for cell, t, r in self.clues:
            ok &= (tiles[:, cell] == t) & (rots[:, cell] == r)
        shown = self.labels[np.where(ok[:, None], tiles * 4 + rots, 0)]  # (rows, cells, 4)
        if self.frame is not None:
            ok &= np.where(self.outer, shown == self.frame, shown != self.frame).all(axis=(1, 2))
        if self.border is not None:
            ok &= np.where(self.outer, np.isin(shown, self.border), True).all(axis=(1, 2))
        a, sa, b, sb = self.adj
        if len(a):
            ok &= (self.partner[shown[:, a, sa]] == shown[:, b, sb]).all(axis=1)
        return ok


def checked(decoded: Decoded, checker: Checker, what: str, after: str = "") -> Decoded:
    """``decoded``, each of its solutions accepted by ``checker``; else an
    :class:`EncodingError`, "``what`` gave an invalid solution: PROBLEM``after``", in the
    checker's words for the first one rejected."""
    ok = checker.check(decoded.tiles, decoded.rots)
    if not ok.all():
        sol = decoded.solution(int(np.flatnonzero(~ok)[0]))
        valid(checker.puzzle, sol, what, after, "rejected by the bulk check, accepted by the checker")
    return decoded


def valid(
    puzzle: Puzzle, solution: Solution, what: str, after: str = "", otherwise: str | None = None
) -> Solution:
    """``solution``, which the independent checker accepts; else (or with ``otherwise``, the
    problem to name when it does) an :class:`EncodingError` in the words of :func:`checked`."""
    problem = validate(puzzle, solution) or otherwise
    if problem is not None:
        raise EncodingError(f"{what} gave an invalid solution: {problem}{after}", solution)
    return solution
