"""``--method auto``: the engine of the table (:data:`satedge.jobs.engines.ENGINES`) that answered
soonest on what was measured, chosen per puzzle and task (:func:`choose`)."""

from __future__ import annotations

from ..backtrack.search import SMALL, compiled_available
from ..puzzle.model import Puzzle
from ..system.limits import cores
from .config import SolverConfig
from .engines import ENGINES

__all__ = ["PROVABLE", "choose", "POLICY"]

PROVABLE = 36  # cells: the largest boards whose best score auto searches to the proof

# the policy in words, per task, for the help texts and the documentation
POLICY = {
    "solve": "the engine that answers soonest (the compiled backtracker on every core; with --encoding, --solver "
    "or another SAT option: sat)",
    "maximize": f"field on framed boards of more than {PROVABLE} cells with a --timeout, restarts on other boards "
    "that large, else budget",
}
POLICY["count"] = POLICY["solve"]


def choose(
    puzzle: Puzzle, task: str = "solve", workers: int | None = None, timeout: float | None = None
) -> SolverConfig:
    """The solver of ``--method auto`` for ``task`` (``solve``, ``count`` or ``maximize``) on
    ``puzzle`` with ``workers`` processes (default: every core): the engine that answered soonest
    in ``benchmarks/auto/bench-auto.md``.  On the peak puzzles (framed 7x7 and 8x8 of tunable
    hardness) and on puzzles with 10^3 to 10^5 solutions to count, the backtracker answered sooner
    than every SAT configuration, the best one included; so it is the backtracker: on boards of at
    most 16 cells its pure-Python loop on one core (loading the compiled one takes longer than
    solving them), beyond that compiled on every core.  Where the compiled search cannot take the
    puzzle (numba does not import, or its table does not fit), larger boards go to the default
    SAT configuration instead.  To maximize: the backtracker with a budget of misfits on every
    core, which proved the optimum sooner than its branch and bound and RC2 on the generated 4x4
    to 6x6 boards of ``benchmarks/maximize/bench-maximize.md``; on boards of more than :data:`PROVABLE`
    cells with a ``timeout``, the field's construction on framed boards
    (:mod:`satedge.best.field`) and restarts of the budgeted search on others, on every core, which
    prove nothing but found better boards than the large-neighbourhood search in the same time on
    Eternity II (``benchmarks/maximize/bench-maximize.md``); where scipy, which both need, is not
    installed, the budgets there too."""
    if task == "maximize":  # the first of them that is installed (field and restarts need scipy)
        large = puzzle.n > PROVABLE and timeout is not None
        anytime = ("field", "restarts") if puzzle.frame is not None else ("restarts",)
        choices = (*anytime, "budget") if large else ("budget",)
        engine = next(name for name in choices if ENGINES[name].installed())
        return SolverConfig(engine=engine, workers=workers or cores())
    if puzzle.n <= SMALL or compiled_available(puzzle):
        return SolverConfig(engine="backtrack", workers=workers or (1 if puzzle.n <= SMALL else cores()))
    return SolverConfig(workers=workers or 1)
