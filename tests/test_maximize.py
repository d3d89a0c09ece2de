"""Best partial boards: every engine's maximum against brute force, the score each reports
against the checker's, the MaxSAT formula's cost against the board's mismatches, and the
command's output and refusals."""

from __future__ import annotations

import json
from itertools import permutations, product

import pytest
from hypothesis import HealthCheck, given, settings

from satedge import Limits, maximize
from satedge.backtrack.maximize import maximize as branch_and_bound
from satedge.encode.maxsat import weighted
from satedge.errors import SatedgeError
from satedge.jobs import Job, run
from satedge.puzzle.checker import Scored, board_problem, mismatches, score, validate
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle, Solution
from satedge.puzzle.solutions import load_solution
from satedge.puzzle.strategies import puzzles
from satedge.sat.maxsat import optimum, wcnf_lines

TINY = dict(max_rows=2, max_cols=4, max_cells=4, max_colors=4)


def brute_maximum(puzzle: Puzzle) -> int | None:
    """The highest score of any board that keeps the hard rules; ``None``: there is none."""
    best = None
    for perm in permutations(range(puzzle.n)):
        for rots in product(range(4), repeat=puzzle.n):
            board = Solution(tuple(zip(perm, rots)))
            if board_problem(puzzle, board) is None:
                best = max(best if best is not None else -1, score(puzzle, board))
    return best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(**TINY))
def test_every_engine_finds_the_brute_force_maximum_and_the_checker_agrees(puzzle):
    want = brute_maximum(puzzle)
    engines = [("backtrack", None), ("cadical195", "direct"), ("minisat22", "support")]
    for solver, encoding in engines:
        res = run(Job(puzzle, "maximize", solver=solver, encoding=encoding)).raise_error()
        if want is None:
            assert (res.status, res.solutions) == ("UNSAT", []), solver
            continue
        board = res.solutions[0]
        assert (res.status, res.score, res.bound) == ("OPTIMUM", want, want), solver
        assert board_problem(puzzle, board) is None and score(puzzle, board) == res.score
    for compiled in (True, False):
        best = branch_and_bound(puzzle, compiled=compiled)
        assert (best.score if best.board is not None else None) == want


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(**TINY))
def test_the_maxsat_cost_of_an_optimal_model_is_the_fewest_mismatches(puzzle):
    want = brute_maximum(puzzle)
    for encoding in ("direct", "support+card=seqcounter", "support+symmetry=rotation"):
        formula = weighted(puzzle, encoding)
        model, cost = optimum(formula, "cadical195")
        if want is None:
            assert model is None
            continue
        board = formula.decode(model)
        assert len(mismatches(puzzle, board)) == cost == len(puzzle.board.adjacencies) - want


def test_a_shuffled_maximum_is_the_same_and_in_the_puzzles_own_numbering():
    p = generate(Params(rows=3, cols=3, colors=6, model="uniform"), seed=11)
    plain = run(Job(p, "maximize", solver="backtrack")).raise_error()
    for solver, encoding in (("backtrack", None), ("cadical195", "support")):
        res = run(Job(p, "maximize", solver=solver, encoding=encoding, shuffle=7)).raise_error()
        assert res.score == plain.score == score(p, res.solutions[0])


def test_a_job_stopped_at_its_time_limit_keeps_the_best_board_it_found():
    branch_and_bound(generate(Params(rows=2, cols=2, colors=3, model="uniform"), seed=0))  # compiled before the clock
    p = generate(Params(rows=6, cols=6, colors=14, model="uniform"), seed=0)
    res = run(Job(p, "maximize", solver="backtrack", limits=Limits(timeout=5)))
    assert res.status in ("TIMEOUT", "OPTIMUM")
    board = res.solutions[0]
    assert board_problem(p, board) is None and score(p, board) == res.score
    assert res.bound == (60 if res.status == "TIMEOUT" else res.score)
    best = maximize(p, timeout=5)
    assert isinstance(best, Scored) and best.score == score(p, best.board)


