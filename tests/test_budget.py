"""The search with a budget of misfits (satedge.best.budget): on tiny boards of every kind,
whether a board with at most b misfits exists is brute force's answer for every b; the proved
optimum is brute force's and RC2's; a budget of 0 is the search of whole solutions; the C loop
and numba's agree; every board scores what the checker counts."""

from __future__ import annotations

import os
from dataclasses import replace
from itertools import islice, permutations, product
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satedge import maximize
from satedge.backtrack import loop as driver
from satedge.backtrack import search as backtrack
from satedge.backtrack.plans import plan
from satedge.backtrack.search import symmetry_broken
from satedge.best import restarts
from satedge.best.budget import fewest, late_first, misfits, uniform, within
from satedge.encode.maxsat import weighted
from satedge.errors import SatedgeError
from satedge.jobs import Job, run
from satedge.jobs.engine import prose
from satedge.jobs.registry import doing
from satedge.jobs.result import Result
from satedge.jobs.solver import SolverConfig
from satedge.puzzle.checker import board_problem, score
from satedge.puzzle.formats import load_puzzle, save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle, Solution
from satedge.puzzle.solutions import load_solution
from satedge.puzzle.strategies import puzzles
from satedge.puzzle.symmetry import picture
from satedge.sat.maxsat import optimum
from satedge.sat.solvers import SatSolver
from satedge.system.process import Limits

TINY = dict(max_rows=2, max_cols=4, max_cells=4, max_colors=4)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def brute_misfits(puzzle: Puzzle) -> int | None:
    """The fewest misfits of any board that keeps the hard rules; ``None``: there is none."""
    edges = len(puzzle.board.adjacencies)
    best = None
    for perm in permutations(range(puzzle.n)):
        for rots in product(range(4), repeat=puzzle.n):
            board = Solution(tuple(zip(perm, rots)))
            if board_problem(puzzle, board) is None:
                best = min(best if best is not None else edges, edges - score(puzzle, board))
    return best


def test_a_search_for_b_misfits_looks_in_the_later_rows_first_then_everywhere():
    p = generate(Params(rows=4, cols=3, colors=5, model="uniform"), seed=1)
    assert late_first(p, 2) == [([0] * 9 + [2] * 3, False), ([0] * 6 + [2] * 6, False), ([2] * 12, False)]
    # one misfit: the later half's cells, then the earlier half's in the reversed order, which prove it
    assert late_first(p, 1) == [
        ([0] * 9 + [1] * 3, False),
        ([0] * 6 + [1] * 6, False),
        ([0] * 6 + [1] * 6, True),
    ]
    assert late_first(p, 0) == [([0] * 12, False)]
    one_row = generate(Params(rows=1, cols=4, colors=5, model="uniform"), seed=1)
    assert late_first(one_row, 2) == [([2] * 4, False)] and late_first(one_row, 1) == [([1] * 4, False)]
    # a board whose one misfit the last row's stage finds: a third of the placements
    p = generate(Params(rows=4, colors=8, model="uniform"), seed=1)
    late, flat = fewest(p), fewest(p, late=False)
    assert (late.score, late.bound, flat.score, flat.bound) == (23, 23, 23, 23)
    assert (late.nodes, flat.nodes) == (263_203, 788_625)
    assert board_problem(p, late.board) is None and score(p, late.board) == 23


@settings(max_examples=40, **SETTINGS)
@given(puzzles(max_rows=3, max_cols=3, max_cells=9, max_colors=4))
def test_one_misfit_is_searched_whole_by_the_later_half_and_the_reversed_order(puzzle):
    """Every board with at most one misfit (one of each board-turn orbit, as the engine searches
    them), and no other, is a board of the later half's search or of the reversed order's: the same
    pictures as the search everywhere, on boards of every kind."""
    allowed, _ = symmetry_broken(puzzle)
    cells = plan(puzzle, allowed).cells

    def pictures(allow, back=False):
        found = within(puzzle, allow, allowed=allowed, order=cells[::-1] if back else cells)
        return {picture(puzzle, board) for board in found}

    everywhere = pictures(uniform(puzzle, 1))
    *late, (last, reversed_) = late_first(puzzle, 1)
    if not late:  # one row: the search everywhere
        assert reversed_ is False and last == uniform(puzzle, 1)
        return
    assert reversed_ is True and pictures(*late[-1]) | pictures(last, True) == everywhere


