"""The backtracker's loops side by side: ``python`` (satedge.backtrack.advance as it is), ``numba``
(the same function compiled) and ``c`` (search.c, written per cell order) take the same tables and
state by name (satedge.backtrack.loop.arguments) and must give, call by call, the same outcomes,
placements, counts and deepest boards on every path: plain, misfits, the deepest board, a torus,
identical tiles, pause and resume, and two workers.  The exact search's own pure-Python loop
(satedge.backtrack.search, ``loop="python"``) is compared with them on whole solution lists."""

import dataclasses
import inspect
import re

import numpy as np
import pytest
from hypothesis import given, settings

from satedge.backtrack import loop as driver
from satedge.backtrack import native, plans, split
from satedge.backtrack import search as backtrack
from satedge.backtrack.advance import advance
from satedge.backtrack.arrays import Breaks
from satedge.backtrack.kernels import Step
from satedge.best import budget, restarts
from satedge.best.field import frame_labels as field_labels
from satedge.errors import SatedgeError
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Puzzle
from satedge.puzzle.strategies import puzzles

COMPILED = ("numba", "c")


def loops() -> list:
    """The loops to compare with the plain Python one: numba's, and the C loop where a C compiler
    is found (without one, the C loop's cases skip with that reason), over a slot per key and tile
    (``c``, as small boards have it) and over compact entries (``c-compact``, as large ones do)."""
    reason = "no C compiler here (cc, or $CC): the C loop is not built"
    skip = pytest.mark.skipif(native.compiler() is None, reason=reason)
    return ["numba", pytest.param("c", marks=skip), pytest.param("c-compact", marks=skip)]


def bound(t, loop: str) -> tuple:
    """The tables and the loop's name for ``loop``: ``c-compact`` is the C loop over ``t``'s compact
    entries (:func:`satedge.backtrack.native.entries`)."""
    if loop == "c-compact":
        return dataclasses.replace(t, **native.entries(t, compact=True)), "c"
    return t, loop


def chosen(loop: str, monkeypatch) -> str:
    """The loop's name as searches take it; for ``c-compact``, the C loop, every table from now on
    taken as compact entries however small."""
    if loop == "c-compact":
        monkeypatch.setattr(native, "COMPACT_SLOTS", -1)
        return "c"
    return loop


def trace(
    t, loop: str, allow=None, deepest: bool = False, budget: int = 1 << 22, calls: int = 4000, quota=None
) -> list:
    """Each call of ``loop`` over ``t`` from the root, ``budget`` candidates a call, until the search
    is over (at most ``calls`` calls): its outcome, the placements it found, its counts so far and
    (``deepest``) the deepest placements kept; and, first, the loop's name.  ``quota``: a
    :class:`satedge.backtrack.loop.Quota` the search keeps."""
    counts = np.zeros(2, np.int64)
    t, loop = bound(t, loop)
    state = driver.at_root(t, counts, allow, deepest, loop, quota)
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
    assert (python[0], other[0]) == ("python", bound(t, loop)[1])
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


@pytest.mark.slow
@pytest.mark.parametrize("loop", loops())
@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("budget", [1 << 22, 7], ids=["whole", "paused"])
def test_every_loop_takes_the_same_steps_without_misfits(loop, name, budget):
    same((name, budget), backtrack.tables(board(name)), loop, budget=budget)


@pytest.mark.slow
@pytest.mark.parametrize("loop", loops())
@pytest.mark.parametrize("name", list(BOARDS))
@pytest.mark.parametrize("deepest", [False, True], ids=["misfits", "deepest"])
def test_every_loop_takes_the_same_steps_with_a_budget_of_misfits(loop, name, deepest):
    p = board(name)
    t = backtrack.tables(p, misfits=True)
    allow = [0] * 3 + [1] * (p.n - 6) + [2] * 3  # none at first, then one, then two
    same((name, deepest), t, loop, allow=allow, deepest=deepest, budget=97)


@pytest.mark.slow
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


def field(seed: int = 4) -> tuple:
    """The field's path (satedge.best.field): a framed 5x5, the tables of one break per tile and
    none on the frame's runs, a ladder of breaks from depth 12, a quota of two labels whose tiles
    come first, its ramp to depth 14."""
    made = generate(Params(rows=5, cols=5, colors=6, border_colors=2, frame=True), seed=seed)
    inner = sorted({x for tile in made.tiles for x in tile} - field_labels(made) - {made.frame})
    q = {inner[0], inner[1]}
    p, _ = restarts.renumbered(made, seed, first=q)  # the tiles with more sides of q first
    run = {p.label_id[x] for x in field_labels(p)}
    t = backtrack.tables(p, misfits=Breaks(1, frozenset(run)))
    sides = [sum(x in q for x in tile) for tile in p.tiles]
    least = [0] * 4 + [min(d, 2 * d - 8) for d in range(4, 15)] + [0] * (p.n - 15)
    allow = [0] * 12 + [1, 1, 2, 2, 3] + [4] * (p.n - 17)
    return p, t, allow, driver.Quota(sides, least)


