"""Nothing escapes: each defect a hostile-input and fault battery found, with a test that failed
before.  Process trees end whole (a supervisor that is a subreaper), outputs never clobber inputs,
files are written all or nothing and read bounded, and every error is one line of about 300
characters."""

import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import PUZZLES, alive, small_command_seconds, wait_until

from satedge.puzzle.formats import puzzle_to_dict, save_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.system.proctree import tree

HUNDE = PUZZLES / "hunde-spiel.yaml"
SATEDGE = [sys.executable, "-m", "satedge"]


def _script(tmp_path, name: str, body: str) -> str:
    f = tmp_path / name
    f.write_text("#!/bin/bash\n" + body)
    f.chmod(0o755)
    return str(f)


def _one_line(err: str) -> None:
    assert err.count("\n") == 1 and err.startswith("satedge: error: ") and len(err) <= 320, err


# ---------------------------------------------------------------------------- outputs and inputs
@pytest.mark.parametrize(
    "command",
    [
        ["encode", "{p}", "-o", "{p}"],
        ["solve", "{p}", "-o", "{p}"],
        ["convert", "{p}", "{p}"],
        ["render", "{p}", "-o", "{p}"],
    ],
)
def test_an_output_never_replaces_an_input(tmp_path, run_cli, command):
    p = tmp_path / ("p.json" if command[0] == "solve" else "p.yaml")
    if command[0] == "render":
        p = tmp_path / "p.svg"
    before = HUNDE.read_bytes()
    p.write_bytes(before)
    if p.suffix != ".yaml":  # a puzzle file named .json or .svg still reads as YAML
        os.symlink(p, tmp_path / "p.yaml")
    code, out, err = run_cli(*[a.format(p=p) for a in command])
    assert (code, out) == (2, "")
    assert err.startswith(f"satedge: error: {p}: is also an input") and err.endswith(
        "write the output elsewhere\n"
    )
    assert p.read_bytes() == before  # before: the puzzle became the CNF, or its own solution


def test_a_link_to_an_input_is_the_input(tmp_path, run_cli):
    p = tmp_path / "p.yaml"
    p.write_bytes(HUNDE.read_bytes())
    os.link(p, tmp_path / "hard.cnf")
    code, _, err = run_cli("encode", p, "-o", tmp_path / "hard.cnf")
    assert code == 2 and "is also an input" in err and p.read_bytes() == HUNDE.read_bytes()


# ---------------------------------------------------------------------------- process trees
def _hard(tmp_path) -> Path:
    f = tmp_path / "hard.yaml"
    save_puzzle(generate(Params(rows=8, cols=8, colors=9, border_colors=3, frame=True), seed=1), f)
    return f