@settings(max_examples=25, **SETTINGS)
@given(st.integers(3, 4), st.integers(3, 4), st.integers(4, 9), st.integers(0, 10**6))
def test_the_late_stages_prove_the_optimum_the_budgets_everywhere_prove(rows, cols, colors, seed):
    p = generate(Params(rows=rows, cols=cols, colors=colors, model="uniform"), seed=seed)
    late, flat = fewest(p), fewest(p, late=False)
    assert (late.score, late.bound, late.optimal) == (flat.score, flat.bound, True)
    assert board_problem(p, late.board) is None and score(p, late.board) == late.score
    assert misfits(p, late.board) == misfits(p, flat.board)


@pytest.mark.slow
@settings(max_examples=50, **SETTINGS)
@given(puzzles(**TINY))
def test_a_board_within_each_budget_exists_exactly_when_brute_force_finds_one(puzzle):
    # on numba's loop, compiled once: the C loop compiles per board shape, and agrees with
    # numba's below
    with patch.dict(os.environ, {"CC": ""}):
        within_each_budget_is_brute_forces(puzzle)


def within_each_budget_is_brute_forces(puzzle):
    want = brute_misfits(puzzle)
    edges = len(puzzle.board.adjacencies)
    for b in range(edges + 1):
        found = list(within(puzzle, uniform(puzzle, b)))
        assert bool(found) == (want is not None and want <= b), b
        for board in found:  # every board keeps the rules and its misfits are what the checker counts
            assert board_problem(puzzle, board) is None
            assert misfits(puzzle, board) == edges - score(puzzle, board) <= b


@pytest.mark.slow
@settings(max_examples=60, **SETTINGS)
@given(puzzles(**TINY))
def test_the_proved_optimum_is_brute_forces_and_rc2s(puzzle):
    want = brute_misfits(puzzle)
    edges = len(puzzle.board.adjacencies)
    with patch.dict(os.environ, {"CC": ""}):
        best = fewest(puzzle)
    if want is None:
        assert best.board is None
        return
    assert (best.score, best.bound, best.optimal) == (edges - want, edges - want, True)
    assert score(puzzle, best.board) == best.score and board_problem(puzzle, best.board) is None
    formula = weighted(puzzle)
    _, cost = optimum(formula, SatSolver())
    assert cost == want


def placements(t, allow, cc: str, most: int | None = None) -> tuple[list[list[int]], tuple[int, int]]:
    """Every leaf of the compiled search over ``t`` (the first ``most``) and its cost, with
    ``$CC`` set to ``cc``."""
    counts = np.zeros(2, np.int64)
    with patch.dict(os.environ, {"CC": cc}):
        leaves = driver.run(t, [], len(t.ndeps) - 1, counts=counts, allow=allow)
        found = list(islice(leaves, most))
        leaves.close()
    return found, (int(counts[0]), int(counts[1]))


@pytest.mark.slow
@settings(max_examples=25, **SETTINGS)
@given(puzzles(max_rows=3, max_cols=3, max_cells=9, max_colors=3))
def test_a_budget_of_0_is_the_search_of_whole_solutions_and_c_and_numba_agree(puzzle):
    search = backtrack.plan(puzzle)
    plain = backtrack.tables(puzzle, search)
    budgeted = backtrack.tables(puzzle, search, misfits=True)
    cc = os.environ.get("CC", "cc")
    whole = placements(plain, None, cc)
    assert (
        placements(budgeted, uniform(puzzle, 0), cc) == whole == placements(budgeted, uniform(puzzle, 0), "")
    )
    loose = uniform(
        puzzle, 2
    )  # on few labels, millions of boards: the first 5,000 in the same order, at the same cost
    assert placements(budgeted, loose, cc, 5000) == placements(budgeted, loose, "", 5000)


