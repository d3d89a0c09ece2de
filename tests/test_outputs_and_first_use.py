"""Each defect of the issue "numbers a researcher can publish" that is not bad input, reproduced:
writers that replaced or corrupted what they should not, stale siblings, outputs of one name,
and what a new user tripped over (no progress, undocumented options, two default encodings,
no .sol output)."""

import fcntl
import json
import os
import pty
import stat
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest
from conftest import PUZZLES, read_terminal
from pysat.formula import CNF

from satedge.cli import build_parser
from satedge.encode import DEFAULT_ENCODING
from satedge.encode.presets import Encoding
from satedge.experiment.report import pictures
from satedge.puzzle.formats import load_puzzle, save_puzzle
from satedge.sat.dimacs import read_header

HUNDE = PUZZLES / "hunde-spiel.yaml"


@pytest.mark.slow
def test_a_puz_writer_removes_the_stale_clue(run_cli, tmp_path):
    """Before: a .puz written without clues left the .clue of an earlier puzzle, which then clued
    it (0 solutions where it has 12)."""
    x = tmp_path / "x.puz"
    common = ["generate", "--rows", "3", "--colors", "3", "-o", x]
    assert run_cli(*common, "--clues", "3", "--seed", "1")[0] == 0
    assert len(load_puzzle(x).clues) == 3 and x.with_suffix(".clue").exists()
    assert run_cli(*common, "--seed", "2")[0] == 0
    assert not x.with_suffix(".clue").exists() and load_puzzle(x).clues == ()
    yaml = tmp_path / "x.yaml"
    assert run_cli(*common[:-1], yaml, "--seed", "2")[0] == 0
    code, out, _ = run_cli("count", x, "--json", "--method", "backtrack")
    code2, out2, _ = run_cli("count", yaml, "--json", "--method", "backtrack")

    def counts(text):
        return {k: v for k, v in json.loads(text).items() if k in ("solutions", "distinct")}

    assert code == code2 == 0 and counts(out) == counts(out2) and counts(out)["solutions"] > 0


def test_a_name_with_line_breaks_stays_in_its_comment(run_cli, tmp_path):
    """Before: a puzzle name with a newline gave the file a second 'p cnf' line, and PySAT read
    an injected unit clause."""
    f = tmp_path / "evil.yaml"
    f.write_text(
        HUNDE.read_text().replace("name: Das verflixte Hunde-Spiel", 'name: "x\\np cnf 1 1\\n1 0\\r\\x1b[2J"')
    )
    out = tmp_path / "evil.cnf"
    assert run_cli("encode", f, "-o", out)[0] == 0
    lines = out.read_text().splitlines()
    assert sum(line.startswith("p cnf") for line in lines) == 1
    assert all(line.startswith(("c", "p")) or line.endswith(" 0") for line in lines)
    assert "c puzzle: x\\np cnf 1 1\\n1 0\\r\\x1b[2J" in lines or any(
        "x\\np cnf 1 1\\n1 0" in line for line in lines
    )
    encoded = Encoding.parse(DEFAULT_ENCODING).encode(load_puzzle(f))
    assert CNF(from_file=str(out)).clauses == encoded.cnf.clauses
    assert (
        read_header(out)["puzzle"]["name"] == "x\np cnf 1 1\n1 0\r\x1b[2J"
    )  # the JSON line keeps it exactly


@pytest.mark.slow
def test_a_symlinked_output_is_written_through(run_cli, tmp_path):
    """Before: `encode -o LINK` replaced the symlink with a file."""
    target = tmp_path / "real.cnf"
    target.write_text("old\n")
    link = tmp_path / "link.cnf"
    link.symlink_to(target)
    assert run_cli("encode", HUNDE, "-o", link)[0] == 0
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("c satedge")
    dangling = tmp_path / "dangling.cnf"
    dangling.symlink_to(tmp_path / "new.cnf")
    assert run_cli("encode", HUNDE, "-o", dangling)[0] == 0
    assert dangling.is_symlink() and (tmp_path / "new.cnf").read_text().startswith("c satedge")


def test_devices_and_fifos_are_written_to_not_replaced(run_cli, tmp_path):
    """Before (as root): `-o /dev/null` replaced the device with a regular file."""
    assert run_cli("encode", HUNDE, "-o", "/dev/null")[0] == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    fifo = tmp_path / "pipe.cnf"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert run_cli("encode", HUNDE, "-o", fifo)[0] == 0
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got[0].startswith(b"c satedge")


