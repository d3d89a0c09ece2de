"""Boards within a budget of misfits, and the best board proved by raising the budget.

The search of :mod:`satedge.backtrack.search` with misfits allowed (the compiled loop's tables
of misfits, :func:`satedge.backtrack.arrays.tables`): a *budget* is a non-decreasing
schedule, ``allow[d]`` the most misfits (inner edges whose two sides do not fit) among the first
``d + 1`` placements of the search's cell order.  At each cell the placements that fit every
placed neighbour come first, then those that miss one, then two, while the budget lasts; the
frame, the clues and every tile placed once stay hard rules.  A budget of ``b`` everywhere
searches the boards with at most ``b`` misfits (:func:`within`); a budget of 0 everywhere is the
search of whole solutions.

The best board (:func:`fewest`): the branch and bound's first board (the fitting placements
first: a greedy board at once), or the one it is given, answered if the search is stopped;
then searches with a budget of 0, 1, 2, ... misfits, each of which, exhausted, proves that no
board misses fewer edges, until one finds a board: the optimum is the score of the fewest
misfits for which a board exists.  A search with a budget of ``b > 0`` first looks for a board
whose misfits all fall in the last rows of the cell order (:func:`late_first`): the placements
before those rows fit exactly, a part of the tree of the budget of 0 that was searched first, and
where such a board exists the search that finds the optimum ends in a fraction of its tree
(``benchmarks/maximize/bench-maximize.md``).  A budget of one misfit needs no search everywhere:
the later half's search and the same in the reversed order, the earlier half's cells last, prove
it between them.  Raising the budget from 0 measured
better than lowering it from the first board (``deepen=False``: each search finds a better
board until one proves that none is): a search that finds a board within a budget can take
longer than one that proves none is within the budget below (``benchmarks/maximize/bench-maximize.md``).
One board of each board-turn orbit is searched (turning a board keeps its score).

>>> from satedge.puzzle.generate import Params, generate
>>> p = generate(Params(rows=3, cols=3, colors=8, model="uniform"), seed=1)
>>> best = fewest(p)
>>> best.score, best.bound, best.optimal, misfits(p, best.board)
(10, 10, True, 2)
>>> list(within(p, uniform(p, 1)))  # no board misses fewer than 2 of the 12 edges
[]
>>> late_first(p, 2)  # two misfits in the last row's cells, then anywhere
[([0, 0, 0, 0, 0, 0, 2, 2, 2], False), ([2, 2, 2, 2, 2, 2, 2, 2, 2], False)]
>>> late_first(p, 1)  # one: in the last row's cells, then in the others, the order reversed
[([0, 0, 0, 0, 0, 0, 1, 1, 1], False), ([0, 0, 0, 1, 1, 1, 1, 1, 1], True)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..backtrack import loop as driver
from ..backtrack import plans, split
from ..backtrack.arrays import Tables, budgeted
from ..backtrack.facts import board_tables
from ..backtrack.search import Cost, Plan, plan, symmetry_broken, tables
from ..puzzle.checker import Scored
from ..puzzle.model import Puzzle, Solution
from .branch_and_bound import first_board

__all__ = ["PROVABLE", "uniform", "late_first", "within", "fewest", "misfits"]

# cells: the largest boards whose best score the budgets prove in good time (the 6x6 boards of
# benchmarks/maximize/bench-maximize.md in seconds to minutes): --method auto proves these, and
# beyond them with a time limit searches for good boards instead
PROVABLE = 36


def uniform(puzzle: Puzzle, misfits: int) -> list[int]:
    """The budget of ``misfits`` everywhere."""
    return [misfits] * puzzle.n


def late_first(puzzle: Puzzle, misfits: int) -> list[tuple[list[int], bool]]:
    """The budgets a search for a board with at most ``misfits`` misfits tries in turn, each with
    whether it runs in the search's cell order reversed: the misfits allowed only in the last
    row's worth of cells of the search's order (the last row, in the order of rows), then in the
    last two rows' worth, and so on for the later half of the rows (the last ``m`` cells), then
    everywhere (:func:`uniform`).  Each searches a part of the boards within ``misfits``, so a
    board any of them finds is within it; where the fewer misfits were proved impossible, it is
    optimal.

    One misfit: in place of everywhere, the order reversed with its first ``m`` cells exact (the
    later half's) and the misfit allowed in the others.  A misfit counts at the later of its two
    cells, so a board's one misfit falls in the later half's cells in the search's order, or else
    both its cells are among the first ``n - m``, which the reversed order has last: the two
    searches together prove that no board has one misfit or none, at about the cost of the later
    half's search each."""
    n, row = puzzle.n, puzzle.cols
    late = [([0] * (n - j * row) + [misfits] * (j * row), False) for j in range(1, puzzle.rows // 2 + 1)]
    if misfits == 1 and late:
        m = puzzle.rows // 2 * row
        return late + [([0] * m + [1] * (n - m), True)]
    return (late if misfits else []) + [(uniform(puzzle, misfits), False)]


def misfits(puzzle: Puzzle, board: Solution) -> int:
    """The inner edges of ``board`` whose sides do not fit (self-loops are kept by the rules)."""
    t = board_tables(puzzle)
    shown = t.shown[[p[0] for p in board], [p[1] for p in board]]  # cell, side
    there = t.nbr >= 0
    fits = t.want[shown[there]] == shown.reshape(-1)[t.nbr[there]]
    return t.edges - int(fits.sum()) // 2


def _search(
    puzzle: Puzzle, allow: list[int], allowed: Any = None, order: Any = "auto"
) -> tuple[Plan, Tables]:
    """The plan and the tables of a search within ``allow``: those of misfits where it allows
    any (a budget of 0 everywhere is the search of whole solutions, at its own speed)."""
    search = plan(puzzle, allowed, order)
    return search, tables(puzzle, search, misfits=any(allow))


def within(
    puzzle: Puzzle,
    allow: list[int],
    limit: int | None = None,
    workers: int = 1,
    cost: Cost | None = None,
    paused: Callable[[Cost], None] | None = None,
    allowed: Any = None,
    order: Any = "auto",
    loop: str = "auto",
) -> Iterator[Solution]:
    """Boards of ``puzzle`` (at most ``limit``) whose first ``d + 1`` placements miss at most
    ``allow[d]`` edges, for every ``d`` of the search's cell ``order``; ``workers`` processes
    share the tree (then in no fixed order).  One board per leaf of the search: identical tiles
    and turns that look the same are not spread out (:func:`satedge.backtrack.plans.expand`
    would).  ``cost`` is kept up to date, ``paused(cost)`` called about every second while no
    board comes; ``allowed``: the placements per cell (default :attr:`Puzzle.allowed`); ``loop``:
    the loop that runs the search (:data:`satedge.backtrack.loop.LOOPS`), whose name ``cost``
    keeps."""
    search, t = _search(puzzle, allow, allowed, order)
    given = list(allow) if budgeted(t) else None
    cost = Cost() if cost is None else cost
    counts = np.zeros(2, np.int64)

    def follow(stage: str | None = None) -> None:  # stage: the loop is being compiled
        cost.candidates, cost.nodes, cost.stage = int(counts[0]), int(counts[1]), stage
        if paused is not None:
            paused(cost)

    if workers > 1:
        found = split.parallel_search(t, workers, limit, counts, follow, allow=given, loop=loop, ran=cost.ran)
    else:
        found = driver.run(
            t, [], puzzle.n - 1, counts=counts, paused=follow, allow=given, loop=loop, ran=cost.ran
        )
    seen = 0
    try:
        for placed in found:
            cost.candidates, cost.nodes = int(counts[0]), int(counts[1])
            yield plans.weighed(search, placed)[0]
            seen += 1
            if limit is not None and seen >= limit:
                return
    finally:
        found.close()
        cost.candidates, cost.nodes = int(counts[0]), int(counts[1])


def fewest(
    puzzle: Puzzle,
    start: Solution | None = None,
    workers: int = 1,
    better: Callable[[Scored], None] | None = None,
    paused: Callable[[Scored], None] | None = None,
    order: Any = "auto",
    searched: Callable[..., Iterator[Solution]] | None = None,
    deepen: bool = True,
    loop: str = "auto",
    late: bool = True,
) -> Scored:
    """The best board of ``puzzle``, proved (see the module's docstring).

    Parameters
    ----------
    start : Solution, optional
        A board to better (one that keeps the hard rules); default the branch and bound's first
        (:func:`satedge.best.branch_and_bound.first_board`).
    workers : int
        Processes each search's tree is shared among.
    better : callable, optional
        Called with each better board as it is found (a job stopped at its time limit keeps the
        last), and with the budget each search then looks for (``Scored.searching``) and the
        bound proved so far.
    paused : callable, optional
        Called about every second while a search runs, with what is known.
    order
        The cell order (:data:`satedge.backtrack.orders.ORDERS`).
    searched : callable, optional
        Runs one search instead of :func:`within`, with its arguments (a Dask cluster's).
    deepen : bool
        Raise the budget from 0 until a board is within it (default), each exhausted search
        proving one misfit more; else lower it from the first board's misfits, each search
        finding a better board until one proves that none is.
    loop : str
        The loop that runs each search (:data:`satedge.backtrack.loop.LOOPS`); ``Scored.loop``
        names the one that ran.
    late : bool
        Look for a board with each budget's misfits late first (:func:`late_first`, default); else
        search each budget everywhere at once.
    """
    bt = board_tables(puzzle)
    edges = bt.edges + bt.loops
    allowed, _ = symmetry_broken(puzzle)
    runs = searched or within
    done = Cost()  # what the searches before the one under way cost
    # spent: the board's misfits; least: the fewest a board can have, proved
    board, spent, least = start, 0, 0

    def known(now: Cost | None = None, searching: int | None = None) -> Scored:
        nodes = done.nodes + (now.nodes if now else 0)
        candidates = done.candidates + (now.candidates if now else 0)
        got = 0 if board is None else edges - spent
        return Scored(
            puzzle,
            board,
            got,
            edges - least,
            nodes=nodes,
            candidates=candidates,
            searching=searching,
            loop=done.loop,
            compile_seconds=done.compile_seconds,
        )

    def one(budget: int) -> Solution | None:
        tick = None if paused is None else (lambda c: paused(known(c, budget)))
        for allow, back in late_first(puzzle, budget) if late else [(uniform(puzzle, budget), False)]:
            cost = Cost()
            cells = plan(puzzle, allowed, order).cells[::-1] if back else order
            found = runs(puzzle, allow, 1, workers, cost, tick, allowed, cells, loop)
            try:
                board = next(iter(found), None)
            finally:
                getattr(found, "close", lambda: None)()
                done.nodes, done.candidates = done.nodes + cost.nodes, done.candidates + cost.candidates
                done.loop = cost.loop or done.loop
                done.compile_seconds += cost.compile_seconds
            if board is not None:
                return board
        return None

    if board is None:
        board = first_board(puzzle, bt)
        if board is None:
            return Scored(
                puzzle,
                None,
                0,
                0,
                nodes=done.nodes,
                candidates=done.candidates,
                loop=done.loop,
                compile_seconds=done.compile_seconds,
            )
    spent = misfits(puzzle, board)
    while least < spent:
        budget = least if deepen else spent - 1
        if better is not None:
            better(known(None, budget))
        found = one(budget)
        if found is not None:
            board, spent = found, misfits(puzzle, found)
        if found is None or deepen:
            least = budget + 1 if found is None else spent  # none within the budget: proved
    result = known()
    if better is not None:
        better(result)
    return result