def test_a_schedule_allows_misfits_only_from_its_depth_on():
    p = generate(Params(rows=3, cols=3, colors=8, model="uniform"), seed=1)  # optimum: 2 misfits
    late = [0] * 7 + [2, 2]  # both misfits among the last two placements
    boards = list(within(p, late, order="rows"))
    for board in boards:
        assert misfits(p, board) <= 2
    early = list(within(p, [2] * 9, order="rows"))
    assert len(boards) < len(early)
    assert set(boards) <= set(early)


# ---------------------------------------------------------------------------- the engines


@pytest.mark.slow
@settings(max_examples=20, **SETTINGS)
@given(puzzles(**TINY))
def test_the_budget_engine_and_the_restarts_give_brute_forces_optimum_or_less_and_checked_boards(puzzle):
    want = brute_misfits(puzzle)
    edges = len(puzzle.board.adjacencies)
    with patch.dict(os.environ, {"CC": ""}):
        exact = run(Job(puzzle, "maximize", solver="budget:workers=2")).raise_error()
        anytime = run(Job(puzzle, "maximize", solver="restarts", limits=Limits(timeout=1))).raise_error()
    if want is None:
        assert (exact.status, exact.solutions, anytime.solutions) == ("UNSAT", [], [])
        return
    assert (exact.status, exact.score, exact.bound) == ("OPTIMUM", edges - want, edges - want)
    assert anytime.score <= edges - want and anytime.bound == edges
    for res in (exact, anytime):
        assert (
            board_problem(puzzle, res.solutions[0]) is None and score(puzzle, res.solutions[0]) == res.score
        )


@pytest.mark.slow
def test_the_restarts_keep_eternity_iis_frame_and_starter_piece():
    p = load_puzzle("eternity2/e2-starter")
    best = maximize(p, method="restarts", workers=1, timeout=8, cap=2_000_000)  # a board however loaded
    assert board_problem(p, best.board) is None and best.board.placements[8 * 16 + 7] == (138, 2)
    assert best.score == score(p, best.board) and best.score <= 480 and best.bound == 480


@pytest.mark.slow
def test_the_restarts_reach_every_edge_of_a_solvable_board():
    p = generate(Params(rows=6, cols=6, colors=5), seed=2)  # planted: every one of the 60 edges fits
    best = maximize(p, method="restarts", workers=1, timeout=120)  # it stops once every edge fits
    assert (best.score, best.bound, best.optimal) == (60, 60, True)


@pytest.mark.slow
def test_a_schedule_and_a_cap_are_checked_and_name_the_restarts(run_cli, tmp_path):
    p = generate(Params(rows=3, cols=3, colors=8, model="uniform"), seed=1)
    path = tmp_path / "u3.yaml"
    save_puzzle(p, path)
    assert run_cli("maximize", path, "--schedule", "10/4") == (
        2,
        "",
        "satedge: error: schedule '10/4': write START/STEP/MOST, whole numbers, STEP at least 1 (190/4/14)\n",
    )
    assert run_cli("maximize", path, "--cap", "1000") == (
        2,
        "",
        "satedge: error: restarts runs until its time limit: give a timeout\n",
    )
    code, out, err = run_cli("maximize", path, "--schedule", "2/1/3", "--timeout", "5", "--json")
    assert (code, err) == (3, "") or (code, err) == (0, "")
    assert '"solver": "restarts:workers=' in out and "schedule=2/1/3" in out
    assert restarts.Schedule(2, 1, 3).allow(9) == [0, 0, 1, 2, 3, 3, 3, 3, 3]
    with pytest.raises(SatedgeError, match="^cap must be a positive number of placements, not '0'$"):
        Job(p, "maximize", solver=SolverConfig(engine="restarts", settings={"cap": 0}))


