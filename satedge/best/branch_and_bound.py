"""The board with the most inner edges that fit, by branch and bound, compiled with numba.

Every tile is placed once, the frame and the clues kept (the placements of
:attr:`Puzzle.allowed`, one tile of each board-turn orbit kept where it can be, as
:func:`satedge.puzzle.symmetry.symmetry_breaking` says: turning a board keeps its score); the cells are
filled row by row, and a placement costs the edges it does not fit with its neighbours placed
before it.  At each cell the placements that fit every placed neighbour are tried first, then
the others; a branch whose cost reaches the fewest mismatches found so far is cut.  Each board
found is better than the last (the search is *anytime*); when the tree is exhausted the last
one is optimal.  The first bound is the whole number of edges, so the first board comes at
once; a board with no mismatch ends the search.  The job that runs it
(:func:`satedge.engines.backtrack.by_branch_and_bound`) has the checker score the board it answers.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=3, tiles=((1, 2, 1, 1), (2, 1, 1, 3), (3, 3, 3, 3)))
>>> best = best_board(p)
>>> best.score, best.bound, best.optimal  # tile 2, then 1 turned, then 0: both edges fit
(2, 2, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any, NamedTuple

import numpy as np

from ..backtrack.facts import BoardTables, board_tables
from ..backtrack.kernels import Step, compiled_for, numba_kernel
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from ..puzzle.symmetry import broken_placements
from ..system.progress import REPORT_SECONDS

__all__ = [
    "Candidates",
    "best_board",
    "first_board",
    "assigned_board",
    "quick_board",
    "step",
    "refill",
    "candidates",
    "neighbours",
]

BNB_BUDGET = (
    1 << 21
)  # candidates looked at per call of step(): Ctrl-C and the progress notes come between calls
# candidates the plain Python loop looks at for the first board before the compiled one is loaded
# (a few tenths of a second at the most: Eternity II's first board takes about 40,000), so that no
# compile stands between a job and its first board
FIRST_BUDGET = 1 << 17


def step(
    start: Any,
    tile: Any,
    labels: Any,
    nb_start: Any,
    nb_side: Any,
    nb_cell: Any,
    nb_other: Any,
    want: Any,
    extra: Any,
    n: int,
    choice: Any,
    shown: Any,
    used: Any,
    cum: Any,
    pos: Any,
    phase: Any,
    depth: Any,
    best: Any,
    best_choice: Any,
    budget: int,
    counts: Any,
) -> int:
    """Run the search from ``depth[0]`` until a better board (FOUND: ``best[0]`` its
    mismatches, ``best_choice`` its candidates), the end (DONE) or ``budget`` candidates
    (PAUSED).  Cell ``c``'s candidates are ``start[c]:start[c + 1]``, each a ``tile`` and its
    four ``labels``; its neighbours placed before it ``nb_start[c]:nb_start[c + 1]``, each its
    own side, the cell and that cell's side; ``want[x]`` is the label that fits ``x``;
    ``extra[k]`` is what candidate ``k`` costs beside its placed neighbours (0 on a whole board;
    its misfits with the cells around a window, :func:`refill`).  The
    state ``choice, shown, used, cum, pos, phase, depth`` carries over calls; ``counts[0]``
    gains the candidates looked at, ``counts[1]`` the placements made."""
    d = depth[0]
    looked = 0
    while True:
        if d == n:  # a whole board, better than the best: keep it, and step back
            best[0] = cum[n]
            for c in range(n):
                best_choice[c] = choice[c]
            d -= 1
            used[tile[choice[d]]] = 0
            depth[0] = d
            return Step.FOUND
        placed = False
        while phase[d] < 2 and not placed:
            k = pos[d]
            end = start[d + 1]
            while k < end:
                t = tile[k]
                k += 1
                if used[t]:
                    continue
                looked += 1
                miss = extra[k - 1]
                for j in range(nb_start[d], nb_start[d + 1]):
                    if shown[nb_cell[j], nb_other[j]] != want[labels[k - 1, nb_side[j]]]:
                        miss += 1
                if (miss == 0) != (phase[d] == 0) or cum[d] + miss >= best[0]:
                    continue
                pos[d] = k
                choice[d] = k - 1
                used[t] = 1
                for s in range(4):
                    shown[d, s] = labels[k - 1, s]
                cum[d + 1] = cum[d] + miss
                counts[1] += 1
                placed = True
                break
            if not placed:
                phase[d] += 1
                pos[d] = start[d]
        counts[0] += looked
        looked = 0
        if placed:
            d += 1
            if d < n:
                pos[d] = start[d]
                phase[d] = 0
        else:  # every candidate of cell d tried: step back
            if d == 0:
                depth[0] = 0
                return Step.DONE
            d -= 1
            used[tile[choice[d]]] = 0
        if best[0] == 0 or counts[0] >= budget:
            depth[0] = d
            return Step.DONE if best[0] == 0 else Step.PAUSED


class Candidates(NamedTuple):
    """The read-only arrays of :func:`step`: per cell its candidates (``start``, ``tile``, their
    ``labels``) and its neighbours placed before it (``nb_start``, ``nb_side``, ``nb_cell``,
    ``nb_other``), ``want`` and ``extra``."""

    start: np.ndarray
    tile: np.ndarray
    labels: np.ndarray
    nb_start: np.ndarray
    nb_side: np.ndarray
    nb_cell: np.ndarray
    nb_other: np.ndarray
    want: np.ndarray
    extra: np.ndarray


class _State(NamedTuple):
    """What :func:`step` carries over calls, for ``n`` cells and ``tiles`` tiles."""

    choice: np.ndarray
    shown: np.ndarray
    used: np.ndarray
    cum: np.ndarray
    pos: np.ndarray
    phase: np.ndarray
    depth: np.ndarray

    @classmethod
    def empty(cls, n: int, tiles: int) -> _State:
        def per_cell() -> np.ndarray:
            return np.zeros(n + 1, np.int64)

        return cls(
            per_cell(),
            np.zeros((n + 1, 4), np.int64),
            np.zeros(tiles + 1, np.int64),
            per_cell(),
            per_cell(),
            per_cell(),
            np.zeros(1, np.int64),
        )


def _run(
    kernel: Any, cands: Candidates, state: _State, best: Any, best_choice: Any, budget: int, counts: Any
) -> Step:
    return kernel(*cands, len(cands.start) - 1, *state, best, best_choice, budget, counts)


def refill(cands: Candidates, tiles: int, below: int, budget: int) -> list[int] | None:
    """The best fill of a window of cells (:mod:`satedge.best.lns`) that costs less than
    ``below``, its candidates by cell (over ``tiles`` tiles), found within ``budget`` candidates
    looked at; ``None`` if none is."""
    n = len(cands.start) - 1
    state = _State.empty(n, tiles)
    best, best_choice, counts = np.array([below], np.int64), np.zeros(n, np.int64), np.zeros(2, np.int64)
    found = False
    while _run(compiled_step(), cands, state, best, best_choice, budget, counts) == Step.FOUND:
        found = True
    return [int(k) for k in best_choice] if found else None


@cache
def compiled_step() -> Callable:
    """:func:`step` compiled by numba, once per process."""
    return numba_kernel(step)


def neighbours(earlier: list[list[tuple[int, int, int]]]) -> tuple[np.ndarray, ...]:
    """The arrays ``nb_start, nb_side, nb_cell, nb_other`` of :func:`step` from, per cell, its
    neighbours placed before it (its own side, the cell, that cell's side)."""
    flat = [x for cell in earlier for x in cell] or [(0, 0, 0)]
    nb_start = np.cumsum([0] + [len(cell) for cell in earlier]).astype(np.int64)
    return (nb_start, *(np.array(col, dtype=np.int64) for col in zip(*flat)))


def candidates(puzzle: Puzzle, tables: BoardTables) -> tuple[Candidates, list[tuple[int, int]]]:
    """The arrays of :func:`step` for the whole board (``tables``: the puzzle's), its cells row by
    row, and the candidates' placements."""
    allowed = broken_placements(puzzle)
    cands = [(t, r) for cell in allowed for t, r in cell]
    start = np.cumsum([0] + [len(cell) for cell in allowed]).astype(np.int64)
    tile = np.array([t for t, _ in cands] or [0], dtype=np.int64)
    turn = np.array([r for _, r in cands] or [0], dtype=np.int64)
    earlier: list[list[tuple[int, int, int]]] = [[] for _ in puzzle.board.cells]
    for adj in puzzle.board.adjacencies:
        if adj.a != adj.b:  # a self-loop is a rule of the cell, kept by its placements
            late, early = (adj.b, adj.a) if adj.b > adj.a else (adj.a, adj.b)
            late_side, early_side = (adj.side_b, adj.side_a) if adj.b > adj.a else (adj.side_a, adj.side_b)
            earlier[late].append((late_side, early, early_side))
    nb_start, nb_side, nb_cell, nb_other = neighbours(earlier)
    arrays = Candidates(
        start,
        tile,
        tables.shown[tile, turn],
        nb_start,
        nb_side,
        nb_cell,
        nb_other,
        tables.want,
        np.zeros(len(tile), np.int64),
    )
    return arrays, cands


def best_board(
    puzzle: Puzzle,
    better: Callable[[Scored], None] | None = None,
    paused: Callable[[Scored], None] | None = None,
    compiled: bool = True,
    tables: BoardTables | None = None,
) -> Scored:
    """The board with the most inner edges that fit, proved optimal (see the module's docstring).

    Parameters
    ----------
    puzzle : Puzzle
    better : callable, optional
        Called with each better board as it is found (the search is anytime: a job stopped at
        its time limit keeps the last one).
    paused : callable, optional
        Called about every second with what the search has done (the best so far).
    compiled : bool
        The numba-compiled loop (default) or the same loop in Python (slow; for tests).
    tables : BoardTables, optional
        The puzzle's (:func:`satedge.backtrack.facts.board_tables`), where the caller has them.
    """
    edges, cands, placed, state, best, best_choice, counts = _start(puzzle, tables)
    # the first board by the plain loop (it takes milliseconds), then the compiled one goes on
    # from where it stopped
    kernel, budget = step, FIRST_BUDGET if compiled else BNB_BUDGET
    board = None
    last = time.monotonic()
    compiling = 0.0  # the seconds the compiled loop took to compile, or to load

    def now() -> Scored:
        score = edges - int(best[0]) if board is not None else 0
        return Scored(
            puzzle,
            board,
            score,
            edges,
            nodes=int(counts[1]),
            candidates=int(counts[0]),
            compile_seconds=compiling,
        )

    while True:
        outcome = _run(kernel, cands, state, best, best_choice, counts[0] + budget, counts)
        if outcome == Step.FOUND:
            board = Solution(tuple(placed[k] for k in best_choice))
            if better is not None:
                better(now())
            if best[0] == 0:  # every edge fits: nothing is better
                break
        if outcome == Step.DONE:
            break
        if compiled and kernel is step:
            t0 = time.perf_counter()
            kernel, budget = compiled_step(), BNB_BUDGET
            compiled_for(kernel, [*cands, len(cands.start) - 1, *state, best, best_choice, budget, counts])
            compiling = time.perf_counter() - t0
        if paused is not None and time.monotonic() - last >= REPORT_SECONDS:
            paused(now())
            last = time.monotonic()
    if board is None:
        return Scored(
            puzzle, None, 0, 0, nodes=int(counts[1]), candidates=int(counts[0]), compile_seconds=compiling
        )
    found = now()
    return replace(found, bound=found.score)


def first_board(puzzle: Puzzle, tables: BoardTables | None = None) -> Solution | None:
    """The first board of :func:`best_board` (the placements that fit first, row by row: a good
    board at once), or ``None`` where no board keeps the hard rules.  On a board with a border
    rule, whose outside's tiles may also go inside, where a search row by row could run out of
    them in the last row and search long for a board: :func:`assigned_board`."""
    if puzzle.border:
        return assigned_board(puzzle)
    first: list[Scored] = []

    def stop(best: Scored) -> None:
        first.append(best)
        raise _Found

    try:
        best_board(puzzle, better=stop, tables=tables)
    except _Found:
        pass
    return first[0].board if first else None


def assigned_board(puzzle: Puzzle) -> Solution | None:
    """A board that keeps the hard rules, at once: a tile for each cell by a maximum matching of
    cells to the tiles they allow (Hopcroft and Karp's, networkx), each in its first allowed
    turn; ``None`` where no matching covers every cell."""
    import networkx as nx

    allowed = puzzle.allowed
    graph = nx.Graph()
    cells = [("cell", c) for c in puzzle.board.cells]
    graph.add_nodes_from(cells)
    graph.add_edges_from((("cell", c), ("tile", t)) for c, cell in enumerate(allowed) for t, _ in cell)
    matched = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=cells)
    if any(cell not in matched for cell in cells):
        return None
    turn = [{t: r for t, r in reversed(cell)} for cell in allowed]  # each tile's first allowed turn
    return Solution(
        tuple((t, turn[c][t]) for c, (_, t) in ((c, matched[("cell", c)]) for c in puzzle.board.cells))
    )


