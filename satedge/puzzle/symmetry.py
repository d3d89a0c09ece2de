"""Pictures, board turns and the three exact counts used everywhere in satedge.

* ``solutions``: assignments of ``(tile, rotation)`` to every cell that satisfy all constraints;
* ``distinct``: different pictures (every cell shows the same four labels on the same sides);
* ``unique``: pictures up to turning the whole board (4 turns on square boards, 2 otherwise),
  by the turns that the tiles may take (:attr:`satedge.puzzle.model.Puzzle.board_turns`: none
  but the identity where tiles may not turn, so that ``unique`` is ``distinct`` there);
* ``classes``: pictures up to every symmetry of the puzzle (:func:`group`): the board's turns and
  mirrors, each with a relabelling, that map every solution onto a solution.  Asked for by name:
  the default counts are the first three (:data:`DEFAULT_MODES`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import factorial, prod

import numpy as np

from ..errors import EncodingError, SatedgeError
from .model import Label, Puzzle, Solution, partner, rotate, self_symmetry

__all__ = [
    "Picture",
    "MODES",
    "DEFAULT_MODES",
    "Counts",
    "Symmetry",
    "group",
    "describe",
    "apply",
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
    "orbits",
    "turns_of",
    "orbit",
    "matchings",
    "symmetry_breaking",
    "broken_placements",
]

Picture = tuple[tuple, ...]
MODES = ("solutions", "distinct", "unique", "classes")
DEFAULT_MODES = MODES[:3]  # what a count gives unless asked: classes needs the puzzle's group
SEARCHED = 200_000  # relabellings tried at most, in all, while finding the group


@dataclass(frozen=True, repr=False)
class Counts:
    """The counts of a puzzle.

    Attributes
    ----------
    solutions : int
        Assignments of a turned tile to every cell that satisfy all constraints.
    distinct : int
        Different pictures (every cell shows the same labels on the same sides).
    unique : int
        Pictures up to turning the whole board (4 turns if square, else 2).
    classes : int or None
        Pictures up to every symmetry of the puzzle (:func:`group`), where asked for.
    """

    solutions: int
    distinct: int
    unique: int
    classes: int | None = None

    def __repr__(self) -> str:
        shown = [f"{m}={getattr(self, m)}" for m in MODES if getattr(self, m) is not None]
        return f"Counts({', '.join(shown)})"


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of a puzzle: mirror the board left to right (``mirror``), then turn it
    ``turn`` clockwise quarter turns, and relabel every edge by ``relabel`` (pairs ``(label,
    image)`` of the labels it moves).  A tile's look is mirrored with its cell: its right and
    left edges swap."""

    turn: int = 0
    mirror: bool = False
    relabel: tuple[tuple[Label, Label], ...] = ()

    @property
    def name(self) -> str:
        """In words, e.g. ``half turn``, ``left-right mirror, labels (2 3)``, ``identity``.

        >>> Symmetry(2, True, ((2, 3), (3, 2))).name
        'top-bottom mirror, labels (2 3)'
        """
        if self.mirror:
            shape = ("left-right mirror", "anti-diagonal mirror", "top-bottom mirror", "diagonal mirror")
        else:
            shape = ("", "quarter turn", "half turn", "three-quarter turn")
        words = [shape[self.turn]] if shape[self.turn] else []
        moved, cycles = dict(self.relabel), []
        while moved:
            start = min(moved, key=lambda x: (isinstance(x, str), x))
            cycle, x = [start], moved.pop(start)
            while x != start:
                cycle.append(x)
                x = moved.pop(x)
            cycles.append("(" + " ".join(map(str, cycle)) + ")")
        words += ["labels " + " ".join(cycles)] if cycles else []
        return ", ".join(words) or "identity"


def _moved(puzzle: Puzzle, sym: Symmetry, cell: int, look: tuple) -> tuple[int, tuple]:
    """Where a cell showing ``look`` goes under ``sym``, and what it shows there."""
    board = puzzle.board
    if sym.mirror:
        r, c = board.position(cell)
        cell, look = board.cell(r, board.cols - 1 - c), (look[0], look[3], look[2], look[1])
    if sym.relabel:
        relabel = dict(sym.relabel)
        look = tuple(relabel.get(x, x) for x in look)
    return board.turn_cell(cell, sym.turn), rotate(look, sym.turn)


