"""benchmarks/planted: the report is what its rows make, its boards are what `satedge generate`
makes, and every kept board scores what its row says."""

import json

from conftest import ROOT, benchmark_script

from satedge.puzzle.checker import board_problem, score
from satedge.puzzle.formats import load_puzzle, puzzle_to_yaml
from satedge.puzzle.generate import Params, eternity2_cells, generate
from satedge.puzzle.solutions import load_solution

HERE = ROOT / "benchmarks" / "planted"


def _bench():
    return benchmark_script("planted")


def test_the_report_is_made_from_the_rows():
    bench = _bench()
    assert (HERE / "bench-planted.md").read_text() == bench.report()
    rows = bench.rows()
    assert {(r["board"], r["engine"]) for r in rows} >= {
        ("e2like-16", "satedge"),
        ("e2like-16", "cpsat"),
        ("uniform-16", "satedge"),
        ("uniform-16", "cpsat"),
    }
    for r in rows:  # the score at 60 s is the curve's, the answer at least as good
        assert r["early"] == max(s for t, s in r["curve"] if t <= 60) <= r["score"] <= r["edges"]


def test_the_boards_are_what_generate_makes(run_cli, tmp_path):
    bench = _bench()
    made = sorted({r["board"] for r in bench.rows()})
    assert {"e2like-16", "uniform-16"} <= set(made)
    for name in made:  # each row's board, as its generate command makes it
        out = tmp_path / f"{name}.yaml"
        assert run_cli("generate", *bench.BOARDS[name], "-o", out) == (0, "", "")
        assert (HERE / "boards" / f"{name}.yaml").read_text() == out.read_text(), name
    e2like = generate(
        Params(rows=16, colors=17, border_colors=5, frame=True, clues_at=eternity2_cells(16)), 1
    )
    assert (HERE / "boards" / "e2like-16.yaml").read_text() == puzzle_to_yaml(e2like)
    assert len(e2like.clues) == 5 and len(e2like.board.adjacencies) == 480


def test_every_kept_board_scores_what_its_row_says():
    for r in _bench().rows():
        if "board_file" in r:
            p = load_puzzle(HERE / "boards" / f"{r['board']}.yaml")
            board = load_solution(HERE / r["board_file"], p)
            assert board_problem(p, board) is None and score(p, board) == r["score"], r["board_file"]
    assert json.loads((HERE / "bench-planted.jsonl").read_text().splitlines()[0])["timeout"] == 600


def test_the_capped_ramp_against_the_rules_before_it():
    """The field's ramp capped at Eternity II's sides per cell (5997499) against the rules of
    df738a9, the plain command on the same boards: the figures tests/test_field.py and the
    changelog quote."""
    by = {
        (r["board"], r["commit"]): (r["early"], r["score"])
        for r in _bench().rows()
        if r["engine"] == "satedge"
    }
    assert [by[b, "df738a9"] for b in ("e2like-12", "e2like-14")] == [(211, 211), (300, 303)]
    assert [by[b, "5997499"] for b in ("e2like-12", "e2like-14", "e2like-16")] == [
        (210, 220),
        (329, 331),
        (458, 460),
    ]