@pytest.mark.slow
def test_the_budget_engine_proves_the_optimum_on_a_dask_cluster(scheduler):
    p = generate(Params(rows=3, cols=3, colors=8, model="uniform"), seed=1)  # optimum: 10 of 12
    res = run(
        Job(p, "maximize", solver="budget", scheduler=scheduler, limits=Limits(timeout=120))
    ).raise_error()
    assert (res.status, res.score, res.bound) == ("OPTIMUM", 10, 10)
    assert board_problem(p, res.solutions[0]) is None and score(p, res.solutions[0]) == 10


# ---------------------------------------------------------------------------- interrupts


def test_an_interrupted_maximisation_keeps_its_best_board():
    """Before: Ctrl-C or kill during an anytime search lost every board it had found."""
    p = generate(Params(rows=6, colors=12, model="uniform"), seed=3)
    seen = []

    def progress(fields: dict) -> None:
        if fields.get("score") is not None:
            seen.append(fields["score"])
            raise KeyboardInterrupt  # as Ctrl-C does, once a board is known

    job = Job(p, "maximize", solver="restarts:workers=1", limits=Limits(timeout=60), progress=True)
    with pytest.raises(KeyboardInterrupt) as stopped:
        run(job, progress=progress)
    best = stopped.value.best
    assert (best.status, best.score, best.bound, stopped.value.job) == ("INTERRUPTED", seen[0], 60, job)
    assert board_problem(p, best.solutions[0]) is None and score(p, best.solutions[0]) == best.score


@pytest.mark.slow
@pytest.mark.parametrize("stop, status", [(KeyboardInterrupt(), 130), (SystemExit(143), 143)])
def test_the_command_prints_and_writes_the_best_board_when_stopped(monkeypatch, tmp_path, stop, status):
    from satedge.cli import common, main

    p = generate(Params(rows=4, colors=8, model="uniform"), seed=1)
    path, out = tmp_path / "u.yaml", tmp_path / "best.sol"
    save_puzzle(p, path)
    board = fewest(p).board

    def interrupted(job, progress=None):
        stop.best = Result("INTERRUPTED", solutions=[board], score=score(p, board), bound=24)
        stop.job = job
        raise stop

    monkeypatch.setattr(common, "run", interrupted)
    code = None
    try:
        code = main(["maximize", str(path), "-o", str(out)])
    except SystemExit as e:
        code = e.code
    assert code == status
    assert load_solution(out, p) == board


# ---------------------------------------------------------------------------- a board to start from


@pytest.mark.slow
@pytest.mark.parametrize("method", ["budget", "restarts", "field", "lns"])
def test_a_search_resumed_from_a_board_never_answers_less(method):
    p = generate(Params(rows=4, colors=10, model="uniform"), seed=1)
    start = Solution(tuple((t, 0) for t in range(p.n)))  # any arrangement keeps a board without frame
    best = maximize(p, method=method, workers=1, timeout=3 if method != "budget" else None, start=start)
    assert best.score >= score(p, start) and best.score == score(p, best.board)
    planted = generate(Params(rows=6, colors=5), seed=2)
    full = maximize(
        planted, method=method, workers=1, timeout=60 if method != "budget" else None, start=planted.planted
    )
    assert (full.score, full.optimal, full.board) == (60, True, planted.planted)


