"""experiments/bench-certify.md is what its committed rows give (the script's own report, tables
and summary), and the rows hold what it claims: every certificate accepted, with the plain
command's answer, and drup's verdicts those of the certificates it checked."""

import json

from conftest import ROOT, experiment_script

LINES = (ROOT / "experiments" / "bench-certify-rows.jsonl").read_text().splitlines()
META, ROWS = json.loads(LINES[0]), [json.loads(line) for line in LINES[1:]]


def _script():
    return experiment_script("bench-certify")


def test_the_report_is_its_rows():
    assert _script().report(ROWS, META) == (ROOT / "experiments" / "bench-certify.md").read_text()


def test_the_instances_are_the_twelve_and_two_more():
    assert [r["puzzle"] for r in ROWS] == [
        "hunde-spiel", "insects", "scramble-squares", "one-tough-puzzle", "planted-4x4-c4-b1-s1",
        "planted-5x5-c5-b2-s1", "planted-6x6-c6-b2-s1", "planted-7x7-c9-b3-s1", "planted-6x6-c6-b2-s2",
        "planted-7x7-c9-b3-s2", "uniform-4x4-c9-s1", "uniform-5x5-c8-s1", "em_7_3_6", "em_7_4_9"]


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
                    plain[k] for k in ("solutions", "distinct", "unique")]
                assert 0 < c["models"] <= plain["solutions"] and f"{c['models']:,} {c['blocks']}" in c["covers"]
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

    def ratio(name):
        return f"{by[name]['certified_w1']['wall'] / by[name]['plain']['wall']:.1f}"

    six = by["planted-6x6-c6-b2-s1"]
    assert f"the 6x6 of seed 1 ({ratio('planted-6x6-c6-b2-s1')} times), the 6x6 of seed 2 " \
           f"({ratio('planted-6x6-c6-b2-s2')}), `em_7_4_9` ({ratio('em_7_4_9')})" in notes
    assert all(script.certified(by[p], w) is None for p in ("planted-7x7-c9-b3-s1", "planted-7x7-c9-b3-s2")
               for w in (1, 2))
    c = script.certified(six, 1)
    assert f"check of a {c['proof_bytes'] / 1e6:.0f} MB proof took {c['check_seconds']:.1f} of the certified " \
           f"command's {six['certified_w1']['wall']:.1f} s" in notes
    uniform = by["uniform-4x4-c9-s1"]
    assert (f"the cubes cost {uniform['certified_w2']['wall'] / uniform['plain']['wall']:.1f} times the plain command, "
            f"{uniform['certified_w2']['wall'] / uniform['certified_w1']['wall']:.1f} times one worker") in notes
    assert f"refutes in {uniform['plain']['wall']:.2f} s" in notes
    drup = {p: by[p]["drup"] for p in script.DRUP_ON}
    seeds = sorted(drup[p]["wall"] for p in script.DRUP_ON[:4])
    assert f"in {seeds[0]:.0f} to {seeds[-1]:.0f} s" in notes and f"{drup['hunde-spiel']['cpu']:.0f} s of CPU" in notes
    assert f"the 4x4's in {drup['planted-4x4-c4-b1-s1']['wall']:.1f} s" in notes
    assert drup["planted-5x5-c5-b2-s1"]["exit"] == -9 and "not the 5x5's 1.3 MB proof in 300 s" in notes
