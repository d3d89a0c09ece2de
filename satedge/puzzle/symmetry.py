"""Pictures, board turns and the three exact counts used everywhere in satedge.

* ``solutions``: assignments of ``(tile, rotation)`` to every cell that satisfy all constraints;
* ``distinct``: different pictures (every cell shows the same four labels on the same sides);
* ``unique``: pictures up to turning the whole board (4 turns on square boards, 2 otherwise),
  by the turns that the tiles may take (:attr:`satedge.puzzle.model.Puzzle.board_turns`: none
  but the identity where tiles may not turn, so that ``unique`` is ``distinct`` there).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import factorial, prod

from .model import Puzzle, Solution, rotate, self_symmetry

__all__ = [
    "Picture",
    "MODES",
    "Counts",
    "picture",
    "turn_picture",
    "canonical",
    "count",
    "count_weighted",
    "counts",
    "counts_weighted",
    "one_per_picture",
    "turned",
    "solutions_of_picture",
    "orbit_pictures",
    "orbit",
    "matchings",
    "symmetry_breaking",
    "broken_placements",
]

Picture = tuple[tuple, ...]
MODES = ("solutions", "distinct", "unique")


@dataclass(frozen=True)
class Counts:
    """The three counts of a puzzle.

    Attributes
    ----------
    solutions : int
        Assignments of a turned tile to every cell that satisfy all constraints.
    distinct : int
        Different pictures (every cell shows the same labels on the same sides).
    unique : int
        Pictures up to turning the whole board (4 turns if square, else 2).
    """

    solutions: int
    distinct: int
    unique: int


def symmetry_breaking(puzzle: Puzzle) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """``(tile, cells, rotations)``: keeping ``tile`` to those cells and rotations breaks the
    whole-board rotation symmetry; ``None`` when no rule applies.

    It applies when the puzzle has no clues (a clue already breaks the symmetry).  Two rules,
    the first that applies:

    * *corner*: a tile that fits only cells the board's turns bring onto cell 0 (a corner tile
      of a framed board) is kept to cell 0, the top-left corner: one unit clause;
    * *rotation*: the first tile that looks different in all four rotations keeps rotation 0
      on a square board ({0, 1} on a non-square one).

    Either way exactly one solution in each orbit of 4 (square) or 2 (non-square) survives:
    the model count becomes solutions / 4 or solutions / 2.

    >>> from satedge.puzzle import Puzzle
    >>> framed = Puzzle(rows=2, cols=2, frame=0, tiles=((0, 1, 2, 0), (0, 0, 1, 2), (1, 0, 0, 2), (2, 1, 0, 0)))
    >>> symmetry_breaking(framed)
    (0, (0,), (0, 1, 2, 3))
    >>> symmetry_breaking(Puzzle(rows=1, cols=3, tiles=((1, 2, 1, 2), (1, 2, 3, 4), (3, 3, 4, 4))))
    (1, (0, 1, 2), (0, 1))
    """
    board, turns = puzzle.board, puzzle.board_turns
    if puzzle.clues or len(turns) == 1:  # a clue breaks the symmetry; tiles that may not turn, too
        return None
    corner = {board.turn_cell(0, k) for k in turns}
    if len(corner) == len(turns):
        kinds: dict[int, tuple[tuple, set[int]]] = {}  # cells of one kind share their tuple of placements
        for c, cell in enumerate(puzzle.allowed):
            kinds.setdefault(id(cell), (cell, set()))[1].add(c)
        tiles = {k: {t for t, _ in cell} for k, (cell, _) in kinds.items()}
        first = tiles[id(puzzle.allowed[0])]
        for t in range(len(puzzle.tiles)):
            if t in first and all(cells <= corner for k, (_, cells) in kinds.items() if t in tiles[k]):
                return t, (0,), (0, 1, 2, 3)
    # one rotation of each orbit of the board's turns on the tiles' own
    keep = tuple(sorted({min((r + k) % 4 for k in turns) for r in puzzle.rotations}))
    for t, labels in enumerate(puzzle.tiles):
        if self_symmetry(labels) == 1:
            return t, tuple(board.cells), keep
    return None


def broken_placements(puzzle: Puzzle) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, the allowed placements (:attr:`Puzzle.allowed`) less those that
    :func:`symmetry_breaking`'s rule forbids: one solution of each board-turn orbit keeps its
    placements.  Shared by the encodings' ``symmetry: rotation``, the reference backtracker and
    the branch and bound."""
    allowed = puzzle.allowed
    brk = symmetry_breaking(puzzle)
    if brk is None:
        return allowed
    tile, cells, keep = brk
    return tuple(
        tuple(p for p in cell if p[0] != tile or (c in cells and p[1] in keep))
        for c, cell in enumerate(allowed)
    )


