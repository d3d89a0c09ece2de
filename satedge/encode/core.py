"""What every base encoding shares: options, the encoded formula, allowed placements, exactly-one."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from itertools import product
from math import prod

from pysat.formula import CNF, IDPool

from ..errors import SatedgeError
from ..puzzle.model import Puzzle, Solution
from ..puzzle.symmetry import broken_placements, matchings, symmetry_breaking
from ..system.files import shown

__all__ = [
    "CARDS",
    "SYMMETRIES",
    "COLORCOUNT",
    "Options",
    "Encoded",
    "placements",
    "Size",
    "floor",
    "clauses_size",
    "make_cnf",
    "pool_of",
    "BlockCNF",
    "clause_count",
    "decode_cells",
    "extended",
    "Cells",
    "KINDS",
]

# what a variable of each kind means, as the DIMACS header's 'c var' lines name them (cells
# row-major from 0, sides 0 top then clockwise, turns clockwise, edges in the board's order)
KINDS = {
    "x": "x CELL TILE TURN: TILE on CELL turned TURN",
    "p": "p CELL TILE: TILE on CELL",
    "q": "q CELL TURN: CELL's tile turned TURN",
    "s": "s CELL SIDE LABEL: CELL shows LABEL on SIDE",
    "e": "e EDGE LABEL: EDGE's first side shows LABEL",
    "f": "f EDGE LABEL: EDGE's second side shows LABEL (a MaxSAT form)",
    "o": "o CELL SIDE LABEL: CELL shows LABEL on SIDE, outside",
    "m": "m EDGE: EDGE fits",
    "b": "b TILE: TILE lies on a black square (row + column even)",
}

CARDS = (
    "pairwise",
    "seqcounter",
    "ladder",
    "totalizer",
    "bitwise",
    "sortnetwrk",
    "cardnetwrk",
    "mtotalizer",
    "kmtotalizer",
)
SYMMETRIES = ("none", "rotation")
COLORCOUNT = "colorcount"  # the clause family every MaxSAT form takes (satedge.encode.maxsat)


@dataclass(frozen=True)
class Options:
    """Options every base encoding takes.

    Attributes
    ----------
    card
        The exactly-one / at-most-one encoding, a :class:`pysat.card.EncType` name
    symmetry
        ``none`` or ``rotation`` (see :func:`satedge.puzzle.symmetry.symmetry_breaking`)
    redundant
        Add implied clauses (each encoding says which) that keep the solution set
    families
        Optional clause families by name, of the encodings that have them (``heule``:
        ``atmostone``, ``fbcolors``; every MaxSAT form: ``colorcount``, see
        :mod:`satedge.encode.maxsat`); left out of :meth:`as_dict` when empty, so that the
        ids of runs without them stay what they were.
    counts
        The puzzle's global counts, added to any base (:mod:`satedge.encode.counts`): ``sides``
        (how many sides of each class show each label), ``signs`` (the tiles on the board's
        black squares and the labels they show), ``tiles`` (each tile on exactly one cell),
        each optionally with its card encoding, ``sides:seqcounter``, ``tiles:ladder`` (checked
        by :class:`satedge.encode.Encoding`); left out of :meth:`as_dict` when empty.
    """

    card: str = "pairwise"
    symmetry: str = "none"
    redundant: bool = False
    families: tuple[str, ...] = ()
    counts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.card not in CARDS:
            raise SatedgeError(f"unknown card encoding {shown(self.card)}; choose from {', '.join(CARDS)}")
        if self.symmetry not in SYMMETRIES:
            raise SatedgeError(
                f"unknown symmetry {shown(self.symmetry)}; choose from {', '.join(SYMMETRIES)}"
            )
        if not isinstance(self.redundant, bool):
            raise SatedgeError(f"redundant must be true or false, not {shown(self.redundant)}")
        if not isinstance(self.families, (list, tuple)) or not all(isinstance(f, str) for f in self.families):
            raise SatedgeError(f"families must be a list of clause family names, not {shown(self.families)}")
        object.__setattr__(self, "families", tuple(sorted(set(self.families))))
        if not isinstance(self.counts, (list, tuple)) or not all(isinstance(f, str) for f in self.counts):
            raise SatedgeError(f"counts must be a list of count family names, not {shown(self.counts)}")
        object.__setattr__(self, "counts", tuple(sorted(set(self.counts))))

    def as_dict(self) -> dict:
        out: dict = {"card": self.card, "symmetry": self.symmetry, "redundant": self.redundant}
        if self.families:
            out["families"] = list(self.families)
        if self.counts:
            out["counts"] = list(self.counts)
        return out


Cells = list[list[tuple[int, int, list[tuple[int, list[int]]]]]]


@dataclass
class Encoded:
    """A puzzle in CNF, with what is needed to read its models back.

    Attributes
    ----------
    cnf
        The formula; ``pool``: the variable map (``pool.obj(v)`` says what ``v`` means)
    decision
        The variables that determine a solution (blocking clauses use only them)
    cells()
        How a model shows what each cell holds: per cell, its tiles as ``(placement literal,
        tile, [(rotation, literals), ...])``.  A model places the first tile whose placement
        literal holds, in its first rotation whose literals all hold; placements of a tile
        with the same placement literal and the same set of literals are the same model
        (rotations of a tile that looks the same turned, which the encoding cannot tell
        apart).  Made at the first model (a formula only written to a file reads none).
        :meth:`decode`, :meth:`expand` and the bulk decoder (:mod:`satedge.sat.bulk`) read it.
    literals(solution)
        The true decision literals of a solution's model, or ``None`` when the formula has
        no such model
    shuffle
        The seed of the shuffle the formula was made under (:mod:`.shuffled`), if any.
    shows(cell, look)
        Conjunctions of literals, one of which holds in a model exactly when ``cell`` shows
        ``look`` (its labels clockwise from the top); ``None``: the encoding does not say.  Blocking
        a picture is then one clause, not one per solution with that picture.
    soft
        Of a MaxSAT formula (:mod:`.maxsat`), per inner edge that may not fit its match literal,
        a soft unit clause of weight 1 (``cnf`` is then the hard clauses): a model's cost, the
        soft clauses it falsifies, is at least the edges that do not fit on its board, and
        equal at the optimum.  ``None`` for a plain formula (:attr:`maxsat`).
    """

    puzzle: Puzzle
    base: str
    options: Options
    cnf: CNF
    pool: IDPool
    decision: list[int]
    cells: Callable[[], Cells]
    literals: Callable[[Solution], list[int] | None]
    shuffle: int | None = None
    shows: Callable[[int, tuple], list[list[int]]] | None = None
    soft: tuple[int, ...] | None = None

    @classmethod
    def of_placements(
        cls,
        puzzle: Puzzle,
        base: str,
        options: Options,
        clauses: list[list[int]],
        pool: IDPool,
        x: dict[tuple[int, int, int], int],
        soft: list[int] | None = None,
    ) -> Encoded:
        """The formula of an encoding with one variable per placement: ``x[cell, tile, turn]``
        for every placement a model may make (the others are never made), ``clauses`` over them
        and any auxiliaries of ``pool``.  Everything a model is read back with follows from
        ``x``: its decision variables, :attr:`cells`, :attr:`literals` and :attr:`shows`.
        ``soft``: of a MaxSAT form, its match variables.

        >>> from pysat.formula import IDPool
        >>> from satedge.puzzle import Puzzle
        >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
        >>> pool = IDPool()
        >>> x = {(c, t, r): pool.id(("x", c, t, r)) for c, cell in enumerate(p.allowed) for t, r in cell}
        >>> f = Encoded.of_placements(p, "mine", Options(), [[x[0, 0, 0], x[0, 1, 2]]], pool, x)
        >>> f.decode([1, -2, -3, 4]), f.literals(f.decode([1, -2, -3, 4]))
        (Solution(0/0 1/0), [1, 4])
        """
        cells: dict[int, list[tuple[int, int, int]]] = {}
        for (c, t, r), v in x.items():
            cells.setdefault(c, []).append((v, t, r))

        @functools.cache
        def read() -> Cells:  # made at the first model, not for a formula only written to a file
            return [[(v, t, [(r, [])]) for v, t, r in cells.get(c, [])] for c in puzzle.board.cells]

        def literals(solution: Solution) -> list[int] | None:
            out = []
            for c, (t, r) in enumerate(solution):
                v = x.get((c, t, r))
                if v is None:
                    return None
                out.append(v)
            return out

        def shows(c: int, look: tuple) -> list[list[int]]:
            return [[v] for v, t, r in cells.get(c, []) if puzzle.oriented(t, r) == look]

        return cls(
            puzzle,
            base,
            options,
            make_cnf(clauses, pool.top),
            pool,
            decision=sorted(x.values()),
            cells=read,
            literals=literals,
            shows=shows,
            soft=None if soft is None else tuple(soft),
        )

    @property
    def soft_literals(self) -> tuple[int, ...]:
        """The literals of :attr:`soft`'s unit clauses; none of a plain formula."""
        return self.soft or ()

    @property
    def maxsat(self) -> bool:
        """Whether it is a MaxSAT formula: hard clauses and :attr:`soft` ones."""
        return self.soft is not None

    def decode(self, model: Iterable[int]) -> Solution:
        """The solution a model (a list of literals) shows, read from :attr:`cells`; where no
        tile's placement literal holds ``(-1, -1)``, where none of its rotations' literals all
        hold rotation -1 (what the checker rejects)."""
        return decode_cells(self.cells(), model)

    def expand(self, solution: Solution) -> Iterator[Solution]:
        """Every solution with the same model as ``solution`` (more than one only where the
        encoding cannot tell the rotations of a tile that looks the same turned apart), lazily."""
        same = self.same
        choices = [same[c].get(p, (p,)) for c, p in enumerate(solution)]
        if all(len(x) == 1 for x in choices):
            return iter((solution,))
        return (Solution(combo) for combo in product(*choices))

    def weight(self, solution: Solution) -> int:
        """How many solutions :meth:`expand` gives, without listing them."""
        same = self.same
        return prod(len(same[c].get(p, (p,))) for c, p in enumerate(solution))

    @cached_property
    def _showing(self) -> list[dict[tuple, dict[int, set]]]:
        """Per cell, per look a placement can show there, per tile the models it takes: the
        placement literals and literals of the rotations that show the look."""
        out = []
        for cell in self.cells():
            looks: dict = {}
            for v, t, rotations in cell:
                for r, lits in rotations:
                    looks.setdefault(self.puzzle.oriented(t, r), {}).setdefault(t, []).append(
                        (v, frozenset(lits))
                    )
            out.append(looks)
        return out

    @cached_property
    def many_per_picture(self) -> bool:
        """Whether some picture has several models: identical tiles, or rotations of a tile that
        look the same and that the formula tells apart (:meth:`picture_counts` counts them)."""
        return any(
            len(tiles) > 1 or any(len(set(m)) > 1 for m in tiles.values())
            for cell in self._showing
            for tiles in cell.values()
        )

    def implied(self, cell: int, look: tuple, var: int) -> list[list[int]]:
        """Clauses that make ``var`` true where ``cell`` shows ``look`` (:attr:`shows`), each literal
        once: the definition of a variable that a clause blocking a picture names."""
        if self.shows is None:
            raise ValueError(f"the {self.base} encoding does not say which literals show a look")
        return [[-lit for lit in dict.fromkeys(both)] + [var] for both in self.shows(cell, look)]

    def picture_counts(self, picture: tuple) -> tuple[int, int]:
        """How many solutions of the formula show ``picture`` (per cell its look) and how many
        models they are, from multiplicities (:func:`satedge.puzzle.symmetry.matchings`), not listed."""
        rows = [cell.get(look, {}) for cell, look in zip(self._showing, picture)]
        return (
            matchings([{t: len(m) for t, m in row.items()} for row in rows]),
            matchings([{t: len(set(m)) for t, m in row.items()} for row in rows]),
        )

    @cached_property
    def same(self) -> list[dict[tuple[int, int], tuple[tuple[int, int], ...]]]:
        """Per cell, each placement the encoding cannot tell from another one (the same placement
        literal and literals) with all of them; placements alone in their model are left out."""
        out = []
        for cell in self.cells():
            groups: dict = {}
            for v, t, looks in cell:
                for r, lits in looks:
                    groups.setdefault((v, t, frozenset(lits)), []).append((t, r))
            out.append({p: tuple(g) for g in groups.values() if len(g) > 1 for p in g})
        return out

    @property
    def nv(self) -> int:
        return max(self.cnf.nv, self.pool.top)

    @property
    def clause_count(self) -> int:
        """The number of clauses, without making the clause lists of a :class:`BlockCNF`."""
        return clause_count(self.cnf)

    def __repr__(self) -> str:
        """Short, whatever the formula: ``Encoded('edgecolor', 585 variables, 4,370 clauses)``."""
        shuffle = "" if self.shuffle is None else f", shuffle {self.shuffle}"
        return f"Encoded({self.base!r}, {self.nv:,} variables, {self.clause_count:,} clauses{shuffle})"

    @cached_property
    def orbit(self) -> int:
        """How many solutions each solution of the formula stands for: with ``symmetry: rotation``
        where the breaking applies, its whole board-turn orbit (4 turns on a square board, 2
        otherwise; the orbit always has that many members: a turn moves or turns every tile);
        else 1."""
        if self.options.symmetry == "rotation" and symmetry_breaking(self.puzzle) is not None:
            return len(self.puzzle.board_turns)
        return 1


