"""benchmarks/speed/bench-speed.md is what its committed rows give: every table and figure is
recomputed from benchmarks/speed/bench-speed-rows.jsonl by the script's own report."""

import json

from conftest import ROOT, benchmark_script

LINES = (ROOT / "benchmarks" / "speed" / "bench-speed-rows.jsonl").read_text().splitlines()


def _script():
    return benchmark_script("speed")


def test_the_report_is_its_rows():
    meta, rows = json.loads(LINES[0]), [json.loads(line) for line in LINES[1:]]
    assert _script().report(rows, meta) == (ROOT / "benchmarks" / "speed" / "bench-speed.md").read_text()


def test_the_rows_answer_what_the_report_claims():
    rows = [json.loads(line) for line in LINES[1:]]
    enum = [r for r in rows if r["target"] == "enumerate"]
    assert {r["solutions"] for r in enum if r["puzzle"] == "4x4-15432" and r["exit"] == 0} == {15432}
    assert {r["solutions"] for r in enum if r["puzzle"] == "4x4-4800" and r["exit"] == 0} == {4800}
    assert {(r["puzzle"], r["models"]) for r in enum if r["encoding"] == "edgecolor-corners-sym"} == {
        ("4x4-15432", 15432 // 4),
        ("4x4-4800", 4800 // 8),
    }  # a model per board-turn orbit (there: of look-alike pairs)
    assert all(r["mismatches"] == 0 for r in rows if r["target"] == "crosscheck")
    encode = [r for r in rows if r["target"] == "encode"]
    assert {r["sha256"] for r in encode} == {
        "4729a382887c6638bf9f42693383729a4873884349415d4c04979f7f6d1770a3"
    }  # the bytes the list-built code wrote


def test_the_backtracker_rows_answer_the_report():
    rows = [json.loads(line) for line in LINES[1:] if json.loads(line)["target"] == "backtrack"]
    same = [r for r in rows if r["kind"] == "same-tree"]
    for board in {r["puzzle"] for r in same}:  # the same solutions before and now
        assert len({r["solutions"] for r in same if r["puzzle"] == board}) == 1
    shrunk = {
        r["puzzle"]
        for r in same
        if r["code"] == "now"
        and r["nodes"] < min(b["nodes"] for b in same if b["puzzle"] == r["puzzle"] and b["code"] == "before")
    }
    assert shrunk == {
        "puzzles/board-suite/7/8/board_1.yaml",
        "puzzles/board-suite/7/9/board_0.yaml",
    }  # a tile [a, b, a, b]
    assert {(r["code"], r["status"]) for r in rows if r["kind"] == "owen"} == {
        ("before", "TIMEOUT"),
        ("now", "TIMEOUT"),
    }