def apply(puzzle: Puzzle, sym: Symmetry, pic: Picture) -> Picture:
    """The picture ``sym`` makes of ``pic``.

    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (1, 1, 1, 2)), border=1)
    >>> apply(p, Symmetry(0, True), ((1, 2, 1, 1), (1, 1, 1, 2)))
    ((1, 2, 1, 1), (1, 1, 1, 2))
    """
    out: list = [None] * len(pic)
    for cell, look in enumerate(pic):
        to, seen = _moved(puzzle, sym, cell, look)
        out[to] = seen
    return tuple(out)


def group(puzzle: Puzzle) -> tuple[Symmetry, ...]:
    """Every symmetry of the puzzle, the identity first: each turn and mirror of the board
    (:meth:`Board.turns`, with and without a left-right mirror first) with each relabelling
    that maps the puzzle onto itself.  A symmetry maps every solution's picture onto a
    solution's picture, and so splits the pictures into classes (mode ``classes``).

    It maps the puzzle onto itself when the tiles, each taken with the looks its allowed turns
    give it, go onto the tiles (duplicates as often as they occur); the relabelling keeps which
    labels fit (complementary partners stay partners), the frame label and the set of border
    labels; and the clues, each a cell showing a look, go onto the clues.  A torus's shifts are
    not among them.  MacMahon's 24 squares on a 4x6 with a white border have 8: the half turn,
    the two mirrors, and the swap of the two other colours with each of those.

    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 3, 1), (1, 2, 3, 1)), border=1)
    >>> describe(group(p))
    '4 symmetries: identity; half turn; left-right mirror, labels (2 3); top-bottom mirror, labels (2 3)'
    >>> describe(group(p.with_(turns="none")))
    '1 symmetry: identity'
    """
    looks = [frozenset(puzzle.orientations[t][r] for r in puzzle.rotations) for t in range(len(puzzle.tiles))]
    target = Counter(looks)
    labels = puzzle.labels
    uses = Counter(x for tile in puzzle.tiles for x in tile)

    def kind(x: Label) -> tuple:
        return uses[x], x == puzzle.frame, x in puzzle.border

    order: list[Label] = []  # labels as the tiles bring them: a tile is whole soon
    for tile in puzzle.tiles:
        order += [x for x in tile if x not in order]
    order += [x for x in labels if x not in order]
    having: dict[Label, list[int]] = {x: [] for x in labels}
    for t, tile in enumerate(puzzle.tiles):
        for x in set(tile):
            having[x].append(t)
    clued = [(puzzle.board.cell(c.row, c.col), puzzle.oriented(c.tile, c.rotation)) for c in puzzle.clues]
    tried = [0]
    out: list[Symmetry] = []
    for mirror in (False, True):
        for turn in puzzle.board.turns():

            def image(t: int, pi: dict, turn: int = turn, mirror: bool = mirror) -> frozenset:
                sym = Symmetry(turn, mirror, tuple(pi.items()))
                return frozenset(_moved(puzzle, sym, 0, look)[1] for look in looks[t])

            def whole(t: int, pi: dict) -> bool:
                return all(x in pi for x in puzzle.tiles[t])

            def extend(i: int, pi: dict, turn: int = turn, mirror: bool = mirror) -> None:
                tried[0] += 1
                if tried[0] > SEARCHED:
                    raise SatedgeError(
                        f"the puzzle's symmetries are too many to search ({SEARCHED:,} relabellings "
                        "tried): count distinct or unique pictures instead"
                    )
                if i == len(order):
                    moved = tuple((x, y) for x, y in pi.items() if x != y)
                    sym = Symmetry(turn, mirror, moved)
                    if Counter(image(t, pi) for t in range(len(looks))) == target and sorted(
                        map(repr, (_moved(puzzle, sym, c, look) for c, look in clued))
                    ) == sorted(map(repr, clued)):
                        out.append(sym)
                    return
                x = order[i]
                if x in pi:
                    extend(i + 1, pi)
                    return
                taken = set(pi.values())
                for y in labels:
                    if y in taken or kind(y) != kind(x):
                        continue
                    pairs = {x: y, partner(puzzle.matching, x): partner(puzzle.matching, y)}
                    if len(set(pairs.values())) != len(pairs) or any(
                        pi[a] != b if a in pi else b in taken for a, b in pairs.items()
                    ):
                        continue
                    new = {a: b for a, b in pairs.items() if a not in pi}
                    pi.update(new)
                    if all(image(t, pi) in target for a in new for t in having[a] if whole(t, pi)):
                        extend(i + 1, pi)
                    for a in new:
                        del pi[a]

            extend(0, {})
    return tuple(sorted(out, key=lambda s: (s.mirror, s.turn, bool(s.relabel))))


