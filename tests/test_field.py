"""The field's construction (satedge.best.field): its attempts keep the hard rules, the quota's
ramp and the ladder of breaks; its completion is exact; its settings come from the puzzle, a
puzzle file and the solver string, and one that cannot apply is refused in one line."""

from dataclasses import replace

import pytest
from conftest import ROOT
from hypothesis import given, settings
from hypothesis import strategies as st

from satedge.backtrack.loop import CALL_BUDGET
from satedge.best import field, restarts
from satedge.best.lns import Search
from satedge.engines.field import field_settings
from satedge.errors import SatedgeError
from satedge.jobs.solver import SolverConfig
from satedge.puzzle.checker import board_problem, score
from satedge.puzzle.formats import load_puzzle, puzzle_from_dict, puzzle_to_dict
from satedge.puzzle.generate import Params, generate
from satedge.puzzle.model import Solution


@st.composite
def framed(draw):
    rows, cols = draw(st.integers(3, 5)), draw(st.integers(3, 5))
    colors = draw(st.integers(2, 5))
    return generate(
        Params(rows=rows, cols=cols, colors=colors, border_colors=2, frame=True),
        seed=draw(st.integers(0, 99)),
    )


@st.composite
def construction(draw):
    """A framed board and settings for it: a quota of one to three labels, a ramp, a ladder."""
    p = draw(framed())
    labels = sorted({x for tile in p.tiles for x in tile} - {p.frame})
    q = draw(st.sets(st.sampled_from(labels), min_size=1, max_size=min(3, len(labels))))
    depths = sorted(draw(st.sets(st.integers(0, p.n - 1), min_size=2, max_size=4)))
    ramp = tuple((d, draw(st.integers(0, 2 * d))) for d in depths)
    ladder = tuple(sorted(draw(st.lists(st.integers(1, p.n - 1), max_size=4))))
    return p, field.Settings(field.Quota(frozenset(q), ramp), ladder)


def placed_cells(attempt) -> list[int]:
    return list(attempt.search.cells[: attempt.deepest[0]])


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(construction(), st.integers(1, 50))
def test_an_attempt_keeps_the_quota_the_ladder_and_the_rules_of_breaks(made, seed):
    """Whatever the quota and the ladder: the deepest partial board of an attempt shows at least
    the ramp's sides of the quota's labels at every depth, has at most the ladder's breaks by
    every depth, at most one per tile and none on a frame-run label; and its completion keeps the
    hard rules and scores what the checker recomputes."""
    p, s = made
    attempt = s.with_(attempt=3000).attempts(p).attempt(p, seed, loop="numba")
    attempt.run(None)
    while not attempt.ended:
        attempt.run(None)
    by_cell = attempt.board()
    least, allow = s.attempts(p).least, s.attempts(p).allow
    run_labels = field.frame_labels(p)
    shown = {c: p.orientations[t][r] for c, (t, r) in ((c, x) for c, x in enumerate(by_cell) if x)}
    sides = breaks = 0
    for d, cell in enumerate(placed_cells(attempt)):
        sides += sum(x in s.quota.labels for x in p.tiles[by_cell[cell][0]])
        assert sides >= least[d]
        here = 0
        for adj in p.board.adjacencies:
            a, b = (adj.a, adj.side_a), (adj.b, adj.side_b)
            for (mine, my_side), (other, other_side) in ((a, b), (b, a)):
                if mine == cell and other in shown and placed_cells(attempt).index(other) < d:
                    if shown[mine][my_side] != shown[other][other_side]:
                        here += 1
                        assert shown[mine][my_side] not in run_labels
                        assert shown[other][other_side] not in run_labels
        assert here <= 1
        breaks += here
        assert breaks <= allow[d]
    board = Search(p, seed=seed).complete(by_cell)
    assert board_problem(p, board.board) is None
    assert score(p, board.board) == board.score


