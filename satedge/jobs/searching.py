"""What the engines that run the backtracker's search share (``backtrack``, ``budget``,
``restarts``, ``field``): its options, the cell order it fills and the loop that runs it."""

from __future__ import annotations

from ..backtrack.loop import LOOPS
from ..backtrack.orders import ORDERS
from .engine import Option

__all__ = ["ORDER", "LOOP"]

ORDER = Option(
    tasks=("solve", "count"),
    name="order",
    what="a cell order",
    noun="cell order",
    choices=ORDERS,
    help="the order in which the backtracker fills the cells (implies --method backtrack): rows, columns, "
    "spiral, border, or auto, the one with the smallest search tree estimated from the puzzle's colours "
    "(default: auto)",
)
LOOP = Option(
    name="loop",
    what="a choice of search loop",
    noun="loop",
    choices=LOOPS,
    help="the backtracker's search loop: python (slow; for checks), numba, c (compiled for the board's cell "
    "order by the C compiler $CC or cc), or auto, the C loop where it builds and numba's otherwise (the "
    "pure-Python loop up to 16 cells when solving and counting) (default: auto)",
)
