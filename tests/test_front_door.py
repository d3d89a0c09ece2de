"""The front door: one library with the command line's defaults, values that print short and draw
in a notebook, pipes and other solvers' files, help that gives every default, and a long job
that shows what it is doing."""

import argparse
import fcntl
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios

import pytest
from conftest import PUZZLES, read_terminal

import satedge
from satedge.cli import build_parser

SATEDGE = [sys.executable, "-m", "satedge"]
HUNDE = PUZZLES / "hunde-spiel.yaml"


# ---------------------------------------------------------------------------- one library
def test_the_library_has_what_the_command_line_has():
    for name in (
        "load_puzzle",
        "solve",
        "count",
        "solutions",
        "encode",
        "Job",
        "run",
        "Encoding",
        "SolverConfig",
    ):
        assert name in satedge.__all__ and hasattr(satedge, name), name
    puzzle = satedge.load_puzzle("hunde-spiel")
    assert satedge.count(puzzle) == satedge.Counts(16, 8, 2)
    assert (
        satedge.count(puzzle, method="sat")
        == satedge.count(puzzle, method="backtrack")
        == satedge.Counts(16, 8, 2)
    )
    assert satedge.validate(puzzle, satedge.solve(puzzle).solution) is None
    # encode takes preset names and defaults to the commands' preset
    assert satedge.encode(puzzle).nv == satedge.encode(puzzle, "edgecolor-corners").nv == 585
    assert satedge.job(puzzle, "count", method="sat").encoding.name == satedge.DEFAULT_ENCODING


def test_auto_is_the_backtracker_on_every_core(monkeypatch):
    from satedge.engines import backtrack

    monkeypatch.setattr(backtrack, "cores", lambda: 2)
    assert str(satedge.job("hunde-spiel").solver) == "backtrack"  # 9 cells: the pure-Python loop
    assert str(satedge.job("board-suite/7/8/board_0").solver) == "backtrack:workers=2"
    assert (
        str(satedge.job("board-suite/7/8/board_0", encoding="support").solver) == "cadical195:sat"
    )  # a SAT option: sat


def test_values_print_short_and_draw_in_a_notebook():
    e2 = satedge.load_puzzle("eternity2/e2")
    assert repr(e2) == "Puzzle('e2', 16x16, identical, 256 tiles, frame 0)"
    encoded = satedge.encode(e2, "heule2008-cmp")
    assert repr(encoded) == "Encoded('heule', 49,008 variables, 926,828 clauses)"  # before: megabytes
    hunde = satedge.load_puzzle("hunde-spiel")
    solved = satedge.solve(hunde)
    job = satedge.job(hunde, "count")
    for value in (
        e2,
        encoded,
        solved,
        solved.solution,
        job,
        satedge.run(job),
        job.solver,
        satedge.Encoding.parse("support"),
    ):
        assert len(repr(value)) < 400, repr(value)
    assert e2._repr_svg_().startswith("<svg") and solved._repr_svg_().startswith("<svg")
    assert str(solved).count("\n") == 12  # the grid, three rows of tiles