def brute(p, by_cell) -> int:
    """The best score of any completion of ``by_cell`` that keeps the hard rules: every
    arrangement of the tiles left on the empty cells in every turn each cell allows."""
    holes = [c for c, x in enumerate(by_cell) if x is None]
    scorer = Search(p)
    best = -1

    def place(k: int, board: list, used: set) -> None:
        nonlocal best
        if k == len(holes):
            best = max(best, scorer.load(Solution(tuple(board))).score)
            return
        for t, r in p.allowed[holes[k]]:
            if t not in used:
                board[holes[k]] = (t, r)
                place(k + 1, board, used | {t})
        board[holes[k]] = None

    place(0, list(by_cell), {x[0] for x in by_cell if x})
    return best


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.booleans())
def test_the_completion_is_exact_on_small_holes(seed, holes, frame):
    """Against every completion: up to 4 empty cells (4! arrangements x 4^4 turns), framed or not."""
    p = generate(Params(rows=3, cols=3, colors=3, frame=frame), seed=seed % 1000)
    s = Search(p, seed=seed)
    first = s.start()
    cells = sorted(range(p.n), key=lambda c: (c * 7919 + seed) % p.n)[:holes]
    by_cell = [None if c in cells else x for c, x in enumerate(first.board)]
    assert s.complete(by_cell).score == brute(p, by_cell)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_completion_is_exact_on_six_holes(seed):
    """Six empty cells of a framed 4x4 (its four inner cells and two of its frame)."""
    p = generate(Params(rows=4, cols=4, colors=4, border_colors=2, frame=True), seed=seed)
    s = Search(p, seed=1)
    first = s.start()
    by_cell = [None if c in (1, 5, 6, 9, 10, 14) else x for c, x in enumerate(first.board)]
    assert s.complete(by_cell).score == brute(p, by_cell) > first.score - 12


def test_the_completion_looks_only_for_a_better_board():
    """Given the score to beat, a completion that cannot beat it answers the assignment's board,
    and one that can answers a board above it."""
    p = generate(Params(rows=3, cols=3, colors=3), seed=2)
    s = Search(p, seed=1)
    first = s.start()
    by_cell = [None if c in (0, 4, 8) else x for c, x in enumerate(first.board)]
    best = brute(p, by_cell)
    assert Search(p, seed=1).complete(by_cell, beat=best - 1).score == best
    assert Search(p, seed=1).complete(by_cell, beat=best).score <= best


def test_the_settings_of_eternity_ii_are_derived_from_its_board():
    """No puzzle file carries settings: on Eternity II with its starter the rules give the field's
    quota of its 469 board, the published ramp (scaled to its quota's 119 sides besides the starter's) and ladder; the
    quota of its 470 board is an option."""
    p = load_puzzle("eternity2/e2-starter")
    s = field.Settings.of(p)
    assert (sorted(s.quota.labels), s.ladder, s.attempt) == ([2, 17, 18], field.LADDER, field.ATTEMPT)
    assert (field.ATTEMPT, s.patience, field.clue_breaks(p)) == (9 * 10**9, 10**8, ())
    assert s.quota.points == ((16, 0), (26, 27), (56, 69), (76, 86), (102, 103), (160, 116))
    assert field.LADDER[:10] == field.PUBLISHED and field.frame_labels(p) == {1, 5, 9, 13, 17}
    published = field_settings(p, SolverConfig.parse("field:quota=13/16/10"))
    least = published.attempts(p).least  # the depths count the starter's cell, which has no side of the quota
    assert (least[16], least[26], least[56], least[102], least[160], least[161]) == (0, 28, 71, 106, 119, 0)


def test_the_quota_labels_gather_on_the_fewest_tiles():
    """Of Eternity II's 680 sets of a frame-run label and two others, the field's two published
    quotas come first: 2, 17, 18 (119 sides on 91 tiles, the starter's left out) and 10, 13, 16 (122
    on 94)."""
    p = load_puzzle("eternity2/e2-starter")
    tiles = p.tiles[:138] + p.tiles[139:]  # the starter's tile left out

    def gather(labels):
        shown = sum(any(x in labels for x in t) for t in tiles)
        return sum(x in labels for t in tiles for x in t), shown

    assert (gather({2, 17, 18}), gather({10, 13, 16}), gather({1, 10, 14})) == (
        (119, 91),
        (122, 94),
        (120, 99),
    )
    run = sorted(field.frame_labels(p))
    rest = sorted({x for t in p.tiles for x in t} - set(run) - {0})
    sets = [{r, a, b} for r in run for i, a in enumerate(rest) for b in rest[i + 1 :]]
    ranked = sorted(sets, key=lambda q: -gather(q)[0] / gather(q)[1])
    assert len(sets) == 680 and ranked[:2] == [{2, 17, 18}, {10, 13, 16}]
    assert field.gathered(p) == frozenset({2, 17, 18})
    assert field.gathered(load_puzzle("eternity2/e2-clues")) == frozenset({2, 17, 18})


