"""DIMACS export and import: self-describing header, round trip, independent solvers, decode."""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import PUZZLES
from hypothesis import given
from hypothesis import strategies as st
from pysat.formula import CNF
from pysat.solvers import Solver

from satedge.encode.presets import presets
from satedge.puzzle.checker import validate
from satedge.puzzle.formats import load_puzzle, save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.sat import cnf as cnftext
from satedge.sat.dimacs import open_text, read_header, write_dimacs
from satedge.system.extras import available

HUNDE = PUZZLES / "hunde-spiel.yaml"
# For the presets of framed boards only (heule2008-*): like Hunde-Spiel, 16 solutions and no tile
# that looks the same in two rotations
FRAMED = generate(Params(rows=3, cols=3, colors=3, border_colors=2, frame=True), 1)


def puzzle_file(tmp_path, preset) -> Path:
    """Hunde-Spiel, or a framed puzzle of 16 solutions for a preset of framed boards only."""
    if presets()[preset].base != "heule":
        return HUNDE
    f = tmp_path / "framed.yaml"
    save_puzzle(FRAMED, f)
    return f


def export(run_cli, tmp_path, preset, suffix=".cnf"):
    f = tmp_path / f"h.{preset}{suffix}"
    code, out, err = run_cli("encode", puzzle_file(tmp_path, preset), "--encoding", preset, "-o", f)
    assert (code, err) == (0, "")
    return f


def declared_projection(path):
    with open(path) as fh:
        for line in fh:
            if line.startswith("c p show "):
                return [int(x) for x in line.split()[3:-1]]
    raise AssertionError("no c p show line")


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(presets()))
def test_independent_pysat_enumeration(run_cli, tmp_path, preset):
    f = export(run_cli, tmp_path, preset)
    cnf = CNF(from_file=str(f))
    show = declared_projection(f)
    models = 0
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            model = s.get_model()
            models += 1
            mf = tmp_path / f"m{models}.txt"
            mf.write_text(" ".join(map(str, model)) + " 0\n")  # a bare list of literals
            code, out, err = run_cli("decode", f, mf, "--json")
            assert code == 0 and err == "", err
            assert json.loads(out)["status"] == "SAT"
            s.add_clause([-model[v - 1] for v in show])
    # edgecolor: no self-symmetric tile in Hunde-Spiel, so models = solutions; symmetry breaking
    # keeps one of each orbit of 4
    assert models == (4 if presets()[preset].options.symmetry == "rotation" else 16)


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("cadical") is None, reason="Debian's cadical binary is not installed (.ci/run installs it)"
)
@pytest.mark.parametrize("preset", sorted(presets()))
def test_cadical_binary(run_cli, tmp_path, preset):
    f = export(run_cli, tmp_path, preset, ".cnf.gz")
    r = subprocess.run(["cadical", "-q", str(f)], capture_output=True, text=True)
    assert r.returncode == 10 and r.stdout.startswith("s SATISFIABLE")
    mf = tmp_path / "model.txt"
    mf.write_text(r.stdout)
    code, out, _ = run_cli("decode", f, mf, "--json")
    puzzle = load_puzzle(puzzle_file(tmp_path, preset))
    from satedge.puzzle.solutions import solution_from_json

    assert code == 0 and validate(puzzle, solution_from_json(json.loads(out), puzzle)) is None


