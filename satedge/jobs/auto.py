"""``--method auto``: the engine that answers a question about a puzzle soonest, chosen from the
measurements of ``experiments/bench-auto.md``.

On the peak puzzles (framed 7x7 and 8x8 of tunable hardness) and on puzzles with 10^3 to 10^5
solutions to count, the backtracker answered sooner than every SAT configuration, the best one
included; so ``auto`` is the backtracker: on boards of at most 16 cells its pure-Python loop on
one core (loading the compiled one takes longer than solving them), beyond that compiled (numba,
a core dependency) on every core.  Where numba does not import, or the compiled search's table
does not fit, boards of more than 16 cells go to the default SAT configuration instead.
"""

from __future__ import annotations

import os

from ..backtrack.search import SMALL, compiled_available
from ..puzzle.model import Puzzle
from .engines import LNS, REFERENCE, SolverConfig

__all__ = ["cores", "choose", "PROVABLE"]

PROVABLE = 36  # cells: the largest boards whose best score auto searches to the proof

def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def choose(puzzle: Puzzle, task: str = "solve", workers: int | None = None,
           timeout: float | None = None) -> SolverConfig:
    """The solver for ``task`` (``solve``, ``count`` or ``maximize``) on ``puzzle`` with
    ``workers`` processes (default: every core).  To maximize: the backtracker's branch and
    bound, on one process, which proved the optimum sooner than RC2 over every PySAT solver on
    the generated 4x4 and 5x5 boards tried; on boards of more than :data:`PROVABLE` cells with a
    ``timeout``, the large-neighbourhood search on every core, which proves nothing but finds
    good boards where the branch and bound's stay poor."""
    if task == "maximize":
        if puzzle.n > PROVABLE and timeout is not None:
            return SolverConfig(engine=LNS, workers=workers or cores())
        return SolverConfig(engine=REFERENCE, workers=1)
    if puzzle.n <= SMALL or compiled_available(puzzle):
        return SolverConfig(engine=REFERENCE, workers=workers or (1 if puzzle.n <= SMALL else cores()))
    return SolverConfig(workers=workers or 1)
