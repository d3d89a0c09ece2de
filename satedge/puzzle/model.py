"""The puzzle model: tiles, the board graph, matching rules, frames, clues and solutions.

Conventions used everywhere in satedge:

* a tile is four labels in clockwise order ``(top, right, bottom, left)``;
* sides are numbered ``TOP=0, RIGHT=1, BOTTOM=2, LEFT=3``;
* a placement is ``(tile, rotation)``, the rotation ``r`` counting clockwise quarter
  turns of the tile as written (``r = 1`` moves the top label to the right side);
* cells are numbered row-major, ``cell = row * cols + col``;
* adjacency comes from :attr:`satedge.puzzle.board.Board.graph`, a networkx multigraph whose edges
  know which side of each of their two cells they join (a torus of width or height 1 has
  self-loops, one of width or height 2 has parallel edges).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..errors import SatedgeError
from ..system.files import shown
from .board import BOTTOM, LEFT, OPPOSITE, RIGHT, SIDES, TOP, TOPOLOGIES, Adjacency, Board
from .drawing import ascii_grid, to_svg

__all__ = [
    "TOP",
    "RIGHT",
    "BOTTOM",
    "LEFT",
    "SIDES",
    "OPPOSITE",
    "MATCHINGS",
    "TOPOLOGIES",
    "TURNS",
    "MAX_CELLS",
    "MAX_NAME",
    "Label",
    "Allowed",
    "rotate",
    "partner",
    "self_symmetry",
    "Adjacency",
    "Board",
    "Clue",
    "Solution",
    "Puzzle",
    "Solved",
]

MATCHINGS = ("complementary", "identical")
# the turns a puzzle lets its tiles take: every quarter turn, half turns only, or none (Tetravex);
# each a group of turns, so that turning a whole board by one of them keeps its tiles' turns allowed
TURNS = {"all": (0, 1, 2, 3), "half": (0, 2), "none": (0,)}
MAX_CELLS = 10_000  # a 100x100 board; Eternity II has 256 cells
MAX_NAME = 200  # characters

Label = int | str
# per cell, the placements (tile, rotation) a search may make there (:attr:`Puzzle.allowed`)
Allowed = tuple[tuple[tuple[int, int], ...], ...]


def rotate(labels: tuple, r: int) -> tuple:
    """The labels of a tile turned ``r`` clockwise quarter turns.

    >>> rotate(("a", "b", "c", "d"), 1)
    ('d', 'a', 'b', 'c')
    """
    return tuple(labels[(s - r) % 4] for s in range(4))


def partner(matching: str, x: Label) -> Label:
    """The one label that fits ``x`` under a matching rule.

    >>> partner("complementary", "dog+"), partner("identical", 3)
    ('dog-', 3)
    """
    if matching == "identical":
        return x
    text = str(x)  # a complementary label is a pattern and its half: text
    return text[:-1] + ("-" if text[-1] == "+" else "+")


def self_symmetry(labels: tuple) -> int:
    """How many rotations of a tile show the same labels as rotation 0 (1, 2 or 4).

    >>> self_symmetry(("a", "b", "a", "b")), self_symmetry((1, 1, 1, 1)), self_symmetry((1, 2, 3, 4))
    (2, 4, 1)
    """
    return sum(rotate(labels, r) == tuple(labels) for r in range(4))


@dataclass(frozen=True)
class Clue:
    """A fixed placement, part of the puzzle.

    Attributes
    ----------
    row, col : int
        The cell.
    tile : int
        The tile's index in file order, from 0.
    rotation : int
        Clockwise quarter turns of the tile as written, 0 to 3.
    """

    row: int
    col: int
    tile: int
    rotation: int


@dataclass(frozen=True)
class Solution:
    """A complete placement: one ``(tile, rotation)`` per cell, row-major.

    Attributes
    ----------
    placements : tuple of (int, int)
        Per cell, the tile's index and its clockwise quarter turns.

    See Also
    --------
    satedge.validate : whether it solves a puzzle.
    """

    placements: tuple[tuple[int, int], ...]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self.placements)

    def __len__(self) -> int:
        return len(self.placements)

    def __reduce__(
        self,
    ) -> tuple:  # pickled as its placements: solutions cross from solving processes by the thousand
        return Solution, (self.placements,)

    def __repr__(self) -> str:
        """Short: ``Solution(0/1 3/0 2/2 ...)``, each cell's tile/rotation (the first 12)."""
        shown = " ".join(f"{t}/{r}" for t, r in self.placements[:12])
        return f"Solution({shown}{' ...' if len(self.placements) > 12 else ''})"