@pytest.mark.slow
@pytest.mark.skipif(
    shutil.which("cadical") is None, reason="Debian's cadical binary is not installed (.ci/run installs it)"
)
def test_a_solver_binary_killed_at_its_timeout_leaves_no_formula_behind(tmp_path):
    """The formula a solver binary reads is a temporary file; when the binary is killed at the
    timeout, in `solve` and in an experiment run, the file goes too."""
    from satedge.experiment.rows import read_results

    hard, scratch = tmp_path / "hard.yaml", tmp_path / "tmp"
    save_puzzle(generate(Params(rows=8, cols=8, colors=9, border_colors=3, frame=True), 1), hard)
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch)}
    r = subprocess.run(
        [sys.executable, "-m", "satedge", "solve", str(hard), "--solver-cmd", "cadical -q", "--timeout", "2"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert (r.returncode, r.stdout, r.stderr) == (
        3,
        f"{hard}: TIMEOUT (edgecolor-corners, cmd:cadical -q)\n",
        "",
    )
    assert list(scratch.iterdir()) == []  # before: tmpXXXXXXXX.cnf, 2 MB
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        'name: t\npuzzles: [hard.yaml]\nencodings: [edgecolor-corners-sym]\nsolvers: ["cmd:cadical -q"]\n'
        "timeout: 2\n"
    )
    r = subprocess.run(
        [sys.executable, "-m", "satedge", "run", str(spec), "--out", str(tmp_path / "out")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert [row["status"] for row in read_results(tmp_path / "out" / "results.jsonl")] == ["TIMEOUT"]
    assert list(scratch.iterdir()) == []


@pytest.mark.skipif(
    shutil.which("cadical") is None, reason="Debian's cadical binary is not installed (.ci/run installs it)"
)
def test_solver_cmd_counts(run_cli):
    code, out, _ = run_cli(
        "count", HUNDE, "--solver-cmd", "cadical -q", "--encoding", "support-seqcounter", "--json"
    )
    row = json.loads(out)
    assert code == 0 and (row["solutions"], row["distinct"], row["unique"]) == (16, 8, 2)
    assert row["solver"] == "cmd:cadical -q"


ZSTD = pytest.param(
    ".cnf.zst", marks=pytest.mark.skipif(not available("zstandard"), reason="no zstandard (extra zstd)")
)


@pytest.mark.parametrize("suffix", [".cnf", ".cnf.gz", ".cnf.xz", ".cnf.bz2", ZSTD])
@pytest.mark.parametrize("preset", sorted(presets()))
def test_round_trip(tmp_path, preset, suffix):
    path = puzzle_file(tmp_path, preset)
    e = presets()[preset].encode(load_puzzle(path))
    f = tmp_path / f"x{suffix}"
    write_dimacs(e, f, preset, str(path))
    with open_text(f) as fh:
        back = CNF(from_string=fh.read())
    assert back.clauses == e.cnf.clauses and back.nv == e.nv
    info = read_header(f)
    assert info["encoding"]["name"] == preset and info["p"] == (e.nv, len(e.cnf.clauses))
    assert len(declared_projection(f) if suffix == ".cnf" else e.decision) == len(e.decision)


def test_header_describes_variables(run_cli, tmp_path):
    f = export(run_cli, tmp_path, "direct-pairwise")
    text = f.read_text()
    assert "c var 1 x 0 0 0\n" in text and "c encoding: direct-pairwise (base direct, card pairwise" in text
    assert "c puzzle path: " in text and "c ind 1 2 3 " in text


@pytest.mark.slow
def test_stdout_and_batch(run_cli, tmp_path):
    code, out, _ = run_cli("encode", HUNDE, "--encoding", "split", "--card", "ladder")
    assert code == 0 and "\np cnf " in out
    code, _, err = run_cli("encode", HUNDE, PUZZLES / "insects.yaml", "--all-presets", "-o", tmp_path / "all")
    assert code == 0
    rows = list(csv.DictReader(open(tmp_path / "all" / "manifest.csv")))
    framed_only = [n for n, p in presets().items() if p.base == "heule"]
    assert len(rows) == 2 * (len(presets()) - len(framed_only)) and len(framed_only) == 4
    assert err.endswith(
        f"; 8 left out, of presets that do not cover the puzzle: {', '.join(sorted(framed_only))}\n"
    )
    assert list(rows[0]) == ["file", "puzzle", "encoding", "variables", "clauses", "bytes"]
    for r in rows:
        f = tmp_path / "all" / r["file"]
        assert int(r["bytes"]) == f.stat().st_size
        assert len(CNF(from_file=str(f)).clauses) == int(r["clauses"])


def test_decode_unsat_and_competition_format(run_cli, tmp_path):
    f = export(run_cli, tmp_path, "support-seqcounter")
    m = tmp_path / "unsat.txt"
    m.write_text("c solver says\ns UNSATISFIABLE\n")
    assert run_cli("decode", f, m) == (1, "UNSATISFIABLE\n", "")


def bad(run_cli, *argv):
    code, out, err = run_cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    return err


@pytest.mark.slow
def test_decode_bad_input(run_cli, tmp_path):
    f = export(run_cli, tmp_path, "direct-pairwise")
    nv = read_header(f)["p"][0]
    good = CNF(from_file=str(f))
    with Solver(name="minisat22", bootstrap_with=good.clauses) as s:
        s.solve()
        model = s.get_model()
    m = tmp_path / "m.txt"
    m.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    assert run_cli("decode", f, m)[0] == 0
    # literal out of range
    m2 = tmp_path / "m2.txt"
    m2.write_text(f"v 1 -2 {nv + 5} 0\n")
    assert (
        bad(run_cli, "decode", f, m2)
        == f"satedge: error: {m2}: line 1: literal {nv + 5} out of range: the formula has {nv} variables\n"
    )
    # garbage model
    m3 = tmp_path / "m3.txt"
    m3.write_text("v 1 two 3\n")
    assert bad(run_cli, "decode", f, m3) == f"satedge: error: {m3}: line 1: 'two' is not a literal\n"
    # a model of another formula: every variable negated falsifies the exactly-one clauses
    m4 = tmp_path / "m4.txt"
    m4.write_text(" ".join(str(-v) for v in range(1, nv + 1)) + " 0\n")
    assert "the model falsifies clause 1 (" in bad(run_cli, "decode", f, m4)
    # truncated CNF
    t = tmp_path / "trunc.cnf"
    text = f.read_text()
    t.write_text(text[: len(text) // 2])
    assert "cannot read the clauses (truncated or not DIMACS)" in bad(run_cli, "decode", t, m)
    # garbage CNF
    g = tmp_path / "garbage.cnf"
    g.write_bytes(b"\x00\xffnot a cnf")
    assert bad(run_cli, "decode", g, m).startswith(f"satedge: error: {g}: ")
    # no header
    h = tmp_path / "plain.cnf"
    h.write_text("p cnf 2 1\n1 2 0\n")
    assert (
        bad(run_cli, "decode", h, m)
        == f"satedge: error: {h}: no satedge header: this file was not written by satedge encode\n"
    )
    # hash mismatch: another puzzle given
    assert "does not match the formula (sha256 differs" in bad(
        run_cli, "decode", f, m, "--puzzle", PUZZLES / "insects.yaml"
    )
    # no model at all
    e = tmp_path / "empty.txt"
    e.write_text("c nothing\n")
    assert "no model" in bad(run_cli, "decode", f, e)
    # a header line whose facts were edited away
    d = tmp_path / "damaged.cnf"
    d.write_text(f.read_text().replace('"sha256":', '"sha":', 1))
    assert bad(run_cli, "decode", d, m) == (
        f"satedge: error: {d}: the 'c satedge' header line lacks the puzzle's sha256 "
        "or the encoding: edited or damaged\n"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "command,what",
    [
        (["encode"], "encoding direct-pairwise"),
        (["encode", "-o", "-"], "encoding direct-pairwise"),
        (["count"], "solving"),
        (["count", "--timeout", "600"], "solving"),
    ],
)
def test_beyond_memory_is_an_error(tmp_path, command, what):
    """A formula bigger than --memory stops encode (to a file or to stdout), solve and count (with
    or without a timeout) with one line and leaves no file and no output (the guard reads /proc,
    so Linux only)."""
    if not Path("/proc/self/statm").exists():
        pytest.skip("no /proc: the memory guard is Linux only")
    puzzle, out = tmp_path / "p.yaml", tmp_path / "p.cnf"
    save_puzzle(generate(Params(rows=8, cols=8, colors=10, border_colors=3, frame=True), 1), puzzle)
    extra = ["-o", str(out)] if command == ["encode"] else []
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "satedge",
            *command,
            str(puzzle),
            "--encoding",
            "direct-pairwise",
            "--memory",
            "150",
            *extra,
        ],
        capture_output=True,
        text=True,
    )
    assert (r.returncode, r.stdout) == (2, "") and r.stderr.count(
        "\n"
    ) == 1  # encode says what the formula takes
    assert r.stderr.startswith(f"satedge: error: {puzzle}: {what} needs more than 150 MB of memory")
    assert r.stderr.endswith("(--memory MB to allow more)\n")
    assert [f.name for f in tmp_path.iterdir()] == ["p.yaml"]


@pytest.mark.slow
def test_all_presets_go_on_past_one_beyond_memory(tmp_path):
    """`encode --all-presets` writes every formula that fits in --memory and the manifest of
    those, then names the ones it could not write in one error line (exit 2); no temporary file
    is left behind."""
    if not Path("/proc/self/statm").exists():
        pytest.skip("no /proc: the memory guard is Linux only")
    puzzle, out = tmp_path / "p.yaml", tmp_path / "out"
    save_puzzle(generate(Params(rows=8, cols=8, colors=10, border_colors=3, frame=True), 1), puzzle)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "satedge",
            "encode",
            str(puzzle),
            "--all-presets",
            "-o",
            str(out),
            "--memory",
            "150",
        ],
        capture_output=True,
        text=True,
    )
    assert (r.returncode, r.stdout, r.stderr) == (
        2,
        "",
        f"satedge: error: beyond --memory 150 MB, not written: {puzzle} with direct-pairwise "
        f"(9 formulas and manifest.csv written to {out}/)\n",
    )
    names = [n for n in presets() if n != "direct-pairwise"]
    assert sorted(f.name for f in out.iterdir()) == sorted(["manifest.csv", *(f"p.{n}.cnf" for n in names)])
    rows = list(csv.DictReader((out / "manifest.csv").open()))
    assert [row["encoding"] for row in rows] == names
    for row in rows:
        f = out / row["file"]
        assert int(row["bytes"]) == f.stat().st_size
        assert read_header(f)["encoding"]["name"] == row["encoding"]


@pytest.mark.slow
def test_encodings_lists_the_presets_that_fit(tmp_path):
    """`encodings --puzzle` counts each preset's formula without building it, and says which do
    not fit in --memory (before: it built each one, and one beyond --memory had no size)."""
    puzzle = tmp_path / "p.yaml"
    save_puzzle(generate(Params(rows=8, cols=8, colors=10, border_colors=3, frame=True), 1), puzzle)

    def run(*extra):
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "satedge",
                "encodings",
                "--puzzle",
                str(puzzle),
                "--memory",
                "150",
                *extra,
            ],
            capture_output=True,
            text=True,
        )
        assert (r.returncode, r.stderr) == (0, "")
        return r.stdout

    sizes = {
        r["name"]: (r["variables"], r["clauses"], r["literals"], r["fits"]) for r in json.loads(run("--json"))
    }
    fitting = {
        name: p.encode(load_puzzle(puzzle)) for name, p in presets().items() if name != "direct-pairwise"
    }
    assert sizes == {
        "direct-pairwise": (5776, 1918740, 3848776, False),
        **{
            name: (e.nv, len(e.cnf.clauses), sum(map(len, e.cnf.clauses)), True)
            for name, e in fitting.items()
        },
    }
    assert sizes["support-seqcounter"][:2] == (17200, 56768)
    table = run().splitlines()
    assert table[0].split() == ["preset", "variables", "clauses", "literals", "note"]
    assert table[1].split() == [
        "direct-pairwise",
        "5,776",
        "1,918,740",
        "3,848,776",
        "needs",
        "more",
        "than",
        "150",
        "MB",
        "of",
        "memory",
        "(--memory",
        "MB",
        "to",
        "allow",
        "more)",
    ]
    assert len(table) == 1 + len(sizes)


