"""Puzzle generator: uniform random tiles, or planted solutions of tunable hardness.

* ``uniform``: every edge of every tile drawn uniformly at random (the random experiment of
  the insects seed); such puzzles are usually unsolvable.
* ``planted``: a label for every pair of touching sides of the board graph (complementary: a
  pattern and which side holds the head); the frame label on the outside when framed; with
  ``border_colors`` the edges between two border cells come from a separate set (the two-set
  framed puzzles of Ansótegui et al.); then the tiles are shuffled and turned at random.  The
  planted solution is kept in :attr:`Puzzle.planted`.

Labels: identical matching uses ``1..colors`` inside, ``colors+1..colors+border_colors`` on the
border and ``0`` for the frame; complementary matching uses patterns ``p1..pK`` with a half.
Only a private ``random.Random(seed)`` and ``randrange`` are used, so a seed gives the same
puzzle on every platform and Python version.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import SatedgeError
from ..system.files import shown
from .model import MAX_CELLS, Clue, Puzzle, Solution, partner, rotate

__all__ = ["MAX_COLORS", "Params", "Pick", "generate", "build"]

MAX_COLORS = 10_000


@dataclass(frozen=True)
class Params:
    """What to generate: a ``rows x cols`` board (``cols`` default: as many as ``rows``), ``colors``
    labels (identical) or patterns (complementary) inside, ``border_colors`` between border cells
    (framed boards), the ``matching`` rule, a ``frame``, the ``topology``, ``clues`` planted
    placements given away, and the ``model``: ``planted`` or ``uniform``."""

    rows: int = 4
    cols: int | None = None
    colors: int = 4
    border_colors: int = 0
    matching: str = "identical"
    frame: bool = False
    topology: str = "grid"
    clues: int = 0
    model: str = "planted"

    def __post_init__(self) -> None:
        if self.cols is None:
            object.__setattr__(self, "cols", self.rows)

    @property
    def width(self) -> int:
        """The board's columns (``cols``, set from ``rows`` where not given)."""
        return self.rows if self.cols is None else self.cols


def _check(p: Params) -> None:
    if p.model not in ("planted", "uniform"):
        raise SatedgeError(f"model must be planted or uniform, not {shown(p.model)}")
    for name, low, high in (
        ("rows", 1, MAX_CELLS),
        ("cols", 1, MAX_CELLS),
        ("colors", 1, MAX_COLORS),
        ("border_colors", 0, MAX_COLORS),
        ("clues", 0, MAX_CELLS),
    ):
        v = getattr(p, name)
        if isinstance(v, bool) or not isinstance(v, int):
            raise SatedgeError(f"{name} must be an integer, not {shown(v)}")
        if v < low:
            raise SatedgeError(f"{name} must be at least {low}, not {v}")
        if v > high:
            raise SatedgeError(f"{name} must be at most {high:,}, not {v:,}")
    if p.rows * p.width > MAX_CELLS:
        raise SatedgeError(
            f"a {p.rows}x{p.width} board has {p.rows * p.width:,} cells, more than the {MAX_CELLS:,} "
            "satedge takes"
        )
    if p.frame and (p.matching != "identical" or p.topology != "grid"):
        raise SatedgeError("a frame needs identical matching on a grid")
    if p.border_colors and not p.frame:
        raise SatedgeError("border colors need a frame")
    if p.model == "uniform" and (p.frame or p.clues):
        raise SatedgeError("the uniform model draws every edge at random: no frame, no clues")
    if p.clues > p.rows * p.width:
        raise SatedgeError(f"{p.clues} clues on a board of {p.rows * p.width} cells")


Pick = Callable[[int], int]  # pick(k) -> a number in range(k)


def _label(pick: Pick, p: Params, border: bool = False):
    if p.matching == "complementary":
        return f"p{pick(p.colors) + 1}" + "+-"[pick(2)]
    if border:
        return p.colors + 1 + pick(p.border_colors)
    return 1 + pick(p.colors)


def _shuffle(pick: Pick, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):  # Fisher-Yates
        j = i - pick(i + 1)  # pick(...) == 0 everywhere leaves the order as it is
        items[i], items[j] = items[j], items[i]


def generate(params: Params, seed: int, name: str | None = None) -> Puzzle:
    """One puzzle; the same ``(params, seed)`` always gives the same puzzle.

    >>> p = generate(Params(rows=3, cols=3, colors=3, frame=True), seed=7)
    >>> from satedge.puzzle.checker import validate
    >>> validate(p, p.planted) is None, p.frame, p.name
    (True, 0, 'planted-3x3-c3-s7')
    """
    p = params
    name = (
        name
        or f"{p.model}-{p.rows}x{p.width}-c{p.colors}"
        + (f"-b{p.border_colors}" if p.border_colors else "")
        + f"-s{seed}"
    )
    return build(params, random.Random(seed).randrange, name)


def build(params: Params, pick: Pick, name: str = "") -> Puzzle:
    """The generator with its choices made by ``pick`` (a seeded ``randrange``, or hypothesis draws,
    which shrink towards 0: first labels, no shuffling, no turns)."""
    _check(params)
    p = params
    n = p.rows * p.width
    if p.model == "uniform":
        drawn = tuple(tuple(_label(pick, p) for _ in range(4)) for _ in range(n))
        return Puzzle(
            rows=p.rows, cols=p.width, tiles=drawn, matching=p.matching, name=name, topology=p.topology
        )
    shell = Puzzle(rows=p.rows, cols=p.width, tiles=((0, 0, 0, 0),) * n, topology=p.topology)
    board = shell.board
    sides: list[list] = [[None] * 4 for _ in range(n)]
    on_border = {c for c, _ in board.outer}
    for adj in board.adjacencies:
        border = bool(p.border_colors) and adj.a in on_border and adj.b in on_border
        x = _label(pick, p, border)
        sides[adj.a][adj.side_a] = x
        sides[adj.b][adj.side_b] = partner(p.matching, x)
    for cell, s in sorted(board.outer):
        sides[cell][s] = 0 if p.frame else _label(pick, p)
    order = list(range(n))
    _shuffle(pick, order)  # order[cell] = the tile index that lands in cell
    rots = [pick(4) for _ in range(n)]
    tiles: list = [None] * n
    for cell in range(n):
        tiles[order[cell]] = rotate(tuple(sides[cell]), -rots[cell])
    planted = Solution(tuple((order[c], rots[c]) for c in range(n)))
    clue_cells = list(range(n))
    _shuffle(pick, clue_cells)
    clues = tuple(
        Clue(c // p.width, c % p.width, *planted.placements[c]) for c in sorted(clue_cells[: p.clues])
    )
    return Puzzle(
        rows=p.rows,
        cols=p.width,
        tiles=tuple(tiles),
        matching=p.matching,
        name=name,
        frame=0 if p.frame else None,
        topology=p.topology,
        clues=clues,
        planted=planted,
    )
