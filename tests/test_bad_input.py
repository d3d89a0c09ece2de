"""Every bad input ends with exit status 2 and one line naming the file and the problem."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, alive, children, sigint_default, wait_until

from satedge.encode import bases
from satedge.errors import SatedgeError
from satedge.jobs.registry import doing, takers
from satedge.puzzle.formats import save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.system.files import cut

GOOD = """name: t
rows: 1
cols: 2
matching: complementary
tiles:
  - [a+, b+, a-, b-]
  - [a+, b+, a-, b-]
"""

CASES = [
    ("bad-yaml", "rows: [1\n", "not valid YAML at line 2: expected ',' or ']', but got '<stream end>'"),
    ("tile-count", GOOD.replace("cols: 2", "cols: 3"), "1x3 board needs 3 tiles, found 2"),
    (
        "three-edges",
        GOOD.replace("[a+, b+, a-, b-]\n", "[a+, b+, a-]\n", 1),
        "tile 0 must have four edges, found 3",
    ),
    (
        "no-half",
        GOOD.replace("a+, b+, a-, b-]\n", "brown, b+, a-, b-]\n", 1),
        "tile 0: complementary label 'brown' needs a pattern and a half (+ or -)",
    ),
    (
        "edge-order",
        GOOD + "edge_order: [top, right, bottom, up]\n",
        "unknown edge_order word 'up'; use top, right, bottom, left",
    ),
    ("frame-complementary", GOOD + "frame: 0\n", "a frame needs identical matching"),
    (
        "frame-torus",
        "rows: 1\ncols: 1\nmatching: identical\ntiles: [[1, 1, 1, 1]]\nframe: 0\ntopology: torus\n",
        "a torus has no frame",
    ),
    (
        "clue-outside",
        GOOD + "clues:\n  - {row: 1, col: 0, tile: 0, rotation: 0}\n",
        "clue at row 1, col 0 is outside the 1x2 board",
    ),
    (
        "clue-tile",
        GOOD + "clues:\n  - {row: 0, col: 0, tile: 5, rotation: 0}\n",
        "clue at row 0, col 0 names tile 5, but tiles are 0..1",
    ),
    (
        "unknown-key",
        GOOD + "colour: red\n",
        "unknown key(s) colour; known: border, clues, cols, edge_order, frame, matching, name, planted, rows, "
        "tiles, topology, turns",
    ),
    ("clues-not-list", GOOD + "clues: 3\n", "clues must be a list of {row, col, tile, rotation} mappings"),
    ("planted", GOOD + "planted: 7\n", "planted: a solution is a list of {row, col, tile, rotation} objects"),
    ("not-mapping", "- 1\n- 2\n", "a puzzle file must be a mapping with rows, cols, matching and tiles"),
]


@pytest.mark.parametrize("name,text,message", CASES, ids=[c[0] for c in CASES])
def test_bad_puzzle(run_cli, tmp_path, name, text, message):
    f = tmp_path / f"{name}.yaml"
    f.write_text(text)
    code, out, err = run_cli("count", f)
    assert (code, out, err) == (2, "", f"satedge: error: {f}: {message}\n")


@pytest.mark.parametrize(
    "text,message",
    [
        ("2 1\n1 2 3 4\nx y 1 2\n", "line 3: expected integers, found 'x y 1 2'"),
        (
            "2 1\n1 2 3\n",
            "line 2: a tile is four non-negative colours (north east south west), found '1 2 3'",
        ),
        ("c only a comment\n", "no size line: expected '<cols> [rows]'"),
    ],
)
def test_bad_puz(run_cli, tmp_path, text, message):
    f = tmp_path / "p.puz"
    f.write_text(text)
    assert run_cli("solve", f) == (2, "", f"satedge: error: {f}: {message}\n")


def test_missing_file(run_cli, tmp_path):
    f = tmp_path / "nope.yaml"
    assert run_cli("count", f) == (
        2,
        "",
        f"satedge: error: {f}: no such file, nor a shipped puzzle of that name "
        "(satedge puzzles lists them)\n",
    )


def test_bad_solution_files(run_cli, tmp_path):
    f = tmp_path / "s.sol"
    f.write_text("0 0 0 0\n0 5 0 0\n")
    code, out, err = run_cli("check", PUZZLES / "hunde-spiel.yaml", f)
    assert (code, err) == (2, f"satedge: error: {f}: line 2: cell col 5, row 0 is outside the 3x3 board\n")
    f = tmp_path / "s.json"
    f.write_text("{")
    code, out, err = run_cli("check", PUZZLES / "hunde-spiel.yaml", f)
    assert (code, err) == (
        2,
        f"satedge: error: {f}: not valid JSON: Expecting property name enclosed in double quotes at line 1\n",
    )


@pytest.mark.parametrize(
    "args,message",
    [  # before: each option was ignored
        (
            [
                "encode",
                PUZZLES / "hunde-spiel.yaml",
                "--compress",
                ".gz",
                "-o",
                "{d}/h.cnf",
            ],  # a plain file was written
            "--compress applies to --all-presets; name the file .cnf.gz (or .xz, .bz2, .zst) instead",
        ),
        (
            ["encode", PUZZLES / "hunde-spiel.yaml", "--all-presets", "--card", "ladder", "-o", "{d}/cnf"],
            "--card does not go with --all-presets, which writes every preset as it is",
        ),
        (
            [
                "encode",
                PUZZLES / "hunde-spiel.yaml",
                "--all-presets",
                "--encoding",
                "support",
                "-o",
                "{d}/cnf",
            ],
            "--encoding does not go with --all-presets, which writes every preset as it is",
        ),
        (["encodings", "--memory", "100"], "--memory applies with --puzzle (it says which formulas fit)"),
        (  # before: a folder named p.yaml.gz
            ["generate", "--rows", "2", "--colors", "2", "-o", "{d}/p.yaml.gz"],
            "{d}/p.yaml.gz: generate writes a .yaml, .yml or .puz file, or a folder, never compressed: leave out .gz",
        ),
        (
            ["report", "{d}", "--json"],
            "--json prints a comparison: give --compare A B (or more, or all)",
        ),
    ],
)
def test_options_that_do_not_go_together(run_cli, tmp_path, args, message):
    assert run_cli(*[str(a).format(d=tmp_path) for a in args]) == (
        2,
        "",
        f"satedge: error: {message.format(d=tmp_path)}\n",
    )
    assert list(tmp_path.iterdir()) == []


def test_bad_option_one_line(run_cli):
    code, out, err = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--method", "magic")
    assert (
        code == 2
        and err.count("\n") == 1
        and err.startswith("satedge: error: argument --method: invalid choice: 'magic'")
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (["--limit", "0"], "argument --limit: must be at least 1, not 0"),
        (["--timeout", "-1"], "argument --timeout: must be positive and finite, not -1"),
        (["--timeout", "nan"], "argument --timeout: must be positive and finite, not nan"),
        (["--timeout", "inf"], "argument --timeout: must be positive and finite, not inf"),
        # the same words from the command line, a spec and Python: the rules live in the values
        (
            ["--method", "backtrack", "--solver", "kissat404"],
            "backtrack has its own model: it takes no solver ('kissat404')",
        ),
        (
            ["--method", "backtrack", "--symmetry", "rotation"],
            "backtrack has its own model: it takes no encoding ('edgecolor-corners+symmetry=rotation')",
        ),
        (
            ["--solver", "cpsat", "--card", "ladder"],
            "cpsat has its own model: it takes no encoding ('edgecolor-corners+card=ladder')",
        ),
        (
            ["--solver", "glucose4", "--solver-cmd", "cadical -q"],
            "argument --solver-cmd: not allowed with argument --solver",
        ),
        (["--workers", "0"], "argument --workers/--cpsat-workers: must be at least 1, not 0"),
        (["--workers", "two"], "argument --workers/--cpsat-workers: expected an integer, found 'two'"),
        (
            ["--solver", "kissat404", "--strategy", "cubes"],
            "a strategy applies with workers=N (N at least 2) or a Dask scheduler",
        ),
        (
            ["--method", "backtrack", "--workers", "2", "--strategy", "cubes"],
            f"a strategy applies to {takers('strategy')} only, not to backtrack",
        ),
        (
            ["--solver", "cpsat", "--scheduler", "tcp://127.0.0.1:1"],
            f"a Dask scheduler applies to the engines whose parts run there ({', '.join(doing('solve', 'cluster'))}), "
            "not to cpsat",
        ),
        (
            ["--workers", "2", "--strategy", "halves"],
            "argument --strategy: invalid choice: 'halves' (choose from 'portfolio', 'cubes')",
        ),
        (
            ["--mode", "distinct"],
            "--mode applies with --all or --limit",
        ),  # before: ignored, the first solution
    ],
)
def test_bad_workers(run_cli, args, message):
    code, out, err = run_cli("solve", PUZZLES / "hunde-spiel.yaml", *args)
    assert (code, out, err) == (2, "", f"satedge: error: {message}\n")


@pytest.mark.slow
def test_console_script_no_traceback(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("rows: 1\n")
    r = subprocess.run([sys.executable, "-m", "satedge", "count", str(f)], capture_output=True, text=True)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"satedge: error: {f}: missing key 'cols'\n")


@pytest.mark.parametrize(
    "args,target",
    [
        (
            ["convert", PUZZLES / "hunde-spiel.yaml", "{d}/no/p.yaml"],
            "{d}/no/p.yaml: cannot write: No such file or directory",
        ),
        (
            ["convert", PUZZLES / "hunde-spiel.yaml", "{d}/p.puz"],
            "{d}/p.puz: .puz holds identical-matching grid puzzles only",
        ),
        (
            ["encode", PUZZLES / "hunde-spiel.yaml", "-o", "{d}/no/p.cnf.gz"],
            "{d}/no/p.cnf.gz: cannot write: No such file or directory",
        ),
        (
            ["render", PUZZLES / "hunde-spiel.yaml", "-o", "{d}/no/p.svg"],
            "{d}/no/p.svg: cannot write: No such file or directory",
        ),
        (
            ["generate", "--rows", "2", "--colors", "2", "-o", "{d}/no/p.yaml"],
            "{d}/no/p.yaml: cannot write: No such file or directory",
        ),
        (
            ["generate", "--rows", "2", "--colors", "2", "--count", "2", "-o", "{d}/file/sub"],
            "{d}/file/sub: Not a directory",
        ),
        (
            ["encode", PUZZLES / "hunde-spiel.yaml", "--all-presets", "-o", "{d}/file"],
            "{d}/file: the output of every preset must be a folder",
        ),
    ],
)
def test_unwritable_output(run_cli, tmp_path, args, target):
    (tmp_path / "file").write_text("")
    code, out, err = run_cli(*[str(a).format(d=tmp_path) for a in args])
    assert (code, out, err) == (2, "", f"satedge: error: {target.format(d=tmp_path)}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize("line", ["[]", '{"id": "x"}'])
def test_results_file_of_something_else(run_cli, tmp_path, line):
    f = tmp_path / "results.jsonl"
    f.write_text(line + "\n")
    assert run_cli("report", tmp_path) == (
        2,
        "",
        f"satedge: error: {f}: line 1 is not a result row (one JSON object with id, "
        "puzzle, puzzle_name, puzzle_sha256, rows, cols, encoding, solver, task, "
        "repetition, timeout, status)\n",
    )


def _good_row() -> dict:
    return {
        "id": "x",
        "puzzle": "p.yaml",
        "puzzle_name": "p",
        "puzzle_sha256": "0" * 64,
        "rows": 3,
        "cols": 3,
        "encoding": "support-seqcounter",
        "solver": "cadical195",
        "task": "solve",
        "repetition": 0,
        "timeout": 5.0,
        "status": "SAT",
        "encode_seconds": 0.1,
        "solve_seconds": 0.2,
        "variables": 10,
        "clauses": 20,
        "stats": {"conflicts": 3},
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    "change,problem",
    [
        ({"puzzle_name": ["p"]}, 'has puzzle_name ["p"], not a string'),
        ({"rows": "3"}, 'has rows "3", not an integer'),
        ({"repetition": True}, "has repetition true, not an integer"),
        ({"timeout": None}, "has timeout null, not a number"),
        ({"solve_seconds": "fast"}, 'has solve_seconds "fast", not a number'),
        (
            {"status": "DONE"},
            'has status "DONE", not one of SAT, UNSAT, OPTIMUM, ENCODED, TIMEOUT, MEMOUT, ERROR',
        ),
        ({"stats": {}}, "has stats without a number of conflicts"),
        (
            {"status": "ENCODED", "task": "encode", "write_seconds": None},
            "has status ENCODED but no write_seconds and no dimacs_bytes",
        ),
    ],
)
def test_results_row_with_a_wrong_field(run_cli, tmp_path, change, problem):
    """A hand-edited results file is a one-line error, not a traceback from deep in the report."""
    f = tmp_path / "results.jsonl"
    f.write_text(json.dumps(_good_row()) + "\n" + json.dumps({**_good_row(), **change}) + "\n")
    assert run_cli("report", tmp_path, "--no-plots") == (2, "", f"satedge: error: {f}: line 2 {problem}\n")
    f.write_text(json.dumps({**_good_row(), "clauses": None, "stats": None}) + "\n")
    assert run_cli("report", tmp_path, "--no-plots")[0] == 0


def test_yaml_reader_error_is_one_line(run_cli, tmp_path):
    f = tmp_path / "x.yaml"
    f.write_text("name: \x04\n")
    assert run_cli("count", f) == (
        2,
        "",
        f"satedge: error: {f}: not valid YAML: unacceptable character #x0004: "
        "special characters are not allowed\n",
    )


@pytest.mark.parametrize("command", [["run"], ["encode", PUZZLES / "hunde-spiel.yaml", "--encoding"]])
def test_bad_yaml_spec_and_preset(run_cli, tmp_path, command):
    f = tmp_path / "x.yaml"
    f.write_text("name: [x\n")
    assert run_cli(*command, f) == (
        2,
        "",
        f"satedge: error: {f}: not valid YAML at line 2: expected ',' or ']', but got '<stream end>'\n",
    )


@pytest.mark.slow
def test_output_files_have_the_usual_permissions(run_cli, tmp_path):
    """Every writer renames a finished temporary file into place; the file is made like any other
    (0644 under umask 022, not the 0600 of a private temporary file) and nothing else is left."""
    hunde, d = PUZZLES / "hunde-spiel.yaml", tmp_path
    old = os.umask(0o022)
    try:
        for args in (
            ["generate", "--rows", "3", "--colors", "3", "--frame", "-o", d / "p.yaml"],
            ["convert", d / "p.yaml", d / "p.puz"],
            ["render", hunde, "-o", d / "p.svg"],
            ["render", hunde, "-o", d / "p.png"],
            ["encode", hunde, "-o", d / "p.cnf"],
            ["encode", hunde, "-o", d / "p.cnf.gz"],
            ["encode", hunde, "-o", d / "p.cnf.xz"],
            ["encode", hunde, "-o", d / "p.cnf.bz2"],
        ):
            assert run_cli(*args)[0] == 0
    finally:
        os.umask(old)
    assert {p.name: oct(p.stat().st_mode & 0o777) for p in tmp_path.iterdir()} == dict.fromkeys(
        ["p.yaml", "p.puz", "p.svg", "p.png", "p.cnf", "p.cnf.gz", "p.cnf.xz", "p.cnf.bz2"], "0o644"
    )


@pytest.mark.parametrize(
    "args,message",
    [
        (["crosscheck", "--examples", "0"], "argument --examples: must be at least 1, not 0"),
        (["crosscheck", "--max-cells", "0"], "argument --max-cells: must be at least 1, not 0"),
        (["generate", "--count", "0"], "argument --count: must be at least 1, not 0"),
        (["generate", "--rows", "0"], "argument --rows: must be at least 1, not 0"),
        (["generate", "--cols", "-1"], "argument --cols: must be at least 1, not -1"),
        (["generate", "--colors", "0"], "argument --colors: must be at least 1, not 0"),
        (
            ["generate", "--frame", "--border-colors", "-1"],
            "argument --border-colors: must be at least 0, not -1",
        ),
        (["generate", "--clues", "-2"], "argument --clues: must be at least 0, not -2"),
        (
            ["run", "experiments/demo.yaml", "--workers", "-2"],
            "argument --workers: must be at least 1, not -2",
        ),
    ],
)
def test_counts_out_of_range(run_cli, args, message):
    assert run_cli(*args) == (2, "", f"satedge: error: {message}\n")


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "name: p\nbase: edgecolor\noptions: seqcounter\n",
            "options must be a mapping of card, symmetry, redundant, families and counts, not 'seqcounter'",
        ),
        (
            "name: p\nbase: [edgecolor]\n",
            f"unknown base encoding ['edgecolor']; choose from {', '.join(bases())} or FILE.py:FUNCTION of your own",
        ),
        ("name: p\nbase: edgecolor\noptions: {1: x}\n", "unknown option(s) 1"),
        (
            "name: p\nbase: edgecolor\noptions: {families: [atmostone]}\n",
            "edgecolor has no clause family 'atmostone': its MaxSAT form takes colorcount",
        ),
        (
            "name: p\nbase: heule\noptions: {families: [nope]}\n",
            "unknown clause family 'nope'; choose from atmostone, fbcolors, colorcount",
        ),
        (
            "name: p\nbase: heule\noptions: {families: atmostone}\n",
            "families must be a list of clause family names, not 'atmostone'",
        ),
    ],
)
def test_bad_preset_file(run_cli, tmp_path, text, message):
    f = tmp_path / "p.yaml"
    f.write_text(text)
    assert run_cli("encode", PUZZLES / "hunde-spiel.yaml", "--encoding", f) == (
        2,
        "",
        f"satedge: error: {f}: {message}\n",
    )


@pytest.mark.parametrize(
    "lines,message",
    [
        ("puzzles: [{generate: {rows: 2, 3: 1}}]\nsolvers: cadical195\n", "unknown generate key(s) 3"),
        (
            "puzzles: [hunde-spiel]\nsolvers: 7\n",
            "unknown solver '7'; choose a PySAT solver (satedge solvers lists those that work here)",
        ),
        (
            "puzzles: [{generate: {rows: 3, colors: 0, seeds: [1]}}]\nsolvers: [cadical195]\n",
            "generate: colors must be at least 1, not 0\n",
        ),
        (
            "puzzles: [{generate: {rows: 3, colors: 3, clues: -1, seeds: [1]}}]\nsolvers: [cadical195]\n",
            "generate: clues must be at least 0, not -1\n",
        ),
    ],
)
def test_bad_spec_values(run_cli, tmp_path, lines, message):
    f = tmp_path / "s.yaml"
    f.write_text("name: s\nencodings: [support]\n" + lines)
    code, out, err = run_cli("run", f, "--out", tmp_path / "o")
    assert (
        (code, out) == (2, "") and err.startswith(f"satedge: error: {f}: {message}") and err.count("\n") == 1
    )


def _die() -> None:
    os.kill(os.getpid(), 9)


def test_a_solving_process_that_dies_is_a_one_line_error(run_cli):
    """With --timeout the job runs in a child process; when it dies (the kernel's OOM killer sends
    signal 9) the command names the puzzle and the signal instead of printing a traceback."""
    from satedge.system.process import Limits, call

    with pytest.raises(
        SatedgeError,
        match=r"^the solving process died \(killed by signal 9, perhaps by the kernel "
        r"for lack of memory\)$",
    ):
        call(_die, (), Limits(timeout=10)).unwrap()
    hunde = PUZZLES / "hunde-spiel.yaml"
    assert run_cli("count", hunde, "--solver-cmd", "false", "--timeout", "10") == (
        2,
        "",
        f"satedge: error: {hunde}: solver command 'false' exited with 1: 'no output'\n",
    )


def _hard_solve(tmp_path) -> tuple[subprocess.Popen, int]:
    """`satedge solve` started on a puzzle that no solver finishes in the seconds a test waits, and
    the pid of its solving child process once it is there."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads /proc")
    hard = tmp_path / "hard.yaml"  # framed 8x8 with 9 colours
    save_puzzle(generate(Params(rows=8, cols=8, colors=9, border_colors=3, frame=True), seed=1), hard)
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", "solve", str(hard)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_default,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )  # a kill -9 leaves its temporary folder
    found = wait_until(lambda: children(proc.pid), 60)
    if len(found) != 1:
        proc.kill()
    assert len(found) == 1
    time.sleep(1)  # into the solver's C code
    return proc, found[0]


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL])
def test_kill_stops_the_solving_child_too(tmp_path, signum):
    """`solve` runs its job in a child process of its own process group; Ctrl-C, `kill` (even -9)
    or a closed terminal stops the command, and the child with it, instead of leaving it solving."""
    proc, child = _hard_solve(tmp_path)
    try:
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    time.sleep(0.2)
    # before: the command died of the signal and its child went on solving, an orphan
    said = (
        (
            "satedge: interrupted: solve stopped before its answer, with every process it started; no file is left "
            "half-written\n"
        )
        if signum == signal.SIGINT
        else ""
    )  # before: exit 130 without a word
    assert (proc.returncode, out, err) == (-signum if signum == signal.SIGKILL else 128 + signum, "", said)
    assert not alive(child)