@dataclass(frozen=True)
class Puzzle:
    """An edge-matching puzzle.

    Attributes
    ----------
    rows, cols : int
        The board's size.
    tiles : tuple of 4-tuples of labels
        ``rows * cols`` tiles, each its labels clockwise from the top.  A label is a hashable
        value; with ``complementary`` matching a ``(pattern, "+" | "-")`` pair.
    matching : str
        ``identical`` (touching labels are equal) or ``complementary`` (the same pattern, one
        head and one tail).
    name : str
        What the puzzle is called in output.
    frame : label or None
        The label every outside edge carries and no inside edge does (``identical`` only).
    border : tuple of labels
        Where not empty, every outside edge carries one of these labels, which may also run
        inside (MacMahon's squares: a white border); a grid without a frame only.
    topology : str
        ``grid`` or ``torus``.
    clues : tuple of Clue
        Fixed placements.
    turns : str
        The turns a tile may take (:data:`TURNS`): ``all`` (the default), ``half`` (none or a
        half turn) or ``none`` (tiles lie as written, as in Tetravex).

    Raises
    ------
    SatedgeError
        When the values do not make a puzzle (the message says why).
    """

    rows: int
    cols: int
    tiles: tuple[tuple[Label, Label, Label, Label], ...]
    matching: str = "identical"
    name: str = ""
    frame: Label | None = None
    topology: str = "grid"
    clues: tuple[Clue, ...] = ()
    planted: Solution | None = field(default=None, compare=False)
    turns: str = "all"
    border: tuple[Label, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.border, list):  # a list of labels, as a tuple
            object.__setattr__(self, "border", tuple(self.border))
        elif isinstance(self.border, (int, str)) and not isinstance(self.border, bool):  # one label
            object.__setattr__(self, "border", (self.border,))
        _validate(self)

    def __reduce__(
        self,
    ) -> tuple:  # pickled as its fields, not its caches (the board graph): jobs cross to fresh processes
        return _rebuild, (
            self.rows,
            self.cols,
            self.tiles,
            self.matching,
            self.name,
            self.frame,
            self.topology,
            self.clues,
            self.planted,
            self.turns,
            self.border,
        )

    # ------------------------------------------------------------------ board and labels
    @cached_property
    def board(self) -> Board:
        return Board(self.rows, self.cols, self.topology)

    @property
    def n(self) -> int:
        return self.rows * self.cols

    @property
    def rotations(self) -> tuple[int, ...]:
        """The rotations a tile may take (:data:`TURNS` of :attr:`turns`)."""
        return TURNS[self.turns]

    @property
    def board_turns(self) -> tuple[int, ...]:
        """Quarter turns of the whole board that map every solution onto a solution: the board's
        own (:meth:`Board.turns`) that the tiles' turns allow (a board turned a quarter turns each
        tile a quarter turn)."""
        return tuple(k for k in self.board.turns() if k in self.rotations)

    def fits(self, x: Label, y: Label) -> bool:
        """Do two touching edges with labels ``x`` and ``y`` fit?"""
        if self.matching == "identical":
            return x == y
        a, b = str(x), str(y)  # complementary labels are text
        return a[:-1] == b[:-1] and a[-1] != b[-1]

    def partner(self, x: Label) -> Label:
        """The one label that fits ``x``."""
        return partner(self.matching, x)

    @cached_property
    def labels(self) -> tuple[Label, ...]:
        """Every label that can occur, partners included, in a fixed order (``label_id`` indexes it).

        Complementary labels come in pairs: ids ``2i`` (head) and ``2i+1`` (tail) of one pattern.
        """
        seen = {x for tile in self.tiles for x in tile} | set(self.border)
        if self.frame is not None:
            seen.add(self.frame)
        if self.matching == "complementary":
            patterns = sorted({str(x)[:-1] for x in seen})
            return tuple(p + h for p in patterns for h in "+-")
        return tuple(sorted(seen, key=lambda x: (isinstance(x, str), x)))

    @cached_property
    def label_id(self) -> dict[Label, int]:
        return {x: i for i, x in enumerate(self.labels)}

    def partner_id(self, i: int) -> int:
        return i ^ 1 if self.matching == "complementary" else i

    def oriented(self, tile: int, rotation: int) -> tuple:
        """The labels of ``tile`` turned ``rotation`` times, clockwise from the top."""
        return self.orientations[tile][rotation]

    @cached_property
    def orientations(self) -> tuple[tuple[tuple, ...], ...]:
        return tuple(tuple(rotate(t, r) for r in range(4)) for t in self.tiles)

    # ------------------------------------------------------------------ unary constraints
    @cached_property
    def _unary(self) -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]], ...]:
        """Per cell: sides on the outside, sides inside, side pairs joined by a self-loop."""
        board = self.board
        loops: dict[int, list[tuple[int, int]]] = {}
        for adj in board.adjacencies:
            if adj.a == adj.b:
                loops.setdefault(adj.a, []).append((adj.side_a, adj.side_b))
        return tuple(
            (
                tuple(s for s in range(4) if (c, s) in board.outer),
                tuple(s for s in range(4) if (c, s) not in board.outer),
                tuple(loops.get(c, ())),
            )
            for c in board.cells
        )

    def cell_ok(self, cell: int, labels: tuple) -> bool:
        """Frame and self-loop constraints of one cell showing ``labels`` (clues aside)."""
        outside, inside, loops = self._unary[cell]
        if self.frame is not None:
            if any(labels[s] != self.frame for s in outside) or any(labels[s] == self.frame for s in inside):
                return False
        if self.border and any(labels[s] not in self.border for s in outside):
            return False
        return all(self.fits(labels[a], labels[b]) for a, b in loops)

    @cached_property
    def allowed(self) -> Allowed:
        """Per cell, the placements that satisfy the frame, the clues and self-loops.

        Pairwise constraints (adjacency, each tile once) are left to the solvers.
        """
        clued = {self.board.cell(c.row, c.col): (c.tile, c.rotation) for c in self.clues}
        clued_tiles = {t for t, _ in clued.values()}
        free = [(t, r) for t in range(len(self.tiles)) if t not in clued_tiles for r in self.rotations]
        out, same = [], {}  # cells of one kind (the same sides outside, inside and looped) allow the same
        for cell in self.board.cells:
            if cell in clued:
                out.append(
                    tuple(p for p in [clued[cell]] if self.cell_ok(cell, self.orientations[p[0]][p[1]]))
                )
                continue
            kind = self._unary[cell]
            if kind not in same:
                same[kind] = tuple(p for p in free if self.cell_ok(cell, self.orientations[p[0]][p[1]]))
            out.append(same[kind])
        return tuple(out)

    def with_(self, **changes: Any) -> Puzzle:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def __repr__(self) -> str:
        """Short, whatever the size: ``Puzzle('Hunde-Spiel', 3x3, complementary, 9 tiles)``."""
        extra = [f"frame {shown(self.frame)}"] if self.frame is not None else []
        extra += [f"border {', '.join(map(shown, self.border))}"] if self.border else []
        extra += ["torus"] if self.topology == "torus" else []
        extra += [f"{len(self.clues)} clues"] if self.clues else []
        extra += [f"turns {self.turns}"] if self.turns != "all" else []
        return (
            f"Puzzle({shown(self.name)}, {self.rows}x{self.cols}, {self.matching}, {len(self.tiles)} tiles"
            + "".join(", " + e for e in extra)
            + ")"
        )

    def _repr_svg_(self) -> str:
        """The tile set as a picture, in a notebook."""
        return to_svg(self)


