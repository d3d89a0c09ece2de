"""The backtracker's loops side by side: ``python`` (satedge.backtrack.advance as it is), ``numba``
(the same function compiled) and ``c`` (search.c, written per cell order) take the same tables and
state by name (satedge.backtrack.loop.arguments) and must give, call by call, the same outcomes,
placements, counts and deepest boards on every path: plain, misfits, the deepest board, a torus,
identical tiles, pause and resume, and two workers.  The exact search's own pure-Python loop
(satedge.backtrack.search, ``loop="python"``) is compared with them on whole solution lists."""

import inspect
import re

import numpy as np
import pytest
from hypothesis import given, settings

from satedge.backtrack import loop as driver
from satedge.backtrack import native, plans, split
from satedge.backtrack import search as backtrack
from satedge.backtrack.advance import advance
from satedge.backtrack.kernels import Step
from satedge.best import budget
from satedge.errors import SatedgeError
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle
from satedge.puzzle.strategies import puzzles

COMPILED = ("numba", "c")


def loops() -> list:
    """The loops to compare with the plain Python one: numba's, and the C loop where a C compiler
    is found (without one, the C loop's cases skip with that reason)."""
    reason = "no C compiler here (cc, or $CC): the C loop is not built"
    return ["numba", pytest.param("c", marks=pytest.mark.skipif(native.compiler() is None, reason=reason))]


def trace(t, loop: str, allow=None, deepest: bool = False, budget: int = 1 << 22, calls: int = 4000) -> list:
    """Each call of ``loop`` over ``t`` from the root, ``budget`` candidates a call, until the search
    is over (at most ``calls`` calls): its outcome, the placements it found, its counts so far and
    (``deepest``) the deepest placements kept; and, first, the loop's name."""
    counts = np.zeros(2, np.int64)
    state = driver.at_root(t, counts, allow, deepest, loop)
    out: list = [state.loop]
    last = len(t.ndeps) - 1
    for _ in range(calls):
        outcome = state.step(0, last, budget)
        found = state.placed[: last + 1].tolist() if outcome == Step.FOUND else None
        kept = None if state.best is None else state.best.tolist()
        out.append((Step(outcome).name, found, counts.tolist(), kept))
        if outcome == Step.DONE:
            break
    return out


_PYTHON: dict = {}  # the plain Python loop's traces, each made once for the loops compared with it


def same(case: tuple, t, loop: str, **kwargs) -> None:
    """``loop``'s trace is the plain Python loop's, its name apart (``case`` names the tables and
    arguments, for the Python trace made once)."""
    if case not in _PYTHON:
        _PYTHON[case] = trace(t, "python", **kwargs)
    python, other = _PYTHON[case], trace(t, loop, **kwargs)
    assert (python[0], other[0]) == ("python", loop)
    assert other[1:] == python[1:]


BOARDS = {
    "plain": Params(rows=3, cols=3, colors=3, frame=True),
    "torus": Params(rows=3, cols=4, colors=4, topology="torus"),
    "twins": Params(rows=3, cols=3, colors=2),  # two colours: identical tiles
    "complementary": Params(rows=3, cols=3, colors=4, matching="complementary"),
}


def board(name: str, seed: int = 1) -> Puzzle:
    return generate(BOARDS[name], seed=seed)


def test_the_boards_take_the_paths_they_are_named_for():
    assert backtrack.tables(board("twins")).twin is not None
    assert backtrack.tables(board("plain")).twin is None
    assert max(backtrack.tables(board("torus")).ndeps) == 4  # further neighbours, checked one by one


@pytest.mark.parametrize("loop", loops())
@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("budget", [1 << 22, 7], ids=["whole", "paused"])
def test_every_loop_takes_the_same_steps_without_misfits(loop, name, budget):
    same((name, budget), backtrack.tables(board(name)), loop, budget=budget)


@pytest.mark.parametrize("loop", loops())
@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("deepest", [False, True], ids=["misfits", "deepest"])
def test_every_loop_takes_the_same_steps_with_a_budget_of_misfits(loop, name, deepest):
    p = board(name)
    t = backtrack.tables(p, misfits=True)
    allow = [0] * 3 + [1] * (p.n - 6) + [2] * 3  # none at first, then one, then two
    same((name, deepest), t, loop, allow=allow, deepest=deepest, budget=97)


