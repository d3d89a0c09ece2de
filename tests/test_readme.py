"""The README keeps up with the command line: every `satedge` command in its shell blocks parses,
and every option of every command is in it."""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from satedge.cli import build_parser
from satedge.errors import SatedgeError

README = (ROOT / "README.md").read_text(encoding="utf-8")


def shell_commands() -> list[str]:
    """The `satedge ...` commands of the README's ```sh blocks, continuation lines joined, comments,
    redirections and pipes cut off."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", README, re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            for part in re.split(r"&&|\||;", line.split(" #")[0]):
                words = shlex.split(part.split(">")[0])
                if words[:1] == ["satedge"]:
                    commands.append(shlex.join(words))
    return commands


def subcommands() -> dict:
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices


def test_the_readme_has_commands_of_every_kind():
    assert {shlex.split(c)[1] for c in shell_commands()} == set(subcommands())


@pytest.mark.parametrize("command", shell_commands())
def test_every_readme_command_parses(command):
    try:
        build_parser().parse_args(shlex.split(command)[1:])
    except SatedgeError as e:
        pytest.fail(f"{command}: {e}")
    except SystemExit as e:  # --help
        assert e.code == 0


def test_every_option_is_in_the_readme():
    missing = [f"{name} {action.option_strings[0]}" for name, sub in subcommands().items() for action in sub._actions
               if action.option_strings and action.dest != "help"
               and not any(re.search(re.escape(o) + r"(?![\w-])", README) for o in action.option_strings)]
    assert missing == []


def test_the_python_example_runs_and_prints_what_its_comments_say(tmp_path, monkeypatch, capsys):
    """The README's first Python block, run as written, in a folder with the project's puzzles and
    a small stand-in for experiments/demo.yaml (the real one takes minutes)."""
    code = re.findall(r"^```python\n(.*?)^```", README, re.S | re.M)[0]
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "demo.yaml").write_text(
        "name: demo\npuzzles: [../puzzles/hunde-spiel.yaml]\nencodings: [support-seqcounter]\n"
        "solvers: [cadical195, glucose4]\ntask: solve\ntimeout: 60\nmemory: 4000\n")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    checked = 0
    for line in code.splitlines():
        if not line.startswith("print(") or "  # " not in line:
            continue
        comment = line.split("  # ", 1)[1].strip()
        if comment.endswith("(seconds vary)"):  # all but the last figure
            expected = comment.removesuffix("(seconds vary)").split()[:-1]
            assert any(out.split()[:len(expected)] == expected for out in printed), comment
        elif comment[0] in "({" or comment[0].isupper():  # a printed value, not words about it
            assert any(out.endswith(comment) for out in printed), comment
        else:
            continue
        checked += 1
    assert checked == 4
    assert sorted(p.name for p in (tmp_path / "out" / "demo").iterdir()) == [
        ".lock", "cactus.png", "cactus.svg", "pictures", "results.jsonl", "sizes.png", "sizes.svg", "summary.csv"]


def shell_lines() -> list[str]:
    """Every line of the README's ```sh blocks, continuation lines joined."""
    return [line for block in re.findall(r"^```sh\n(.*?)^```", README, re.S | re.M)
            for line in block.replace("\\\n", " ").splitlines() if line.strip()]


def test_the_readme_commands_run_on_a_clone_without_shared(tmp_path):
    """Every command line of the README, pasted in order into a shell in a copy of the project
    that has no ../shared beside it and no $SATEDGE_BENCHMARKS: each ends as its comment says
    (exit 0, or the status it names), or is still running after a few seconds, past loading
    its input (the benchmarks, the 17-minute solve).  Skipped: `make` (the suite runs under it),
    a Dask scheduler's placeholder address, a solver binary that is not installed, and a report of
    an experiment that the few seconds did not finish."""
    work = tmp_path / "clone"
    work.mkdir()
    for name in ("puzzles", "encodings", "experiments"):
        (work / name).symlink_to(ROOT / name)
    (work / ".venv").symlink_to(sys.prefix)  # what `make` sets up
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "SATEDGE_BENCHMARKS": str(tmp_path / "absent")}
    env.pop("CI", None)
    ran, failed = 0, []
    for line in shell_lines():
        command, _, comment = line.partition(" #")
        words = shlex.split(command.split(">")[0])
        if words[:1] == ["make"] or "tcp://scheduler" in command:
            continue
        if "cadical" in command and shutil.which("cadical") is None:
            continue
        if words[:2] == ["satedge", "report"] and not (work / words[2] / "results.jsonl").exists():
            continue
        expected = 3 if "exit status 3" in comment else 2 if "exit 2" in comment else 0
        proc = subprocess.Popen(["bash", "-c", command], cwd=work, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        ran += 1
        try:
            _, err = proc.communicate(timeout=6)
        except subprocess.TimeoutExpired:  # a long command, past its start: stop it and all it started
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            continue
        if proc.returncode != expected or "Traceback" in err:
            failed.append(f"{command.strip()}: exit {proc.returncode}: {err.strip()[-300:]}")
    assert failed == [] and ran >= 60