def test_a_clue_the_blocks_and_columns_meet_opens_breaks_where_it_is_met_and_closed():
    """On Eternity II with its five clues, those on N3 and N14 (rows 11 to 15 are filled by the
    blocks and columns, after depth 181): the first of each one's neighbours is placed at depth 185
    and 242, the last at 194 (the cell below N3, in the first block) and 250 (the last block)."""
    p = load_puzzle("eternity2/e2-clues")
    order = restarts.Attempts((), field=True).order(p)
    for row, col, first, last in ((13, 2, 185, 194), (13, 13, 242, 250)):
        beside = [p.board.cell(row + dr, col + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        depths = sorted(order.index(c) for c in beside)
        assert (depths[0] >= 181, depths[0], depths[-1]) == (True, first, last)
    assert field.clue_breaks(p) == (185, 194, 242, 250)
    assert field.Settings.of(p).ladder == (
        185,
        194,
        202,
        207,
        212,
        217,
        222,
        226,
        229,
        233,
        237,
        239,
        241,
        242,
        243,
        245,
        247,
        249,
        250,
        251,
    )


def test_an_attempt_that_does_not_reach_the_ladder_in_its_patience_ends():
    """An attempt held short of the depth where its breaks begin ends once it has made its
    patience's placements; its worker's next attempt has twice the patience."""
    p = load_puzzle("eternity2/e2-starter")
    made = field.Settings.of(p).attempts(p)
    never = replace(made, reach=p.n + 1, patience=10**6)
    a = never.attempt(p, 0)
    a.run()
    assert a.ended and 10**6 <= a.placements < 10**6 + 2 * CALL_BUDGET and a.deepest[0] < p.n
    assert never.attempt(p, 0, tries=3).patience == 8 * 10**6
    # an attempt that has reached the depth keeps it through a rebase (its deepest kept from a
    # shallower depth on), so its patience never ends it
    a = replace(made, reach=5, patience=3 * CALL_BUDGET).attempt(p, 0, cap=1)
    a.run()  # one run of the loop
    assert a.ended and a.reached and a.placements <= CALL_BUDGET
    a.rebase(0)
    assert a.reached and a.deepest[0] == 0
    a.ended, a.cap = False, 6 * CALL_BUDGET
    a.run()
    assert a.reached and a.placements >= 6 * CALL_BUDGET
    assert (made.reach, made.patience) == (201, 10**8)


def test_clues_lower_the_ramp_and_their_sides_count_on_top():
    """Eternity II with its five clues: the ramp 10% lower (2.5% for each clue past the first),
    scaled to the 251 cells besides the clues'; the clues' own sides of the quota on top."""
    p = load_puzzle("eternity2/e2-clues")
    s = field_settings(p, SolverConfig.parse("field:quota=13/16/10"))
    assert s.quota.points == ((16, 0), (26, 24), (55, 62), (75, 78), (100, 93), (157, 105))
    assert field.clue_sides(p, s.quota.labels) == 2 and field.label_sides(p, s.quota.labels) == 120
    least = s.attempts(p).least
    # depth d has placed d + 1 - 5 tiles after the five clues
    assert (least[4], least[30], least[161], least[162]) == (0, 24 + 2, 105 + 2, 0)


def test_a_quota_with_more_sides_per_cell_than_eternity_iis_is_asked_no_more_per_cell():
    """Before: the ramp's counts were scaled to Q's sides alone.  On the planted 14x14 the rule's
    labels 1/17/18 have 113 sides on 191 cells (0.59 per cell, Eternity II's 122 on 255 0.48), and
    the ramp asked for 99 of them by depth 120: the plain command answered 300 at 60 s and 303 at
    600 s, capped at Eternity II's sides per cell 329 and 331 (benchmarks/planted/bench-planted.md,
    tests/test_bench_planted.py).  Now the ramp asks no more per cell than Eternity II's; Eternity
    II's own is as it was."""
    p = load_puzzle(ROOT / "benchmarks/planted/boards/e2like-14.yaml")
    s = field.Settings.of(p)
    assert (sorted(s.quota.labels), field.label_sides(p, s.quota.labels), p.n - len(p.clues)) == (
        [1, 17, 18],
        113,
        191,
    )
    # 122 * 191 / 255 = 91.4 sides in place of 113: 119 * 91.4 / 122 * (1 - 4 * 2.5%) = 80 by depth 120
    assert s.quota.points == ((12, 0), (19, 18), (42, 47), (57, 59), (76, 71), (120, 80))
    assert field.Settings.of(load_puzzle("eternity2/e2-starter")).quota.points[-1] == (160, 116)


def test_the_settings_scale_to_any_board():
    p = generate(Params(rows=8, cols=8, colors=9, border_colors=3, frame=True), seed=1)
    s = field.Settings.of(p)
    # the columns begin at depth 6*8 + 2*2 = 52 on an 8x8 (k = 2 rows left); Eternity II's 16 breaks over
    # the 55 depths from 201 become 3 over the 12 depths from 52: its 1st, 6th and 11th (201, 225, 241)
    assert s.ladder == (52, 57, 61)
    assert len(s.quota.labels) == 3 and s.quota.points[0] == (4, 0)
    order = restarts.scan(p)
    assert sorted(order) == list(range(64)) and order[52] == 6 * 8 + 2


@pytest.mark.parametrize(
    "options, message",
    [
        ({"quota": (99,)}, "quota: 99 is not a label of the puzzle's tiles (the frame's is no quota label)"),
        ({"quota": (0,)}, "quota: 0 is not a label of the puzzle's tiles (the frame's is no quota label)"),
        ({"ladder": (201, 400)}, "ladder: depth 400 is past the board's last cell (255)"),
        ({"ramp": ((16, 0), (300, 5))}, "ramp: depth 300 is past the board's last cell (255)"),
        ({"quota": (), "ramp": ((16, 0), (26, 5))}, "ramp: there is no quota for it to count (quota none)"),
        # the quota's labels 13, 16 and 10 have 24 + 50 + 48 sides on Eternity II's tiles
        (
            {"quota": (13, 16, 10), "ramp": ((16, 0), (100, 123), (160, 123))},
            "ramp: 123 sides of the quota's labels by depth 100, but the tiles have 122",
        ),
    ],
)
def test_a_setting_that_cannot_apply_is_refused_in_one_line(options, message):
    p = load_puzzle("eternity2/e2-starter")
    with pytest.raises(SatedgeError) as e:
        field_settings(p, SolverConfig(engine="field").with_settings(**options))
    assert str(e.value) == message


def test_the_solver_string_gives_every_setting():
    p = load_puzzle("eternity2/e2-starter")
    solver = SolverConfig.parse("field:quota=1/2,ladder=210/200,ramp=10:0/20:10,attempt=5000,completion=fill")
    assert str(solver) == "field:quota=1/2,ramp=10:0/20:10,ladder=200/210,attempt=5000,completion=fill"
    s = field_settings(p, solver)
    assert (sorted(s.quota.labels), s.quota.points, s.ladder, s.attempt, s.complete) == (
        [1, 2],
        ((10, 0), (20, 10)),
        (200, 210),
        5000,
        False,
    )
    none = field_settings(p, SolverConfig.parse("field:quota=none,ladder=none"))
    assert (none.quota, none.ladder) == (None, ())


def test_a_puzzle_file_with_engine_settings_is_refused():
    """Until 2026-12-06 a puzzle file could carry the field's settings under ``field:``."""
    data = puzzle_to_dict(generate(Params(rows=3, cols=3, colors=3, frame=True), seed=1))
    with pytest.raises(SatedgeError) as e:
        puzzle_from_dict(data | {"field": {"attempt": 5}})
    assert str(e.value) == (
        "field: a puzzle file carries no engine settings; give them to the engine "
        "(--quota, --ramp, --ladder, --attempt, or field:quota=... in a solver string)"
    )


def test_the_attempt_option_goes_before_the_rule():
    p = load_puzzle("eternity2/e2-starter")
    assert field_settings(p, SolverConfig(engine="field")).attempt == field.ATTEMPT == 9 * 10**9
    assert field_settings(p, SolverConfig.parse("field:attempt=5000")).attempt == 5000


@pytest.mark.slow
def test_every_board_the_search_reports_keeps_the_rules_and_its_answer_is_the_best_reported():
    p = generate(Params(rows=8, cols=8, colors=8, border_colors=3, frame=True), seed=2)
    got = []
    best = field.search(p, 4, workers=1, seed=3, better=got.append, loop="numba")
    assert got and all(board_problem(p, b.board) is None and score(p, b.board) == b.score for b in got)
    assert [b.score for b in got] == sorted({b.score for b in got})  # each better than the last
    assert best.score == got[-1].score


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 999))
def test_a_bound_keeps_exactly_the_boards_that_beat_it(seed):
    """An attempt allowed a break at every depth, run to its end, keeps the whole board with the
    fewest misfits, m; bounded by b misfits, it reaches a whole board exactly where b >= m, and
    then the same one."""
    p = generate(Params(rows=2, cols=3, colors=3, model="uniform"), seed=seed)
    made = field.Settings(None, tuple(range(1, p.n))).attempts(p)

    def deepest(bound=None):
        attempt = made.attempt(p, seed, loop="numba")
        if bound is not None:
            attempt.bound(bound)
        while not attempt.ended:
            attempt.run(None)
        return attempt.deepest, attempt.board()

    (depth, m), board = deepest()
    assert depth == p.n  # a break at every depth: some whole board
    assert score(p, Solution(tuple(board))) == len(p.board.adjacencies) - m
    assert deepest(m) == ((p.n, m), board)
    if m:
        assert deepest(m - 1)[0][0] < p.n