@pytest.mark.slow
def test_kill_of_the_solving_child_is_a_one_line_error(tmp_path):
    """`kill` of the solving child itself ends it at once, even inside CaDiCaL's C code, and the
    command says so in one line."""
    proc, child = _hard_solve(tmp_path)
    try:
        os.kill(child, signal.SIGTERM)
        out, err = proc.communicate(timeout=30)  # before: the child kept the parent's handler and solved on
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (
        2,
        "",
        f"satedge: error: {tmp_path / 'hard.yaml'}: the solving process died (killed by signal 15)\n",
    )


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_kill_stops_crosscheck_and_its_pool(tmp_path, signum):
    """`crosscheck --workers 2` killed (even with -9) while its pool works leaves no worker."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("reads /proc")
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", "crosscheck", "--examples", "300", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: len(children(proc.pid)) >= 2, 60)
        workers = children(proc.pid)
        assert len(workers) == 2
        time.sleep(1)
        proc.send_signal(signum)
        out, err = proc.communicate(
            timeout=30
        )  # before: the workers kept the CLI's handler and terminate() hung
    finally:
        proc.kill()
    assert (proc.returncode, out, err) == (-signum if signum == signal.SIGKILL else 128 + signum, "", "")
    wait_until(
        lambda: not any(map(alive, workers)), 10
    )  # SIGKILL: the kernel ends the workers with the parent
    assert [pid for pid in workers if alive(pid)] == []  # before: they waited forever on a lock


def test_the_memory_guard_counts_pages_forked_processes_share_once():
    """A process holding 200 MB forks two workers that only read it: the group holds about 200 MB,
    not 600 (the sum of the three resident sizes, which the guard used to take)."""
    if not Path("/proc/self/smaps_rollup").exists():
        pytest.skip("reads /proc/PID/smaps_rollup")
    from satedge.system.proctree import tree, tree_memory_mb

    code = (
        "import os, time\nblock = bytearray(200 * 2**20)\nblock[::4096] = b'x' * len(block[::4096])\n"
        "for _ in range(2):\n    if os.fork() == 0:\n        break\ntime.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        assert wait_until(lambda: len(children(proc.pid)) == 2, 30)  # the block was written before the forks
        assert 200 < tree_memory_mb(tree(proc.pid)) < 260
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_kill_stops_check_proof_inside_a_compiled_check(tmp_path, signum):
    """`check-proof --checker drup` killed while drup's compiled check runs ends at once and leaves
    no process: the check runs in a child of its own."""
    from satedge.system.extras import available

    if not (available("drup") and available("dratify")) or not Path("/proc/self/stat").exists():
        pytest.skip("needs the extras certify and verified (dratify, drup) and /proc")
    folder = tmp_path / "proof"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "satedge",
            "count",
            str(PUZZLES / "hunde-spiel.yaml"),
            "--method",
            "sat",
            "--certify",
            "--proof",
            str(folder),
        ],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr  # drup takes about a minute on its proof
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", "check-proof", str(folder), "--checker", "drup"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_default,
    )  # a suite run in the background ignores SIGINT
    try:
        found = wait_until(lambda: children(proc.pid), 60)
        time.sleep(1)  # into drup's compiled code
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)  # before: the check held on to the end, minutes later
    finally:
        proc.kill()
    said = (
        (
            "satedge: interrupted: check-proof stopped before its answer, with every process it started; no file is "
            "left half-written\n"
        )
        if signum == signal.SIGINT
        else ""
    )
    assert (proc.returncode, out, err) == (128 + signum, "", said) and len(found) == 1
    wait_until(lambda: not alive(found[0]), 10)
    assert not alive(found[0])


def test_a_tile_dict_with_a_gap_is_one_short_line_that_names_the_entry(tmp_path, run_cli):
    """Before: 316 characters, every key listed."""
    keys = [k for k in range(1, 101) if k != 37] + [101]
    path = tmp_path / "tile_dict.yaml"
    path.write_text("".join(f"{k}: [[1, 0], [2, 0], [3, 1], [4, 1]]\n" for k in keys))
    code, out, err = run_cli("solve", path)
    assert (code, out, err) == (
        2,
        "",
        f"satedge: error: {path}: tile_dict keys are 1..100 for its 100 tiles: key 37 is "
        "missing and key 101 is beyond 100\n",
    )
    assert len(err) - len(str(path)) <= 200


def _descendants(pid: int) -> list[int]:
    out = []
    for child in children(pid):
        out += [child, *_descendants(child)]
    return out


def _stop_all(pid: int) -> list[int]:
    """SIGSTOP to every descendant of ``pid``: those stopped (one that ended between the listing
    and its signal is left out)."""
    stopped = []
    for child in _descendants(pid):
        try:
            os.kill(child, signal.SIGSTOP)
        except ProcessLookupError:
            continue
        stopped.append(child)
    return stopped


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv, want",
    [
        (
            ["count", "eternity2/8x8", "--method", "sat", "--workers", "2"],
            "eternity2/8x8: TIMEOUT after 6 s\n",
        ),
        (["solve", "eternity2/8x8", "--method", "backtrack", "--workers", "2"], None),
        (["count", "eternity2/8x8", "--solver-cmd", "cadical -q"], "eternity2/8x8: TIMEOUT after 6 s\n"),
    ],
)
def test_a_job_whose_processes_are_all_stopped_still_ends_at_its_timeout(argv, want):
    """SIGSTOP of every process of a running job (a debugger, a frozen container, kill -STOP):
    the command still ends at its --timeout with its TIMEOUT answer, and leaves no process."""
    if "--solver-cmd" in argv and shutil.which("cadical") is None:
        pytest.skip("needs the program cadical on PATH")
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", *argv, "--timeout", "6"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_until(lambda: [p for p in _descendants(proc.pid) if not children(p)] and _descendants(proc.pid), 30)
    time.sleep(1)
    found = _stop_all(proc.pid)
    try:
        out, err = proc.communicate(timeout=30)  # six seconds from the start, and the kill
    finally:
        proc.kill()
    assert (proc.returncode, err) == (3, "") and len(found) >= 2
    assert out == want if want else out.startswith("eternity2/8x8: TIMEOUT")
    wait_until(lambda: not any(map(alive, found)), 10)
    assert [pid for pid in found if alive(pid)] == []


@pytest.mark.slow
def test_an_experiment_whose_processes_are_all_stopped_still_ends_each_run_at_its_timeout(tmp_path):
    """The same for `satedge run`: its warm process and every run's tree stopped.  Before: the
    stopped warm process never reported the killed runs' ends, and the command waited for ever."""
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"name: stopped\npuzzles: [{PUZZLES / 'eternity2' / '8x8.yaml'}]\nencodings: [support-seqcounter]\n"
        "solvers: [cadical195]\ntask: {count: solutions}\ntimeout: 4\nrepeat: 3\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "satedge", "run", str(spec), "--workers", "2", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_until(lambda: len([p for p in _descendants(proc.pid) if not children(p)]) >= 2, 60)
    found = _stop_all(proc.pid)  # the warm process, two supervisors and their jobs
    try:
        out, err = proc.communicate(timeout=60)  # three runs of 4 s, two at a time, and the kills
    finally:
        proc.kill()
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    assert (proc.returncode, out, len(found) >= 5) == (0, "", True)
    assert (
        err.splitlines()[-1] + "\n"
        == f"stopped: 3 runs done (3 TIMEOUT), 0 were there already; results in {tmp_path / 'out' / 'results.jsonl'}\n"
    )
    assert [r["status"] for r in rows] == ["TIMEOUT"] * 3
    wait_until(lambda: not any(map(alive, found)), 10)
    assert [pid for pid in found if alive(pid)] == []