def picture(puzzle: Puzzle, solution: Solution) -> Picture:
    """The labels each cell shows, clockwise from the top, row-major."""
    return tuple(puzzle.oriented(t, r) for t, r in solution)


def turn_picture(puzzle: Puzzle, pic: Picture, k: int) -> Picture:
    """The picture seen after turning the whole board ``k`` clockwise quarter turns."""
    board = puzzle.board
    out: list = [None] * len(pic)
    for cell, labels in enumerate(pic):
        out[board.turn_cell(cell, k)] = rotate(labels, k)
    return tuple(out)


def canonical(puzzle: Puzzle, pic: Picture) -> Picture:
    """The least of a picture's turns (labels compared by their id), a key for ``unique``."""
    ids = puzzle.label_id
    keyed = [
        tuple(tuple(ids[x] for x in cell) for cell in turn_picture(puzzle, pic, k))
        for k in puzzle.board_turns
    ]
    return min(keyed)


def count(puzzle: Puzzle, solutions: Iterable[Solution], orbit: int = 1) -> Counts:
    """The three counts of a complete set of solutions; with ``orbit`` k > 1 (symmetry breaking:
    one solution per board-turn orbit), each solution given stands for its orbit of k different
    solutions, whose pictures are the turns of its picture (they can coincide: a picture that
    looks the same turned).

    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> count(p, [Solution(((0, 0), (1, 0))), Solution(((1, 2), (0, 2)))])
    Counts(solutions=2, distinct=1, unique=1)
    >>> count(p, [Solution(((0, 0), (1, 0)))], orbit=2)
    Counts(solutions=2, distinct=1, unique=1)
    """
    return count_weighted(puzzle, ((s, 1) for s in solutions), orbit)


def count_weighted(puzzle: Puzzle, found: Iterable[tuple[Solution, int]], orbit: int = 1) -> Counts:
    """:func:`count` of solutions given as ``(solution, weight)``: each stands for ``weight``
    solutions with its picture (:func:`satedge.backtrack.weighted`: every arrangement of
    identical tiles, every turn of a tile that looks the same).

    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> count_weighted(p, [(Solution(((0, 0), (1, 0))), 3)], orbit=2)
    Counts(solutions=6, distinct=1, unique=1)
    """
    n = 0
    pictures = set()
    for s, weight in found:
        n += weight
        pictures.add(picture(puzzle, s))
    if orbit > 1:
        pictures = {turn_picture(puzzle, pic, k) for pic in pictures for k in puzzle.board_turns}
    return Counts(orbit * n, len(pictures), len({canonical(puzzle, p) for p in pictures}))


def counts(
    puzzle: Puzzle, solutions: Iterable[Solution], modes: tuple[str, ...] = MODES, orbit: int = 1
) -> dict[str, int]:
    """The counts ``modes`` asks for, as :func:`count` gives them; pictures are only made when a
    mode needs them."""
    return counts_weighted(puzzle, ((s, 1) for s in solutions), modes, orbit)


def counts_weighted(
    puzzle: Puzzle, found: Iterable[tuple[Solution, int]], modes: tuple[str, ...] = MODES, orbit: int = 1
) -> dict[str, int]:
    """:func:`counts` of solutions given with their weights (:func:`count_weighted`)."""
    if set(modes) == {"solutions"}:
        return {"solutions": orbit * sum(weight for _, weight in found)}
    c = count_weighted(puzzle, found, orbit)
    return {m: getattr(c, m) for m in modes}


def turned(puzzle: Puzzle, solution: Solution) -> list[Solution]:
    """``solution`` and its board turns, one for each picture they show, ``solution`` first:
    with symmetry breaking, the solutions of its board-turn orbit that show another picture."""
    board, out, seen = puzzle.board, [], set()
    for k in puzzle.board_turns:
        placed: list = [None] * len(solution)
        for cell, (t, r) in enumerate(solution):
            placed[board.turn_cell(cell, k)] = (t, (r + k) % 4)
        s = Solution(tuple(placed))
        if (pic := picture(puzzle, s)) not in seen:
            seen.add(pic)
            out.append(s)
    return out


