"""The independent checker: is a solution valid, and if not, which constraint does it break first?

It reads adjacency from the board graph and nothing else from the solvers.
"""

from __future__ import annotations

from collections import Counter

from ..system.files import shown
from .model import SIDES, Puzzle, Solution

__all__ = ["validate"]


def validate(puzzle: Puzzle, solution: Solution) -> str | None:
    """Check a solution, independently of every solver.

    Parameters
    ----------
    puzzle : Puzzle
    solution : Solution

    Returns
    -------
    str or None
        ``None`` when ``solution`` solves ``puzzle``, else one sentence naming the first
        violation.

    Examples
    --------
    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
    >>> validate(p, Solution(((0, 0), (1, 0))))
    'cell (0, 0) right shows 2 but cell (0, 1) left shows 3: they do not fit'
    >>> validate(p, Solution(((0, 0), (0, 3))))
    'tile 0 is used 2 times, at cells (0, 0), (0, 1)'
    >>> validate(p, Solution(((0, 0), (1, 3)))) is None
    True
    """
    board = puzzle.board
    if len(solution) != puzzle.n:
        return f"the solution has {len(solution)} placements, the board has {puzzle.n} cells"
    for cell, (t, r) in enumerate(solution):
        if not (isinstance(t, int) and 0 <= t < len(puzzle.tiles)):
            return f"cell {board.position(cell)} names tile {shown(t)}, but tiles are 0..{len(puzzle.tiles) - 1}"
        if r not in range(4):
            return f"cell {board.position(cell)} has rotation {shown(r)}, not 0..3"
    used = Counter(t for t, _ in solution)
    for t, k in sorted(used.items()):
        if k > 1:
            cells = [board.position(c) for c, (u, _) in enumerate(solution) if u == t]
            return f"tile {t} is used {k} times, at cells {', '.join(map(str, cells))}"
    for clue in puzzle.clues:
        got = solution.placements[board.cell(clue.row, clue.col)]
        if got != (clue.tile, clue.rotation):
            return (f"clue at cell ({clue.row}, {clue.col}) wants tile {clue.tile} rotation {clue.rotation}, "
                    f"found tile {got[0]} rotation {got[1]}")
    seen = [puzzle.oriented(t, r) for t, r in solution]
    if puzzle.frame is not None:
        for cell, labels in enumerate(seen):
            for s in range(4):
                outside = (cell, s) in board.outer
                if outside and labels[s] != puzzle.frame:
                    return (f"cell {board.position(cell)} {SIDES[s]} is on the frame and must show "
                            f"{shown(puzzle.frame)}, shows {shown(labels[s])}")
                if not outside and labels[s] == puzzle.frame:
                    return f"cell {board.position(cell)} {SIDES[s]} is inside the board but shows the frame label {shown(puzzle.frame)}"
    for adj in board.adjacencies:
        x, y = seen[adj.a][adj.side_a], seen[adj.b][adj.side_b]
        if not puzzle.fits(x, y):
            return (f"cell {board.position(adj.a)} {SIDES[adj.side_a]} shows {shown(x)} but cell "
                    f"{board.position(adj.b)} {SIDES[adj.side_b]} shows {shown(y)}: they do not fit")
    return None
