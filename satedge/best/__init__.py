"""Best-board search: where no board fits every edge, the board with the most inner edges that
fit (the checker's score, :func:`satedge.puzzle.checker.score`).

:mod:`.branch_and_bound` proves the best board by branch and bound, :mod:`.budget` by budgets of
misfits in the backtracker's own loop, :mod:`.lns` improves a board by large neighbourhoods and
annealing, :mod:`.restarts` builds boards by restarts of the budgeted search, and :mod:`.field`
by the field's construction (a colour quota and a ladder of breaks) on those restarts.  They run the
backtracker's loops and tables (:mod:`satedge.backtrack`), which is below them.
"""

__all__ = []  # its modules are imported by name
