"""Hostile input over every command: each case ends, under 3 GB of address space,
with exit status 2, one `satedge: error:` line of at most 300 characters naming the problem,
nothing on stdout, and no file written (not even an empty or partial one)."""

import json
import os
from pathlib import Path

import pytest
from conftest import PUZZLES
from warm import run_commands

HUNDE = PUZZLES / "hunde-spiel.yaml"
E2 = PUZZLES / "eternity2" / "e2.yaml"
ADDRESS_SPACE = 3 * 2**30
BIG = "9" * 100_000  # a 100,000-digit integer

SPEC = (
    "name: {name}\npuzzles: [{puzzle}]\nencodings: [support]\nsolvers: [cadical195]\ntask: solve\ntimeout: {timeout}\n"
    "repeat: {repeat}\n"
)


def _fixtures(d: Path) -> None:
    """The hostile files, made once in ``d``."""
    levels = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        levels.append(f"{chr(97 + i)}: &{chr(97 + i)} [{', '.join(['*' + chr(96 + i)] * 9)}]")
    (d / "bomb.yaml").write_text("\n".join(levels) + "\n")
    (d / "deep.yaml").write_text("[" * 100_000)
    (d / "deepmap.yaml").write_text("a: {" * 10_000)
    (d / "bigint.yaml").write_text(f"rows: {BIG}\ncols: 1\ntiles: [[1, 1, 1, 1]]\n")
    (d / "latin1.yaml").write_bytes(b"name: caf\xe9\nrows: 1\n")
    (d / "huge.yaml").write_bytes(b"")
    os.truncate(d / "huge.yaml", 100 * 2**20)  # sparse: 100 MB of nothing
    os.mkfifo(d / "fifo.yaml")
    (d / "bigint.puz").write_text(f"1 1\n{BIG} 0 0 0\n")
    (d / "latin1.puz").write_bytes(b"c \xff\xfe\n1 1\n0 0 0 0\n")
    (d / "board.yaml").write_text("rows: 100000\ncols: 100000\nmatching: identical\ntiles: []\n")
    (d / "longname.yaml").write_text(HUNDE.read_text().replace("name: ", "name: " + "x" * 300, 1))
    (d / "tiles-string.yaml").write_text("rows: 1\ncols: 1\nmatching: identical\ntiles: abcd\n")
    (d / "hints.txt").write_text("1\n1 1 1 0\n0 0 1 1\n")
    (d / "notaboard.txt").write_text("0\n0 0 1 1\n1 1 1 1\n")
    (d / "a").mkdir()
    (d / "b").mkdir()
    (d / "a" / "p.yaml").write_text(HUNDE.read_text())
    (d / "b" / "p.yaml").write_text(HUNDE.read_text())
    for name, text in (
        ("ok", SPEC.format(name="ok", puzzle=HUNDE, timeout=10, repeat=1)),
        ("repeat", SPEC.format(name="r", puzzle=HUNDE, timeout=10, repeat=10**9)),
        ("timeout", SPEC.format(name="t", puzzle=HUNDE, timeout="1.0e+300", repeat=1)),
        ("escape", SPEC.format(name="../../x", puzzle=HUNDE, timeout=10, repeat=1)),
        ("bombspec", SPEC.format(name="b", puzzle=d / "bomb.yaml", timeout=10, repeat=1)),
        ("unknown", SPEC.format(name="u", puzzle=HUNDE, timeout=10, repeat=1) + "colour: red\n"),
        ("bigrepeat", SPEC.format(name="g", puzzle=HUNDE, timeout=10, repeat=BIG[:40])),
        (
            "cmdspec",
            SPEC.format(name="c", puzzle=HUNDE, timeout=10, repeat=1).replace(
                "[cadical195]", "['cmd:cadical \"x']"
            ),
        ),
    ):
        (d / f"{name}.spec.yaml").write_text(text)
    (d / "empty").mkdir()
    # a formula and models of it
    from satedge.cli import main

    assert main(["encode", str(HUNDE), "-o", str(d / "h.cnf")]) == 0
    (d / "short.model").write_text("v 1 2 3 0\n")
    (d / "range.model").write_text("v 1 -2 99999 0\n")
    (d / "bigint.model").write_text(f"v {BIG} 0\n")
    (d / "latin1.model").write_bytes(b"v 1 \xff 0\n")
    (d / "huge.model").write_bytes(b"")
    os.truncate(d / "huge.model", 100 * 2**20)
    (d / "plain.cnf").write_text("p cnf 1 1\n1 0\n")
    (d / "bad.json").write_text("[" * 100_000)
    (d / "badcert").mkdir()
    (d / "badcert" / "manifest.json").write_text("[" * 100_000)
    for name, piece in (
        ("looks", {"proof": "pieces/0.drat", "looks": [["x", 0, []]]}),
        ("devzero", {"proof": "/dev/zero"}),
    ):
        (d / name).mkdir()
        (d / name / "manifest.json").write_text(
            json.dumps(
                {"models": 1, "pieces": [{"index": 0, "cube": [], "clauses": "pieces/0.cnf", **piece}]}
            )
        )
    (d / "bigint.sol").write_text(f"0 0 0 {BIG}\n")
    (d / "short.sol").write_text("0 0 0 0\n")