@dataclass(frozen=True)
class Solved:
    """A puzzle with one of its solutions: printed as a grid, drawn as a picture in a notebook.

    Attributes
    ----------
    puzzle : Puzzle
    solution : Solution
    """

    puzzle: Puzzle
    solution: Solution

    def __str__(self) -> str:
        return ascii_grid(self.puzzle, self.solution)

    def __repr__(self) -> str:
        return f"Solved({self.puzzle!r}, {self.solution!r})"

    def _repr_svg_(self) -> str:
        return to_svg(self.puzzle, self.solution)


def _rebuild(*fields: Any) -> Puzzle:
    return Puzzle(*fields)


def _validate(p: Puzzle) -> None:
    def fail(msg: str) -> None:
        raise SatedgeError(msg)

    for key in ("rows", "cols"):
        v = getattr(p, key)
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            fail(f"{key} must be a positive integer, not {shown(v)}")
        if v > MAX_CELLS:
            fail(f"{key} must be at most {MAX_CELLS:,}, not {v:,}")
    if p.rows * p.cols > MAX_CELLS:
        fail(
            f"a {p.rows}x{p.cols} board has {p.rows * p.cols:,} cells, more than the {MAX_CELLS:,} satedge takes"
        )
    if not isinstance(p.name, str) or len(p.name) > MAX_NAME:
        fail(f"name must be a string of at most {MAX_NAME} characters")
    if p.matching not in MATCHINGS:
        fail(f"matching must be one of {', '.join(MATCHINGS)}, not {shown(p.matching)}")
    if p.topology not in TOPOLOGIES:
        fail(f"topology must be one of {', '.join(TOPOLOGIES)}, not {shown(p.topology)}")
    if not isinstance(p.turns, str) or p.turns not in TURNS:
        fail(f"turns must be one of {', '.join(TURNS)}, not {shown(p.turns)}")
    if len(p.tiles) != p.rows * p.cols:
        fail(f"{p.rows}x{p.cols} board needs {p.rows * p.cols} tiles, found {len(p.tiles)}")
    for i, tile in enumerate(p.tiles):
        if not isinstance(tile, tuple) or len(tile) != 4:
            fail(
                f"tile {i} must have four edges, found {shown(len(tile) if isinstance(tile, (tuple, list)) else tile)}"
            )
        for x in tile:
            if p.matching == "complementary":
                if not (isinstance(x, str) and len(x) >= 2 and x[-1] in "+-"):
                    fail(f"tile {i}: complementary label {shown(x)} needs a pattern and a half (+ or -)")
            elif not isinstance(x, (int, str)) or isinstance(x, bool):
                fail(f"tile {i}: label {shown(x)} must be an integer or a string")
    if p.frame is not None:
        if p.matching != "identical":
            fail("a frame needs identical matching")
        if p.topology != "grid":
            fail("a torus has no frame")
    if not isinstance(p.border, tuple):
        fail(f"border must be a label or a list of labels, not {shown(p.border)}")
    if p.border:
        if p.frame is not None:
            fail("a puzzle has a frame or a border, not both: a frame already says the outside's label")
        if p.topology != "grid":
            fail("a torus has no border")
        if len(set(p.border)) < len(p.border):
            fail(f"border names label {shown(next(x for x in p.border if p.border.count(x) > 1))} twice")
        for x in p.border:
            if p.matching == "complementary":
                if not (isinstance(x, str) and len(x) >= 2 and x[-1] in "+-"):
                    fail(f"border: complementary label {shown(x)} needs a pattern and a half (+ or -)")
            elif not isinstance(x, (int, str)) or isinstance(x, bool):
                fail(f"border: label {shown(x)} must be an integer or a string")
    seen_cells, seen_tiles = set(), set()
    for c in p.clues:
        if not (0 <= c.row < p.rows and 0 <= c.col < p.cols):
            fail(f"clue at row {c.row}, col {c.col} is outside the {p.rows}x{p.cols} board")
        if not 0 <= c.tile < len(p.tiles):
            fail(f"clue at row {c.row}, col {c.col} names tile {c.tile}, but tiles are 0..{len(p.tiles) - 1}")
        if c.rotation not in range(4):
            fail(f"clue at row {c.row}, col {c.col} has rotation {c.rotation}, not 0..3")
        if c.rotation not in TURNS[p.turns]:
            fail(
                f"clue at row {c.row}, col {c.col} has rotation {c.rotation}, which turns: {p.turns} forbids"
            )
        if (c.row, c.col) in seen_cells:
            fail(f"two clues for row {c.row}, col {c.col}")
        if c.tile in seen_tiles:
            fail(f"tile {c.tile} is clued twice")
        seen_cells.add((c.row, c.col))
        seen_tiles.add(c.tile)
    if p.planted is not None and len(p.planted) != p.rows * p.cols:
        fail(f"planted solution has {len(p.planted)} placements, the board has {p.rows * p.cols} cells")
