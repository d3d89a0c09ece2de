"""Shipped puzzles show their names: the board suite's files are named by their place in the
suite (they all said `puzzle`, the name of their source's `.puz` files), in rows, reports and
pictures, and a converted file says the name it is given."""

import json
from pathlib import Path

import pytest
import yaml
from conftest import PUZZLES, ROOT

from satedge.puzzle.formats import load_puzzle

SUITE = sorted((PUZZLES / "board-suite").rglob("*.yaml"))


@pytest.mark.slow
def test_every_board_of_the_suite_is_named_by_its_place():
    """Before: every one of them said `name: puzzle`."""
    assert len(SUITE) == 45
    for path in SUITE:
        place = path.relative_to(PUZZLES).with_suffix("").as_posix()
        assert load_puzzle(place).name == place == yaml.safe_load(path.read_text())["name"]


def test_a_run_and_its_report_and_picture_name_the_board(run_cli, tmp_path):
    """Before: the row said puzzle_name 'puzzle', the report named the board by its path and the
    picture's title said "puzzle"."""
    spec = tmp_path / "suite.yaml"
    spec.write_text(
        "name: suite\npuzzles: [board-suite/4/5/board_0, board-suite/4/5/board_1]\n"
        "encodings: [support]\nsolvers: [backtrack]\ntask: solve\ntimeout: 60\n"
    )
    out = tmp_path / "out"
    code, _, err = run_cli("run", spec, "--out", out, "--workers", "1")
    assert code == 0, err
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["puzzle_name"] for r in rows) == ["board-suite/4/5/board_0", "board-suite/4/5/board_1"]
    code, report, err = run_cli("report", out, "--no-plots")
    assert code == 0 and "| board-suite/4/5/board_0 |" in report and "| board-suite/4/5/board_1 |" in report
    picture = tmp_path / "b.svg"
    code, _, err = run_cli("render", "board-suite/4/5/board_0", "-o", picture)
    assert code == 0, err
    assert "<title>board-suite/4/5/board_0: " in picture.read_text()


def test_a_converted_file_says_the_name_it_is_given(run_cli, tmp_path):
    out = tmp_path / "b.yaml"
    assert run_cli("convert", "board-suite/4/5/board_0", out, "--name", "my/board")[0] == 0
    assert load_puzzle(out).name == "my/board"
    assert run_cli("convert", "board-suite/4/5/board_0", tmp_path / "c.yaml", "--name", " ") == (
        2,
        "",
        "satedge: error: board-suite/4/5/board_0: --name takes a name: not blank, on one line\n",
    )
    assert not (tmp_path / "c.yaml").exists()
    readme = (ROOT / "puzzles" / "board-suite" / "README.md").read_text()
    assert "--name board-suite/${d#$B/}/$(basename $b)" in readme
    assert Path(out).read_text().splitlines()[0] == "name: my/board"