# (id, arguments with {d} for the fixtures' folder, a fragment of the one error line)
CASES = [
    ("alias-bomb", ["count", "{d}/bomb.yaml"], "more than 1,000,000 values once its aliases are expanded"),
    ("deep-lists", ["count", "{d}/deep.yaml"], "nested more than 64 deep"),
    ("deep-maps", ["solve", "{d}/deepmap.yaml"], "nested more than 64 deep"),
    ("bigint-yaml", ["count", "{d}/bigint.yaml"], "not valid YAML"),
    ("latin1-yaml", ["count", "{d}/latin1.yaml"], "not UTF-8 text"),
    ("huge-file", ["count", "{d}/huge.yaml"], "more than the 67,108,864 an input file may have"),
    ("fifo", ["count", "{d}/fifo.yaml"], "it is not a regular file"),
    ("dev-zero", ["count", "/dev/zero"], "/dev/zero: cannot read: it is not a regular file"),
    ("folder", ["solve", "{d}/empty"], "it is a folder"),
    ("bigint-puz", ["count", "{d}/bigint.puz"], "line 2: expected integers, found '9999"),
    ("latin1-puz", ["count", "{d}/latin1.puz"], "not UTF-8 text"),
    ("huge-board", ["count", "{d}/board.yaml"], "rows must be at most 10,000, not 100,000"),
    ("long-name", ["count", "{d}/longname.yaml"], "name must be a string of at most 200 characters"),
    ("tiles-string", ["count", "{d}/tiles-string.yaml"], "tiles must be a list of four-edge lists"),
    ("heule-hints", ["count", "{d}/hints.txt"], "1 hint lines; satedge reads instances without hints"),
    ("heule-no-board", ["count", "{d}/notaboard.txt"], "fit no rectangular framed board"),
    ("missing", ["solve", "{d}/nope.yaml"], "nope.yaml: no such file"),
    ("timeout-huge", ["solve", HUNDE, "--timeout", "1e300"], "must be at most 10,000,000 seconds"),
    ("timeout-nan", ["solve", HUNDE, "--timeout", "nan"], "must be positive and finite, not nan"),
    ("timeout-negative", ["count", HUNDE, "--timeout", "-1"], "must be positive and finite"),
    ("timeout-bigint", ["count", HUNDE, "--timeout", BIG], "must be positive and finite, not 9999"),
    ("memory-zero", ["solve", HUNDE, "--memory", "0"], "argument --memory: must be at least 1, not 0"),
    (
        "memory-bigint",
        ["solve", HUNDE, "--memory", BIG],
        "argument --memory: expected an integer, found '9999",
    ),
    ("workers-many", ["count", HUNDE, "--workers", "100000"], "must be at most 1,024"),
    ("limit-zero", ["solve", HUNDE, "--limit", "0"], "argument --limit: must be at least 1"),
    (
        "solver-unknown",
        ["solve", HUNDE, "--solver", "nosuch"],
        "unknown solver 'nosuch'; choose a PySAT solver",
    ),
    (
        "solver-cmd-quote",
        ["solve", HUNDE, "--solver-cmd", 'cadical "x'],
        "solver command 'cadical \"x': No closing quotation",
    ),
    ("solver-cmd-empty", ["count", HUNDE, "--solver-cmd", ""], "the solver command is empty"),
    ("solve-output-suffix", ["solve", HUNDE, "-o", "out.txt"], "-o names a .sol or a .json file"),
    ("encoding-unknown", ["solve", HUNDE, "--encoding", "nosuch"], "unknown encoding 'nosuch'"),
    (
        "card-unknown",
        ["count", HUNDE, "--card", "nosuch"],
        "unknown card encoding 'nosuch'; choose from pairwise",
    ),
    ("mode-unknown", ["count", HUNDE, "--mode", "nosuch"], "argument --mode: invalid choice: 'nosuch'"),
    ("encodings-bomb", ["encodings", "--puzzle", "{d}/bomb.yaml"], "aliases are expanded"),
    ("encodings-memory-alone", ["encodings", "--memory", "100"], "--memory applies with --puzzle"),
    ("encode-bomb", ["encode", "{d}/bomb.yaml", "-o", "out.cnf"], "aliases are expanded"),
    ("encode-to-folder", ["encode", HUNDE, "-o", "{d}/empty"], "cannot write: it is a folder"),
    (
        "encode-no-folder",
        ["encode", HUNDE, "-o", "nowhere/x.cnf"],
        "nowhere/x.cnf: cannot write: No such file or directory",
    ),
    (
        "encode-dev-full",
        ["encode", HUNDE, "-o", "/dev/full"],
        "/dev/full: cannot write: No space left on device",
    ),
    (
        "encode-beyond-memory",
        ["encode", E2, "--encoding", "direct-pairwise", "--memory", "1500", "-o", "e2.cnf"],
        "e2.yaml: encoding direct-pairwise needs more than 1500 MB of memory",
    ),
    (
        "encode-same-stem",
        ["encode", "{d}/a/p.yaml", "{d}/b/p.yaml", "--all-presets", "-o", "cnf"],
        "would write the same files (p.PRESET.cnf)",
    ),
    ("all-presets-no-dir", ["encode", HUNDE, "--all-presets"], "--all-presets needs -o DIR"),
    (
        "decode-short-model",
        ["decode", "{d}/h.cnf", "{d}/short.model"],
        "the model leaves 270 of the formula's 273",
    ),
    ("decode-out-of-range", ["decode", "{d}/h.cnf", "{d}/range.model"], "literal 99999 out of range"),
    (
        "decode-bigint",
        ["decode", "{d}/h.cnf", "{d}/bigint.model"],
        "'99999999999999999999...' is not a literal",
    ),
    ("decode-latin1", ["decode", "{d}/h.cnf", "{d}/latin1.model"], "not UTF-8 text"),
    ("decode-huge-model", ["decode", "{d}/h.cnf", "{d}/huge.model"], "an input file may have"),
    ("decode-model-dev-zero", ["decode", "{d}/h.cnf", "/dev/zero"], "it is not a regular file"),
    ("decode-cnf-dev-zero", ["decode", "/dev/zero", "{d}/short.model"], "it is not a regular file"),
    ("decode-plain-cnf", ["decode", "{d}/plain.cnf", "{d}/short.model"], "not written by satedge encode"),
    ("decode-cnf-fifo", ["decode", "{d}/fifo.yaml", "{d}/short.model"], "it is not a regular file"),
    ("generate-huge", ["generate", "--rows", "100000", "--cols", "100000"], "must be at most 10,000"),
    ("generate-2000", ["generate", "--rows", "2000"], "a 2000x2000 board has 4,000,000 cells"),
    ("generate-count", ["generate", "--count", "1000000000"], "argument --count: must be at most 100,000"),
    ("generate-colors", ["generate", "--colors", "0"], "argument --colors: must be at least 1, not 0"),
    ("generate-seed", ["generate", "--seed", "abc"], "argument --seed: expected an integer, found 'abc'"),
    ("generate-bigint", ["generate", "--rows", BIG], "argument --rows: expected an integer, found '9999"),
    ("crosscheck-examples", ["crosscheck", "--examples", "0"], "argument --examples: must be at least 1"),
    ("crosscheck-cells", ["crosscheck", "--max-cells", "100"], "argument --max-cells: must be at most 16"),
    (
        "crosscheck-encoding",
        ["crosscheck", "--encodings", "nosuch", "--examples", "1"],
        "unknown encoding 'nosuch'; choose a preset",
    ),
    ("run-repeat", ["run", "{d}/repeat.spec.yaml"], "repeat must be a positive integer, at most 1,000"),
    (
        "run-timeout",
        ["run", "{d}/timeout.spec.yaml"],
        "timeout must be a positive number of seconds, at most",
    ),
    ("run-name", ["run", "{d}/escape.spec.yaml"], "name must be letters, digits"),
    ("run-bomb", ["run", "{d}/bombspec.spec.yaml"], "aliases are expanded"),
    ("run-unknown-key", ["run", "{d}/unknown.spec.yaml"], "unknown key(s) colour"),
    ("run-bigint", ["run", "{d}/bigrepeat.spec.yaml"], "repeat must be a positive integer"),
    ("run-cmd-quote", ["run", "{d}/cmdspec.spec.yaml"], "No closing quotation"),
    (
        "run-scheduler",
        ["run", "{d}/ok.spec.yaml", "--executor", "dask", "--scheduler", "not a url"],
        "cannot reach the Dask scheduler at not a url",
    ),
    (
        "run-workers",
        ["run", "{d}/repeat.spec.yaml", "--workers", "0"],
        "argument --workers: must be at least 1",
    ),
    ("run-dev-zero", ["run", "/dev/zero"], "it is not a regular file"),
    ("report-missing", ["report", "{d}/nowhere"], "no results in"),
    ("report-empty", ["report", "{d}/empty"], "empty/results.jsonl"),
    (
        "render-bad-json",
        ["render", HUNDE, "--solution", "{d}/bad.json", "-o", "x.svg"],
        "bad.json: not valid JSON: nested too deep",
    ),
    ("render-suffix", ["render", HUNDE, "-o", "x.gif"], "x.gif: pictures are .svg or .png"),
    (
        "maximize-bomb",
        ["maximize", "{d}/bomb.yaml"],
        "more than 1,000,000 values once its aliases are expanded",
    ),
    (
        "maximize-heule",
        ["maximize", HUNDE, "--method", "sat", "--encoding", "heule"],
        "the heule encoding covers framed grid boards only",
    ),
    ("maximize-output", ["maximize", HUNDE, "-o", "best.txt"], "best.txt: -o names a .sol or a .json file"),
    ("maximize-memory", ["maximize", HUNDE, "--memory", "0"], "argument --memory: must be at least 1"),
    (
        "check-bigint",
        ["check", HUNDE, "{d}/bigint.sol"],
        "bigint.sol: line 1: expected integers, found '0 0 0 9999",
    ),
    ("check-short", ["check", HUNDE, "{d}/short.sol"], "the solution places 1 of 9 cells"),
    ("convert-bomb", ["convert", "{d}/bomb.yaml", "out.yaml"], "aliases are expanded"),
    ("convert-suffix", ["convert", HUNDE, "out.txt"], "unknown puzzle format"),
    (
        "check-proof-missing",
        ["check-proof", "{d}/nowhere"],
        "no manifest.json: not a certificate written by --proof",
    ),
    (
        "check-proof-file",
        ["check-proof", "{d}/h.cnf"],
        "no manifest.json: not a certificate written by --proof",
    ),
    ("check-proof-bomb", ["check-proof", "{d}/badcert"], "manifest.json is damaged"),
    ("check-proof-looks", ["check-proof", "{d}/looks"], "manifest.json is damaged"),
    ("check-proof-dev-zero", ["check-proof", "{d}/devzero"], "manifest.json is damaged"),
    (
        "check-proof-workers",
        ["check-proof", "{d}/empty", "--workers", "0"],
        "argument --workers: must be at least 1",
    ),
    (
        "check-proof-checker",
        ["check-proof", "{d}/empty", "--checker", "nope"],
        "argument --checker: invalid choice",
    ),
    ("solvers-option", ["solvers", "--bogus"], "unrecognized arguments: --bogus"),
    ("puzzles-option", ["puzzles", "--bogus"], "unrecognized arguments: --bogus"),
]


