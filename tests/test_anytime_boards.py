"""An anytime search hands over each better board as it finds it: the restarts while a restart
goes on, the branch and bound before anything is compiled, a board where every edge fits at once
whatever the engine; and the progress line keeps the best score however narrow it is."""

import importlib.util
import json
import os
import time

import pytest
from conftest import alive, children

from satedge import Limits, maximize
from satedge.backtrack import advance, native
from satedge.best import branch_and_bound as bnb
from satedge.best import lns, restarts
from satedge.jobs import Job, run
from satedge.puzzle import Puzzle, Solution
from satedge.puzzle.checker import score
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.system import limits
from satedge.system.progress import describe, fitted


class Stop(Exception):
    pass


class Compiled(BaseException):
    pass


@pytest.mark.slow
def test_a_restart_hands_over_its_deeper_boards_while_it_goes_on():
    """Before: a restart gave its board only when it ended (200 million placements, several
    seconds, longer on a busy machine), so a job stopped before the first ended answered the
    greedy first board (Eternity II: 255 of 480 after 25 s).  Here no restart can end (its cap
    is beyond reach and the time is ten minutes): the second better board must come from one that
    is still going on."""
    p = generate(Params(rows=8, colors=10, model="uniform"), seed=1)
    got = []

    def better(board):
        assert score(p, board.board) == board.score
        got.append(board.score)
        if len(got) == 2:
            raise Stop

    with pytest.raises(Stop):
        restarts.search(p, 600, workers=1, better=better, cap=10**15)
    assert got[1] > got[0]


@pytest.mark.slow
def test_an_attempt_run_in_slices_is_the_restart_run_at_once():
    p = generate(Params(rows=6, colors=8, model="uniform"), seed=2)
    order, allow = restarts.cells(p), restarts.Schedule.of(p.n).allow(p.n)
    whole = restarts.restart(p, order, allow, 3, cap=200_000)
    attempt = restarts.Attempt(p, order, allow, 3, cap=200_000)
    while not attempt.ended:
        attempt.run(None)
    assert (attempt.board(), attempt.deepest[1], attempt.placements) == whole


def test_the_branch_and_bounds_first_board_comes_before_its_compile(monkeypatch):
    """Before: the first board waited for numba's compile, which on a busy machine with an empty
    cache took longer than --timeout 3: the command ended with no board at all."""
    p = generate(Params(rows=5, colors=10, model="uniform"), seed=3)
    boards = []

    def compile_that_never_ends():
        raise Stop(len(boards))

    monkeypatch.setattr(bnb, "compiled_step", compile_that_never_ends)
    with pytest.raises(Stop) as stopped:
        bnb.best_board(p, better=boards.append)
    assert stopped.value.args == (1,)
    assert boards[0].board is not None and score(p, boards[0].board) == boards[0].score > 0


METHODS = [(m, None) for m in ("budget", "restarts", "lns", "backtrack", "sat")] + (
    [("sat", "cpsat")] if importlib.util.find_spec("ortools") else []
)


@pytest.mark.slow
@pytest.mark.parametrize("method, solver", METHODS)
def test_a_board_where_every_edge_fits_ends_every_engine_at_once(monkeypatch, method, solver):
    """Before: a blank 1x60 board (every board scores 59 of 59) waited 40 s for the compile on an
    empty cache, and a busy machine's battery gave up on it.  Nothing may be compiled for it."""

    def no_compile(*args, **kwargs):  # what no engine catches to fall back on a plain loop
        raise Compiled("a board where every edge fits waited for a compile")

    for module in (bnb, advance, lns):  # each has the name of its own
        monkeypatch.setattr(module, "numba_kernel", no_compile)
    monkeypatch.setattr(native, "compiler", lambda: None)
    p = Puzzle(rows=1, cols=60, tiles=((1, 1, 1, 1),) * 60, name="blank-1x60")
    timeout = 60 if method in ("restarts", "lns") else None
    best = maximize(p, method=method, timeout=timeout, **({"solver": solver} if solver else {}))
    assert (best.score, best.edges, best.optimal) == (59, 59, True)
    assert score(p, best.board) == 59


