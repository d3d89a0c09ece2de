"""Large-neighbourhood search and simulated annealing: good boards where none is proved best.

A board keeps every hard rule (each tile once, the frame, the clues) from its first state on
(the branch and bound's first board), and the search changes it in two ways:

* **annealing** (:meth:`Search.cool`, the compiled :func:`anneal`): a swap of the tiles of two
  cells that take the same tiles (each then in its best turn against its neighbours), or a new
  turn of one tile; a move that loses ``d`` edges is taken with probability ``e^(-d/T)``, the
  temperature ``T`` falling from :data:`HOT` to :data:`COLD`; the best board met is kept;
* **large neighbourhoods** (:meth:`Search.improve`), each refilled at least as well, so the
  score never falls:

  * *swap*: a set of cells no two of which touch, with the tiles on them; every neighbour of
    those cells stays, so each tile has its best turn and cost in each of the cells on its
    own, and the best reassignment of the tiles to the cells is an assignment problem
    (``scipy.optimize.linear_sum_assignment``), solved exactly whatever the number of cells;
  * *window*: a rectangle of neighbouring cells, refilled with its own tiles by the
    backtracker's branch and bound (:func:`satedge.best.branch_and_bound.refill`), each placement
    costing its misfits with the cells around the window as well as inside it (within a
    budget of candidates looked at: the best refill found);

  A move that scores the same is taken (the board drifts along a plateau); after many moves
  that gain nothing, a random reassignment of a few cells shakes the board, and the search
  goes on from the best board whenever the shaken one has not caught up with it.

:func:`search` runs a walk of annealing per process, in cycles that each reheat and cool again
(:func:`schedule`), and the large neighbourhoods polish each cycle's best board.

>>> from satedge.puzzle.generate import Params, generate
>>> p = generate(Params(rows=4, colors=3), seed=1)  # planted: every one of the 24 edges can fit
>>> s = Search(p, seed=1)
>>> s.improve(s.start(), seconds=5.0).score
24
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from ..backtrack.facts import board_tables
from ..backtrack.kernels import numba_kernel
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from ..system.extras import require
from ..system.proctree import forked_map
from . import branch_and_bound as bnb

__all__ = ["Search", "Walked", "WINDOWS", "HOT", "COLD", "anneal", "compiled_anneal", "schedule", "search"]

BIG = 1 << 20  # the cost of a placement that breaks a hard rule: no assignment takes it
WINDOWS = ((2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2), (3, 4), (4, 3))  # window shapes, rows x cols
WINDOW_BUDGET = 20_000  # candidates the branch and bound looks at in one window
FILL_CELLS, FILL_BUDGET = (
    12,
    2_000_000,
)  # fill(): empty cells refilled at a time, and the candidates it may look at
COMPLETE_BUDGET = 20_000_000  # complete(): the candidates the search over all empty cells may look at
COMPLETE_CELLS = 32  # complete(): the most empty cells it searches; with more, the assignment's board
STALL = 400  # moves without a better board before a shake
HOT, COLD = 0.45, 0.12  # the temperatures annealing starts and ends at (one misfit more is taken at e^(-1/T))
# search()'s schedule counts moves, not seconds: annealing runs in chunks of ANNEAL_CHUNK moves, in cycles
# of CYCLE chunks, each cycle twice as long as the one before it, and the best board of each cycle
# gets POLISH_MOVES moves of Search.improve; so the walk a seed gives is the same whatever the
# time, and a longer time limit goes further along it
ANNEAL_CHUNK = 1 << 18
CYCLE = 16
POLISH_MOVES = 200
ROUND = 2.0  # seconds at most between the moments search() reports its best board: an interrupt's answer is no older


class Search:
    """The tables of one puzzle and a random generator (``seed``); :meth:`improve` runs it."""

    def __init__(self, puzzle: Puzzle, seed: int = 0) -> None:
        self.puzzle = puzzle
        self.rng = np.random.default_rng(seed)
        n, k = puzzle.n, len(puzzle.tiles)
        self.tables = board_tables(puzzle)
        self.labels, self.want, self.nbr = self.tables.shown, self.tables.want, self.tables.nbr
        self.edges, self.loops = self.tables.edges, self.tables.loops  # loops: kept by every placement
        self.ok = np.zeros((n, k, 4), dtype=bool)
        for c, cell in enumerate(puzzle.allowed):
            for t, r in cell:
                self.ok[c, t, r] = True
        self.touch = [set(int(x) >> 2 for x in row if x >= 0) for row in self.nbr]
        # cells that take the same tiles: a swap takes its cells from one of these groups
        groups: dict[bytes, list[int]] = {}
        for c in range(n):
            groups.setdefault(self.ok[c].any(axis=1).tobytes(), []).append(c)
        self.groups = [np.array(g) for g in groups.values() if len(g) > 1]
        self.group_cells = np.concatenate(self.groups + [np.zeros(0, np.int64)]).astype(np.int64)
        self.group_start = np.cumsum([0] + [len(g) for g in self.groups]).astype(np.int64)
        self.cell_group = np.full(n, -1, dtype=np.int64)
        for i, g in enumerate(self.groups):
            self.cell_group[g] = i
        self.tiles = np.zeros(n, dtype=np.int64)
        self.turns = np.zeros(n, dtype=np.int64)

    # ------------------------------------------------------------------ the board
    def start(self) -> Scored | None:
        """A first board that keeps the hard rules (the branch and bound's first), or ``None``."""
        board = bnb.first_board(self.puzzle, self.tables)
        if board is None:
            return None
        return self._load([t for t, _ in board], [r for _, r in board])

    def fill(self, by_cell: list[tuple[int, int] | None]) -> Scored:
        """A whole board that keeps the placements of ``by_cell`` (a tile and its turn per cell,
        ``None`` where it is empty): the other tiles assigned to the empty cells, each in its
        best turn against the placed cells (an assignment problem, as a swap move solves one),
        then the empty cells refilled by the branch and bound, :data:`FILL_CELLS` at a time."""
        self._refill_in_parts(self._assign(by_cell))
        return self.board()

    def complete(
        self, by_cell: list[tuple[int, int] | None], beat: int | None = None, budget: int = COMPLETE_BUDGET
    ) -> Scored:
        """A whole board that keeps the placements of ``by_cell`` (as :meth:`fill` has them),
        completed exactly: the other tiles assigned to the empty cells, then the branch and bound
        over all the empty cells at once with those tiles, in every turn, looking only for a board
        that scores more than ``beat`` (and than the assignment), within ``budget`` candidates
        looked at; where it does not finish, the refills of :meth:`fill` from the best it has.
        With a budget that suffices, the board scores the most that any completion of
        ``by_cell`` does, where that is more than ``beat``."""
        free = self._assign(by_cell)
        if len(free) > COMPLETE_CELLS:  # far from whole: the assignment's board, at once
            return self.board()
        if len(free) > 1:
            gain = 0 if beat is None else max(0, beat + 1 - self.score())
            if not self.refill(free, budget, gain=gain):  # none better, or not within the budget
                self._refill_in_parts(free)
        return self.board()

    def _refill_in_parts(self, free: np.ndarray) -> None:
        """The cells ``free`` refilled :data:`FILL_CELLS` at a time, each within :data:`FILL_BUDGET`."""
        for k in range(0, len(free), FILL_CELLS):
            self.refill(free[k : k + FILL_CELLS], FILL_BUDGET)

    def _assign(self, by_cell: list[tuple[int, int] | None]) -> np.ndarray:
        """The placements of ``by_cell`` made, and the other tiles assigned to its empty cells
        (each in its best turn against the placed cells); the empty cells."""
        free = np.array([c for c, p in enumerate(by_cell) if p is None], np.int64)
        used = {p[0] for p in by_cell if p is not None}
        spare = np.array([t for t in range(len(self.puzzle.tiles)) if t not in used], np.int64)
        for c, p in enumerate(by_cell):
            if p is not None:
                self.tiles[c], self.turns[c] = p
        if len(free):
            self.tiles[free], self.turns[free] = spare, 0  # every tile once, before the assignment
            cost = self._costs(free, spare, self._needs(free, self.shown()))
            turn = cost.argmin(axis=1)  # i, j
            rows, cols = require("scipy.optimize").linear_sum_assignment(cost.min(axis=1).astype(float))
            self.tiles[free[cols]] = spare[rows]
            self.turns[free[cols]] = turn[rows, cols]
        return free

    def load(self, board: Solution | None) -> Scored:
        """``board`` (one that keeps the hard rules) as this search's."""
        if board is None:
            raise ValueError("the search loads a board, not none")
        return self._load([t for t, _ in board], [r for _, r in board])

    def _load(self, tiles: Any, turns: Any) -> Scored:
        self.tiles[:] = tiles
        self.turns[:] = turns
        return self.board()

    def board(self) -> Scored:
        placed = Solution(tuple(zip(map(int, self.tiles), map(int, self.turns))))
        return Scored(self.puzzle, placed, self.score(), self.loops + self.edges)

    def shown(self) -> np.ndarray:
        """The labels each cell shows, per side."""
        return self.labels[self.tiles, self.turns]

    def score(self) -> int:
        return self.loops + int(self._fits().sum()) // 2

    def _fits(self) -> np.ndarray:
        """Per cell and side (flat, ``cell * 4 + side``), whether it fits the neighbour there
        (false where there is none)."""
        shown, x = self.shown().ravel(), self.nbr.ravel()
        return (x >= 0) & (self.want[shown] == shown[np.maximum(x, 0)])

    def _needs(self, cells: np.ndarray, shown: np.ndarray) -> np.ndarray:
        """Per cell and side, the label that fits the neighbour there, or -1 (none, or one of
        ``cells`` themselves)."""
        nb = self.nbr[cells]
        need = np.where(nb >= 0, self.want[shown.ravel()[np.maximum(nb, 0)]], -1)
        inside = np.isin(nb >> 2, cells) & (nb >= 0)
        return np.where(inside, -1, need)

    def _costs(self, cells: np.ndarray, tiles: np.ndarray, need: np.ndarray) -> np.ndarray:
        """``cost[i, r, j]``: the misfits of ``tiles[i]`` turned ``r`` on ``cells[j]`` with the
        neighbours ``need`` names; BIG where the placement breaks a hard rule."""
        lab = self.labels[tiles]  # i, r, s
        miss = ((lab[:, :, None, :] != need[None, None, :, :]) & (need[None, None, :, :] >= 0)).sum(axis=3)
        ok = self.ok[cells][:, tiles, :].transpose(1, 2, 0)  # i, r, j
        return np.where(ok, miss, BIG)

    # ------------------------------------------------------------------ the moves
    def _independent(self, group: np.ndarray, size: int) -> np.ndarray:
        chosen: list[int] = []
        taken: set[int] = set()
        for c in self.rng.permutation(group):
            if c not in taken:
                chosen.append(int(c))
                taken.add(int(c))
                taken.update(self.touch[c])
                if len(chosen) == size:
                    break
        return np.array(chosen)

    def swap(self, shake: bool = False) -> bool:
        """One swap move (see the module's docstring); ``shake``: a random reassignment instead
        of the best.  Whether it changed the board."""
        if not self.groups:
            return False
        sizes = np.array([len(g) for g in self.groups], dtype=float)
        group = self.groups[self.rng.choice(len(self.groups), p=sizes / sizes.sum())]
        cells = self._independent(group, int(self.rng.integers(4, 8)) if shake else len(group))
        if len(cells) < 2:
            return False
        tiles = self.tiles[cells]
        cost = self._costs(cells, tiles, self._needs(cells, self.shown()))
        turn = cost.argmin(axis=1)  # i, j
        best = cost.min(axis=1).astype(float)
        if shake:
            best = np.where(best >= BIG, BIG, self.rng.random(best.shape))
        rows, cols = require("scipy.optimize").linear_sum_assignment(best)
        if best[rows, cols].max() >= BIG:
            return False
        self.tiles[cells[cols]] = tiles[rows]
        self.turns[cells[cols]] = turn[rows, cols]
        return True

    def window(self) -> bool:
        """One window move (see the module's docstring).  Whether it changed the board."""
        p = self.puzzle
        h, w = WINDOWS[self.rng.integers(len(WINDOWS))]
        h, w = min(h, p.rows), min(w, p.cols)
        r0, c0 = int(self.rng.integers(p.rows - h + 1)), int(self.rng.integers(p.cols - w + 1))
        cells = np.array([p.board.cell(r, c) for r in range(r0, r0 + h) for c in range(c0, c0 + w)])
        return self.refill(cells, WINDOW_BUDGET)

    def refill(self, cells: np.ndarray, budget: int, gain: int = 0) -> bool:
        """The tiles on ``cells`` placed again among them, each placement's misfits with the
        cells around counted as well as those inside: the best arrangement the branch and bound
        (:func:`satedge.best.branch_and_bound.refill`) finds within ``budget`` candidates
        looked at, where it misses no more edges (``gain``: at least that many fewer).  Whether
        it changed the board."""
        if len(cells) < 2:
            return False
        tiles = self.tiles[cells]
        shown = self.shown()
        cost = self._costs(cells, tiles, self._needs(cells, shown))  # i, r, j: misfits around the window
        start, tile, turn, labels, extra = [0], [], [], [], []
        for j in range(len(cells)):
            for i, r in zip(*np.nonzero(cost[:, :, j] < BIG)):
                tile.append(tiles[i])
                turn.append(r)
                labels.append(self.labels[tiles[i], r])
                extra.append(cost[i, r, j])
            start.append(len(tile))
        where = {int(c): j for j, c in enumerate(cells)}
        earlier = [
            [
                (s, where[int(x) >> 2], int(x) & 3)
                for s, x in enumerate(self.nbr[c])
                if x >= 0 and where.get(int(x) >> 2, j) < j
            ]
            for j, c in enumerate(cells)
        ]
        nb_start, nb_side, nb_cell, nb_other = bnb.neighbours(earlier)
        cands = bnb.Candidates(
            np.array(start, np.int64),
            np.array(tile, np.int64),
            np.array(labels, np.int64),
            nb_start,
            nb_side,
            nb_cell,
            nb_other,
            self.want,
            np.array(extra, np.int64),
        )
        refill = bnb.refill(cands, len(self.tiles), self._window_cost(cells, shown, where) + 1 - gain, budget)
        if refill is None:
            return False
        self.tiles[cells] = [tile[k] for k in refill]
        self.turns[cells] = [turn[k] for k in refill]
        return True

    def _window_cost(self, cells: np.ndarray, shown: np.ndarray, where: dict) -> int:
        """The misfits of the window's cells: with each other, once, and with the cells around."""
        miss = 0
        for j, c in enumerate(cells):
            for s, x in enumerate(self.nbr[c]):
                # an edge inside the window: counted from its earlier cell
                k = where.get(int(x) >> 2, len(cells))
                if x >= 0 and k > j:
                    miss += int(shown[x >> 2, x & 3] != self.want[shown[c, s]])
        return miss

    def anneal(self, steps: int, hot: float, cold: float) -> Scored:
        """Simulated annealing (:func:`anneal`) from the board as it is, which it leaves where the
        walk ends; the best board met."""
        best_tiles, best_turns = self.tiles.copy(), self.turns.copy()
        compiled_anneal()(
            self.tiles,
            self.turns,
            self.labels,
            self.want,
            self.ok,
            self.nbr,
            self.group_cells,
            self.group_start,
            self.cell_group,
            steps,
            hot,
            cold,
            int(self.rng.integers(1 << 31)),
            best_tiles,
            best_turns,
        )
        walk = self.tiles.copy(), self.turns.copy()
        best = self._load(best_tiles, best_turns)
        self.tiles[:], self.turns[:] = walk
        return best

    # ------------------------------------------------------------------ the search
    def cool(self, walk: Scored, best: Scored, chunk: int, seed: int, until: float, end: float) -> Walked:
        """Annealing from the board ``walk``, chunk after chunk of :func:`schedule` from the
        chunk numbered ``chunk``, each of :data:`ANNEAL_CHUNK` moves with a seed drawn from ``seed``
        and its number, until the time ``until`` (a chunk is not cut; ``end``, the search's own
        end, may cut a cycle's polish) or every edge fits; ``best``: the best board of the cycle
        under way.  Where a cycle ends, its best board gets :data:`POLISH_MOVES` moves of
        :meth:`improve`, and the next cycle starts from the board they reach."""
        edges = self.loops + self.edges
        self.load(walk.board)
        while best.score < edges and time.monotonic() < until:
            hot, cold, last = schedule(chunk)
            self.rng = np.random.default_rng([seed, chunk])
            met = self.anneal(ANNEAL_CHUNK, hot, cold)
            if met.score > best.score:
                best = met
            chunk += 1
            if last:
                best = self.improve(best, end - time.monotonic(), moves=POLISH_MOVES)
                self.load(best.board)
        return Walked(self.board(), best, chunk)

    def improve(
        self, board: Scored, seconds: float, bound: int | None = None, moves: int | None = None
    ) -> Scored:
        """The best board the moves reach from ``board`` within ``seconds`` (or once it scores
        ``bound``, default every edge fitting, or after ``moves`` tries): windows and swaps in
        equal parts."""
        bound = self.loops + self.edges if bound is None else bound
        end = time.monotonic() + seconds
        best = self.load(board.board)
        score = best.score
        stalled = 0
        tries = 0
        while best.score < bound and time.monotonic() < end and (moves is None or tries < moves):
            tries += 1
            moved = self.window() if self.rng.random() < 0.5 else self.swap()
            if not moved:
                continue
            score = self.score()
            if score > best.score:
                best, stalled = self.board(), 0
                continue
            stalled += 1
            if stalled >= STALL:
                if score < best.score:
                    self.load(best.board)
                for _ in range(3):
                    self.swap(shake=True)
                stalled = 0
        return best


def anneal(
    tiles: Any,
    turns: Any,
    labels: Any,
    want: Any,
    ok: Any,
    nbr: Any,
    group_cells: Any,
    group_start: Any,
    cell_group: Any,
    steps: int,
    hot: float,
    cold: float,
    seed: int,
    best_tiles: Any,
    best_turns: Any,
) -> int:
    """Simulated annealing over swaps of two tiles between cells of one group (each then in its
    best turn) and new turns of one tile, from the board ``tiles, turns`` (changed in place),
    at a temperature falling from ``hot`` to ``cold`` over ``steps`` moves; the best board met
    goes to ``best_tiles, best_turns``, and its misfits are returned."""

    def misfits(
        a: int, b: int
    ) -> int:  # the edges of cells a and b that do not fit, the one between them once
        m = 0
        for c in (a, b):
            for s in range(4):
                x = nbr[c, s]
                if (
                    x >= 0
                    and (c == a or x >> 2 != a)
                    and (labels[tiles[x >> 2], turns[x >> 2], x & 3] != want[labels[tiles[c], turns[c], s]])
                ):
                    m += 1
            if a == b:
                break
        return m

    np.random.seed(seed)
    n = len(tiles)
    miss = 0
    for c in range(n):
        for s in range(4):
            x = nbr[c, s]
            if x >= 0 and labels[tiles[x >> 2], turns[x >> 2], x & 3] != want[labels[tiles[c], turns[c], s]]:
                miss += 1
    miss //= 2
    best = miss
    best_tiles[:] = tiles
    best_turns[:] = turns
    factor = (cold / hot) ** (1.0 / max(steps, 1))
    t = hot
    for step in range(steps):
        t *= factor
        a = np.random.randint(n)
        g = cell_group[a]
        if g < 0:
            continue
        size = group_start[g + 1] - group_start[g]
        if np.random.random() < 0.2 or size < 2:  # a new turn of a's tile
            b = a
        else:
            b = group_cells[group_start[g] + np.random.randint(size)]
        old = misfits(a, b)
        ta, ra, tb, rb = tiles[a], turns[a], tiles[b], turns[b]
        if a == b:
            r = np.random.randint(4)
            if r == ra or not ok[a, ta, r]:
                continue
            turns[a] = r
        else:
            tiles[a], tiles[b] = tb, ta
            for c in (a, b):  # each in its best turn against its neighbours as they are now
                top, fit = -1, 5
                for r in range(4):
                    if ok[c, tiles[c], r]:
                        m = 0
                        for s in range(4):
                            x = nbr[c, s]
                            if (
                                x >= 0
                                and labels[tiles[x >> 2], turns[x >> 2], x & 3]
                                != want[labels[tiles[c], r, s]]
                            ):
                                m += 1
                        if m < fit:
                            top, fit = r, m
                turns[c] = top
        new = misfits(a, b)
        delta = new - old
        if delta <= 0 or np.random.random() < np.exp(-delta / t):
            miss += delta
            if miss < best:
                best = miss
                best_tiles[:] = tiles
                best_turns[:] = turns
        else:
            tiles[a], turns[a], tiles[b], turns[b] = ta, ra, tb, rb
    return best


@cache
def compiled_anneal() -> Callable:
    """:func:`anneal` compiled by numba, once per process."""
    return numba_kernel(anneal)


def schedule(chunk: int) -> tuple[float, float, bool]:
    """The temperatures that annealing's chunk numbered ``chunk`` falls between, and whether it
    ends its cycle: cycle ``c`` is ``CYCLE * 2**c`` chunks over which the temperature falls from
    :data:`HOT` to :data:`COLD`.

    >>> schedule(0)[0] == HOT, schedule(15)[2], schedule(16)[0] == HOT, schedule(47)[2]
    (True, True, True, True)
    """
    cycle, first = 0, 0
    while chunk >= first + (CYCLE << cycle):
        first += CYCLE << cycle
        cycle += 1
    length, at = CYCLE << cycle, chunk - first
    return HOT * (COLD / HOT) ** (at / length), HOT * (COLD / HOT) ** ((at + 1) / length), at == length - 1


@dataclass(frozen=True)
class Walked:
    """Where a walk of :func:`search` stands: its board, the best board of its cycle under way,
    and the number of its next chunk."""

    walk: Scored
    best: Scored
    chunk: int


def search(
    puzzle: Puzzle,
    seconds: float,
    workers: int = 1,
    seed: int = 0,
    better: Callable[[Scored], None] | None = None,
    start: Solution | None = None,
) -> Scored | None:
    """The best board the search finds in ``seconds`` (or once every edge fits), from ``start``
    or the first board that keeps the hard rules (``None``: there is none): on each of
    ``workers`` processes a walk of its own, annealing in the cycles of :func:`schedule`, the
    best board of each cycle polished by the moves of :meth:`Search.improve`; every
    :data:`ROUND` seconds at most, the best board so far goes to ``better``.  Each walk is a
    function of ``seed`` and its number alone, not of the time: a longer time limit goes further
    along the same walks, and never answers a worse board."""
    t0 = time.monotonic()
    end = t0 + seconds
    first = Search(puzzle, seed=seed)
    best = first.start() if start is None else first.load(start)
    if best is None:
        return None
    edges = first.loops + first.edges
    if better is not None:
        better(best)  # a board however short the time
    compiled_anneal()  # here, once, before the workers are forked
    walks = [Walked(best, best, 0)] * workers
    while best.score < edges and time.monotonic() < end:
        until = min(end, time.monotonic() + ROUND)
        tasks = [(walk, seed + 1 + w, until, end) for w, walk in enumerate(walks)]
        walks = _on(puzzle, tasks, workers)
        top = max((walk.best for walk in walks), key=lambda b: b.score)
        if top.score > best.score:
            best = top
            if better is not None:
                better(best)
    return best


def _on(puzzle: Puzzle, tasks: list, workers: int) -> list:
    """The rounds of :func:`search`, each walk's on a process of its own (forked) or, with one
    worker, on this one."""
    if workers == 1:
        return [_searcher(puzzle)(task) for task in tasks]
    return list(forked_map(lambda: _searcher(puzzle), tasks, workers))


def _searcher(puzzle: Puzzle) -> Callable[[tuple], Walked]:
    """A worker's function of :func:`search`: a walk's round, a :class:`Search` of its own."""

    def one(task: tuple) -> Walked:
        walk, seed, until, end = task
        return Search(puzzle).cool(walk.walk, walk.best, walk.chunk, seed, until, end)

    return one