@pytest.mark.slow
def test_resume_from_goes_on_from_the_board_a_command_wrote(run_cli, tmp_path):
    p = generate(Params(rows=4, colors=8, model="uniform"), seed=1)
    path, board = tmp_path / "u.yaml", tmp_path / "best.sol"
    save_puzzle(p, path)
    assert run_cli("maximize", path, "--method", "lns", "--timeout", "2", "-o", board)[0] == 3
    before = score(p, load_solution(board, p))
    code, out, err = run_cli("maximize", path, "--method", "budget", "--resume-from", board, "-o", board)
    assert code == 0 and score(p, load_solution(board, p)) >= before
    from satedge.cli import build_parser

    command = next(a for a in build_parser()._actions if a.dest == "command").choices["maximize"]
    shown = " ".join(command.format_help().split())  # from the engine table, as the error below
    resumes = prose(doing("maximize", "resumes"))
    assert f"--method {resumes} go on from it (default: none)" in shown
    assert (
        f"--workers N processes of --method {prose(doing('maximize', 'every_core'))} (default: every core); "
        "search workers of --solver cpsat (default: one)"
    ) in shown
    assert run_cli("maximize", path, "--method", "backtrack", "--resume-from", board) == (
        2,
        "",
        f"satedge: error: a board to start from applies to {resumes}, not to backtrack\n",
    )
    framed = generate(Params(rows=4, colors=4, frame=True), seed=1)
    save_puzzle(framed, tmp_path / "f.yaml")
    code, out, err = run_cli("maximize", tmp_path / "f.yaml", "--resume-from", board)
    assert (code, out) == (2, "") and err.startswith(f"satedge: error: {board}: not a board of this puzzle: ")


@pytest.mark.slow
def test_the_budget_engine_reports_its_progress_while_its_loop_compiles(tmp_path, monkeypatch):
    """Before: with its progress asked for and the loop not compiled yet, the job failed
    (`follow() takes 0 positional arguments`): every run of an experiment on a fresh cache."""
    monkeypatch.setenv("SATEDGE_CACHE", str(tmp_path))
    p = generate(Params(rows=4, cols=5, colors=8, model="uniform"), seed=1)  # 20 cells: compiled
    seen, scores = [], set()
    for workers in (1, 2):
        job = Job(p, "maximize", solver=f"budget:workers={workers}", progress=True)
        res = run(job, progress=seen.append).raise_error()
        assert res.status == "OPTIMUM" and res.score == res.bound
        scores.add(res.score)
        monkeypatch.setenv("SATEDGE_CACHE", str(tmp_path / "again"))
    assert len(scores) == 1 and seen and all("seconds" in report for report in seen)


@pytest.mark.slow
def test_the_budgets_start_from_the_restarts_board_and_skip_the_search_that_must_find_one(
    monkeypatch, tmp_path
):
    """The short anytime search before the budgets (jobs.budget.WARMUP): its board is the
    incumbent, so where it is optimal no search must find a board; the budgets only prove.  Here
    the restarts are made to answer the optimal board, and no budget as large as its misfits is
    searched (before: the deepening searched that budget too, to find the board)."""
    from satedge.engines import budget as budget_job

    p = generate(Params(rows=4, cols=5, colors=12, model="uniform"), seed=2)  # 20 cells, 2 misfits at best
    best = fewest(p)
    spent = misfits(p, best.board)
    assert best.optimal and spent >= 1 and p.n <= budget_job.WARMUP_CELLS == 30
    monkeypatch.setattr(budget_job, "WARMUP_CELLS", p.n - 1)  # warmed up as a 6x6 would be
    given_board = replace(best, bound=len(p.board.adjacencies))
    calls = tmp_path / "calls"  # the job runs in a child process

    def restarts_answer(puzzle, seconds, workers, seed, better, cap, searching):
        with open(calls, "a") as fh:
            fh.write(f"{seconds} {cap} {searching}\n")
        better(given_board)
        return given_board

    monkeypatch.setattr(budget_job.restarts, "search", restarts_answer)
    seen = []
    job = Job(p, "maximize", solver="budget", progress=True, limits=Limits(timeout=600))  # a tenth: 60 s
    res = run(job, progress=seen.append).raise_error()
    assert (res.status, res.score, res.bound) == ("OPTIMUM", best.score, best.score)
    # its seconds are the search's, the compile not among them (searching=True)
    assert calls.read_text() == f"{min(budget_job.WARMUP, 60.0)} {budget_job.WARMUP_CAP} True\n"
    searched = {report["allowed"] for report in seen if "allowed" in report}
    assert searched == set(range(spent))