def one_per_picture(
    puzzle: Puzzle, solutions: Iterable[Solution], mode: str = "distinct", orbit: int = 1
) -> Iterator[Solution]:
    """The first solution of each picture (``distinct``) or of each picture up to board turns
    (``unique``); ``solutions`` passes everything through.  Streams.  With ``orbit`` > 1
    (symmetry breaking: ``solutions`` hold one solution of each board-turn orbit), ``distinct``
    lists the other pictures of each orbit too (:func:`turned`)."""
    if mode == "solutions":
        yield from solutions
        return
    if mode == "distinct" and orbit > 1:
        yield from (t for s in one_per_picture(puzzle, solutions, "unique") for t in turned(puzzle, s))
        return
    seen = set()
    for s in solutions:
        pic = picture(puzzle, s)
        key = canonical(puzzle, pic) if mode == "unique" else pic
        if key not in seen:
            seen.add(key)
            yield s


def solutions_of_picture(puzzle: Puzzle, pic: Picture, limit: int | None = None) -> list[Solution]:
    """Every solution (each tile once, frame and clues respected) that shows ``pic`` (at most ``limit``)."""
    looks = puzzle.orientations
    options = [
        [(t, r) for t, r in allowed if looks[t][r] == labels] for allowed, labels in zip(puzzle.allowed, pic)
    ]
    out: list[Solution] = []
    chosen: list[tuple[int, int]] = []
    used: set[int] = set()

    def extend(i: int) -> None:
        if i == len(options):
            out.append(Solution(tuple(chosen)))
            return
        for t, r in options[i]:
            if t not in used and len(out) != limit:
                used.add(t)
                chosen.append((t, r))
                extend(i + 1)
                chosen.pop()
                used.discard(t)

    extend(0)
    return out


def orbit_pictures(puzzle: Puzzle, solution: Solution, turns: bool = False) -> list[Picture]:
    """``solution``'s picture (with ``turns``: its board turns, each once), in a fixed order."""
    pic = picture(puzzle, solution)
    return sorted({turn_picture(puzzle, pic, k) for k in puzzle.board_turns} if turns else {pic}, key=repr)


def orbit(puzzle: Puzzle, solution: Solution, turns: bool = False) -> list[Solution]:
    """Every assignment with the same picture as ``solution`` (and, with ``turns``, its board turns)."""
    return [s for p in orbit_pictures(puzzle, solution, turns) for s in solutions_of_picture(puzzle, p)]


def matchings(rows: list[dict[int, int]]) -> int:
    """The weighted number of ways to give each row a column of its own, every column used
    once: the permanent of the matrix whose row ``i`` has ``rows[i][j]`` in column ``j`` (zero
    where absent).  With rows for cells and columns for tiles, the weights the turns of a tile
    that show a cell's look: the solutions with one picture, counted, not listed.

    Rows and columns split into connected parts; a part whose rows all allow the same columns,
    each with one weight (identical tiles), counts in closed form, ``k! * prod(weights)``, any
    other part by a search over the columns it has used.

    >>> matchings([{0: 4, 1: 4}, {0: 1, 1: 1}]), matchings([{0: 1, 1: 1}, {1: 1}]), matchings([{0: 1}, {0: 1}])
    (8, 1, 0)
    """
    parent: dict[int, int] = {}

    def root(j: int) -> int:
        while parent.setdefault(j, j) != j:
            parent[j] = parent[parent[j]]
            j = parent[j]
        return j

    for row in rows:
        if not row:
            return 0
        first, *rest = row
        for j in rest:
            parent[root(j)] = root(first)
    parts: dict[int, list[dict[int, int]]] = {}
    for row in rows:
        parts.setdefault(root(next(iter(row))), []).append(row)
    cols: dict[int, set[int]] = {}
    for j in parent:
        cols.setdefault(root(j), set()).add(j)
    if len(parts) != len(cols):  # a column no row allows
        return 0
    total = 1
    for key, part in parts.items():
        columns = cols[key]
        if len(part) != len(columns):
            return 0
        if all(row.keys() == columns and len(set(row.values())) == 1 for row in part):
            total *= factorial(len(columns)) * prod(next(iter(row.values())) for row in part)
        else:
            total *= _matchings_searched(part, sorted(columns))
        if not total:
            return 0
    return total


def _matchings_searched(rows: list[dict[int, int]], columns: list[int]) -> int:
    """:func:`matchings` of one part, row by row over the set of columns used so far."""
    index = {j: k for k, j in enumerate(columns)}
    ways = {0: 1}
    for row in rows:
        step: dict[int, int] = {}
        for used, n in ways.items():
            for j, w in row.items():
                bit = 1 << index[j]
                if not used & bit:
                    step[used | bit] = step.get(used | bit, 0) + n * w
        ways = step
    return sum(ways.values())
