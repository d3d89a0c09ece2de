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
from dataclasses import dataclass, replace
from typing import Any

from ..errors import SatedgeError
from ..system.files import shown
from .model import MAX_CELLS, TURNS, Clue, Puzzle, Solution, partner, rotate

__all__ = ["MAX_COLORS", "Params", "Pick", "generate", "build", "eternity2_cells"]

MAX_COLORS = 10_000


@dataclass(frozen=True)
class Params:
    """What to generate: a ``rows x cols`` board (``cols`` default: as many as ``rows``), ``colors``
    labels (identical) or patterns (complementary) inside, ``border_colors`` between border cells
    (framed boards), the ``matching`` rule, a ``frame``, the ``topology``, ``clues`` planted
    placements given away on cells drawn at random besides those of ``clues_at`` (``(row, col)``
    pairs, counted from 0: Eternity II's five are :func:`eternity2_cells`), and the ``model``:
    ``planted`` or ``uniform``; ``turns``: the turns its tiles may take (:data:`TURNS`: ``all``,
    ``half``, ``none``), the planted tiles turned by those only; ``border``: where more than 0,
    the outside shows only the first ``border`` labels (patterns), which also run inside: the
    puzzle's border rule."""

    rows: int = 4
    cols: int | None = None
    colors: int = 4
    border_colors: int = 0
    matching: str = "identical"
    frame: bool = False
    topology: str = "grid"
    clues: int = 0
    model: str = "planted"
    clues_at: tuple[tuple[int, int], ...] = ()
    turns: str = "all"
    border: int = 0

    def __post_init__(self) -> None:
        if self.cols is None:
            object.__setattr__(self, "cols", self.rows)
        if isinstance(self.clues_at, (list, tuple)):  # a spec's lists of two numbers, as pairs
            object.__setattr__(
                self,
                "clues_at",
                tuple(tuple(c) if isinstance(c, (list, tuple)) else c for c in self.clues_at),
            )

    @property
    def width(self) -> int:
        """The board's columns (``cols``, set from ``rows`` where not given)."""
        return self.rows if self.cols is None else self.cols


def _check(p: Params) -> None:
    if p.model not in ("planted", "uniform"):
        raise SatedgeError(f"model must be planted or uniform, not {shown(p.model)}")
    if not isinstance(p.turns, str) or p.turns not in TURNS:
        raise SatedgeError(f"turns must be one of {', '.join(TURNS)}, not {shown(p.turns)}")
    for name, low, high in (
        ("rows", 1, MAX_CELLS),
        ("cols", 1, MAX_CELLS),
        ("colors", 1, MAX_COLORS),
        ("border_colors", 0, MAX_COLORS),
        ("clues", 0, MAX_CELLS),
        ("border", 0, MAX_COLORS),
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
    if p.border and (p.frame or p.topology != "grid" or p.model != "planted"):
        raise SatedgeError("a border rule needs a planted grid board without a frame")
    if p.border > p.colors:
        raise SatedgeError(f"a border of {p.border} labels needs as many colors, not {p.colors}")
    if p.model == "uniform" and (p.frame or p.clues):
        raise SatedgeError("the uniform model draws every edge at random: no frame, no clues")
    if not isinstance(p.clues_at, tuple):
        raise SatedgeError(f"clues_at must be a list of [row, col] pairs, not {shown(p.clues_at)}")
    for cell in p.clues_at:
        if not (
            isinstance(cell, tuple)
            and len(cell) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        ):
            raise SatedgeError(f"clues_at takes [row, col] pairs of whole numbers, not {shown(cell)}")
        if not (0 <= cell[0] < p.rows and 0 <= cell[1] < p.width):
            raise SatedgeError(
                f"clue cell {cell[0]},{cell[1]} is off the {p.rows}x{p.width} board (rows and columns count from 0)"
            )
    if len(set(p.clues_at)) < len(p.clues_at):
        twice = next(c for c in p.clues_at if p.clues_at.count(c) > 1)
        raise SatedgeError(f"clue cell {twice[0]},{twice[1]} is given twice")
    if p.model == "uniform" and p.clues_at:
        raise SatedgeError("the uniform model draws every edge at random: no frame, no clues")
    if p.clues + len(p.clues_at) > p.rows * p.width:
        raise SatedgeError(f"{p.clues + len(p.clues_at)} clues on a board of {p.rows * p.width} cells")


def eternity2_cells(rows: int, cols: int | None = None) -> tuple[tuple[int, int], ...]:
    """The cells Eternity II's five clues take on a ``rows x cols`` board (``(row, col)`` from 0):
    the centre (the starter's I8 on the 16x16: row 8, column 7) and the four squares two in from
    each corner (C3, C14, N3, N14).

    >>> eternity2_cells(16)
    ((2, 2), (2, 13), (8, 7), (13, 2), (13, 13))
    """
    cols = rows if cols is None else cols
    if min(rows, cols) < 5:
        raise SatedgeError(f"Eternity II's clue cells need a board of at least 5x5, not {rows}x{cols}")
    return tuple(
        sorted({(2, 2), (2, cols - 3), (rows // 2, cols // 2 - 1), (rows - 3, 2), (rows - 3, cols - 3)})
    )


Pick = Callable[[int], int]  # pick(k) -> a number in range(k)


def _label(pick: Pick, p: Params, border: bool = False) -> Any:
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
        + (f"-border{p.border}" if p.border else "")
        + (f"-turns-{p.turns}" if p.turns != "all" else "")
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
            rows=p.rows,
            cols=p.width,
            tiles=drawn,
            matching=p.matching,
            name=name,
            topology=p.topology,
            turns=p.turns,
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
    outside = replace(p, colors=p.border) if p.border else p  # the border's labels: the first ones
    for cell, s in sorted(board.outer):
        sides[cell][s] = 0 if p.frame else _label(pick, outside)
    order = list(range(n))
    _shuffle(pick, order)  # order[cell] = the tile index that lands in cell
    turns = TURNS[p.turns]
    rots = [turns[pick(len(turns))] for _ in range(n)]
    tiles: list = [None] * n
    for cell in range(n):
        tiles[order[cell]] = rotate(tuple(sides[cell]), -rots[cell])
    planted = Solution(tuple((order[c], rots[c]) for c in range(n)))
    given = [r * p.width + c for r, c in p.clues_at]
    clue_cells = [c for c in range(n) if c not in set(given)]
    _shuffle(pick, clue_cells)
    clues = tuple(
        Clue(c // p.width, c % p.width, *planted.placements[c]) for c in sorted(given + clue_cells[: p.clues])
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
        turns=p.turns,
        border=_border(p),
    )


def _border(p: Params) -> tuple:
    """The labels of a border of ``p.border`` labels (patterns, both halves)."""
    if p.matching == "complementary":
        return tuple(f"p{k + 1}{h}" for k in range(p.border) for h in "+-")
    return tuple(range(1, p.border + 1))
