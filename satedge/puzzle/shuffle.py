"""Shuffles: the same puzzle with its tiles in another order, each turned, so that a solver's
luck with one presentation is not taken for an encoding's merit (Heule's scripts encode every
instance under ten shuffle seeds).

A shuffle is a pure function of the seed and the puzzle's size, the same on every platform: it
draws from :class:`random.Random` seeded with a string, and only through ``random()``, whose
sequence Python keeps from version to version.  Solutions move between the two numberings with
:meth:`Shuffle.to_original` and :meth:`Shuffle.to_shuffled`.

>>> from satedge.puzzle import Puzzle
>>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
>>> q, sh = shuffle(p, 3)
>>> sh.order, sh.turns, q.tiles
((0, 1), (2, 3), ((0, 0, 0, 1), (0, 0, 1, 0)))
>>> sh.to_original(Solution(((0, 2), (1, 1))))
Solution(0/0 1/0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..errors import SatedgeError
from ..system.files import shown
from .model import Clue, Puzzle, Solution, rotate

__all__ = ["MAX_SEED", "permutation", "check_seed", "Shuffle", "shuffle"]

MAX_SEED = 2**63


def permutation(n: int, seed: int, salt: str) -> list[int]:
    """A permutation of ``range(n)`` that depends only on ``n``, ``seed`` and ``salt``."""
    rng = random.Random(f"satedge-shuffle:{salt}:{seed}")
    out = list(range(n))
    for i in range(n - 1, 0, -1):  # Fisher-Yates, through random() only
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise SatedgeError(f"a shuffle seed is an integer from 0 to 2**63 - 1, not {shown(seed)}")
    return seed


@dataclass(frozen=True)
class Shuffle:
    """Shuffled tile ``j`` is original tile ``order[j]`` turned ``turns[j]`` quarter turns clockwise."""

    seed: int
    order: tuple[int, ...]
    turns: tuple[int, ...]

    def to_original(self, solution: Solution) -> Solution:
        return Solution(tuple((self.order[j], (r + self.turns[j]) % 4) for j, r in solution))

    def to_shuffled(self, solution: Solution) -> Solution:
        where = {t: j for j, t in enumerate(self.order)}
        return Solution(tuple((where[t], (r - self.turns[where[t]]) % 4) for t, r in solution))


def shuffle(puzzle: Puzzle, seed: int) -> tuple[Puzzle, Shuffle]:
    """The puzzle with its tiles reordered and turned by ``seed`` (clues and a planted solution
    follow their tiles), and the :class:`Shuffle` that maps solutions back.  Tiles are turned
    only by the turns the puzzle allows (none where ``turns: none``)."""
    check_seed(seed)
    n = len(puzzle.tiles)
    rng = random.Random(f"satedge-shuffle:turns:{seed}")
    # each tile turned by a turn the puzzle allows: the turns it may then take are the same
    turns = puzzle.rotations
    sh = Shuffle(
        seed,
        tuple(permutation(n, seed, "tiles")),
        tuple(turns[int(rng.random() * len(turns))] for _ in range(n)),
    )
    tiles = tuple(rotate(puzzle.tiles[t], k) for t, k in zip(sh.order, sh.turns))
    moved = {c: sh.to_shuffled(Solution(((c.tile, c.rotation),))).placements[0] for c in puzzle.clues}
    clues = tuple(Clue(c.row, c.col, *moved[c]) for c in puzzle.clues)
    planted = sh.to_shuffled(puzzle.planted) if puzzle.planted is not None else None
    return puzzle.with_(tiles=tiles, clues=clues, planted=planted), sh