@pytest.mark.parametrize("loop", loops())
def test_every_loop_keeps_the_same_deepest_boards_of_a_long_search(loop):
    """The restarts' path: a budget of misfits, the deepest placements kept, a slice of
    candidates a call, stopped long before its end."""
    p = generate(Params(rows=5, cols=5, colors=9), seed=4)
    t = backtrack.tables(p, misfits=True)
    allow = [0] * 12 + [1] * (p.n - 12)
    python, other = (trace(t, x, allow=allow, deepest=True, budget=5000, calls=40) for x in ("python", loop))
    assert other[1:] == python[1:]
    assert python[-1][0] == "PAUSED"  # still searching
    assert len({tuple(call[3]) for call in python[1:]}) >= 3  # its deepest board bettered as it went


@settings(max_examples=40, deadline=None)
@given(puzzles(max_rows=3, max_cols=3, max_cells=9, max_colors=3))
def test_every_loop_takes_the_same_steps_on_generated_puzzles(puzzle):
    # frames, clues, identical tiles, a torus and both matching rules all come from the strategy
    t = backtrack.tables(puzzle)
    python = trace(t, "python", budget=11, calls=600)
    for loop in COMPILED if native.compiler() is not None else ("numba",):
        assert trace(t, loop, budget=11, calls=600)[1:] == python[1:]


@pytest.mark.parametrize("loop", ["python", *loops()])
def test_every_loop_finds_the_exact_searchs_own_solutions(loop):
    """The driver's solutions are those of the exact search's own pure-Python loop, in its order
    (the board of identical tiles aside: its 16,343,040 solutions are 9! arrangements of a few)."""
    for name in ("plain", "torus", "complementary"):
        p = board(name)
        own = list(backtrack.solutions(p, loop="python"))
        t = backtrack.tables(p)
        placed = list(driver.search(t, loop=loop))
        search = backtrack.plan(p)
        assert [s for found in placed for s in plans.expand(search, found)] == own, name


@pytest.mark.parametrize("loop", loops())
def test_two_workers_on_every_loop_find_every_solution_once(loop):
    p = generate(Params(rows=4, cols=4, colors=3, frame=True), seed=2)
    t = backtrack.tables(p)
    alone = sorted(map(tuple, driver.search(t, loop="python")))
    named: list[str] = []
    both = sorted(map(tuple, split.parallel_search(t, 2, loop=loop, ran=named.append)))
    assert both == alone and len(alone) == 12
    assert set(named) == {loop}


@pytest.mark.parametrize("loop", ["python", *loops()])
def test_a_search_names_the_loop_that_ran_it(loop):
    p = generate(Params(rows=4, cols=4, colors=3, frame=True), seed=2)
    cost = backtrack.Cost()
    found = list(backtrack.solutions(p, loop=loop, cost=cost))
    assert (len(found), cost.loop) == (len(list(backtrack.solutions(p, loop="python"))), loop)
    boards = budget.fewest(generate(Params(rows=3, cols=3, colors=5), seed=1), loop="numba")
    assert boards.loop == "numba"


def test_a_loop_that_cannot_run_says_why(monkeypatch):
    p = board("plain")
    t = backtrack.tables(p)
    monkeypatch.setenv("CC", "")
    with pytest.raises(SatedgeError) as e:
        driver.at_root(t, loop="c")
    assert str(e.value) == "the C loop does not run here: $CC is empty"
    with pytest.raises(SatedgeError) as e:
        driver.at_root(t, loop="fortran")
    assert str(e.value) == "unknown loop 'fortran'; choose from auto, python, numba, c"
    assert driver.at_root(t, loop="auto").loop == "numba"  # auto: numba's where the C loop is not built
    with pytest.raises(SatedgeError) as e:
        list(backtrack.solutions(p, loop="python", workers=2))
    assert str(e.value) == "backtracking with several workers needs a compiled loop (numba or c), not python"


def test_every_loop_takes_the_tables_and_the_state_by_the_names_of_its_parameters():
    """One contract: numba's and Python's loop are one function whose parameters name the tables'
    and the state's fields; the C loop's parameters (search.c) name them too, in the order the
    loader passes them."""
    tables = set(backtrack.tables(board("plain")).__dataclass_fields__)
    state = set(driver.State.__dataclass_fields__)
    params = list(inspect.signature(advance).parameters)
    assert params[-4:] == ["floor", "last", "budget", "counts"]
    assert all(name in tables or name in state for name in params[:-4])
    c = native.SEARCH_C.read_text()
    signature = re.search(r"i64 advance\(([^)]*)\)", c).group(1)
    names = [re.split(r"[ *]+", arg.strip())[-1] for arg in signature.split(",")]
    assert names == [*native.ARGUMENTS, *native.STATE, "floor", "last", "budget", "counts"]
    assert set(native.ARGUMENTS) <= tables and set(native.STATE) <= state