def test_report_pictures_of_one_name_in_two_folders(tmp_path):
    """Before: the pictures of a/p.yaml and b/p.yaml overwrote each other."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    save_puzzle(load_puzzle(PUZZLES / "insects.yaml"), tmp_path / "a" / "p.yaml")
    save_puzzle(load_puzzle(HUNDE), tmp_path / "b" / "p.yaml")
    rows = [{"puzzle": str(tmp_path / f / "p.yaml"), "status": "SAT"} for f in ("a", "b")]
    (tmp_path / "out").mkdir()
    files = pictures(rows, tmp_path / "out", with_png=False)
    assert len(files) == len({f.name for f in files}) == 2 and all(f.name.startswith("p-") for f in files)


def test_every_option_has_help_with_its_default():
    """Before: `generate --help` documented none of its options."""
    parser = build_parser()
    subs = next(a for a in parser._actions if a.dest == "command").choices
    undocumented, no_default = [], []
    for name, sub in subs.items():
        text = sub.format_help()
        for action in sub._actions:
            if not action.option_strings or action.dest == "help":
                continue
            if not action.help:
                undocumented.append(f"{name} {action.option_strings[0]}")
            elif action.default not in (
                None,
                False,
                "",
            ) and "default" not in sub._get_formatter()._expand_help(action):
                no_default.append(f"{name} {action.option_strings[0]}")
        assert "satedge" in text
    assert (undocumented, no_default) == ([], [])


def test_one_default_encoding_for_every_command(run_cli, tmp_path):
    """Before: encode wrote edgecolor-heule2008 where solve and count used edgecolor-corners."""
    out = tmp_path / "h.cnf"
    assert run_cli("encode", HUNDE, "-o", out)[0] == 0
    assert read_header(out)["encoding"]["name"] == DEFAULT_ENCODING == "edgecolor-corners"
    code, text, _ = run_cli("count", HUNDE, "--method", "sat")
    assert code == 0 and f"({DEFAULT_ENCODING}, cadical195:sat, " in text


def test_solve_writes_sol_and_json(run_cli, tmp_path):
    """Before: no command wrote a .sol file."""
    sol, many = tmp_path / "h.sol", tmp_path / "all.json"
    assert run_cli("solve", HUNDE, "-o", sol)[0] == 0
    assert len(sol.read_text().splitlines()) == 9
    assert run_cli("check", HUNDE, sol)[0] == 0
    assert run_cli("solve", HUNDE, "--all", "-o", many)[0] == 0
    assert len(json.loads(many.read_text())) == 16
    assert run_cli("solve", HUNDE, "--all", "-o", tmp_path / "x.sol") == (
        2,
        "",
        f"satedge: error: {tmp_path / 'x.sol'}: a .sol file holds one solution; with --all or --limit give a "
        ".json file\n",
    )


def _on_a_terminal(args: list[str], cwd: Path, size: tuple[int, int] = (24, 100)) -> str:
    """What the command writes to its terminal (stdout and stderr on a pseudo-terminal of
    ``size``, rows and columns)."""
    satedge = Path(sys.executable).parent / "satedge"
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", *size, 0, 0))
    proc = subprocess.Popen(
        [str(satedge), *args], stdin=subprocess.DEVNULL, stdout=follower, stderr=follower, cwd=cwd
    )
    os.close(follower)
    seen = read_terminal(proc, leader, lambda _: False, 120)
    proc.wait(120)
    os.close(leader)
    return seen


@pytest.mark.slow
def test_a_terminal_of_no_size_shows_the_progress_line_80_columns_wide(tmp_path):
    """Before: on a terminal that reports 0 x 0 (script, some CI terminals, serial consoles) no
    progress line showed at all."""
    seen = _on_a_terminal(
        ["maximize", "eternity2/8x8", "--method", "backtrack", "--timeout", "10"], tmp_path, (0, 0)
    )
    lines = [line for line in seen.replace("\r", "\n").splitlines() if "best score" in line]
    assert lines and all(len(line.rstrip()) <= 80 for line in lines)


@pytest.mark.slow
def test_long_commands_show_progress_on_a_terminal(tmp_path):
    """Before: crosscheck, encodings --puzzle and encode --all-presets ran for a minute with no
    sign of life.  On a terminal each shows a bar; in a pipe, none."""
    seen = {
        "encode": _on_a_terminal(
            ["encode", str(HUNDE), str(PUZZLES / "insects.yaml"), "--all-presets", "-o", "cnf"], tmp_path
        ),
        "encodings": _on_a_terminal(["encodings", "--puzzle", str(HUNDE)], tmp_path),
        "crosscheck": _on_a_terminal(
            [
                "crosscheck",
                "--examples",
                "3",
                "--workers",
                "1",
                "--encodings",
                "edgecolor",
                "--solvers",
                "minisat22",
            ],
            tmp_path,
        ),
    }
    assert {name: f"{name}:" in text and "%|" in text for name, text in seen.items()} == dict.fromkeys(
        seen, True
    )
    piped = subprocess.run(
        [str(Path(sys.executable).parent / "satedge"), "encodings", "--puzzle", str(HUNDE)],
        capture_output=True,
        text=True,
    )
    assert piped.returncode == 0 and "%|" not in piped.stderr + piped.stdout


@pytest.mark.slow
def test_a_resumed_run_counts_the_runs_done_before_on_its_bar(tmp_path):
    """Before: after an interruption, --resume's bar read 0/2 where 2 of 4 runs were done."""
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f"name: s\npuzzles: [{HUNDE}, {PUZZLES / 'insects.yaml'}]\nencodings: [support]\n"
        "solvers: [cadical195, minisat22]\ntimeout: 60\n"
    )
    _on_a_terminal(["run", str(spec), "--out", "out", "--only", "*/cadical195", "--workers", "1"], tmp_path)
    again = _on_a_terminal(["run", str(spec), "--out", "out", "--resume", "--workers", "1"], tmp_path)
    assert "2/4" in again and "0/2" not in again


def test_make_demo_shows_its_own_work_with_the_installer_quiet():
    """Before: `make demo` on a fresh machine printed about a hundred lines of the installer's
    warnings before its own output (pip's -q keeps its warnings; -qq keeps only its errors; uv's
    -q keeps only its errors, its -qq not even those)."""
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    installs = [line.strip() for line in makefile.splitlines() if " pip install" in line]
    assert [line.split()[0] for line in installs] == ["@$(BIN)/python", "@$(BIN)/uv"], installs
    assert " -qq " in installs[0] and " -q " in installs[1] and "-qq" not in installs[1], installs
    said = [line.strip() for line in makefile.splitlines() if line.strip().startswith("@echo")]
    assert said == [
        '@echo "make: setting up $(VENV)"',
        '@echo "make: installing satedge with the extras $* into $(VENV)"',
    ]
