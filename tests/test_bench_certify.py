"""benchmarks/certify/bench-certify.md is what its committed rows give (the script's own report, tables
and summary), and the rows hold what it claims: every certificate accepted, with the plain
command's answer, and drup's verdicts those of the certificates it checked."""

import json

from conftest import ROOT, benchmark_script, prose

LINES = (ROOT / "benchmarks" / "certify" / "bench-certify-rows.jsonl").read_text().splitlines()
META, ROWS = json.loads(LINES[0]), [json.loads(line) for line in LINES[1:]]


def _script():
    return benchmark_script("certify")


def test_the_report_is_its_rows():
    assert _script().report(ROWS, META) == (ROOT / "benchmarks" / "certify" / "bench-certify.md").read_text()


def test_the_instances_are_the_twelve_and_two_more():
    assert [r["puzzle"] for r in ROWS] == [
        "hunde-spiel",
        "insects",
        "scramble-squares",
        "one-tough-puzzle",
        "planted-4x4-c4-b1-s1",
        "planted-5x5-c5-b2-s1",
        "planted-6x6-c6-b2-s1",
        "planted-7x7-c9-b3-s1",
        "planted-6x6-c6-b2-s2",
        "planted-7x7-c9-b3-s2",
        "uniform-4x4-c9-s1",
        "uniform-5x5-c8-s1",
        "em_7_3_6",
        "em_7_4_9",
    ]


def test_every_certificate_was_accepted_with_the_plain_answer():
    script = _script()
    for row in ROWS:
        plain = script._json(row["plain"])
        for workers in (1, 2):
            c = script.certified(row, workers)
            if c is None:
                continue
            got = script._json(row[f"certified_w{workers}"])
            assert c["certified"] is True
            if plain.get("status") == "SAT" and row["task"] == "solve":
                assert c["checker"] == "satedge.checker"
                continue
            assert c["checker"] == "dratify" and c["route"] == "own"
            assert c["pieces"] == 1 and (c["lemmas_checked_early"] == 0 if workers == 1 else True)
            if row["task"] == "count":
                assert [got[k] for k in ("solutions", "distinct", "unique")] == [
                    plain[k] for k in ("solutions", "distinct", "unique")
                ]
                assert (
                    0 < c["models"] <= plain["solutions"] and f"{c['models']:,} {c['blocks']}" in c["covers"]
                )
            else:
                assert got["status"] == plain["status"] == "UNSAT" and c["models"] == 0


def test_drup_agrees_where_it_finished():
    script = _script()
    for row in ROWS:
        run = row.get("drup")
        if run is not None and run["exit"] == 0:
            checked = script._json(run)
            assert checked["checker"] == "drup" and checked["models"] == script.certified(row, 1)["models"]


def test_the_notes_quote_the_rows():
    script, notes = _script(), " ".join(META["notes"].split())
    by = {r["puzzle"]: r for r in ROWS}

    def ratio(name, workers, digits=1, kind="wall"):
        return f"{by[name][f'certified_w{workers}'][kind] / by[name]['plain'][kind]:.{digits}f}"

    answered = [r for r in ROWS if script.answer(r) != "no answer in 120 s"]
    assert len(answered) == 13 and all(script.certified(r, 2) is not None for r in answered)
    assert max(float(ratio(r["puzzle"], 2, 3)) for r in answered) <= 3.0  # every one within 3 times
    six, seven, seven2 = "planted-6x6-c6-b2-s1", "planted-7x7-c9-b3-s1", "planted-7x7-c9-b3-s2"
    assert (
        f"the 6x6 of seed 1 took {ratio(six, 2)} times ({by[six]['certified_w2']['wall']:.2f} s against "
        f"{by[six]['plain']['wall']:.2f} s), the 7x7 of seed 1 {ratio(seven, 2)} and the 7x7 of seed 2 "
        f"{ratio(seven2, 2)}"
    ) in notes
    one = [
        r["puzzle"]
        for r in answered
        if script.certified(r, 1) is not None and float(ratio(r["puzzle"], 1, 3)) <= 3
    ]
    assert (
        f"On one worker it is met on {len(one)} of them, not on the 6x6 of seed 1 ({ratio(six, 1)} times), the "
        f"6x6 of seed 2 ({ratio('planted-6x6-c6-b2-s2', 1)}), `em_7_4_9` ({ratio('em_7_4_9', 1)}) and the uniform "
        f"4x4 ({ratio('uniform-4x4-c9-s1', 1)})" in notes
    )
    assert all(script.certified(by[p], 1) is None for p in (seven, seven2))
    c1, c2 = script.certified(by[six], 1), script.certified(by[six], 2)
    assert (
        f"check of the 6x6's {c1['proof_bytes'] / 1e6:.0f} MB proof took {c1['check_seconds']:.1f} of the "
        f"certified command's {by[six]['certified_w1']['wall']:.1f} s" in notes
    )
    assert (
        f"({c2['lemmas_checked_early']:,} of its {c2['proof_lemmas']:,} lemmas during the search), the rest on "
        f"both after it ({c2['check_seconds']:.1f} s)" in notes
    )
    large = sorted(
        float(ratio(p, 2, 1, "cpu")) for p in (six, seven, "planted-6x6-c6-b2-s2", seven2, "em_7_4_9")
    )
    assert f"CPU ratios of the large instances are {large[0]:.1f} to {large[-1]:.1f}" in notes
    drup = {p: by[p]["drup"] for p in script.DRUP_ON}
    seeds = sorted(drup[p]["wall"] for p in script.DRUP_ON[:4])
    assert f"in {seeds[0]:.0f} to {seeds[-1]:.0f} s" in notes
    assert f"the 4x4's in {drup['planted-4x4-c4-b1-s1']['wall']:.1f} s" in notes
    assert drup["planted-5x5-c5-b2-s1"]["exit"] == -9 and "not the 5x5's 1.3 MB proof in 300 s" in notes
    assert script.certified(by["planted-5x5-c5-b2-s1"], 1)["proof_bytes"] // 100_000 == 13


def test_the_results_page_quotes_the_rows():
    script = _script()
    answered = [r for r in ROWS if script.answer(r) != "no answer in 120 s"]
    walls = [r["certified_w2"]["wall"] / r["plain"]["wall"] for r in answered]
    line = prose(ROOT / "docs" / "results" / "index.md")
    assert (
        f"a certified count on two workers checks its proof beside the search: within 3 times the plain count on "
        f"all {len(answered)} instances the plain count answered ({min(walls):.1f} to {max(walls):.1f} times)"
    ) in line