@pytest.mark.slow
@pytest.mark.parametrize("loop", loops())
@pytest.mark.parametrize("budget", [1 << 22, 97], ids=["whole", "paused"])
def test_every_loop_takes_the_same_steps_with_a_quota_and_a_ladder_of_breaks(loop, budget):
    """The field's path: the quota's candidates that fall short end their layer, the breaks only
    those the tables of Breaks hold, the deepest board kept: call by call the same."""
    _, t, allow, quota = field()
    python = trace(t, "python", allow=allow, deepest=True, budget=budget, calls=300, quota=quota)
    assert trace(t, loop, allow=allow, deepest=True, budget=budget, calls=300, quota=quota)[1:] == python[1:]
    assert len({tuple(call[3]) for call in python[1:]}) >= 2  # its deepest board bettered as it went


@pytest.mark.slow
@pytest.mark.parametrize("loop", ["python", *loops()])
def test_an_empty_quota_takes_the_steps_of_no_quota(loop):
    """A quota of no label (every tile 0 sides of it, 0 sides asked for) is today's loop."""
    p, t, allow, quota = field(5)
    empty = driver.Quota([0] * len(p.tiles), [0] * p.n)
    kwargs = dict(allow=allow, deepest=True, budget=211, calls=200)
    assert trace(t, loop, quota=empty, **kwargs) == trace(t, loop, **kwargs)
    t0 = backtrack.tables(board("plain"))
    empty = driver.Quota([0] * len(board("plain").tiles), [0] * board("plain").n)
    assert trace(t0, loop, quota=empty) == trace(t0, loop)


def test_a_quota_keeps_every_board_it_finds_above_its_ramp():
    """Every whole board the quota's search finds shows at least the ramp's sides at each depth,
    and it finds every such board of the search without a quota (its tiles numbered with the
    quota's sides falling, as the field's attempts number them)."""
    made = generate(Params(rows=4, cols=4, colors=3, frame=True), seed=4)
    p, _ = restarts.renumbered(made, 1, first={1})
    t = backtrack.tables(p)
    quota = driver.Quota([sum(x == 1 for x in tile) for tile in p.tiles], RAMP)
    with_quota = _quota_run(t, p, quota)
    plain = [list(x) for x in driver.search(t, loop="numba")]

    def keeps(placed):
        total = 0
        for d, o in enumerate(placed):
            total += quota.sides[o >> 2]
            if total < quota.least[d]:
                return False
        return True

    assert sorted(with_quota) == sorted(x for x in plain if keeps(x))
    assert (len(with_quota), len(plain)) == KEPT


RAMP, KEPT = [1, 3, 5, 6, 8, 9, 10, 11] + [0] * 8, (11, 24)  # 11 of the 24 boards keep to the ramp


def _quota_run(t, p, quota) -> list:
    counts = np.zeros(2, np.int64)
    state = driver.at_root(t, counts, loop="numba", quota=quota)
    out = []
    while (outcome := state.step(0, p.n - 1, 1 << 22)) != Step.DONE:
        if outcome == Step.FOUND:
            out.append(state.placed[: p.n].tolist())
    return out


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(puzzles(max_rows=3, max_cols=3, max_cells=9, max_colors=3))
def test_every_loop_takes_the_same_steps_on_generated_puzzles(puzzle):
    # frames, clues, identical tiles, a torus and both matching rules all come from the strategy
    t = backtrack.tables(puzzle)
    python = trace(t, "python", budget=11, calls=600)
    for loop in COMPILED + ("c-compact",) if native.compiler() is not None else ("numba",):
        assert trace(t, loop, budget=11, calls=600)[1:] == python[1:]


@pytest.mark.slow
@pytest.mark.parametrize("loop", ["python", *loops()])
def test_every_loop_finds_the_exact_searchs_own_solutions(loop, monkeypatch):
    """The driver's solutions are those of the exact search's own pure-Python loop, in its order
    (the board of identical tiles aside: its 16,343,040 solutions are 9! arrangements of a few)."""
    loop = chosen(loop, monkeypatch)
    for name in ("plain", "torus", "complementary"):
        p = board(name)
        own = list(backtrack.solutions(p, loop="python"))
        t = backtrack.tables(p)
        placed = list(driver.search(t, loop=loop))
        search = backtrack.plan(p)
        assert [s for found in placed for s in plans.expand(search, found)] == own, name


@pytest.mark.parametrize("loop", loops())
def test_two_workers_on_every_loop_find_every_solution_once(loop, monkeypatch):
    loop = chosen(loop, monkeypatch)
    p = generate(Params(rows=4, cols=4, colors=3, frame=True), seed=2)
    t = backtrack.tables(p)
    alone = sorted(map(tuple, driver.search(t, loop="python")))
    named: list[str] = []
    both = sorted(
        map(tuple, split.parallel_search(t, 2, loop=loop, ran=lambda loop, seconds=0.0: named.append(loop)))
    )
    assert both == alone and len(alone) == 12
    assert set(named) == {loop}


@pytest.mark.parametrize("loop", ["python", *loops()])
def test_a_search_names_the_loop_that_ran_it(loop, monkeypatch):
    loop = chosen(loop, monkeypatch)
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