def test_a_certificate_that_cannot_be_written_leaves_no_folder(run_cli, tmp_path, monkeypatch):
    """A full disk (ENOSPC as the files are written): the one-line error, and neither the proof
    folder nor its pieces/ left behind (before: DIR/pieces stayed)."""
    import errno

    from satedge.sat import proofdir

    def full(files):
        raise OSError(errno.ENOSPC, "No space left on device", str(next(iter(files))))

    monkeypatch.setattr(proofdir, "write_group", full)
    folder = tmp_path / "new" / "proof"
    code, out, err = run_cli("count", "hunde-spiel", "--certify", "--proof", folder)
    assert (code, out) == (2, "") and err.startswith("satedge: error: ") and "No space left on device" in err
    assert not (tmp_path / "new").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["count", "hunde-spiel", "--certify"],
        ["maximize", "{uniform}", "--method", "budget", "--workers", "1", "--certify"],
    ],
)
def test_a_certificate_whose_proof_piece_cannot_be_written_leaves_no_folder(
    run_cli, tmp_path, monkeypatch, argv
):
    """The disk fills as ``pieces/0.drat`` is written (inside the group write, as it happens):
    before, ``pieces/`` stayed, and the same command was refused once there was room again."""
    import errno

    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate
    from satedge.system import files

    save_puzzle(generate(Params(rows=3, colors=9, model="uniform"), seed=2), tmp_path / "u.yaml")
    real = files._write

    def full(tmp, data, path):
        if str(path).endswith(".drat"):
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp))
        real(tmp, data, path)

    monkeypatch.setattr(files, "_write", full)
    folder = tmp_path / "new" / "proof"
    args = [a.format(uniform=tmp_path / "u.yaml") for a in argv]
    code, out, err = run_cli(*args, "--proof", folder)
    assert (code, out) == (2, "") and err.startswith("satedge: error: ") and "No space left on device" in err
    assert not (tmp_path / "new").exists()
    monkeypatch.setattr(files, "_write", real)
    assert run_cli(*args, "--proof", folder)[0] == 0 and (folder / "manifest.json").is_file()