def _start(puzzle: Puzzle, tables: BoardTables | None) -> tuple:
    """What a search of :func:`best_board` starts from: the board's edges, its candidates and
    their placements, an empty state, the bound to beat (one mismatch more than there are edges),
    the best board's choices and the counts."""
    tables = board_tables(puzzle) if tables is None else tables
    edges = tables.edges + tables.loops  # self-loops: kept by every board's placements
    cands, placed = candidates(puzzle, tables)
    state = _State.empty(puzzle.n, len(puzzle.tiles))
    best = np.array([tables.edges + 1], np.int64)  # any board beats one more mismatch than there are edges
    return edges, cands, placed, state, best, np.zeros(puzzle.n, np.int64), np.zeros(2, np.int64)


def quick_board(puzzle: Puzzle, budget: int = FIRST_BUDGET) -> Scored | None:
    """The first board of :func:`best_board` by its plain Python loop within ``budget``
    candidates (nothing compiled: milliseconds), scored, or ``None`` where it found none in them
    (or none keeps the hard rules)."""
    edges, cands, placed, state, best, best_choice, counts = _start(puzzle, None)
    if _run(step, cands, state, best, best_choice, budget, counts) != Step.FOUND:
        return None
    board = Solution(tuple(placed[k] for k in best_choice))
    return Scored(puzzle, board, edges - int(best[0]), edges, nodes=int(counts[1]), candidates=int(counts[0]))


class _Found(Exception):
    """The first board of the branch and bound, which stops it."""
