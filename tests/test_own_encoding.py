"""A researcher's own encoding, the guide's from scratch (docs/examples/onehot.py), named as
FILE.py:FUNCTION works as a preset does in every command: counts, solves, exports DIMACS that
names its file's sha256, passes the cross-check, runs in a spec beside a preset and is reported;
a wrong copy is caught by the cross-check in a few lines, exit 1, never a traceback."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

from satedge.encode import Encoding
from satedge.errors import SatedgeError
from satedge.experiment.rows import read_results
from satedge.jobs import Job, run
from satedge.puzzle.checker import validate
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.model import Solution
from satedge.system.process import Limits

EXAMPLE = ROOT / "docs" / "examples" / "onehot.py"
MINE = f"{EXAMPLE}:encode"
SHA256 = hashlib.sha256(EXAMPLE.read_bytes()).hexdigest()


def test_it_counts_the_hunde_spiel_and_solves_a_board_of_the_suite(run_cli):
    code, out, err = run_cli("count", "hunde-spiel", "--encoding", MINE, "--json")
    obj = json.loads(out)
    assert (code, err, obj["solutions"], obj["distinct"], obj["unique"]) == (0, "", 16, 8, 2)
    assert (obj["encoding"], obj["solver"]) == (MINE, "cadical195:sat")
    code, out, err = run_cli("solve", "board-suite/6/8/board_0", "--encoding", MINE, "--json")
    obj = json.loads(out)
    board = Solution(tuple((c["tile"], c["rotation"]) for c in obj["solution"]))
    assert (code, obj["status"]) == (0, "SAT") and validate(
        load_puzzle("board-suite/6/8/board_0"), board
    ) is None


def test_its_dimacs_names_its_file_and_sha256_and_decodes(run_cli, tmp_path):
    cnf = tmp_path / "onehot.cnf"
    assert run_cli("encode", "hunde-spiel", "--encoding", MINE, "-o", cnf) == (0, "", "")
    head = cnf.read_text().splitlines()[:12]
    assert f"c encoding source: {MINE} (sha256 {SHA256})" in head
    info = json.loads(next(line for line in head if line.startswith("c satedge {"))[len("c satedge ") :])
    assert info["encoding"] | {"card": None} == {
        "name": MINE,
        "base": MINE,
        "card": None,
        "symmetry": "none",
        "redundant": False,
        "source": MINE,
        "sha256": SHA256,
    }
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver("cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert s.solve()
        (tmp_path / "model").write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
    code, out, err = run_cli("decode", cnf, tmp_path / "model", "--json")
    assert (code, err, json.loads(out)["status"]) == (0, "", "SAT")


def test_it_passes_the_crosscheck_and_a_wrong_copy_is_caught_without_a_traceback(tmp_path):
    def crosscheck(reference: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "satedge", "crosscheck", "--encoding", reference, "--examples", "20"]
            + ["--workers", "1", "--seed", "3"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )

    r = crosscheck(MINE)
    assert (r.returncode, r.stderr) == (0, "") and "20 puzzles" in r.stdout and ": no mismatch" in r.stdout
    wrong = tmp_path / "wrong.py"
    text = EXAMPLE.read_text()
    assert "        if adj.a == adj.b:" in text
    wrong.write_text(
        text.replace("        if adj.a == adj.b:", "        if adj.a == adj.b or adj.side_a == 2:")
    )
    r = crosscheck("wrong.py:encode")
    lines = r.stdout.splitlines()
    assert (r.returncode, r.stderr, "Traceback" in r.stdout) == (1, "", False)
    assert lines[0].endswith(": MISMATCH")
    assert (
        lines[1]
        == "configuration: wrong.py:encode (card pairwise, symmetry none, redundant false) with cadical195"
    )
    assert lines[2].startswith("problem: ") and lines[3] == "puzzle:"
    assert any(line.startswith("extra (the encoding gives them, the backtracker not): ") for line in lines)


def test_a_spec_runs_it_beside_a_preset_and_the_report_names_its_file(run_cli, tmp_path):
    spec = tmp_path / "onehot.yaml"  # the guide's spec, beside a copy of the file it names
    shutil.copy(ROOT / "docs" / "examples" / "onehot.yaml", spec)
    shutil.copy(EXAMPLE, tmp_path / "onehot.py")
    out = tmp_path / "out"
    code, _, err = run_cli("run", spec, "--out", out)
    assert (code, err) == (
        0,
        f"onehot: 6 runs done (6 SAT), 0 were there already; results in {out}/results.jsonl\n",
    )
    rows = read_results(out / "results.jsonl")
    assert sorted({(r["encoding"], r.get("encoding_sha256")) for r in rows}) == [
        ("direct-pairwise", None),
        ("onehot.py:encode", SHA256),
    ]
    assert {r["status"] for r in rows} == {"SAT"} and len(rows) == 6
    counts = {(r["puzzle_name"], r["encoding"]): r["models"] for r in rows}
    assert {p: n for (p, e), n in counts.items() if e == "onehot.py:encode"} == {
        p: n for (p, e), n in counts.items() if e == "direct-pairwise"
    }
    code, report, err = run_cli("report", out, "--no-plots")
    assert (code, err) == (0, f"\nsummary.csv and 0 plot and picture files in {out}/\n")
    assert "| onehot.py:encode/cadical195 | 3 | 3 | 0 | 0 | 0 |" in report
    assert f"Encodings of your own, by the sha256 of their files: `onehot.py:encode` {SHA256}." in report


def test_a_job_with_it_runs_in_a_new_interpreter_and_refuses_a_changed_file(tmp_path):
    mine = tmp_path / "mine.py"
    shutil.copy(EXAMPLE, mine)
    job = Job(load_puzzle("hunde-spiel"), "count", encoding=f"{mine}:encode", modes=("solutions",))
    res = run(job, fresh=True)  # pickled as its reference, loaded again there
    assert (res.status, res.counts["solutions"]) == ("SAT", 16)
    mine.write_text(mine.read_text() + "\n# changed\n")
    res = run(job, fresh=True)
    assert res.status == "ERROR" and res.error.endswith(
        f"{mine} changed since the job was made (its sha256 differs)"
    )


def test_without_a_maxsat_form_maximize_refuses_it_in_one_line(run_cli):
    code, out, err = run_cli("maximize", "hunde-spiel", "--method", "sat", "--encoding", MINE)
    assert (code, out) == (2, "")
    assert err.startswith(
        f"satedge: error: the encoding {MINE} declares no MaxSAT form; choose one on direct, "
    )


@pytest.mark.parametrize(
    "text,reference,message",
    [
        (None, "nope.py:encode", "encoding 'nope.py:encode': no such file {folder}/nope.py"),
        ("x = 1\n", "mine.py:encode", "encoding 'mine.py:encode': {folder}/mine.py has no encode"),
        (
            "import no_such_module_here\n",
            "mine.py:encode",
            "encoding 'mine.py:encode': loading {folder}/mine.py "
            "failed: ModuleNotFoundError: No module named 'no_such_module_here'",
        ),
        (
            "encode = 3\n",
            "mine.py:encode",
            "encoding 'mine.py:encode': a base encoding is a satedge.encode.Base or "
            "a function (puzzle, options) -> Encoded, not int",
        ),
    ],
)
def test_a_reference_that_does_not_load_is_one_line(tmp_path, monkeypatch, run_cli, text, reference, message):
    monkeypatch.chdir(tmp_path)
    if text is not None:
        (tmp_path / "mine.py").write_text(text)
    want = message.format(folder=tmp_path.resolve())
    assert run_cli("count", "hunde-spiel", "--encoding", reference) == (2, "", f"satedge: error: {want}\n")
    with pytest.raises(SatedgeError, match="^" + want.replace("(", r"\(").replace(")", r"\)") + "$"):
        Encoding.parse(reference)


def test_it_is_named_anywhere_an_encoding_goes_from_python():
    from satedge import count

    c = count("hunde-spiel", encoding=MINE)
    assert (c.solutions, c.distinct, c.unique) == (16, 8, 2)
    job = Job(load_puzzle("hunde-spiel"), "count", encoding=MINE, limits=Limits(timeout=60))
    assert (job.encoding.name, job.encoding.sha256) == (MINE, SHA256)


def test_satedge_encodings_lists_it_with_its_source_and_its_size(run_cli):
    code, out, err = run_cli("encodings", MINE, "direct-pairwise", "--puzzle", "hunde-spiel", "--json")
    mine, preset = json.loads(out)
    assert (code, err, mine["name"], mine["reference"]) == (0, "", MINE, f"{MINE} (sha256 {SHA256})")
    # built, where it declares no size: the same formula as the preset it resembles
    assert [mine[k] for k in ("variables", "clauses", "literals")] == [
        preset[k] for k in ("variables", "clauses", "literals")
    ]