def test_an_output_on_the_full_device_is_refused_before_the_search(run_cli, tmp_path):
    """Before: `solve -o LINK` with LINK to /dev/full searched, printed the answer, then failed.
    Refused first now: the puzzle file named after it is not even read."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    link = tmp_path / "board.json"
    link.symlink_to("/dev/full")
    assert run_cli("solve", tmp_path / "no-such.yaml", "-o", link) == (
        2,
        "",
        f"satedge: error: {link}: cannot write: No space left on device\n",
    )


def test_a_broken_json_file_is_called_json(run_cli, tmp_path):
    """Before: "not valid YAML" of a .json file (a JSON document is read as YAML)."""
    f = tmp_path / "p.json"
    f.write_text('{"rows": 3,\n')
    assert run_cli("solve", f) == (
        2,
        "",
        f"satedge: error: {f}: not valid JSON at line 2: expected the node content, but found '<stream end>'\n",
    )


@pytest.mark.parametrize(
    "puzzles,message",
    [
        ("[hunde-spiel, hunde-spiel]", "{h} is listed twice"),
        ("[hunde-spiel, '{d}/copy.yaml']", "{h} and {d}/copy.yaml are the same puzzle"),
    ],
)
def test_a_puzzle_listed_twice_in_a_spec_is_refused(run_cli, tmp_path, puzzles, message):
    """Before: run once, silently, as if listed once."""
    (tmp_path / "copy.yaml").write_bytes((PUZZLES / "hunde-spiel.yaml").read_bytes())
    spec = tmp_path / "twice.yaml"
    spec.write_text(
        f"name: twice\npuzzles: {puzzles.format(d=tmp_path)}\nencodings: [edgecolor]\nsolvers: [cadical195]\n"
        "timeout: 10\n"
    )
    h = PUZZLES / "hunde-spiel.yaml"
    said = (
        f"{spec}: puzzles: {message.format(h=h, d=tmp_path)}: "
        "list each puzzle once (repeat: N runs every puzzle N times)"
    )
    # a line longer than MAX_LINE is cut in its middle (the temporary folder's name varies in length)
    assert run_cli("run", spec, "--out", tmp_path / "out") == (2, "", f"satedge: error: {cut(said)}\n")
    assert not (tmp_path / "out").exists()