# ---------------------------------------------------------------------------- shared pieces
def placements(puzzle: Puzzle, options: Options) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, the allowed placements, with the symmetry-breaking restriction applied where
    ``options`` asks for it (:func:`satedge.puzzle.symmetry.broken_placements`)."""
    return broken_placements(puzzle) if options.symmetry == "rotation" else puzzle.allowed


@dataclass(frozen=True)
class Size:
    """The size of a formula (or a part of one), known without building it: ``variables``
    (auxiliaries included), ``clauses`` and ``literals`` (the sum of the clause lengths)."""

    variables: int = 0
    clauses: int = 0
    literals: int = 0

    def __add__(self, other: Size) -> Size:
        return Size(
            self.variables + other.variables, self.clauses + other.clauses, self.literals + other.literals
        )

    def times(self, k: int) -> Size:
        return Size(self.variables * k, self.clauses * k, self.literals * k)

    def memory_mb(self) -> float:
        """A low estimate of the memory (MB) the formula takes built in Python: a list per clause
        (56 bytes and a pointer per literal) and an int object per literal (most are distinct)."""
        return (56 * self.clauses + 36 * self.literals) / 2**20


def floor(puzzle: Puzzle, options: Options, per_cell: Callable[[int, int], Size]) -> Size:
    """A low bound on a formula's size, in time of the kinds of cells, not of the placements: the
    sum over cells of ``per_cell(placements, tiles)``, the families an encoding has for each cell
    given how many placements and tiles it allows (with symmetry breaking, one tile's four
    fewer: a tile kept to some cells).  So that a formula far beyond the memory is refused at
    once, before even its exact size is counted."""
    less = (4, 1) if options.symmetry == "rotation" and symmetry_breaking(puzzle) is not None else (0, 0)
    kinds: dict[int, list] = {}
    for cell in puzzle.allowed:  # cells of one kind share their tuple
        kinds.setdefault(id(cell), [cell, 0])[1] += 1
    total = Size()
    for cell, n in kinds.values():
        placed, tiles = max(0, len(cell) - less[0]), max(0, len({t for t, _ in cell}) - less[1])
        total += per_cell(placed, tiles).times(n)
    return total


def clauses_size(clauses: Iterable[Sequence[int]]) -> Size:
    """The clauses and literals of ``clauses`` (no variables)."""
    n = lits = 0
    for c in clauses:
        n += 1
        lits += len(c)
    return Size(0, n, lits)


def pool_of(objects: list) -> IDPool:
    """An :class:`IDPool` that gives ``objects`` the variables 1, 2, ... in order (as as many calls of
    ``pool.id`` would, at once)."""
    pool = IDPool()
    ids = range(1, len(objects) + 1)
    pool.obj2id.update(zip(objects, ids))
    pool.id2obj.update(zip(ids, objects))
    pool.top = len(objects)
    return pool


def make_cnf(clauses: list[list[int]], nv: int) -> CNF:
    """A :class:`CNF` around ready clauses.  ``CNF.append``/``extend`` also register every formula in
    PySAT's process-wide variable pool, whose interval list then grows with each new formula and
    slows long runs (thousands of puzzles in a cross-check) to a crawl; this does not."""
    cnf = CNF()
    cnf.clauses = clauses
    cnf.nv = nv  # every variable, auxiliaries included, comes from the encoding's IDPool
    return cnf


def extended(formula: Encoded, clauses: list[list[int]]) -> Encoded:
    """``formula`` with ``clauses`` after its own (their variables from its pool), kept as blocks
    where it has them (:class:`BlockCNF`)."""
    top, cnf = formula.pool.top, formula.cnf
    if isinstance(cnf, BlockCNF):
        return replace(formula, cnf=BlockCNF([*cnf.blocks, clauses], top))
    return replace(formula, cnf=make_cnf(cnf.clauses + clauses, top))


def decode_cells(cells: Cells, model: Iterable[int]) -> Solution:
    """The solution ``model`` shows, read from ``cells`` (:attr:`Encoded.cells`): per cell the
    first tile whose placement literal holds, in its first rotation whose literals all hold;
    ``(-1, -1)`` or rotation -1 where none does."""
    true = set(model)
    out = []
    for cell in cells:
        placed = (-1, -1)
        for v, u, looks in cell:
            if v in true:
                placed = (u, next((r for r, lits in looks if all(lit in true for lit in lits)), -1))
                break
        out.append(placed)
    return Solution(tuple(out))


class BlockCNF(CNF):
    """A formula held as blocks of clauses, in order: numpy ``int32`` arrays of one clause per
    row (shorter clauses padded with 0, which is no literal) or lists of clauses.  A DIMACS file
    is written straight from the blocks (:func:`satedge.sat.dimacs.write_dimacs`); ``clauses``, the
    lists PySAT's solvers take, are made the first time they are read, and are equal to the
    clauses of the blocks in order, padding left out."""

    def __init__(self, blocks: list, nv: int):
        super().__init__()
        self.blocks = [b for b in blocks if len(b)]
        self.nv = nv
        self._clauses: list[list[int]] | None = None

    @property
    def clauses(self) -> list[list[int]]:
        if self._clauses is None:
            out: list[list[int]] = []
            for b in self.blocks:
                if isinstance(b, list):
                    out += b
                elif b.all():
                    out += b.tolist()
                else:
                    out += [[lit for lit in row if lit] for row in b.tolist()]
            self._clauses = out
        return self._clauses

    @clauses.setter
    def clauses(self, value: list[list[int]]) -> None:
        self._clauses, self.blocks = value, [value]


def clause_count(cnf: CNF) -> int:
    """The clauses of ``cnf``; a :class:`BlockCNF`'s counted from its blocks."""
    if isinstance(cnf, BlockCNF) and cnf._clauses is None:
        return sum(len(b) for b in cnf.blocks)
    return len(cnf.clauses)
