"""The independent checker: is a solution valid, and if not, which constraint does it break
first?  And of a board that need not be a solution (every tile placed once, frame and clues
kept): which touching sides do not fit, and its score, the touching pairs that do.

It reads adjacency from the board graph and nothing else from the solvers.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import KW_ONLY, dataclass

from ..system.files import shown
from .board import Adjacency
from .drawing import ascii_grid, to_svg
from .model import SIDES, Puzzle, Solution

__all__ = ["validate", "board_problem", "mismatches", "score", "Scored"]


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
    problem = board_problem(puzzle, solution)
    if problem is not None:
        return problem
    wrong = mismatches(puzzle, solution)
    if wrong:
        adj, seen = wrong[0], [puzzle.oriented(t, r) for t, r in solution]
        x, y = seen[adj.a][adj.side_a], seen[adj.b][adj.side_b]
        return (
            f"cell {puzzle.board.position(adj.a)} {SIDES[adj.side_a]} shows {shown(x)} but cell "
            f"{puzzle.board.position(adj.b)} {SIDES[adj.side_b]} shows {shown(y)}: they do not fit"
        )
    return None


def board_problem(puzzle: Puzzle, solution: Solution) -> str | None:
    """The first hard rule a board breaks, in one sentence, or ``None``: every cell holds a tile
    in a rotation, each tile once, the clues in place, the frame label exactly on the outside
    sides; the touching sides need not fit (:func:`mismatches`), except a cell's sides that
    touch each other on a torus one cell thin, which :attr:`Puzzle.allowed` keeps as a rule of
    the cell.

    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
    >>> board_problem(p, Solution(((0, 0), (1, 0)))) is None
    True
    """
    board = puzzle.board
    if len(solution) != puzzle.n:
        return f"the solution has {len(solution)} placements, the board has {puzzle.n} cells"
    for cell, (t, r) in enumerate(solution):
        if not (isinstance(t, int) and 0 <= t < len(puzzle.tiles)):
            return (
                f"cell {board.position(cell)} names tile {shown(t)}, but tiles are 0..{len(puzzle.tiles) - 1}"
            )
        if r not in range(4):
            return f"cell {board.position(cell)} has rotation {shown(r)}, not 0..3"
        if r not in puzzle.rotations:
            return f"cell {board.position(cell)} has rotation {r}, which turns: {puzzle.turns} forbids"
    used = Counter(t for t, _ in solution)
    for t, k in sorted(used.items()):
        if k > 1:
            cells = [board.position(c) for c, (u, _) in enumerate(solution) if u == t]
            return f"tile {t} is used {k} times, at cells {', '.join(map(str, cells))}"
    for clue in puzzle.clues:
        got = solution.placements[board.cell(clue.row, clue.col)]
        if got != (clue.tile, clue.rotation):
            return (
                f"clue at cell ({clue.row}, {clue.col}) wants tile {clue.tile} rotation {clue.rotation}, "
                f"found tile {got[0]} rotation {got[1]}"
            )
    seen = [puzzle.oriented(t, r) for t, r in solution]
    if puzzle.frame is not None:
        for cell, labels in enumerate(seen):
            for s in range(4):
                outside = (cell, s) in board.outer
                if outside and labels[s] != puzzle.frame:
                    return (
                        f"cell {board.position(cell)} {SIDES[s]} is on the frame and must show "
                        f"{shown(puzzle.frame)}, shows {shown(labels[s])}"
                    )
                if not outside and labels[s] == puzzle.frame:
                    where = f"cell {board.position(cell)} {SIDES[s]}"
                    return f"{where} is inside the board but shows the frame label {shown(puzzle.frame)}"
    if puzzle.border:
        for cell, s in sorted(board.outer):
            if seen[cell][s] not in puzzle.border:
                must = (
                    shown(puzzle.border[0])
                    if len(puzzle.border) == 1
                    else "one of " + ", ".join(map(shown, puzzle.border))
                )
                return (
                    f"cell {board.position(cell)} {SIDES[s]} is on the border and must show {must}, "
                    f"shows {shown(seen[cell][s])}"
                )
    for adj in board.adjacencies:
        x, y = seen[adj.a][adj.side_a], seen[adj.b][adj.side_b]
        if adj.a == adj.b and not puzzle.fits(x, y):
            return (
                f"cell {board.position(adj.a)} {SIDES[adj.side_a]} shows {shown(x)} but cell "
                f"{board.position(adj.b)} {SIDES[adj.side_b]} shows {shown(y)}: they do not fit"
            )
    return None


def mismatches(puzzle: Puzzle, solution: Solution) -> list[Adjacency]:
    """The touching pairs of sides of a board (:attr:`Board.adjacencies`, in their order) whose
    labels do not fit."""
    seen = [puzzle.oriented(t, r) for t, r in solution]
    return [
        adj
        for adj in puzzle.board.adjacencies
        if not puzzle.fits(seen[adj.a][adj.side_a], seen[adj.b][adj.side_b])
    ]


def score(puzzle: Puzzle, solution: Solution) -> int:
    """How many touching pairs of sides fit: the inner edges matched (Eternity II's score).

    Parameters
    ----------
    puzzle : Puzzle
    solution : Solution
        A board that keeps the hard rules (:func:`board_problem`).

    Returns
    -------
    int
        The adjacencies of the board graph whose labels fit; a solution scores
        ``len(puzzle.board.adjacencies)``.

    Examples
    --------
    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
    >>> score(p, Solution(((0, 0), (1, 0)))), score(p, Solution(((0, 0), (1, 3))))
    (0, 1)
    """
    return len(puzzle.board.adjacencies) - len(mismatches(puzzle, solution))


def label_bound(puzzle: Puzzle) -> int:
    """No board scores more: an edge that fits pairs two sides of one label (a head and a tail
    of one pattern, complementary), so the inner sides of each label bound its edges; the frame
    label, and a border of one label, count less the outer sides they must show."""
    sides: dict = {}
    for tile in puzzle.tiles:
        for x in tile:
            sides[x] = sides.get(x, 0) + 1
    if puzzle.frame is not None and puzzle.board.topology == "grid":
        sides[puzzle.frame] -= 2 * (puzzle.rows + puzzle.cols)
    if len(puzzle.border) == 1:  # a border of one label: its outer sides pair with nothing
        sides[puzzle.border[0]] = max(0, sides.get(puzzle.border[0], 0) - 2 * (puzzle.rows + puzzle.cols))
    if puzzle.matching == "complementary":
        pairs = sum(min(n, sides.get(puzzle.partner(x), 0)) for x, n in sides.items() if x[-1] == "+")
    else:
        pairs = sum(n // 2 for n in sides.values())
    return min(len(puzzle.board.adjacencies), pairs)  # a cell's own sides that touch pair too


@dataclass(frozen=True)
class Scored:
    """A puzzle with a board that keeps its hard rules, and the board's score: printed as a grid
    that marks the sides that do not fit, drawn so in a notebook.  Every search for the best
    board gives its boards as this (:mod:`satedge.best`), with what it cost.

    Attributes
    ----------
    puzzle : Puzzle
    board : Solution or None
        ``None`` where a search found that no board keeps the hard rules (``satedge.maximize``
        then answers ``None``).
    score : int
        The inner edges that fit (:func:`score`).
    bound : int
        No board scores more (as far as the search that found it proved).
    nodes, candidates : int
        What the search that found it cost: the placements it made and the candidates it looked
        at (0 where it does not count them).
    searching : int or None
        The budget of misfits a search of budgets is proving (:func:`satedge.best.budget.fewest`;
        ``None`` at the end, or for another search).
    loop : str or None
        The backtracker's loop that ran the search (:data:`satedge.backtrack.loop.LOOPS`).
    compile_seconds : float
        What compiling that loop (or loading it from the cache) took, none of the search's.
    """

    puzzle: Puzzle
    board: Solution | None
    score: int
    bound: int
    _: KW_ONLY
    nodes: int = 0
    candidates: int = 0
    searching: int | None = None
    loop: str | None = None
    compile_seconds: float = 0.0

    @property
    def optimal(self) -> bool:
        """Whether the board is proved best: there is one, and its score is the bound."""
        return self.board is not None and self.score == self.bound

    @property
    def edges(self) -> int:
        """The inner edges, the highest score there can be."""
        return len(self.puzzle.board.adjacencies)

    def __str__(self) -> str:
        if self.board is None:
            return "no board keeps the frame and the clues"
        return (
            f"score {self.score} of {self.edges} inner edges"
            f"{' (optimal)' if self.optimal else f', at most {self.bound}'}\n"
            + ascii_grid(self.puzzle, self.board, mismatched=mismatches(self.puzzle, self.board))
        )

    def __repr__(self) -> str:
        return f"Scored({self.puzzle!r}, score={self.score}, bound={self.bound})"

    def _repr_svg_(self) -> str:
        if self.board is None:
            return ""
        return to_svg(self.puzzle, self.board, mismatches(self.puzzle, self.board))
