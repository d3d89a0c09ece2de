"""An output file is checked before the work starts, and an answer is printed before it is
written: a path that cannot be written ends at once with one line naming it, and a write that
still fails at the end leaves the answer on standard output."""

import json
import os
import shutil
import subprocess

import pytest
from conftest import PUZZLES

from satedge.errors import SatedgeError
from satedge.system.files import cannot_write, check_output, write_atomic

HUNDE = PUZZLES / "hunde-spiel.yaml"


@pytest.fixture
def read_only(tmp_path):
    """A folder on a read-only file system (a tmpfs mounted so; root and mount(8) needed)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a read-only mount needs root and mount(8)")
    r = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)], capture_output=True
    )
    if r.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs here: {r.stderr.decode().strip()}")
    yield folder
    subprocess.run(["umount", str(folder)], check=True)


def _no_work(monkeypatch):
    """Any puzzle answered is a failure: the output must be refused before."""

    def answered(*args, **kwargs):
        raise AssertionError("the work started before its output was checked")

    monkeypatch.setattr("satedge.cli.common.answer_file", answered)


@pytest.mark.parametrize(
    "args, option",
    [
        (["solve", HUNDE, "--method", "sat"], "-o"),
        (["solve", HUNDE, "--all"], "-o"),
        (["maximize", HUNDE, "--timeout", "15"], "-o"),
        (["maximize", HUNDE], "--picture"),
    ],
)
def test_an_output_in_a_missing_folder_is_refused_before_the_work(
    run_cli, monkeypatch, tmp_path, args, option
):
    """Before: the search ran (56 s on a board of the suite), then the write failed and the answer
    was never printed."""
    _no_work(monkeypatch)
    suffix = ".svg" if option == "--picture" else ".json" if "--all" in args else ".sol"
    out = tmp_path / "missing" / f"x{suffix}"
    assert run_cli(*args, option, out) == (
        2,
        "",
        f"satedge: error: {out}: cannot write: No such file or directory\n",
    )
    assert not (tmp_path / "missing").exists()


def test_an_output_that_is_a_folder_is_refused_before_the_work(run_cli, monkeypatch, tmp_path):
    _no_work(monkeypatch)
    (tmp_path / "x.sol").mkdir()
    assert run_cli("solve", HUNDE, "-o", tmp_path / "x.sol") == (
        2,
        "",
        f"satedge: error: {tmp_path / 'x.sol'}: cannot write: it is a folder\n",
    )


def test_an_output_on_a_read_only_file_system_names_the_users_file(run_cli, monkeypatch, read_only):
    """Before: the error named the temporary file beside it
    (``.x.sol.satedge-19705-8e2f8810.tmp.sol: Read-only file system``), after the search."""
    _no_work(monkeypatch)
    for option, name in (("-o", "b.sol"), ("--picture", "b.svg")):
        assert run_cli("maximize", HUNDE, option, read_only / name) == (
            2,
            "",
            f"satedge: error: {read_only / name}: cannot write: Read-only file system\n",
        )
    with pytest.raises(SatedgeError) as e:
        write_atomic(read_only / "x.sol", "text")
    assert str(e.value) == f"{read_only / 'x.sol'}: cannot write: Read-only file system"
    assert os.listdir(read_only) == []


def test_standard_output_and_devices_pass_the_check(tmp_path):
    for path in (None, "-", "/dev/null", tmp_path / "new.sol"):
        check_output(path)
    assert os.listdir(tmp_path) == []  # the probe beside new.sol is gone


@pytest.mark.parametrize("command", ["solve", "maximize"])
@pytest.mark.parametrize("json_out", [False, True])
def test_a_write_that_fails_at_the_end_leaves_the_answer_on_standard_output(
    run_cli, monkeypatch, tmp_path, command, json_out
):
    """The folder was writable when the work started and is not when it ends (removed, full)."""
    out = tmp_path / "x.sol"

    def fails(puzzle, board, path):
        raise cannot_write(
            OSError(28, "No space left on device"), path[0] if isinstance(path, list) else path
        )

    writer = {"solve": "save_solution", "maximize": "save_board"}[command]  # maximize: -o and --picture
    monkeypatch.setattr(f"satedge.cli.{command}.{writer}", fails)
    code, stdout, err = run_cli(command, HUNDE, "-o", out, *(["--json"] if json_out else []))
    assert (code, err) == (2, f"satedge: error: {out}: cannot write: No space left on device\n")
    if json_out:
        obj = json.loads(stdout)
        assert obj["status"] == ("OPTIMUM" if command == "maximize" else "SAT") and len(obj["solution"]) == 9
    else:
        first = stdout.splitlines()[0]
        assert first.startswith(f"{HUNDE}: {'OPTIMUM, score 12 of 12' if command == 'maximize' else 'SAT'}")
        assert stdout.count("\n") > 5  # the grid follows
    assert not out.exists()


def test_maximize_writes_its_board_and_its_picture_together_or_neither(run_cli, monkeypatch, tmp_path):
    """-o and --picture are one group of files: a picture that cannot be made leaves no board file."""
    from satedge.puzzle import render

    board, picture = tmp_path / "b.sol", tmp_path / "b.svg"
    code, _, err = run_cli("maximize", HUNDE, "-o", board, "--picture", picture)
    assert (code, err) == (0, "")
    assert board.read_text().count("\n") == 9 and picture.read_text().startswith("<svg")
    board.unlink()
    picture.unlink()

    def fails(puzzle, solution, suffix, mismatched=()):
        raise SatedgeError("the picture cannot be drawn")

    monkeypatch.setattr(render, "picture", fails)
    code, stdout, err = run_cli("maximize", HUNDE, "-o", board, "--picture", picture)
    assert (code, err) == (2, "satedge: error: the picture cannot be drawn\n")
    assert stdout.startswith(f"{HUNDE}: OPTIMUM, score 12 of 12")
    assert os.listdir(tmp_path) == []
