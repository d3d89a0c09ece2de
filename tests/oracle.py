"""A brute-force oracle for tiny puzzles: every permutation and every rotation the puzzle lets a
tile take, through the checker."""

from itertools import permutations, product

from satedge.puzzle.checker import validate
from satedge.puzzle.model import Puzzle, Solution


def brute_force(puzzle: Puzzle) -> set[Solution]:
    n = puzzle.n
    out = set()
    for perm in permutations(range(n)):
        for rots in product(puzzle.rotations, repeat=n):
            s = Solution(tuple(zip(perm, rots)))
            if validate(puzzle, s) is None:
                out.add(s)
    return out