def describe(symmetries: tuple[Symmetry, ...]) -> str:
    """A group in words: its size and each symmetry's name."""
    return f"{len(symmetries)} symmetr{'y' if len(symmetries) == 1 else 'ies'}: " + "; ".join(
        s.name for s in symmetries
    )


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


def canonical(puzzle: Puzzle, pic: Picture, symmetries: tuple[Symmetry, ...] | None = None) -> Picture:
    """The least of a picture's images (labels compared by their id): under the board's turns
    (:attr:`Puzzle.board_turns`), a key for ``unique``; under ``symmetries`` (:func:`group`),
    a key for ``classes``."""
    ids = puzzle.label_id
    images = (
        (turn_picture(puzzle, pic, k) for k in puzzle.board_turns)
        if symmetries is None
        else (apply(puzzle, sym, pic) for sym in symmetries)
    )
    return min(tuple(tuple(ids[x] for x in cell) for cell in image) for image in images)


def orbits(
    puzzle: Puzzle, pictures: Iterable[Picture], symmetries: tuple[Symmetry, ...], closed: bool = True
) -> set[bytes]:
    """One key per orbit of ``pictures`` under ``symmetries``: each picture's least image
    (:func:`canonical`'s order), as bytes.  Each symmetry's cells and looks are worked out once,
    and its images of all the pictures made at once (numpy: a picture is a row of look numbers,
    numbered in the order of their labels' ids).  With ``closed`` (``symmetries`` of the puzzle,
    :func:`group`; ``pictures`` every solution's), an image that is not among them is an
    :class:`EncodingError` (a symmetry that is none); the board's turns are no symmetry of a
    puzzle with clues, yet ``unique`` counts up to them (``closed=False``)."""
    pictures = list(pictures)
    if not pictures:
        return set()
    ids = puzzle.label_id
    shown = {look: None for pic in pictures for look in pic}
    made = [{look: _moved(puzzle, sym, 0, look)[1] for look in shown} for sym in symmetries]
    every = sorted({*shown, *(x for m in made for x in m.values())}, key=lambda look: [ids[x] for x in look])
    number = {look: i for i, look in enumerate(every)}
    pics = np.array([[number[look] for look in pic] for pic in pictures], dtype=np.int32)
    row = np.dtype((np.void, pics.itemsize * pics.shape[1]))
    known = np.sort(np.ascontiguousarray(pics).view(row).ravel())
    least = None
    rows = np.arange(len(pics))
    for sym, looks in zip(symmetries, made):
        source = [0] * puzzle.n
        for c in range(puzzle.n):
            source[_moved(puzzle, sym, c, (0, 1, 2, 3))[0]] = c
        table = np.arange(len(every), dtype=np.int32)
        table[[number[x] for x in looks]] = [number[y] for y in looks.values()]
        image = table[pics[:, source]]
        if closed:
            keys = np.ascontiguousarray(image).view(row).ravel()
            at = np.minimum(np.searchsorted(known, keys), len(known) - 1)
            if not (known[at] == keys).all():
                raise EncodingError(
                    f"the puzzle's symmetry {sym.name} maps a solution's picture onto no solution's"
                )
        if least is None:
            least = image
            continue
        differ = image != least
        first = differ.argmax(axis=1)
        smaller = differ.any(axis=1) & (image[rows, first] < least[rows, first])
        least[smaller] = image[smaller]
    return set() if least is None else {r.tobytes() for r in least}


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
    c = counts_weighted(puzzle, found, DEFAULT_MODES, orbit)
    return Counts(c["solutions"], c["distinct"], c["unique"])


