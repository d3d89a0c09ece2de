"""The engine to use when none is named: the one that answers a question about a puzzle soonest."""

from __future__ import annotations

from ..puzzle import Puzzle
from ..solvers import SolverConfig

SMALL = 16  # cells: the backtracker answers such boards before a formula is built


def choose(puzzle: Puzzle, task: str = "solve") -> SolverConfig:
    """The solver for ``task`` on ``puzzle``: the backtracker on boards of up to :data:`SMALL`
    cells, the default SAT configuration beyond."""
    return SolverConfig(engine="backtrack") if puzzle.n <= SMALL else SolverConfig()
