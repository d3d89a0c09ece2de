"""The board: ``rows x cols`` cells on a grid or a torus, and their adjacency: every pair of
touching sides, each knowing which side of each of its two cells it joins, also as a networkx
multigraph (made when asked for).  Sides are numbered ``TOP=0, RIGHT=1, BOTTOM=2, LEFT=3``;
cells row-major, ``cell = row * cols + col``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["TOP", "RIGHT", "BOTTOM", "LEFT", "SIDES", "OPPOSITE", "TOPOLOGIES", "Adjacency", "Board"]

TOP, RIGHT, BOTTOM, LEFT = range(4)
SIDES = ("top", "right", "bottom", "left")
OPPOSITE = (BOTTOM, LEFT, TOP, RIGHT)
TOPOLOGIES = ("grid", "torus")


@dataclass(frozen=True)
class Adjacency:
    """One touching pair of sides: an edge of the board graph.

    Attributes
    ----------
    a, b : int
        The two cells, row-major (``a == b`` on a torus one cell thin).
    side_a, side_b : int
        The sides that touch, 0 top, 1 right, 2 bottom, 3 left.
    """

    a: int
    side_a: int
    b: int
    side_b: int


@dataclass(frozen=True)
class Board:
    """The board: ``rows x cols`` cells, numbered row-major; all adjacency lives in
    :attr:`adjacencies` (and :attr:`graph`, the same as a networkx multigraph).

    Attributes
    ----------
    rows, cols : int
        The board's size.
    topology : str
        ``grid`` (outside edges on the border) or ``torus`` (every cell has four neighbours).
    """

    rows: int
    cols: int
    topology: str = "grid"

    @property
    def cells(self) -> range:
        return range(self.rows * self.cols)

    def cell(self, row: int, col: int) -> int:
        return row * self.cols + col

    def position(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    @cached_property
    def adjacencies(self) -> tuple[Adjacency, ...]:
        """Every pair of touching sides: each cell's right and bottom side and the cell they touch
        (on a torus the edges wrap around), in the order :attr:`graph` lists its edges: by their
        first cell, then by the neighbour each cell met first."""
        torus = self.topology == "torus"
        near: dict[int, dict[int, list[Adjacency]]] = {cell: {} for cell in self.cells}
        for cell in self.cells:
            r, c = self.position(cell)
            for side, (nr, nc) in ((RIGHT, (r, c + 1)), (BOTTOM, (r + 1, c))):
                if nr == self.rows or nc == self.cols:
                    if not torus:
                        continue
                    nr, nc = nr % self.rows, nc % self.cols
                adj = Adjacency(cell, side, self.cell(nr, nc), OPPOSITE[side])
                near[cell].setdefault(adj.b, []).append(adj)
                if adj.b != cell:
                    near[adj.b].setdefault(cell, []).append(adj)
        out: list[Adjacency] = []
        for cell in self.cells:
            out += [
                adj for other, adjs in near[cell].items() if other >= cell for adj in adjs
            ]  # the rest met before
        return tuple(out)

    @cached_property
    def graph(self) -> nx.MultiGraph:
        """The adjacencies as a networkx multigraph: cells are nodes (with ``row``/``col``), each
        edge carries ``a, side_a, b, side_b`` (keyed by its first cell and side)."""
        import networkx as nx

        g = nx.MultiGraph(rows=self.rows, cols=self.cols, topology=self.topology)
        for cell in self.cells:
            g.add_node(cell, row=cell // self.cols, col=cell % self.cols)
        for adj in self.adjacencies:
            g.add_edge(
                adj.a, adj.b, key=(adj.a, adj.side_a), a=adj.a, side_a=adj.side_a, b=adj.b, side_b=adj.side_b
            )
        return g

    @cached_property
    def outer(self) -> frozenset[tuple[int, int]]:
        """``(cell, side)`` pairs that touch no other side: the outside of a grid board."""
        inner = {(adj.a, adj.side_a) for adj in self.adjacencies} | {
            (adj.b, adj.side_b) for adj in self.adjacencies
        }
        return frozenset((c, s) for c in self.cells for s in range(4) if (c, s) not in inner)

    def turns(self) -> tuple[int, ...]:
        """Quarter turns of the whole board that map it onto itself: 4 on square boards, 2 otherwise."""
        return (0, 1, 2, 3) if self.rows == self.cols else (0, 2)

    def turn_cell(self, cell: int, k: int) -> int:
        """Where ``cell`` goes when the board turns ``k`` clockwise quarter turns (``k`` in :meth:`turns`)."""
        r, c = self.position(cell)
        n, m = self.rows - 1, self.cols - 1
        r, c = ((r, c), (c, n - r), (n - r, m - c), (m - c, r))[k % 4]  # k in {1, 3}: square boards
        return self.cell(r, c)