def counts(
    puzzle: Puzzle, solutions: Iterable[Solution], modes: tuple[str, ...] = DEFAULT_MODES, orbit: int = 1
) -> dict[str, int]:
    """The counts ``modes`` asks for, as :func:`count` gives them; pictures are only made when a
    mode needs them."""
    return counts_weighted(puzzle, ((s, 1) for s in solutions), modes, orbit)


def counts_weighted(
    puzzle: Puzzle,
    found: Iterable[tuple[Solution, int]],
    modes: tuple[str, ...] = DEFAULT_MODES,
    orbit: int = 1,
) -> dict[str, int]:
    """:func:`counts` of solutions given with their weights (:func:`count_weighted`); ``classes``
    counts the pictures up to the puzzle's :func:`group`.

    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (1, 1, 1, 2)), border=1)
    >>> counts(p, [Solution(((0, 0), (1, 0))), Solution(((1, 2), (0, 2)))], MODES)
    {'solutions': 2, 'distinct': 1, 'unique': 1, 'classes': 1}
    """
    if set(modes) == {"solutions"}:
        return {"solutions": orbit * sum(weight for _, weight in found)}
    n = 0
    pictures = set()
    for s, weight in found:
        n += weight
        pictures.add(picture(puzzle, s))
    if orbit > 1:
        pictures = {turn_picture(puzzle, pic, k) for pic in pictures for k in puzzle.board_turns}
    out = {"solutions": orbit * n, "distinct": len(pictures)}
    if "unique" in modes:
        out["unique"] = len(orbits(puzzle, pictures, turns_of(puzzle), closed=False))
    if "classes" in modes:
        out["classes"] = len(orbits(puzzle, pictures, group(puzzle)))
    return {m: out[m] for m in modes}


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
    """The first solution of each picture (``distinct``), of each picture up to board turns
    (``unique``) or up to the puzzle's symmetries (``classes``, :func:`group`); ``solutions``
    passes everything through.  Streams.  With ``orbit`` > 1
    (symmetry breaking: ``solutions`` hold one solution of each board-turn orbit), ``distinct``
    lists the other pictures of each orbit too (:func:`turned`)."""
    if mode == "solutions":
        yield from solutions
        return
    if mode == "distinct" and orbit > 1:
        yield from (t for s in one_per_picture(puzzle, solutions, "unique") for t in turned(puzzle, s))
        return
    seen = set()
    symmetries = group(puzzle) if mode == "classes" else None
    for s in solutions:
        pic = picture(puzzle, s)
        key = canonical(puzzle, pic, symmetries) if mode != "distinct" else pic
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


def orbit_pictures(
    puzzle: Puzzle, solution: Solution, symmetries: tuple[Symmetry, ...] = ()
) -> list[Picture]:
    """``solution``'s picture and its images under ``symmetries`` (:func:`group`, or the board's
    turns, :func:`turns_of`), each once, in a fixed order."""
    pic = picture(puzzle, solution)
    return sorted({pic} | {apply(puzzle, sym, pic) for sym in symmetries}, key=repr)


def turns_of(puzzle: Puzzle) -> tuple[Symmetry, ...]:
    """The board's turns (:attr:`Puzzle.board_turns`) as symmetries."""
    return tuple(Symmetry(k) for k in puzzle.board_turns)


def orbit(puzzle: Puzzle, solution: Solution, symmetries: tuple[Symmetry, ...] = ()) -> list[Solution]:
    """Every assignment with the same picture as ``solution`` or one of its images under
    ``symmetries``."""
    return [s for p in orbit_pictures(puzzle, solution, symmetries) for s in solutions_of_picture(puzzle, p)]


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
