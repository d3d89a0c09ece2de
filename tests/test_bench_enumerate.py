"""benchmarks/enumerate/bench-enumerate.md is what its committed rows give: every table is recomputed from
benchmarks/enumerate/bench-enumerate-rows.jsonl by the script's own report, and the figures of its notes
are the rows' own."""

import json

from conftest import ROOT, benchmark_script

LINES = (ROOT / "benchmarks" / "enumerate" / "bench-enumerate-rows.jsonl").read_text().splitlines()
META, ROWS = json.loads(LINES[0]), [json.loads(line) for line in LINES[1:]]


def _script():
    return benchmark_script("enumerate")


def _row(target, puzzle=None, against=None):
    return next(
        r
        for r in ROWS
        if r["target"] == target
        and r.get("puzzle") == puzzle
        and (against is None or r["against"] == against)
    )


def test_the_report_is_its_rows():
    assert (
        _script().report(ROWS, META) == (ROOT / "benchmarks" / "enumerate" / "bench-enumerate.md").read_text()
    )


def test_every_tool_gives_the_same_number_of_models():
    script = _script()
    expected = {"4x4-27648": 27648, "4x4-221184": 221184, "4x4-1382400": 1382400}
    for row in ROWS:
        if "puzzle" in row:
            for pair in row["pairs"]:
                assert {script._models(pair["a"]), script._models(pair["b"])} <= {
                    expected[row["puzzle"]],
                    None,
                }, row
                assert (pair["a"]["exit"], pair["b"]["exit"]) == (
                    0,
                    {"clasp": 30, "picosat": 20}.get(row["target"], 0),
                )  # their exhaustive exits
    assert all('"mismatches": 0' in p[s]["stdout"] for p in _row("crosscheck")["pairs"] for s in "ab")


def test_the_notes_quote_the_rows():
    script, notes = _script(), " ".join(META["notes"].split())
    figure = {
        k: f"{script.ratio(r)[0]:.2f}"
        for k, r in (
            ("loop-small", _row("blocking", "4x4-27648")),
            ("loop-large", _row("blocking", "4x4-221184")),
            ("workers-small", _row("workers", "4x4-27648")),
            ("workers-large", _row("workers", "4x4-221184")),
            ("clasp", _row("clasp", "4x4-1382400")),
            ("imports", _row("startup", against="imports")),
            ("before", _row("startup", against="before")),
            ("crosscheck", _row("crosscheck")),
        )
    }
    for quoted in (
        f"{figure['loop-small']} and {figure['loop-large']} times the loop",
        f"{figure['workers-small']} and {figure['workers-large']} times one worker's CPU",
        f"is not met: {figure['clasp']} times",
        f"is met: {figure['imports']} times, and {figure['before']} times the code before",
        f"their ratio, {figure['crosscheck']},",
    ):
        assert quoted in notes, quoted
    binary = _row("clasp", "4x4-1382400")
    assert (
        f"{1382400 / script._cpu(binary, 'b'):,.0f}"[:3] == "220" and "against the binary's 220,000" in notes
    )
