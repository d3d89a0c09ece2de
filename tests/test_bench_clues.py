"""The five-clue Eternity II benchmark (benchmarks/clues): its report is made from its committed
rows, and its committed boards score what their rows say."""

from __future__ import annotations

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
    row = next(r for r in benchmark_script("clues").rows() if r["config"] == "the plain command, 10 minutes")
    assert row["command"] == "satedge maximize eternity2/e2-clues --workers 2 --timeout 600"
    assert row["score"] >= 458
    assert f"{row['score']} in 10 minutes on 2 cores" in prose(HERE / "bench-clues.md")
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
