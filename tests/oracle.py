"""A brute-force oracle for tiny puzzles: every permutation and every rotation the puzzle lets a
tile take, through the checker."""

from itertools import permutations, product

from satedge.puzzle.checker import validate
from satedge.puzzle.model import Puzzle, Solution


def brute_force(puzzle: Puzzle) -> set[Solution]:
    if puzzle.turns == "none" and puzzle.n <= 9:  # the same permutations, at once
        return brute_force_fixed(puzzle)
    n = puzzle.n
    out = set()
    for perm in permutations(range(n)):
        for rots in product(puzzle.rotations, repeat=n):
            s = Solution(tuple(zip(perm, rots)))
            if validate(puzzle, s) is None:
                out.add(s)
    return out


def brute_force_fixed(puzzle: Puzzle) -> set[Solution]:
    """Every solution of a puzzle whose tiles may not turn (``turns: none``), up to 3x3: every
    permutation of the tiles at once in numpy, kept where every touching pair of sides fits, then
    through the checker (frame, border, clues)."""
    import numpy as np

    assert puzzle.turns == "none" and puzzle.n <= 9
    labels = sorted({x for t in puzzle.tiles for x in t} | set(puzzle.border), key=repr)
    fits = np.array([[puzzle.fits(x, y) for y in labels] for x in labels])
    sides = np.array([[labels.index(x) for x in t] for t in puzzle.tiles])
    perms = np.array(list(permutations(range(puzzle.n))), dtype=np.int8)
    keep = np.ones(len(perms), dtype=bool)
    for adj in puzzle.board.adjacencies:
        keep &= fits[sides[perms[:, adj.a], adj.side_a], sides[perms[:, adj.b], adj.side_b]]
    out = set()
    for perm in perms[keep]:
        s = Solution(tuple((int(t), 0) for t in perm))
        if validate(puzzle, s) is None:
            out.add(s)
    return out
