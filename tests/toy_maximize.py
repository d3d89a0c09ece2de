"""A toy engine that maximizes, for the engine-table tests: every arrangement of a board of at
most 4 cells scored, the best answered.  It is one module (this one) and one entry in the table
(:data:`ENTRY`), and nothing else of satedge changes for it."""

from __future__ import annotations

from itertools import permutations, product

from satedge.errors import SatedgeError
from satedge.jobs.engines import Engine, Task
from satedge.jobs.result import Note, Result, Work
from satedge.jobs.shared import set_best_board
from satedge.puzzle.checker import board_problem, score
from satedge.puzzle.model import Solution


def run(job: Work, note: Note | None = None) -> Result:
    """The best board of every arrangement that keeps the hard rules (proved: all are scored)."""
    p = job.puzzle
    if p.n > 4:
        raise SatedgeError(f"the toy takes boards of at most 4 cells, not {p.n}")
    boards = [
        board
        for order in permutations(range(len(p.tiles)))
        for turns in product(range(4), repeat=p.n)
        if board_problem(p, board := Solution(tuple(zip(order, turns)))) is None
    ]
    best = max(boards, key=lambda b: score(p, b), default=None)
    return set_best_board(job, Result("UNSAT"), best, score(p, best) if best else 0, "the toy")


ENTRY = Engine(
    name="toymax",
    method=True,
    summary="every arrangement of a board of at most 4 cells scored: the best board",
    tasks={"maximize": Task(run=run, summary="every arrangement scored, the best board proved")},
)
