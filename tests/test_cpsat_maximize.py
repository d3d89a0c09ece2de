"""CP-SAT's model of the best board (extra ``cp``): brute force's optimum on tiny boards of every
kind, its bound by the labels' counts, and its best board at the time limit."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from test_maximize import TINY, brute_maximum

from satedge.jobs import Job, run
from satedge.puzzle.checker import board_problem, label_bound, score
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle
from satedge.puzzle.strategies import puzzles
from satedge.system.process import Limits

pytest.importorskip("ortools", reason="CP-SAT needs OR-Tools (extra cp)")


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(**TINY))
def test_cpsat_finds_the_brute_force_maximum_and_the_checker_agrees(puzzle):
    want = brute_maximum(puzzle)
    assert want is None or want <= label_bound(puzzle)
    for workers in (1, 2):
        res = run(Job(puzzle, "maximize", solver=f"cpsat:workers={workers}")).raise_error()
        if want is None:
            assert (res.status, res.solutions) == ("UNSAT", [])
            continue
        board = res.solutions[0]
        assert (res.status, res.score, res.bound) == ("OPTIMUM", want, want)
        assert board_problem(puzzle, board) is None and score(puzzle, board) == want


def test_the_label_bound_counts_the_pairs_each_label_can_make():
    # two tiles side by side: labels 1 (three sides) and 2 (five sides): at most 1 + 2 pairs, 1 edge
    p = Puzzle(rows=1, cols=2, tiles=((1, 1, 1, 2), (2, 2, 2, 2)))
    assert label_bound(p) == 1
    torus = Puzzle(rows=1, cols=2, tiles=((1, 3, 1, 2), (4, 2, 4, 5)), topology="torus")
    assert len(torus.board.adjacencies) == 4 and label_bound(torus) == 2 + 1  # the loops, and one 2-2 pair


@pytest.mark.slow
def test_cpsat_answers_its_best_board_at_the_time_limit():
    p = generate(Params(rows=6, colors=12, model="uniform"), seed=3)  # no board proved in seconds
    res = run(Job(p, "maximize", solver="cpsat:workers=2", limits=Limits(timeout=8))).raise_error()
    assert res.status == "TIMEOUT" and res.solutions and res.score == score(p, res.solutions[0])
    assert res.score < res.bound <= 60