@pytest.mark.slow
@pytest.mark.parametrize("how", ["foreground", "background", "setsid"])
def test_kill_9_leaves_no_grandchild(tmp_path, how):
    """`kill -9` of `solve --solver-cmd` ends the solver's own children too: one a wrapper script
    waits for, one it left running in the background, one that made a session of its own.
    Before: the parent-death signal reached only the direct child, the others ran on under init."""
    marker = f"satedge-escape-{os.getpid()}-{how}"
    child = f"bash -c 'exec -a {marker} sleep 300'"
    body = {
        "foreground": f"{child}\n",
        "background": f"{child} &\nexec sleep 301\n",
        "setsid": f"setsid {child} &\nexec sleep 301\n",
    }[how]
    solver = _script(tmp_path, "solver.sh", body)
    proc = subprocess.Popen(
        [*SATEDGE, "solve", str(_hard(tmp_path)), "--solver-cmd", solver, "--timeout", "100"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def marked() -> list[int]:
        found = []
        for d in os.listdir("/proc"):
            try:
                if (
                    d.isdigit()
                    and alive(int(d))
                    and Path(f"/proc/{d}/cmdline").read_bytes().startswith(marker.encode())
                ):
                    found.append(int(d))
            except OSError:
                continue
        return found

    try:
        assert wait_until(marked, 30), "the solver's child never started"
        proc.kill()
        proc.wait()
        assert wait_until(lambda: not marked(), 10), marked()
    finally:
        for pid in marked():
            os.kill(pid, signal.SIGKILL)


def test_an_answer_counts_when_the_solver_exits_whatever_its_children_hold(tmp_path, run_cli):
    """A binary that answers and leaves a background child holding its output: the answer is
    taken when it exits.  Before: `solve` waited for the child, and at --timeout 5 threw the
    answer away as TIMEOUT."""
    solver = _script(tmp_path, "unsat.sh", "sleep 60 &\necho 's UNSATISFIABLE'\nexit 20\n")
    t0 = time.monotonic()
    code, out, err = run_cli("solve", HUNDE, "--solver-cmd", solver, "--timeout", "20")
    assert (code, out, err) == (
        1,
        f"{HUNDE}: UNSAT (edgecolor-corners, cmd:{solver}), on the solver's word (unchecked)\n",
        f"satedge: warning: {HUNDE}: the answer rests on the word of cmd:{solver}, which nothing checked: "
        "--certify checks it with a DRAT proof\n",
    ) and time.monotonic() - t0 < 10


@pytest.mark.parametrize("sign", ["", "-"])
def test_a_wrong_model_from_a_solver_binary_is_one_line_naming_it(tmp_path, run_cli, sign):
    """A binary that says SAT with every variable true (or false): one line that names the solver
    and the clause its model falsifies.  Before: a RuntimeError traceback, or a TypeError."""
    solver = _script(
        tmp_path,
        "liar.sh",
        f"n=$(grep '^p cnf' \"$1\" | cut -d' ' -f3)\necho 's SATISFIABLE'\n"
        f"echo v $(seq -s ' {sign}' 1 $n | sed 's/^/{sign}/') 0\nexit 10\n",
    )
    code, out, err = run_cli("solve", HUNDE, "--solver-cmd", solver, "--timeout", "60")
    assert (code, out) == (2, "")
    _one_line(err)
    assert f"solver cmd:{solver} gave a model that falsifies clause" in err


# ---------------------------------------------------------------------------- bounded reading
def test_huge_numbers_are_one_line(tmp_path, run_cli):
    sol = tmp_path / "s.json"
    sol.write_text('[{"row": 0, "col": 0, "tile": ' + "9" * 5000 + ', "rotation": 0}]')
    code, out, err = run_cli("check", HUNDE, sol)
    assert (code, out) == (2, "")
    _one_line(err)
    assert err.startswith(f"satedge: error: {sol}: not valid JSON: Exceeds the limit")
    out_dir = tmp_path / "o"
    out_dir.mkdir()
    (out_dir / "results.jsonl").write_text('{"id": ' + "1" * 5000 + "}\n")
    code, out, err = run_cli("report", out_dir, "--no-plots")
    assert code == 2 and err.startswith(
        f"satedge: warning: {out_dir / 'results.jsonl'}: line 1 does not parse as JSON"
    )


def test_a_spec_generating_from_infinity_is_one_line(tmp_path, run_cli):
    spec = tmp_path / "s.yaml"
    spec.write_text(
        "name: s\npuzzles: [{generate: {rows: 3, seeds: [.inf]}}]\nencodings: [support]\nsolvers: [cadical195]\n"
    )
    code, out, err = run_cli("run", spec, "--out", tmp_path / "o")
    assert (code, out) == (2, "")
    _one_line(err)
    assert "generate: seeds must be a list of 1 to 100,000 integers" in err


@pytest.mark.slow
@pytest.mark.parametrize("target", ["/dev/zero", "/dev/full", "fifo"])
def test_a_results_file_that_is_not_a_file_is_refused_at_once(tmp_path, target):
    out = tmp_path / "o"
    out.mkdir()
    if target == "fifo":
        os.mkfifo(out / "results.jsonl")
    else:
        os.symlink(target, out / "results.jsonl")
    for command in (
        ["report", str(out)],
        [
            "run",
            str(Path(__file__).parent.parent / "experiments" / "demo.yaml"),
            "--out",
            str(out),
            "--resume",
        ],
    ):
        r = subprocess.run(
            [*SATEDGE, *command], capture_output=True, text=True, timeout=30
        )  # before: a hang, a MemoryError
        assert (r.returncode, r.stdout) == (2, ""), r.stderr
        assert r.stderr == f"satedge: error: {out / 'results.jsonl'}: cannot read: it is not a regular file\n"


def test_duplicate_keys_are_refused(tmp_path, run_cli):
    p = tmp_path / "p.yaml"
    p.write_text(HUNDE.read_text() + "rows: 4\n")
    assert run_cli("count", p) == (
        2,
        "",
        f"satedge: error: {p}: not valid YAML at line {len(HUNDE.read_text().splitlines()) + 1}: "
        "duplicate key 'rows'\n",
    )
    sol = tmp_path / "s.json"
    sol.write_text('[{"row": 0, "row": 1, "col": 0, "tile": 0, "rotation": 0}]')
    assert run_cli("check", HUNDE, sol) == (
        2,
        "",
        f"satedge: error: {sol}: not valid JSON: duplicate key 'row'\n",
    )


def test_a_planted_solution_is_checked(tmp_path, run_cli):
    data = puzzle_to_dict(generate(Params(rows=3, colors=3, frame=True), 2))
    data["planted"][0]["rotation"] = (
        data["planted"][0]["rotation"] + 1
    ) % 4  # a corner tile, turned off the frame
    f = tmp_path / "p.yaml"
    f.write_text(json.dumps(data))
    code, out, err = run_cli("count", f)
    assert (code, out) == (2, "") and err.startswith(
        f"satedge: error: {f}: planted: not a solution: cell (0, 0) "
    )


def test_nan_seconds_are_not_a_row(tmp_path, run_cli):
    out = tmp_path / "o"
    out.mkdir()
    row = {
        "id": "x",
        "puzzle": "p",
        "puzzle_name": "p",
        "puzzle_sha256": "0",
        "rows": 1,
        "cols": 1,
        "encoding": "e",
        "solver": "s",
        "task": "solve",
        "repetition": 0,
        "timeout": 5.0,
        "status": "SAT",
        "solve_seconds": float("nan"),
    }
    (out / "results.jsonl").write_text(json.dumps(row) + "\n")
    code, _, err = run_cli("report", out, "--no-plots")
    assert (code, err) == (
        2,
        f"satedge: error: {out / 'results.jsonl'}: line 1 has solve_seconds nan, not a finite number\n",
    )


# ---------------------------------------------------------------------------- all or nothing
def test_a_puz_and_its_clue_are_written_together(tmp_path, run_cli):
    clued = tmp_path / "clued.yaml"
    save_puzzle(generate(Params(rows=3, colors=3, frame=True, clues=2), 1), clued)
    (tmp_path / "out.puz").mkdir()  # out.puz cannot be written
    (tmp_path / "out.clue").write_text("kept\n")
    code, out, err = run_cli("convert", clued, tmp_path / "out.puz")
    assert (code, out) == (2, "") and "out.puz: cannot write: it is a folder" in err
    assert (tmp_path / "out.clue").read_text() == "kept\n"  # before: rewritten, or deleted


@pytest.mark.slow
def test_a_killed_writer_leaves_nothing_a_later_command_does_not_remove(tmp_path, run_cli):
    dead = subprocess.Popen(["true"])
    dead.wait()
    left = tmp_path / f".e2.cnf.satedge-{dead.pid}-0123abcd.tmp.cnf"
    left.write_text("half a formula")
    assert run_cli("encode", HUNDE, "-o", tmp_path / "h.cnf")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.cnf"]
    # the temporary file of a write that is killed is named so: .NAME.satedge-PID-TOKEN.tmpSUFFIX
    proc = subprocess.Popen(
        [
            *SATEDGE,
            "encode",
            str(PUZZLES / "eternity2" / "e2.yaml"),
            "--encoding",
            "heule2008-all",
            "-o",
            str(tmp_path / "e2.cnf"),
        ]
    )
    assert wait_until(lambda: [p for p in tmp_path.iterdir() if p.name.startswith(".e2.cnf.satedge-")], 60)
    proc.kill()
    proc.wait()
    assert run_cli("encode", HUNDE, "-o", tmp_path / "h.cnf")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.cnf"]


def test_every_puzzle_is_read_before_any_formula_is_written(tmp_path, run_cli):
    bad = tmp_path / "bad.yaml"
    bad.write_text("rows: 2\n")
    code, _, err = run_cli("encode", HUNDE, bad, "--all-presets", "-o", tmp_path / "cnf")
    assert code == 2 and err == f"satedge: error: {bad}: missing key 'cols'\n"
    assert not (tmp_path / "cnf").exists() or list((tmp_path / "cnf").iterdir()) == []


def test_a_lock_that_is_a_symlink_is_not_followed(tmp_path, run_cli):
    out = tmp_path / "o"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    os.symlink(victim, out / ".lock")
    spec = tmp_path / "s.yaml"
    spec.write_text(f"name: s\npuzzles: [{HUNDE}]\nencodings: [support]\nsolvers: [cadical195]\n")
    code, _, err = run_cli("run", spec, "--out", out)
    assert (code, err) == (
        2,
        f"satedge: error: {out}: cannot hold the folder's lock .lock: it is a symlink\n",
    )
    assert victim.read_text() == "mine\n"


# ---------------------------------------------------------------------------- specs
@pytest.mark.parametrize(
    "encodings,message",
    [
        (
            "[{base: support, name: 2024}]",
            "an encoding's name is letters, digits, '.', '_' and '-', at most 100 characters, not 2024",
        ),
        (
            "[{base: support, name: a}, {base: split, name: a}]",
            "two encodings have the name 'a': give each its own",
        ),
    ],
)
def test_spec_names_are_strings_and_unique(tmp_path, run_cli, encodings, message):
    spec = tmp_path / "s.yaml"
    spec.write_text(f"name: s\npuzzles: [{HUNDE}]\nencodings: {encodings}\nsolvers: [cadical195]\n")
    assert run_cli("run", spec, "--out", tmp_path / "o") == (2, "", f"satedge: error: {spec}: {message}\n")


@pytest.mark.slow
def test_a_spec_is_sized_before_anything_is_generated(tmp_path, run_cli):
    spec = tmp_path / "s.yaml"
    spec.write_text(
        "name: s\npuzzles: [{generate: {rows: 6, seeds: ["
        + ", ".join(map(str, range(100_000)))
        + "]}}]\nencodings: [support, split]\nsolvers: [cadical195]\n"
    )
    unit = small_command_seconds()
    t0 = time.monotonic()
    code, _, err = run_cli("run", spec, "--out", tmp_path / "o")
    assert (code, err) == (
        2,
        f"satedge: error: {spec}: 200,000 runs, more than the 100,000 a spec may have\n",
    )
    assert (
        time.monotonic() - t0 < 10 * unit
    )  # a few commands' start-up; before: 49 s and 680 MB of generating


# ---------------------------------------------------------------------------- one line, bounded
LONG = "x" * 100_000


@pytest.mark.parametrize(
    "key,value",
    [
        ("topology", LONG),
        ("matching", [1] * 5000),
        ("edge_order", ["top"] * 5000),
        ("rows", LONG),
    ],
)
def test_a_long_value_is_echoed_short(tmp_path, run_cli, key, value):
    data = {"rows": 1, "cols": 1, "tiles": [[1, 1, 1, 1]], key: value}
    p = tmp_path / "p.yaml"
    p.write_text(json.dumps(data))
    code, out, err = run_cli("count", p)
    assert (code, out) == (2, "")
    _one_line(err)


def test_a_long_label_list_is_echoed_short(tmp_path, run_cli):
    p = tmp_path / "p.yaml"
    p.write_text(json.dumps({"rows": 1, "cols": 1, "tiles": [[list(range(5000)), 1, 1, 1]]}))
    code, _, err = run_cli("count", p)
    assert code == 2
    _one_line(err)


def test_long_solution_lines_commands_and_solver_words_are_echoed_short(tmp_path, run_cli):
    sol = tmp_path / "s.sol"
    sol.write_text(" ".join(["1"] * 100_000) + "\n")
    code, _, err = run_cli("check", HUNDE, sol)
    assert code == 2
    _one_line(err)
    code, _, err = run_cli("count", HUNDE, "--solver-cmd", LONG)
    assert code == 2
    _one_line(err)
    loud = _script(tmp_path, "loud.sh", f"echo {LONG} >&2\nexit 3\n")
    code, _, err = run_cli("count", HUNDE, "--solver-cmd", loud, "--timeout", "60")
    assert code == 2
    _one_line(err)
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f"name: s\npuzzles: [{{generate: {{rows: 3, colors: 0, model: {LONG}}}}}]\nencodings: [support]\n"
        "solvers: [cadical195]\n"
    )
    code, _, err = run_cli("run", spec, "--out", tmp_path / "o")
    assert code == 2
    _one_line(err)


def test_a_huge_seed_is_a_bounded_number(run_cli):
    code, _, err = run_cli("generate", "--seed", "9" * 4000)
    assert (code, err) == (
        2,
        f"satedge: error: argument --seed: expected an integer, found '{'9' * 30}...'\n",
    )


@pytest.mark.slow
def test_a_full_disk_names_the_file(tmp_path):
    """A write the file system refuses names the file: the results of an experiment beyond the
    file size limit (before: 'File too large' alone).  The limit lets the folder's record of its
    spec (a few hundred bytes) through, not a row."""
    spec = tmp_path / "s.yaml"
    spec.write_text(f"name: s\npuzzles: [{HUNDE}]\nencodings: [support]\nsolvers: [cadical195]\n")

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (700, 700))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    r = subprocess.run(
        [*SATEDGE, "run", str(spec), "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        preexec_fn=small_files,
        timeout=120,
    )
    assert (
        r.returncode == 2
        and r.stderr == f"satedge: error: {tmp_path / 'o' / 'results.jsonl'}: cannot write: File too large\n"
    )


def test_nothing_is_left_of_a_command_after_its_end(tmp_path):
    """Every process a solve started is gone once it has answered, solver binaries' children too."""
    solver = _script(tmp_path, "unsat.sh", "setsid sleep 120 &\necho 's UNSATISFIABLE'\nexit 20\n")
    proc = subprocess.Popen(
        [*SATEDGE, "solve", str(HUNDE), "--solver-cmd", solver],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: set[int] = set()
    while proc.poll() is None:
        seen |= {p.pid for p in tree(proc.pid)[1:]}
        time.sleep(0.02)
    assert proc.returncode == 1
    assert wait_until(lambda: not [p for p in seen if alive(p)], 5)


def test_a_process_that_imports_the_suites_conftest_makes_no_cache_folder(tmp_path):
    """Before: every process that imported conftest (a fresh job process unpickling a test's
    function imports the test's module, and it imports conftest) made an empty
    /tmp/satedge-test-cache-* folder that nothing removed; only the run that names no cache makes
    one, and removes it at its end."""
    tests = Path(__file__).resolve().parent
    env = {**os.environ, "TMPDIR": str(tmp_path), "SATEDGE_CACHE": str(tmp_path / "cache")}
    r = subprocess.run(
        [sys.executable, "-c", "import conftest"],
        cwd=tests,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (r.returncode, r.stderr, sorted(os.listdir(tmp_path))) == (0, "", [])