def test_the_progress_line_keeps_the_best_score_when_it_is_narrow():
    """Before: on an 80-column terminal, beside the name of Eternity II's job, the line said only
    'solving': the score was the field cut off."""
    line = describe({"score": 454, "bound": 480, "seconds": 28.0})
    assert fitted(line, 80 - len("eternity2/e2-starter: restarts:workers=2") - 10) == (
        "best score 454 (at most 480)"
    )
    assert (
        describe({"stage": "certifying", "score": 12, "bound": 12})
        == "certifying, best score 12 (at most 12)"
    )


@pytest.mark.slow
def test_a_stopped_search_answers_the_best_board_it_noted_not_the_last(engines_of):
    """Before: a stopped job kept the last board noted, whatever its score, so that an engine
    that noted a worse board after a better one (a search from an incumbent, a warm-up) could
    answer worse with more time."""
    p = Puzzle(rows=1, cols=3, tiles=((1, 2, 1, 1), (2, 1, 1, 3), (3, 3, 3, 3)))
    assert [
        score(p, b) for b in (Solution(((2, 3), (1, 0), (0, 3))), Solution(((0, 0), (1, 0), (2, 0))))
    ] == [2, 0]
    engines_of("NOTER")
    shown: list[int] = []  # and the status line shows the best score it holds, not the last reported
    res = run(
        Job(p, "maximize", solver="noter", limits=Limits(timeout=3)),
        progress=lambda r: shown.append(r["score"]),
    )
    assert (res.status, res.score, res.solutions) == ("TIMEOUT", 2, [Solution(((2, 3), (1, 0), (0, 3)))])
    assert shown == [2, 2]


@pytest.mark.slow
def test_a_searchs_seconds_do_not_go_to_the_compile(monkeypatch):
    """Before: the budget engine's 3 s warm-up counted the compile of its loop, which on an empty
    cache took them all: the uniform 6x6 of 12 colours answered its greedy first board (30 of 60)
    at --timeout 40, and 58 once the cache was warm.  Here the compile is made to take 4 s."""
    p = generate(Params(rows=6, colors=12, model="uniform"), seed=769139)
    run_once = restarts.Attempt.run

    def slow(self, until=None):
        if self.cap == 1:  # the attempt that compiles the loop
            time.sleep(4)
        return run_once(self, until)

    monkeypatch.setattr(restarts.Attempt, "run", slow)
    for searching, boards in ((False, 1), (True, None)):
        got = []
        restarts.search(p, 3, workers=1, better=lambda b: got.append(b.score), searching=searching)
        if boards is not None:
            assert len(got) == boards  # the first board alone: the time went to the compile
        else:
            assert len(got) > 1 and got[-1] > got[0]


@pytest.mark.slow
def test_the_workers_progress_is_told_while_their_work_streams_back(monkeypatch):
    """Before: the budgets' parallel search told its progress only when it waited half a second
    for a worker; while the workers handed work back to each other without a pause (the uniform
    6x6 of 12 colours, a budget of one misfit), no placement was reported for minutes.  Here the
    workers hand back a result every 50 ms for 3 s: the progress is told about every second."""
    from satedge.backtrack import search as backtrack
    from satedge.backtrack import split

    def streaming(worker, tasks, workers, idle=None, more=None, waiting=None):
        end = time.monotonic() + 3
        while time.monotonic() < end:
            time.sleep(0.05)
            yield [], []

    monkeypatch.setattr(split, "forked_map", streaming)
    p = generate(Params(rows=4, cols=4, colors=3, frame=True), seed=2)
    told = []
    found = list(
        split.parallel_search(backtrack.tables(p), 2, paused=lambda *a: told.append(time.monotonic()))
    )
    assert found == []
    assert 2 <= len(told) <= 4


@pytest.mark.slow
# RC2 (sat) answers no board before its optimum, and then the optimum: it cannot answer worse
@pytest.mark.parametrize("method, solver", [m for m in METHODS if m != ("sat", None)] + [("field", None)])
def test_a_longer_time_limit_never_answers_worse(method, solver):
    """The same search (seed 1 of the shuffles), given 2 s and then 6 s, on a generated framed
    7x7 board (84 inner edges): the longer answers a board, none below the shorter's, and each
    answer's board scores what the checker recomputes.  Before: the budget engine answered 30 of
    60 on a uniform 6x6 after 10 minutes where a minute gave 58 (its warm-up's seconds went to
    the compile)."""
    p = generate(Params(rows=7, colors=9, border_colors=3, frame=True), seed=1)
    scores = []
    for seconds in (2, 6):
        try:
            best = maximize(
                p,
                method=method,
                workers=1,
                timeout=seconds,
                shuffle=1,
                **({"solver": solver} if solver else {}),
            )
        except TimeoutError:  # no board yet: below every board
            scores.append(-1)
            continue
        assert score(p, best.board) == best.score
        scores.append(best.score)
    assert scores[1] >= max(scores[0], 0), scores