# ---------------------------------------------------------------------------- pipes and other solvers
@pytest.mark.slow
def test_dash_is_stdin_and_stdout(tmp_path):
    generated = subprocess.run(
        [*SATEDGE, "generate", "--rows", "4", "--colors", "3", "--frame", "--seed", "3", "-o", "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    r = subprocess.run(
        [*SATEDGE, "count", "-", "--method", "backtrack", "--json"],
        input=generated,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and json.loads(r.stdout)["puzzle"] == "-", r.stderr
    cnf = subprocess.run(
        [*SATEDGE, "encode", "-", "-o", "-"], input=generated, capture_output=True, text=True
    ).stdout
    assert cnf.startswith("c satedge") and '"data":{' in cnf  # the puzzle travels in the header
    (tmp_path / "p.cnf").write_text(cnf)
    model = "s SATISFIABLE\nv " + " ".join(map(str, _model(tmp_path / "p.cnf"))) + " 0\n"
    r = subprocess.run(
        [*SATEDGE, "decode", str(tmp_path / "p.cnf"), "-", "--json"],
        input=model,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "SAT", r.stderr


def _model(cnf) -> list[int]:
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
        assert s.solve()
        return s.get_model()


def test_minisats_result_file_decodes(tmp_path, run_cli):
    assert run_cli("encode", HUNDE, "-o", tmp_path / "h.cnf")[0] == 0
    lits = _model(tmp_path / "h.cnf")
    (tmp_path / "h.out").write_text("SAT\n" + " ".join(map(str, lits)) + " 0\n")
    code, out, err = run_cli("decode", tmp_path / "h.cnf", tmp_path / "h.out", "--json")
    assert (code, err, json.loads(out)["status"]) == (0, "", "SAT")
    (tmp_path / "u.out").write_text("UNSAT\n")
    assert run_cli("decode", tmp_path / "h.cnf", tmp_path / "u.out") == (1, "UNSATISFIABLE\n", "")


BINARIES = {
    "minisat": "minisat",
    "cadical": "cadical -q",
    "cryptominisat5": "cryptominisat5 --verb 0",
    "picosat": "picosat",
}


@pytest.mark.slow
@pytest.mark.parametrize("binary", sorted(BINARIES))
def test_debians_solver_binaries_count_and_pipe(tmp_path, run_cli, binary):
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not installed (Debian's package)")
    code, out, err = run_cli("count", HUNDE, "--solver-cmd", BINARIES[binary], "--json")
    assert code == 0 and [json.loads(out)[k] for k in ("solutions", "distinct", "unique")] == [16, 8, 2], err
    # generate | encode | the binary | decode
    script = (
        f"{' '.join(SATEDGE)} generate --rows 4 --colors 3 --frame --seed 5 -o - | {' '.join(SATEDGE)} encode - "
        f"-o p.cnf && "
        + (
            f"minisat p.cnf p.out > /dev/null; {' '.join(SATEDGE)} decode p.cnf p.out --json"
            if binary == "minisat"
            else f"{BINARIES[binary]} p.cnf | {' '.join(SATEDGE)} decode p.cnf - --json"
        )
    )
    r = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and json.loads(r.stdout)["status"] == "SAT", r.stderr


def test_check_and_render_read_every_form_solve_writes(tmp_path, run_cli):
    insects = PUZZLES / "insects.yaml"
    forms = {"one.json": ["-o", "{f}"], "all.json": ["--all", "-o", "{f}"], "one.sol": ["-o", "{f}"]}
    for name, args in forms.items():
        f = tmp_path / name
        assert run_cli("solve", insects, *[a.format(f=f) for a in args])[0] == 0
    (tmp_path / "lines.jsonl").write_text(
        run_cli("solve", insects, HUNDE, "--all", "--json")[1].split("\n", 1)[0] + "\n"
    )
    (tmp_path / "json.jsonl").write_text(run_cli("solve", insects, "--json")[1])
    for name, n in (("one.json", 1), ("all.json", 4), ("one.sol", 1), ("lines.jsonl", 4), ("json.jsonl", 1)):
        code, out, err = run_cli("check", insects, tmp_path / name)
        assert (code, err) == (0, ""), (name, err)
        assert out == f"{tmp_path / name}: valid" + (f", {n} solutions" if n > 1 else "") + "\n"
        code, out, err = run_cli("render", insects, "--solution", tmp_path / name)
        assert code == 0 and out.startswith("<svg"), (name, err)


def test_many_puzzles_into_one_file_is_an_error(tmp_path, run_cli):
    f = tmp_path / "one.yaml"
    assert run_cli("generate", "--count", "3", "-o", f) == (
        2,
        "",
        f"satedge: error: {f}: -o names a file, and --count 3 makes 3 puzzles: give a folder (one YAML per "
        "puzzle) or - for stdout\n",
    )
    assert not f.exists()  # before: a folder named one.yaml


# ---------------------------------------------------------------------------- help and feedback
def test_every_option_gives_its_default_and_help_the_exit_statuses():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices
    missing = []
    for name, p in sub.items():
        for action in p._actions:
            if (
                not action.option_strings
                or action.dest == "help"
                or isinstance(action, argparse._StoreTrueAction)
            ):
                continue
            text = p.formatter_class(name)._get_help_string(action) % {"default": action.default}
            if "default" not in text:
                missing.append(f"{name} {action.option_strings[0]}")
    assert missing == []
    assert "exit statuses: 0 success, 1 a negative answer" in parser.format_help()


def _on_a_terminal(command, seconds=60, cwd=None, enough=lambda shown: False) -> str:
    """What ``command`` writes to stderr when stderr is a terminal of 120 columns, until it ends,
    ``seconds`` pass or what it wrote is ``enough``."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=slave, cwd=cwd)
    os.close(slave)
    seen = read_terminal(proc, master, enough, seconds)
    proc.kill()
    proc.wait()
    os.close(master)
    return seen


def _reports(shown: str, unit: str) -> list[str]:
    """The status lines of a search under way (not those of a loop being compiled)."""
    return [line.strip() for line in shown.split("\r") if f" {unit}/s" in line and ", solving, " in line]


@pytest.mark.slow
@pytest.mark.parametrize("method,unit", [("backtrack", "placements"), ("sat", "conflicts")])
def test_a_long_job_shows_what_it_is_doing(method, unit):
    """Updated about every second, however busy the machine, once the search is under way
    (before it, while the C loop compiles on an empty cache, the line says so)."""
    shown = _on_a_terminal(
        [*SATEDGE, "solve", "eternity2/8x8", "--method", method, "--workers", "1", "--timeout", "50"],
        enough=lambda shown: len(_reports(shown, unit)) >= 4,
    )
    reports = _reports(shown, unit)
    assert len(reports) >= 3, shown[-500:]
    engine = "backtrack" if method == "backtrack" else "edgecolor-corners, cadical195:sat"
    assert reports[-1].startswith(f"eternity2/8x8: {engine}: ") and ", solving, " in reports[-1]


@pytest.mark.slow
def test_two_workers_show_their_work_summed_and_rising():
    """Owen's 8x8 with the backtracker on two workers: an update at least every two seconds, the
    nodes of both workers summed, rising.  Before: the line stayed at one node count while its
    rate fell (`1,602 nodes, 190 nodes/s`), and with one worker it showed 00:00 for 6 s."""
    import re

    shown = _on_a_terminal(
        [*SATEDGE, "solve", "eternity2/8x8", "--method", "backtrack", "--workers", "2", "--timeout", "50"],
        enough=lambda shown: len(set(_reports(shown, "placements"))) >= 4,
    )
    nodes = [
        int(re.search(r" ([\d,]+) placements,", line).group(1).replace(",", ""))
        for line in _reports(shown, "placements")
    ]
    assert len(nodes) >= 3 and nodes == sorted(nodes) and len(set(nodes)) >= 3, shown[-500:]


@pytest.mark.slow
def test_a_long_count_shows_the_solutions_found_so_far(tmp_path):
    """Counting every model of a framed 4x4 (hundreds of thousands) through SAT: the line shows
    the solutions found so far as they grow.  Before: nodes or conflicts only, never what was found."""
    import re

    from satedge.puzzle.formats import save_puzzle
    from satedge.puzzle.generate import Params, generate

    f = tmp_path / "p.yaml"
    save_puzzle(generate(Params(rows=4, colors=3, border_colors=1, frame=True), seed=1), f)
    shown = _on_a_terminal(
        [
            *SATEDGE,
            "count",
            "p.yaml",
            "--method",
            "sat",
            "--enumeration",
            "blocking",
            "--mode",
            "solutions",
            "--timeout",
            "8",
        ],
        12,
        cwd=tmp_path,
    )
    found = [int(m.group(1).replace(",", "")) for m in re.finditer(r"([\d,]+) solutions so far", shown)]
    assert len(found) >= 2 and found == sorted(found) and found[-1] > found[0], shown[-500:]
    assert "edgecolor-corners, cadical195:sat,enumeration=blocking: " in shown


def test_a_spec_names_shipped_puzzles_as_the_command_line_does(tmp_path):
    from satedge.errors import SatedgeError
    from satedge.experiment.spec import load_spec
    from satedge.system.resources import shipped_puzzles

    spec = tmp_path / "s.yaml"
    spec.write_text(
        "name: s\npuzzles: [hunde-spiel, eternity2/8x8]\nencodings: [edgecolor-corners]\n"
        "solvers: [cadical195]\n"
    )
    runs = load_spec(spec).runs
    assert [r.job.puzzle.name for r in runs] == ["Das verflixte Hunde-Spiel", "8x8"]
    assert str(shipped_puzzles()["hunde-spiel"]) in {str(r.puzzle_path) for r in runs}
    spec.write_text(
        "name: s\npuzzles: [no-such-puzzle]\nencodings: [edgecolor-corners]\nsolvers: [cadical195]\n"
    )
    with pytest.raises(SatedgeError, match=r"s\.yaml: no file matches 'no-such-puzzle'"):
        load_spec(spec)


# ---------------------------------------------------------------------------- smaller things
def test_satedge_solvers_lists_a_minisat_that_writes_its_result_file(tmp_path, monkeypatch):
    """MiniSat writes its model to the file named after the formula; before, the probe read stdout
    and left out an installed minisat that --solver-cmd minisat used."""
    fake = tmp_path / "minisat"
    fake.write_text(
        f"#!{sys.executable}\nimport sys\nopen(sys.argv[2], 'w').write('SAT\\n-1 2 3 0\\n')\n"
        "print('SATISFIABLE')\nsys.exit(10)\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    from satedge.sat.binaries import solver_binaries

    assert solver_binaries()["minisat"] == str(fake)


def test_report_without_plots_writes_no_picture(tmp_path, run_cli):
    """`report --no-plots` wrote four SVG pictures of the seed puzzles, against its own help."""
    from conftest import ROOT

    (tmp_path / "results.jsonl").write_bytes(
        (ROOT / "experiments" / "bench-solve-results.jsonl").read_bytes()
    )
    spec = tmp_path / "s.yaml"
    spec.write_text(
        "name: s\npuzzles: [hunde-spiel, insects]\nencodings: [support-seqcounter]\nsolvers: [cadical195]\n"
    )
    assert run_cli("run", spec, "--out", tmp_path / "o")[0] == 0
    assert run_cli("report", tmp_path / "o", "--no-plots")[0] == 0
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == [
        ".lock",
        "results.jsonl",
        "spec.json",
        "summary.csv",
    ]


def test_a_certified_answers_formula_decodes(tmp_path, run_cli):
    """The formula a certified count keeps (--proof) carries satedge's header, and the blocking
    clauses go to the pieces' files: `decode` reads it (before: 'no satedge header')."""
    code, out, err = run_cli(
        "count", "hunde-spiel", "--certify", "--proof", tmp_path / "p", "--mode", "solutions"
    )
    assert code == 0, err
    formula = tmp_path / "p" / "formula.cnf"
    assert formula.read_text().startswith("c satedge") and "p cnf 585 5052\n" in formula.read_text()
    piece = (
        (tmp_path / "p" / "pieces" / "0.cnf").read_text().splitlines()
    )  # the clauses it adds: 5052 and these
    _, _, nv, count = piece[1].split()
    assert int(count) == 5052 + len(piece) - 2 and int(nv) == max(
        abs(int(x)) for line in piece[2:] for x in line.split()
    )
    answer = tmp_path / "answer.txt"
    answer.write_text("s UNSATISFIABLE\n")
    assert run_cli("decode", formula, answer) == (1, "UNSATISFIABLE\n", "")


@pytest.mark.slow
def test_a_checker_that_runs_out_of_time_says_so(run_cli):
    """Before: `--checker drup` past its time reported only {"status": "TIMEOUT"}."""
    import json

    pytest.importorskip("drup")
    code, out, err = run_cli(
        "count", "hunde-spiel", "--certify", "--checker", "drup", "--timeout", "8", "--json"
    )
    row = json.loads(out)
    assert (code, row["status"], row["stage"]) == (
        3,
        "TIMEOUT",
        "certifying (proofs by cadical195, checked by drup)",
    )


@pytest.mark.slow
@pytest.mark.parametrize("shuffles", [False, True])
def test_the_scatter_plots_title_says_what_its_whiskers_span(tmp_path, run_cli, shuffles):
    """Before: "whiskers: range over shuffles" on a plot of runs without any shuffle."""
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    spec = tmp_path / "s.yaml"
    spec.write_text(
        "name: s\npuzzles: [hunde-spiel, insects]\nencodings: [support-seqcounter, direct-pairwise]\n"
        f"solvers: [cadical195]\n{'shuffles: 2' if shuffles else ''}\n"
    )
    assert run_cli("run", spec, "--out", tmp_path / "o")[0] == 0
    code, out, err = run_cli(
        "report", tmp_path / "o", "--compare", "support-seqcounter/cadical195", "direct-pairwise/cadical195"
    )
    assert code == 0, err
    svg = (tmp_path / "o" / "scatter.svg").read_text()
    assert ("range over shuffles" in svg) == shuffles and ("one run each" in svg) != shuffles


@pytest.mark.slow
def test_check_proof_says_what_it_checks(tmp_path, run_cli):
    """check-proof on a terminal: a line with its clock, the stage and the proofs checked so far.
    Before: nothing at all, for 10 minutes on a 47,000-lemma proof."""
    assert run_cli("count", "hunde-spiel", "--certify", "--proof", tmp_path / "proof")[0] == 0
    shown = _on_a_terminal([*SATEDGE, "check-proof", "proof"], cwd=tmp_path)
    lines = [re.sub(r"\d\d:\d\d", "MM:SS", line.strip()) for line in shown.split("\r")]  # its clock
    assert (
        "check-proof proof: MM:SS, checking, 0 of 1 proof checked by dratify (522 lemmas in all)" in lines
    ), shown
    assert (
        "check-proof proof: MM:SS, checking, 1 of 1 proof checked by dratify (522 lemmas in all)" in lines
    ), shown


@pytest.mark.slow
def test_the_status_line_says_when_the_c_loop_compiles(tmp_path, monkeypatch):
    """Before: the line said `starting` for the 7 to 12 s a compile takes on a busy machine."""
    from satedge.backtrack import native

    if native.compiler() is None:
        pytest.skip("no C compiler here (cc, or $CC): numba's loop answers, nothing compiles")
    monkeypatch.setenv("SATEDGE_CACHE", str(tmp_path / "empty"))
    shown = _on_a_terminal(
        [*SATEDGE, "solve", "eternity2/8x8", "--method", "backtrack", "--workers", "1", "--timeout", "50"],
        enough=lambda shown: len(_reports(shown, "placements")) >= 1,
    )
    assert "eternity2/8x8: backtrack: 00:0" in shown and ", compiling the C loop" in shown, shown[-500:]
    assert len(_reports(shown, "placements")) >= 1
