"""experiments/bench-certify.md quotes what its committed rows give: per instance the answer,
the seconds of the plain and the certified command, the proof's size and the checkers' times,
and the summary figures."""

import json
import statistics

import pytest

from conftest import ROOT

REPORT = (ROOT / "experiments" / "bench-certify.md").read_text()
ROWS = [json.loads(line) for line in (ROOT / "experiments" / "bench-certify-rows.jsonl").read_text().splitlines()
        if line.strip()]


def answer(row: dict) -> str:
    """The plain command's answer."""
    a = row["answer"]
    if a["status"] == "TIMEOUT":
        return "no answer in 120 s"
    if a["status"] == "SAT":
        return "a solution"
    return a["status"] or f"{a['solutions']:,} solutions"


def line(row: dict) -> str:
    """The row's line of the report's table."""
    c, d = row["certificate"] or {}, row.get("drup") or {}
    head = f"| `{row['puzzle']}` | {row['class']} | {answer(row)} | {row['seconds']:.2f} |"
    if not c:
        return f"{head} timed out | | | | | |"
    ratio = f"{row['certified_seconds'] / row['seconds']:.1f}"
    if "proof_lemmas" not in c:  # a solution: the checker accepts it, no proof
        return f"{head} {row['certified_seconds']:.2f} | {ratio} | no proof: the solution is checked | | | |"
    drup = "timed out" if d.get("outcome") == "TIMEOUT" else f"{d['seconds']:.1f} s"
    return (f"{head} {row['certified_seconds']:.2f} | {ratio} | {c['proof_lemmas']:,} | {c['proof_bytes'] / 1000:,.0f} "
            f"| {c['check_seconds']:.2f} | {drup} |")


@pytest.mark.parametrize("row", ROWS, ids=[r["puzzle"] for r in ROWS])
def test_every_row_is_a_line_of_the_table(row):
    assert line(row) in REPORT, line(row)


def test_every_certificate_was_accepted_and_covers_the_answer():
    for row in ROWS:
        c = row["certificate"]
        if c:
            assert c["certified"] is True and c["checker"] == ("satedge.checker" if row["answer"]["status"] == "SAT"
                                                               else "dratify")
            if row["task"] == "count":  # a model can stand for several solutions (a self-symmetric tile's turns)
                assert 0 < c["models"] <= row["answer"]["solutions"] and f"{c['models']:,} models" in c["covers"]
        if row.get("drup") and row["drup"]["outcome"] != "TIMEOUT":
            assert row["drup"]["outcome"] == "VALID"


def test_the_summary_figures():
    done = [r for r in ROWS if r["certificate"] and "proof_lemmas" in r["certificate"]]
    ratios = [r["certified_seconds"] / r["seconds"] for r in done]
    share = [r["certificate"]["check_seconds"] / r["certified_seconds"] for r in done]
    drup_done = [r for r in done if r.get("drup") and r["drup"]["outcome"] == "VALID"]
    figures = (f"{len(done)} of the {len(ROWS)} instances got a proof that checked",
               f"median {statistics.median(ratios):.1f} times the plain command's time (from {min(ratios):.1f} to "
               f"{max(ratios):.1f})",
               f"the check by dratify took a median {100 * statistics.median(share):.0f}% of the certified command",
               f"drup checked {len(drup_done)} of these proofs within 90 s")
    flat = " ".join(REPORT.split())
    assert [f for f in figures if f not in flat] == []