HANG = 90  # seconds after which a case counts as hanging (each takes a few; far more on a loaded machine)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Every case run once, two at a time, each in a process and a folder of its own, forked from a
    warm process that has imported satedge's CLI (tests/warm.py): the command's exit status,
    stdout, stderr and the files left in its folder."""
    d = tmp_path_factory.mktemp("hostile")
    _fixtures(d)
    folders = [tmp_path_factory.mktemp(name) for name, _, _ in CASES]
    commands = [
        ([str(a).replace("{d}", str(d)) for a in args], str(cwd)) for (_, args, _), cwd in zip(CASES, folders)
    ]
    results = run_commands(commands, hang=HANG, address_space=ADDRESS_SPACE)
    return {
        name: (code, out, err, sorted(str(p.relative_to(cwd)) for p in cwd.rglob("*")))
        for (name, _, _), cwd, (code, out, err) in zip(CASES, folders, results)
    }


def test_there_are_sixty_cases_over_every_command():
    from satedge.cli import build_parser

    commands = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert len(CASES) >= 60 and len({c[0] for c in CASES}) == len(CASES)
    assert {c[1][0] for c in CASES} == set(commands)


@pytest.mark.slow
@pytest.mark.parametrize("name,args,fragment", CASES, ids=[c[0] for c in CASES])
def test_hostile_input_is_one_line(outcomes, name, args, fragment):
    code, out, err, left = outcomes[name]
    assert (code, out, left) == (2, "", []), err
    assert err.startswith("satedge: error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert len(err) <= 301 and fragment in err, err


@pytest.mark.slow
def test_libyaml_and_the_python_loader_read_the_same(tmp_path):
    """Every shipped YAML file reads the same through libyaml as through the Python loader; a
    recursive alias and a duplicate key read as the Python loader reads them."""
    import yaml
    from conftest import ROOT

    from satedge.errors import SatedgeError
    from satedge.system import yamlfile

    assert yamlfile._FAST is not None  # PyYAML's wheels carry libyaml: the fast path is tested
    shipped = sorted(p for d in ("puzzles", "encodings", "experiments") for p in (ROOT / d).rglob("*.yaml"))
    assert len(shipped) > 80
    for path in shipped:
        assert yamlfile.read_yaml(path) == yaml.load(path.read_text(), Loader=yamlfile._PythonLoader), path
    (tmp_path / "rec.yaml").write_text("a: &x [1, *x]\n")
    got = yamlfile.read_yaml(tmp_path / "rec.yaml")
    assert got["a"][0] == 1 and got["a"][1] is got["a"]
    (tmp_path / "dup.yaml").write_text("a: 1\nb: 2\na: 3\n")
    with pytest.raises(SatedgeError) as e:
        yamlfile.read_yaml(tmp_path / "dup.yaml")
    assert str(e.value) == f"{tmp_path / 'dup.yaml'}: not valid YAML at line 3: duplicate key 'a'"
