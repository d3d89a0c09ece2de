"""The puzzle's global counts as clause families of any base encoding: ``+counts=sides,signs,tiles``.

Conflict clauses find a broken balance only by search: a partial board that has used up a
colour of the centre has no way to finish, yet nothing says so until every cell that needs it
is tried.  These families say it at once.  Each holds on every solution, so it keeps the
solution set (the cross-check compares the counts of every base with and without them):

``sides``
    For each side class whose label counts are fixed (:func:`satedge.puzzle.balance.side_counts`:
    the frame ring, the border's sides toward the centre, the centre's among themselves, ...)
    and each label: exactly that many of its sides show the label.  A cardinality constraint
    per class and label (PySAT's :class:`pysat.card.CardEnc`, the totalizer unless named, as
    in ``sides:seqcounter``).  Where a class meets itself and both sides of an edge are one
    literal (identical matching, one colour per edge) the edges are counted, half as many.
``signs``
    The tile-signed reformulation's counts.  Colour the board as a chessboard (a cell is black
    when its row and column add up to an even number) and give each tile a variable
    ``b[tile]``: it lies on a black cell.  On a grid every edge joins a black cell and a white
    one, so where every side off an edge shows the frame, the black cells' sides show each
    label ``l`` exactly as often as the white cells' show its partner ``l'``: with ``n(t, l)``
    the sides of tile ``t`` showing ``l`` and ``N(l')`` all the tiles' sides showing ``l'``,
    ``sum_t b[t] (n(t, l) + n(t, l')) = N(l')`` (under identical matching
    ``sum_t b[t] n(t, l) = N(l) / 2``), a weighted count of the tiles (each ``b[t]`` counted
    ``n`` times).  And each group (as for ``sides``) puts as many of its tiles on black cells as
    it has black cells.  On a board where an outside side may show anything, or one whose
    edges join two cells of a colour (a torus of odd size), only the groups' counts hold.
``tiles``
    Each tile lies on exactly one cell (the all-different of the tiles over the cells), by the
    encoding's ``card`` unless named (``tiles:ladder``): what ``heule``'s ``cmp`` formulas leave
    to the colours.

What a side shows is read from the formula's own variables where it names them in satedge's
meaning (``s``, ``e``, ``o``: :data:`satedge.encode.core.KINDS`); elsewhere (``direct``,
``support``, a base of yours) a new variable ``s[cell, side, label]`` is made true by each
placement that shows the label there, and, where each placement is one literal, only by them.

The families are counted when the formula is built (:meth:`satedge.encode.Encoding.size` is
``None`` with them); a MaxSAT form refuses them: the counts hold on solutions, not on the best
boards.

Source
    The colour counts of the edges and their balance between the frame ring, the border and the
    centre are the reasoning of the field's notes on Eternity II ("zero slack": every colour
    count is even and used up exactly), stated per class of sides here.  ``signs``: the
    tile-signed puzzles of J. Gallicchio's eternity2 (every puzzle has an equisatisfiable one
    whose tiles take the signs of a chessboard) and their colour-cardinality constraints; the
    weighted per-label form and the groups' counts are satedge's statement of them.

>>> from satedge.puzzle.generate import Params, generate
>>> from satedge.encode import encode
>>> p = generate(Params(rows=4, cols=4, colors=3, border_colors=2, frame=True), 0)
>>> plain, counted = encode(p, "direct"), encode(p, "direct+counts=sides")
>>> counted.nv > plain.nv, counted.clause_count > plain.clause_count
(True, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from pysat.card import CardEnc, EncType

from ..errors import SatedgeError
from ..puzzle.balance import groups, side_counts
from ..puzzle.model import Label, Puzzle
from ..system.files import shown
from .cards import exactly_one
from .core import CARDS, KINDS, Encoded, Options, extended

__all__ = ["COUNT_FAMILIES", "COUNT_CARDS", "DEFAULT_COUNT_CARD", "check", "with_counts", "count_clauses"]

# each family: what it says, in a line, and where it comes from (``satedge encodings`` lists them)
COUNT_FAMILIES = {
    "sides": (
        "per class of sides (the frame ring, the border toward the centre, the centre among itself, ...) and "
        "label, exactly as many sides show it as the tiles say",
        "the colour balance of Eternity II's edges the field notes (every colour count even, 'zero slack'), "
        "stated per class of sides by satedge",
    ),
    "signs": (
        "the tiles on the board's black squares: as many as the squares, and on a framed grid half of each "
        "label's sides",
        "Gallicchio, eternity2 (tile-signed puzzles and their colour-cardinality constraints)",
    ),
    "tiles": (
        "each tile on exactly one cell, by the encoding's card unless named",
        "the all-different constraint over the tiles (its at-most-one half is Heule 2008's exp variant)",
    ),
}
COUNT_CARDS = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer")
DEFAULT_COUNT_CARD = "totalizer"


def check(counts: tuple[str, ...]) -> None:
    """A one-line error for a word of ``counts`` that names no family, or a card encoding the
    family cannot take (``tiles`` takes every exactly-one encoding, the others PySAT's
    encodings of "exactly k")."""
    for word in counts:
        name, _, card = word.partition(":")
        if name not in COUNT_FAMILIES:
            raise SatedgeError(f"unknown count family {shown(name)}; choose from {', '.join(COUNT_FAMILIES)}")
        allowed = CARDS if name == "tiles" else COUNT_CARDS
        if card and card not in allowed:
            raise SatedgeError(
                f"count family {name}: unknown card encoding {shown(card)}; choose from {', '.join(allowed)}"
            )
    if len({w.partition(":")[0] for w in counts}) < len(counts):
        raise SatedgeError(f"counts names a family twice: {', '.join(counts)}")


ALWAYS = 0  # a side that shows the label whatever the model (the frame)


def with_counts(
    build: Callable[[Puzzle, Options], Encoded], kinds: dict[str, str], puzzle: Puzzle, options: Options
) -> Encoded:
    """``build``'s formula with the count families ``options.counts``; ``kinds``: the base's own
    meanings of its variable kinds (a kind it gives another meaning is not read as satedge's)."""
    formula = build(puzzle, options)
    extra = count_clauses(formula, options, kinds)
    return extended(formula, extra) if extra else formula


def count_clauses(formula: Encoded, options: Options, kinds: dict[str, str] | None = None) -> list[list[int]]:
    """The clauses of the count families ``options.counts`` over ``formula``, their new
    variables taken from its pool."""
    chosen = dict(w.partition(":")[::2] for w in options.counts)
    out: list[list[int]] = []
    if "tiles" in chosen:
        out += _tiles(formula, chosen["tiles"] or options.card)
    if "sides" in chosen:
        out += _sides(formula, chosen["sides"] or DEFAULT_COUNT_CARD, kinds or {})
    if "signs" in chosen:
        out += _signs(formula, chosen["signs"] or DEFAULT_COUNT_CARD)
    return out


def _tiles(formula: Encoded, card: str) -> list[list[int]]:
    """Each tile on exactly one cell: one of its placement literals (a literal two tiles share
    leaves both out)."""
    by_tile: dict[int, dict[int, None]] = {}
    owner: dict[int, set[int]] = {}
    for cell in formula.cells():
        for v, t, _ in cell:
            by_tile.setdefault(t, {})[v] = None
            owner.setdefault(v, set()).add(t)
    out = []
    for t in range(len(formula.puzzle.tiles)):
        lits = list(by_tile.get(t, {}))
        if all(len(owner[v]) == 1 for v in lits):
            out += exactly_one(lits, formula.pool, card)
    return out


def _sides(formula: Encoded, card: str, kinds: dict[str, str]) -> list[list[int]]:
    """Per side class with fixed counts and label, exactly that many of its sides show it."""
    puzzle, pool = formula.puzzle, formula.pool
    read, definitions = _reader(formula, kinds)
    out: list[list[int]] = []
    for group in side_counts(puzzle):
        shown: set = set()
        for c, d in group.sides:
            shown |= {puzzle.oriented(t, r)[d] for t, r in puzzle.allowed[c]}
        for label in sorted(shown | set(group.labels), key=repr):
            need = group.labels.get(label, 0)
            lits: list[int] = []
            for c, d in group.sides:
                lit = read(c, d, label)
                if lit == ALWAYS:
                    need -= 1
                elif lit is not None:
                    lits.append(lit)
            times = Counter(lits)
            if len(set(times.values())) == 1 and (m := next(iter(times.values()))) > 1 and need % m == 0:
                lits, need = list(times), need // m  # both sides of each edge one literal: its edges
            out += _equal(lits, need, pool, card)  # the empty clause where they cannot be met
    out += definitions
    return out


def _equal(lits: list[int], need: int, pool: Any, card: str) -> list[list[int]]:
    """Exactly ``need`` of ``lits`` hold (a literal given twice counts twice)."""
    if need < 0 or need > len(lits):
        return [[]]
    if need == 0:
        return [[-lit] for lit in dict.fromkeys(lits)]
    if need == len(lits) and len(set(lits)) == len(lits):
        return [[lit] for lit in lits]
    return CardEnc.equals(lits=lits, bound=need, vpool=pool, encoding=getattr(EncType, card)).clauses


def black(puzzle: Puzzle, cell: int) -> bool:
    """Whether ``cell`` is a black square: its row and column add up to an even number."""
    return sum(puzzle.board.position(cell)) % 2 == 0


def _signs(formula: Encoded, card: str) -> list[list[int]]:
    """The tile-signed counts: ``b[t]`` defined by the placements, each group's count of tiles
    on black cells, and where every edge joins a black and a white cell and every other side
    shows the frame, each label's weighted count (see the module's docstring)."""
    puzzle, pool = formula.puzzle, formula.pool
    on: dict[int, dict[bool, dict[int, None]]] = {}  # tile -> black? -> its placement literals
    for c, cell in enumerate(formula.cells()):
        for v, t, _ in cell:
            on.setdefault(t, {True: {}, False: {}})[black(puzzle, c)][v] = None
    if len(on) < len(puzzle.tiles):  # a tile that lies nowhere: no solution
        return [[]]
    b = {t: pool.id(("b", t)) for t in sorted(on)}
    out: list[list[int]] = []
    for t, sides in on.items():
        out += [[-v, b[t]] for v in sides[True]] + [[-v, -b[t]] for v in sides[False]]
        out.append([-b[t], *sides[True]])
    for cells, tiles in groups(puzzle):
        if len(cells) == len(tiles):
            out += _equal([b[t] for t in tiles], sum(black(puzzle, c) for c in cells), pool, card)
    board = puzzle.board
    framed = puzzle.frame is not None and board.topology == "grid"
    if not all(black(puzzle, a.a) != black(puzzle, a.b) for a in board.adjacencies) or not (
        framed or not board.outer
    ):
        return out
    total: Counter = Counter(x for tile in puzzle.tiles for x in tile)
    done: set = set()
    for label in sorted(total, key=repr):
        other = puzzle.partner(label)
        if label in done or puzzle.frame in (label, other):
            continue
        done |= {label, other}
        if other == label:  # each side on a black cell has its like on a white one: half of them
            lits = [b[t] for t, tile in enumerate(puzzle.tiles) for x in tile if x == label]
            need = total[label] // 2 if total[label] % 2 == 0 else -1
        else:
            lits = [b[t] for t, tile in enumerate(puzzle.tiles) for x in tile if x in (label, other)]
            need = total[other] if total[label] == total[other] else -1
        out += _equal(lits, need, pool, card)
    return out


def _reader(
    formula: Encoded, kinds: dict[str, str]
) -> tuple[Callable[[int, int, Label], int | None], list[list[int]]]:
    """``read(cell, side, label)``: the literal that holds exactly when the side shows the
    label, :data:`ALWAYS` where it always does, ``None`` where it never can; and the list where
    the clauses that define its new variables collect."""
    puzzle, pool = formula.puzzle, formula.pool
    ours = {k for k in ("s", "e", "o") if kinds.get(k, KINDS[k]) == KINDS[k]}
    named_sides, named_edges = set(), set()
    for obj in pool.obj2id:
        if isinstance(obj, tuple) and obj and obj[0] in ours:
            if obj[0] == "e":
                named_edges.add(obj[1])
            else:
                named_sides.add((obj[1], obj[2]))
    edge_of: dict[tuple[int, int], tuple[int, bool]] = {}
    for k, adj in enumerate(puzzle.board.adjacencies):
        edge_of[adj.b, adj.side_b] = (k, True)
        edge_of[adj.a, adj.side_a] = (k, False)  # a self-loop's side reads as the first
    placed: dict[tuple[int, int], dict] = {}  # (cell, side) -> label -> the conjunctions showing it

    def conjunctions(c: int, d: int) -> dict:
        if (c, d) not in placed:
            looks: dict = {}
            for v, t, rotations in formula.cells()[c]:
                for r, lits in rotations:
                    looks.setdefault(puzzle.oriented(t, r)[d], []).append((v, *lits))
            placed[c, d] = looks
        return placed[c, d]

    definitions: list[list[int]] = []

    def read(c: int, d: int, label: Label) -> int | None:
        if (c, d) not in edge_of and puzzle.frame is not None and puzzle.board.topology == "grid":
            return ALWAYS if label == puzzle.frame else None
        if (c, d) in named_sides:
            return pool.obj2id.get(("s", c, d, label)) or pool.obj2id.get(("o", c, d, label))
        if (c, d) in edge_of and edge_of[c, d][0] in named_edges:
            k, second = edge_of[c, d]
            return pool.obj2id.get(("e", k, puzzle.partner(label) if second else label))
        looks = conjunctions(c, d)
        if label not in looks:
            return None
        key = ("s", c, d, label)
        fresh = key not in pool.obj2id
        s = pool.id(key)
        if fresh:
            for conj in dict.fromkeys(looks[label]):
                definitions.append([-lit for lit in conj] + [s])
            if all(len(conj) == 1 for conj in looks[label]):
                definitions.append([-s] + list(dict.fromkeys(conj[0] for conj in looks[label])))
        return s

    return read, definitions
