"""The five-clue Eternity II benchmark (benchmarks/clues): its report is made from its committed
rows, and its committed boards score what their rows say."""

from __future__ import annotations

import json

from conftest import ROOT, benchmark_script, prose

from satedge.puzzle.checker import score
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.solutions import load_solution

HERE = ROOT / "benchmarks" / "clues"


def test_the_report_is_made_from_its_rows():
    module = benchmark_script("clues")
    assert module.report() == (HERE / "bench-clues.md").read_text()
    assert {r["study"] for r in module.rows()} <= set(module.STUDIES)


def test_each_committed_board_scores_its_rows_score_and_keeps_the_clues(run_cli):
    boards = [r for r in benchmark_script("clues").rows() if "board" in r]
    assert [r["score"] for r in boards if r["puzzle"] == "eternity2/e2-clues"] != []
    for r in boards:
        puzzle = load_puzzle(r["puzzle"])
        board = load_solution(HERE / r["board"], puzzle)
        assert score(puzzle, board) == r["score"]
        assert all(
            board.placements[puzzle.board.cell(c.row, c.col)] == (c.tile, c.rotation) for c in puzzle.clues
        )
        code, out, err = run_cli("check", r["puzzle"], HERE / r["board"])
        assert (code, err) == (1, "") and out.startswith(f"{HERE / r['board']}: invalid: ")
        assert out.endswith(f"(a board that scores {r['score']} of 480 inner edges)\n")


def test_the_plain_command_reaches_458_in_ten_minutes_on_the_five_clue_board():
    """The issue's target, as committed (one run)."""
    rows = benchmark_script("clues").rows()
    then = next(r for r in rows if r["config"] == "the plain command, 10 minutes")
    row = next(r for r in rows if r["config"] == "five clues, the plain command, 10 minutes")
    for r in (then, row):
        assert r["command"] == "satedge maximize eternity2/e2-clues --workers 2 --timeout 600"
        assert r["score"] >= 458
    assert f"{then['score']} in 10 minutes on 2 cores" in prose(HERE / "bench-clues.md")
    assert f"answered {row['score']} in 10 minutes on the five-clue board" in prose(HERE / "bench-clues.md")
    assert f"answered {row['score']} in 10 minutes on 2 cores" in prose(
        ROOT / "docs" / "guides" / "maximize.md"
    )


def test_the_changelog_quotes_the_rows():
    score = {r["config"]: r["score"] for r in benchmark_script("clues").rows() if r["study"] != "before"}
    before = next(r for r in benchmark_script("clues").rows() if r["config"] == "the plain command")
    changes = prose(ROOT / "CHANGELOG.md")
    assert (
        f"the plain command answered {score['the plain command, 10 minutes']} in 10 minutes on 2 cores, where it "
        f"answered {before['score']} in 3" in changes
    )
    assert (
        f"the rules' quota answered {score['the rules (Q = 1, 10, 14)']} in a minute, the published one "
        f"{score['the published quota']}" in changes
    )
    rows = benchmark_script("clues").rows()
    rules = [
        r["score"] for r in rows if r["study"] == "rules" and r["config"].startswith("the plain command")
    ]
    old = [r["score"] for r in rows if r["study"] == "rules" and r["config"].startswith("the quota and ramp")]
    five = [r["score"] for r in rows if r["study"] == "rules" and r["config"].startswith("five clues")]
    assert (
        f"the plain command answered {', '.join(map(str, rules))} in a minute on 4 tie orders, beside "
        f"{', '.join(map(str, old))} with the quota and ramp its file once carried; on the five-clue board, "
        f"{five[0]} and {five[1]} in a minute where the rules before answered "
        f"{score['the rule of the time (16 breaks from 202)']}, "
        f"and {score['five clues, the plain command, 10 minutes']} in 10 minutes" in changes
    )


def test_the_rules_reach_464_in_a_minute_on_the_starter_board_as_committed():
    """The issue's target for Eternity II with its starter and no settings in its file: the plain
    command's committed minute (one run) at 464 or more, and the tie orders' beside the quota and
    ramp its file once carried."""
    got = benchmark_script("clues").rows()
    plain = next(r for r in got if r["study"] == "rules" and r["config"] == "the plain command")
    assert plain["command"] == "satedge maximize eternity2/e2-starter --workers 2 --timeout 60"
    assert plain["score"] >= 464
    ours = [r for r in got if r["study"] == "rules" and r["config"].startswith("the plain command")]
    theirs = [r for r in got if r["study"] == "rules" and r["config"].startswith("the quota and ramp")]
    assert len(ours) == len(theirs) == 4
    assert all(
        r["command"].endswith("--timeout 60" if i == 0 else f"--shuffle {i}") for i, r in enumerate(ours)
    )
    assert all(
        "--quota 13/16/10 --ramp 16:0/26:28/56:71/76:89/102:106/160:119" in r["command"] for r in theirs
    )


def test_the_pilots_quote_what_the_rules_were_chosen_on():
    text = prose(HERE / "bench-clues.md")
    module = benchmark_script("clues")
    got = module.rows()
    gathered = [r["score"] for r in got if r["config"].startswith("the 469 board's quota")]
    assert len(gathered) == 4 and min(gathered) == 410
    assert f"the first answered {', '.join(map(str, gathered))} in a minute" in text


def test_the_guide_quotes_the_passes_study():
    """The attempts with no patience, as committed (``--passes``): the guide's figure."""
    module = benchmark_script("clues")
    got = [json.loads(line) for line in module.PASSES.read_text().splitlines()]
    mine = [r for r in got if r["quota"] == "2/17/18"]
    stuck = sum(r["passed"] is None for r in mine)
    assert len(mine) == 12 and {r["reach"] for r in mine} == {201}
    assert (
        f"with the quota 2/17/18, {stuck} of 12 attempts with no patience never reached depth 201 in 10 s"
        in prose(ROOT / "docs" / "guides" / "maximize.md")
    )
    assert f"with 2/17/18, {stuck} of 12 attempts never reached depth 201 in 10 s" in prose(
        HERE / "bench-clues.md"
    )


def test_a_committed_hour_of_the_plain_command_reaches_462_on_the_five_clue_board():
    """The issue's target, as committed (one run): at most an hour, the plain command, and the
    guide and the changelog quote it."""
    rows = benchmark_script("clues").rows()
    hour = next(r for r in rows if r["study"] == "neighbours hour")
    assert hour["command"] == "satedge maximize eternity2/e2-clues --workers 2 --timeout 3600"
    assert hour["score"] >= 462
    assert f"the plain command under it answered {hour['score']} in the committed hour" in prose(
        HERE / "bench-clues.md"
    )
    assert f"the rule now, {hour['score']} in 10 minutes and in the committed hour" in prose(
        ROOT / "docs" / "guides" / "maximize.md"
    )
    assert (
        f"The plain command answered {hour['score']} in the\n  committed hour"
        in (ROOT / "CHANGELOG.md").read_text()
    )