@pytest.mark.parametrize("workers", [1, 2])
def test_each_worker_s_restarts_follow_from_its_first_seed_not_the_clock(tmp_path, monkeypatch, workers):
    """Before: a new restart took the seed of the slice it started on, and the slices take the
    next seeds in turn, so the clock chose a worker's later restarts.  Here each restart of 200,000
    placements lasts several slices of half a millisecond (calls of the loop of 20,000 candidates): worker
    ``i``'s restarts have the seeds 5 + i, then ``workers`` on each time, however many there were.  (Before
    too, on a busy machine: a restart ran the loop's whole call of 4 million candidates, and the first
    board made whole loaded the assignment's and the branch and bound's code, so that a worker of a
    third of a core made one restart in the 2 s.)"""
    p = generate(Params(rows=6, colors=12, model="uniform"), seed=1)  # no board where every edge fits
    log = tmp_path / "seeds"
    made = restarts.Attempts.restarts(p, cap=200_000)
    monkeypatch.setattr(restarts, "SLICE", 0.0005)
    monkeypatch.setattr(restarts.driver, "CALL_BUDGET", 20_000)
    warm = lns.Search(p)  # that code loaded here, before the search's clock and its workers
    warm.fill([None, None] + list(warm.start().board)[2:])
    attempt = restarts.Attempts.attempt

    def logged(self, puzzle, seed, loop="auto", cap=None, tries=0):
        if cap is None:  # not the attempt that compiles the loop first
            with log.open("a") as f:
                f.write(f"{os.getpid()} {seed}\n")
        return attempt(self, puzzle, seed, loop, cap, tries)

    monkeypatch.setattr(restarts.Attempts, "attempt", logged)
    restarts.search(p, 2, workers=workers, seed=5, attempts=made, searching=True)  # 2 s after the compile
    by_process: dict[str, list[int]] = {}
    for line in log.read_text().splitlines():
        pid, seed = line.split()
        by_process.setdefault(pid, []).append(int(seed))
    assert sorted(seeds[0] for seeds in by_process.values()) == list(range(5, 5 + workers))
    for seeds in by_process.values():
        assert len(seeds) > 2
        assert seeds == list(range(seeds[0], seeds[0] + workers * len(seeds), workers))


@pytest.mark.slow
def test_a_command_whose_time_runs_out_before_the_jobs_answer_keeps_the_best_board_noted(
    run_cli, tmp_path, monkeypatch, engines_of
):
    """Before: where the command's own alarm (its --timeout and a grace) went off before the job's
    process had handed back its answer (on a busy machine, the workers' ends took longer than the
    grace), the command answered TIMEOUT with no board, though the job had noted one.  A grace
    below zero makes the alarm go off first every time."""
    p = Puzzle(rows=1, cols=3, tiles=((1, 2, 1, 1), (2, 1, 1, 3), (3, 3, 3, 3)))
    save_puzzle(p, tmp_path / "p.yaml")
    engines_of("NOTER")
    monkeypatch.setattr(limits, "GRACE", -1.5)
    before = set(children(os.getpid()))  # earlier tests' (multiprocessing's resource tracker, a cluster)
    code, out, err = run_cli("maximize", tmp_path / "p.yaml", "--solver", "noter", "--timeout", 3, "--json")
    obj = json.loads(out)
    assert (code, obj["status"], obj["score"], obj["bound"]) == (3, "TIMEOUT", 2, 2)
    assert [(c["tile"], c["rotation"]) for c in obj["solution"]] == [(2, 3), (1, 0), (0, 3)]
    assert [
        c for c in children(os.getpid()) if alive(c) and c not in before
    ] == []  # the job's, asleep, is gone