def test_scored_prints_its_score_and_marks_the_sides_that_do_not_fit():
    p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
    board = Solution(((0, 0), (1, 0)))
    assert str(Scored(p, board, 0, 1)).splitlines() == [
        "score 0 of 1 inner edges, at most 1",
        "+-------+-------+",
        "|   1   |   2   |",
        "|1 0/0 2X3 1/0 1|",
        "|   1   |   1   |",
        "+-------+-------+",
    ]
    assert 'stroke="#D00000"' in Scored(p, board, 0, 1)._repr_svg_()
    tall = Puzzle(rows=2, cols=1, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
    lines = str(Scored(tall, Solution(((0, 0), (1, 0))), 0, 1)).splitlines()
    assert lines[5] == "+XXXXXXX+"


def test_maximize_api_on_a_solvable_puzzle_gives_a_solution():
    best = maximize("hunde-spiel")
    assert (best.score, best.bound, best.edges, best.optimal) == (12, 12, 12, True)
    assert validate(best.puzzle, best.board) is None


def test_the_maxsat_export_lines_are_hard_then_soft():
    p = Puzzle(rows=1, cols=2, tiles=((1, 2, 1, 1), (2, 1, 1, 3)))
    formula = weighted(p, "direct")
    lines = list(wcnf_lines(formula))
    assert lines[-1] == f"1 {formula.soft[0]} 0\n" and all(x.startswith("h ") for x in lines[:-1])


@pytest.fixture
def uniform(tmp_path):
    p = generate(Params(rows=3, cols=3, colors=9, model="uniform"), seed=2)
    path = tmp_path / "u.yaml"
    save_puzzle(p, path)
    return p, path


def test_the_command_prints_the_board_and_check_scores_it(run_cli, uniform, tmp_path):
    p, path = uniform
    want = brute_maximum_3x3(p)
    code, out, err = run_cli("maximize", path, "-o", tmp_path / "b.sol", "--picture", tmp_path / "b.svg")
    assert code == 0 and err == ""
    first = out.splitlines()[0]
    assert first == f"{path}: OPTIMUM, score {want} of 12 inner edges (optimal) (backtrack)"
    board = load_solution(tmp_path / "b.sol", p)
    wrong = mismatches(p, board)
    assert len(wrong) == 12 - want and out.count("X") == sum(1 if adj.side_a == 1 else 7 for adj in wrong)
    assert (tmp_path / "b.svg").read_text().count('stroke="#D00000"') >= (12 - want)
    code, out, err = run_cli("check", path, tmp_path / "b.sol")
    if want < 12:
        assert code == 1 and out.strip().endswith(f"(a board that scores {want} of 12 inner edges)")
    code, out, err = run_cli("maximize", path, "--method", "sat", "--encoding", "support", "--json")
    obj = json.loads(out)
    assert (code, obj["status"], obj["score"], obj["bound"], obj["edges"], obj["encoding"]) == (
        0, "OPTIMUM", want, want, 12, "support")


def brute_maximum_3x3(p: Puzzle) -> int:
    """The 3x3 board's maximum, by the branch and bound's pure-Python loop (brute force over 9!
    4^9 boards is too slow for a test), which the property tests compare with brute force."""
    return branch_and_bound(p, compiled=False).score


@pytest.mark.parametrize("argv, message", [
    (("--method", "sat", "--encoding", "heule"), "the heule encoding has no MaxSAT form (one colour variable per "
                                                 "edge cannot say that an edge does not fit); choose one on direct or "
                                                 "support"),
    (("-o", "best.txt"), "satedge: error: best.txt: -o names a .sol or a .json file"),
    (("--picture", "best.pdf"), "satedge: error: best.pdf: --picture names a .svg or a .png file"),
])
def test_the_command_refuses_in_one_line(run_cli, uniform, argv, message):
    _, path = uniform
    code, out, err = run_cli("maximize", path, *argv)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1 and message in err


def test_a_maximum_is_not_certified_nor_spread_over_workers():
    p = generate(Params(rows=2, cols=2, colors=3, model="uniform"), seed=1)
    with pytest.raises(SatedgeError, match=r"^a maximum is answered on this machine, uncertified: --certify applies "
                                           r"to solve and count$"):
        Job(p, "maximize", solver="cadical195", certify="dratify")
    with pytest.raises(SatedgeError, match=r"^a maximum is searched on one process: workers=N applies to solve and "
                                           r"count$"):
        Job(p, "maximize", solver="backtrack:workers=2")
    with pytest.raises(SatedgeError, match=r"^the cpsat engine cannot maximize: it answers solve and count$"):
        Job(p, "maximize", solver="cpsat")