@pytest.mark.slow
@given(nv=st.integers(1, 2 * 10**7), data=st.data())
def test_array_clauses_are_written_as_list_clauses(nv, data):
    """The text of clauses held as a padded array is the text of the same clauses as lists,
    whatever the literals' lengths; padding (0) is no literal."""
    lit = st.integers(-nv, nv).filter(bool)
    clauses = data.draw(st.lists(st.lists(lit, min_size=1, max_size=5), min_size=1, max_size=30))
    width = max(map(len, clauses))
    rows = np.array([c + [0] * (width - len(c)) for c in clauses], dtype=np.int32)
    as_lists, as_array = io.StringIO(), io.StringIO()
    n = cnftext.write_clauses(as_lists, [clauses], nv)
    assert cnftext.write_clauses(as_array, [rows[:3], clauses[3:5], rows[5:]], nv) == n
    assert (
        as_array.getvalue() == as_lists.getvalue() == "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    )


def test_the_header_records_the_command_that_wrote_it(run_cli, tmp_path):
    out = tmp_path / "h.cnf"
    assert run_cli("encode", "hunde-spiel", "--encoding", "direct", "-o", out)[0] == 0
    assert (
        out.read_text().splitlines()[1] == f"c command: satedge encode hunde-spiel --encoding direct -o {out}"
    )
    from satedge.sat.dimacs import rebuilt

    assert rebuilt(out)[0].name == "Das verflixte Hunde-Spiel"  # and it still reads back


def test_the_header_says_what_each_kind_of_variable_means(run_cli, tmp_path):
    """Before: the variable kinds p, e and o were named nowhere."""
    want = {
        "edgecolor-corners": "p CELL TILE: TILE on CELL; e EDGE LABEL: EDGE's first side shows LABEL; o CELL SIDE "
        "LABEL: CELL shows LABEL on SIDE, outside",
        "split": "p CELL TILE: TILE on CELL; q CELL TURN: CELL's tile turned TURN",
        "direct": "x CELL TILE TURN: TILE on CELL turned TURN",
    }
    for encoding, meanings in want.items():
        out = tmp_path / f"{encoding}.cnf"
        assert run_cli("encode", "hunde-spiel", "--encoding", encoding, "-o", out)[0] == 0
        assert f"c decision variables (var id, then its meaning; {meanings}):" in out.read_text().splitlines()


# the first bytes of each compressor's files, as file(1) tells them apart
MAGIC = {".gz": b"\x1f\x8b", ".xz": b"\xfd7zXZ\x00", ".bz2": b"BZh", ".zst": b"\x28\xb5\x2f\xfd"}


@pytest.mark.parametrize("suffix", [".gz", ".xz", ".bz2", ".zst"])
def test_a_compression_suffix_is_honoured(run_cli, tmp_path, monkeypatch, suffix):
    """Before: .bz2 and .zst were written as plain text (bzip2 -t: bad magic).  The same
    formula makes the same bytes: gzip's header names no file and no time."""
    if suffix == ".zst" and not available("zstandard"):
        pytest.skip("no zstandard (extra zstd)")
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        monkeypatch.chdir(tmp_path / d)
        assert run_cli("encode", HUNDE, "-o", f"h.cnf{suffix}") == (0, "", "")
    f = tmp_path / "a" / f"h.cnf{suffix}"
    assert f.read_bytes()[: len(MAGIC[suffix])] == MAGIC[suffix]
    assert f.read_bytes() == (tmp_path / "b" / f.name).read_bytes()
    assert run_cli("encode", HUNDE, "-o", tmp_path / "plain.cnf")[0] == 0
    with open_text(f) as fh:
        packed = [line for line in fh.read().splitlines() if not line.startswith("c command: ")]
    plain = (tmp_path / "plain.cnf").read_text().splitlines()
    assert packed == [line for line in plain if not line.startswith("c command: ")] and len(packed) > 1000
    if suffix == ".bz2" and shutil.which("bzip2"):
        assert subprocess.run(["bzip2", "-t", str(f)]).returncode == 0


def test_other_compressions_are_refused_by_name(run_cli, tmp_path, monkeypatch):
    f = tmp_path / "h.cnf.lz4"
    assert run_cli("encode", HUNDE, "-o", f) == (
        2,
        "",
        f"satedge: error: {f}: .lz4 is no compression satedge writes: it writes .gz, .xz, .bz2 and .zst\n",
    )
    monkeypatch.setitem(sys.modules, "zstandard", None)  # as if the extra were not installed
    assert run_cli("encode", HUNDE, "-o", tmp_path / "h.cnf.zst") == (
        2,
        "",
        "satedge: error: .zst files need zstandard: pip install 'satedge[zstd]'\n",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_decode_says_the_puzzle_path_came_from_the_header(run_cli, tmp_path, monkeypatch):
    """Before: `h.yaml: no such file`, as if the user had named it; now it says where the path came
    from and what to do."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "h.yaml").write_bytes(HUNDE.read_bytes())
    assert run_cli("encode", "h.yaml", "-o", "h.cnf")[0] == 0
    (tmp_path / "h.yaml").rename(tmp_path / "moved.yaml")
    (tmp_path / "m.txt").write_text("v 1 0\n")
    assert run_cli("decode", "h.cnf", "m.txt") == (
        2,
        "",
        "satedge: error: h.cnf: the puzzle file its header names cannot be read (h.yaml: no such file, nor a "
        "shipped puzzle of that name (satedge puzzles lists them)): give the puzzle with --puzzle FILE\n",
    )
    assert run_cli(
        "decode", "h.cnf", "m.txt", "--puzzle", "moved.yaml"
    ) == (  # the puzzle found: the model next
        2,
        "",
        "satedge: error: m.txt: the model leaves 272 of the formula's 273 decision variables unassigned (the "
        "first: 2): is it cut short?\n",
    )
