"""A backtracking search's plan, and what each solution it finds stands for.

A :class:`Plan` is what :mod:`satedge.backtrack` runs: the cells in the order it fills them,
the placements it tries at each (one turn of a tile among those that look the same at a cell),
and the classes of identical tiles, whose copies it places in one order.  :func:`expand` gives
every solution a found one stands for (each arrangement of its copies, each look-alike turn),
:func:`weighed` only how many: the same counts without listing them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import permutations, product
from math import perm
from typing import Any

from ..errors import SatedgeError
from ..puzzle.model import Allowed, Puzzle, Solution
from .orders import cell_order, twin_keys

__all__ = ["Plan", "plan", "expand", "weighed"]


@dataclass(frozen=True)
class Plan:
    """What a search runs: the cells in the order it fills them, the placements it tries at each
    (``allowed``, by position in that order), per cell the placements that look the same as one
    it tries (``spread``: each solution found stands for every combination of them), and the
    classes of identical tiles (``twins``: tiles that show the same labels wherever they may go;
    the search places a class's copies in order, each solution found stands for every
    arrangement of them, turned by ``shift``, their turns against the class's first tile)."""

    cells: tuple[int, ...]
    allowed: tuple[tuple[tuple[int, int], ...], ...]
    spread: tuple[dict, ...]
    twins: tuple[tuple[int, ...], ...] = ()
    shift: tuple[int, ...] = ()

    @property
    def twin(self) -> list[int] | None:
        """Per tile, the copy that must be placed before it, or -1; None without identical tiles."""
        if not self.twins:
            return None
        out = [-1] * len(self.shift)
        for copies in self.twins:
            for a, b in zip(copies, copies[1:]):
                out[b] = a
        return out


def plan(
    puzzle: Puzzle,
    allowed: Allowed | None = None,
    order: Any = "auto",
    distinct: bool = True,
    twins: bool = True,
) -> Plan:
    """The search of ``allowed`` (default :attr:`Puzzle.allowed`) in ``order`` (an order's name,
    :data:`satedge.backtrack.orders.ORDERS`, or the cells in order); ``distinct``: try one turn of a tile
    among those that look the same at a cell; ``twins``: place identical tiles in one order only.

    >>> p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 2), (1, 2, 1, 2)), topology="torus")
    >>> q = plan(p, order="rows")
    >>> q.cells, q.allowed[0], q.spread[0][(0, 1)], q.twins
    ((0, 1), ((0, 0), (0, 1), (1, 0), (1, 1)), ((0, 1), (0, 3)), ((0, 1),))
    """
    allowed = puzzle.allowed if allowed is None else allowed
    cells = cell_order(puzzle, order, allowed) if isinstance(order, str) else tuple(order)
    if sorted(cells) != list(puzzle.board.cells):
        raise SatedgeError(f"an order names every cell once, 0 to {puzzle.n - 1}")
    tried, spread = [], []
    kept: dict = {}  # cells of one kind share their tuple of placements: one reduction each
    for cell in cells:
        if id(allowed[cell]) not in kept:
            looks: dict = {}
            for t, r in allowed[cell]:
                looks.setdefault((t, puzzle.oriented(t, r)), []).append((t, r))
            kept[id(allowed[cell])] = (
                tuple(same[0] for same in looks.values()) if distinct else allowed[cell],
                {p: tuple(same) for same in looks.values() if distinct and len(same) > 1 for p in same},
            )
        tried.append(kept[id(allowed[cell])][0])
        spread.append(kept[id(allowed[cell])][1])
    classes, shift = _twins(puzzle, allowed) if twins else ((), ())
    return Plan(cells, tuple(tried), tuple(spread), classes, shift)


def _twins(puzzle: Puzzle, allowed: Allowed) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The classes of tiles that show the same labels at the same cells (whatever their turns;
    so a clue or a symmetry breaking that keeps one of them somewhere parts it from the others),
    and per tile its turn against the first tile of its class; ``((), ())`` when there are none."""
    where = twin_keys(puzzle, allowed)  # the labels a tile shows at each kind of cell
    classes: dict = {}
    for t in sorted(where):
        classes.setdefault(where[t], []).append(t)
    twins = tuple(tuple(c) for c in classes.values() if len(c) > 1)
    if not twins:
        return (), ()
    shift = [0] * len(puzzle.tiles)
    for first, *rest in twins:
        for t in rest:
            shift[t] = next(
                d
                for d in range(4)
                if all(puzzle.oriented(t, q) == puzzle.oriented(first, (q + d) % 4) for q in range(4))
            )
    return twins, tuple(shift)


def _by_cell(search: Plan, placed: Sequence[int]) -> list:
    """A search's placements (``tile * 4 + rotation`` per position) as ``(tile, rotation)`` per cell."""
    at: list[tuple[int, int] | None] = [None] * len(placed)
    for cell, o in zip(search.cells, placed):
        at[cell] = (o >> 2, o & 3)
    return at


def weighed(search: Plan, placed: Sequence[int]) -> tuple[Solution, int]:
    """A search's placements as a solution, and how many solutions :func:`expand` makes of it."""
    at = _by_cell(search, placed)
    weight = 1
    for i, cell in enumerate(search.cells):
        weight *= len(search.spread[i].get(at[cell], ())) or 1
    for copies in search.twins:
        held = sum(1 for t, _ in at if t in copies)
        weight *= perm(len(copies), held)
    return Solution(tuple(at)), weight


def expand(search: Plan, placed: Sequence[int]) -> Iterator[Solution]:
    """The solutions that a search's placements (``tile * 4 + rotation`` per position) stand
    for: the same, with identical tiles in every arrangement, and with every tile in each turn
    that looks the same at its cell."""
    at = _by_cell(search, placed)
    for arranged in _arrangements(search, at):
        sides = [search.spread[i].get(arranged[cell]) for i, cell in enumerate(search.cells)]
        if not any(sides):
            yield Solution(tuple(arranged))
            continue
        which = [cell for cell, same in zip(search.cells, sides) if same]
        for choice in product(*(same for same in sides if same)):
            for cell, p in zip(which, choice):
                arranged[cell] = p
            yield Solution(tuple(arranged))


def _arrangements(search: Plan, at: list) -> Iterator[list]:
    """``at`` (a placement per cell) with the copies of each class of identical tiles in every
    arrangement over the cells they hold, each turned to show what the copy it replaces showed;
    ``at`` itself first.  Lazily: a class of 16 copies has 16! arrangements, and a first few of
    them are all a limit asks for."""
    if not search.twins:
        yield at
        return
    holds = [sorted((t, cell) for cell, (t, _) in enumerate(at) if t in copies) for copies in search.twins]
    shift = search.shift

    def arranged(k: int, out: list) -> Iterator[list]:
        if k == len(holds):
            yield list(out)
            return
        for tiles in permutations(search.twins[k], len(holds[k])):
            for (a, cell), b in zip(holds[k], tiles):
                out[cell] = (b, (at[cell][1] + shift[a] - shift[b]) % 4)
            yield from arranged(k + 1, out)

    yield from arranged(0, list(at))
