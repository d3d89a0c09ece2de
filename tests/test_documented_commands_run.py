"""Every command line of the README and the docs runs, in order, on a clone without ../shared."""

import os
import shlex
import shutil
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT
from docpages import PAGES, shell_lines

LONG = 3  # seconds after which a documented command counts as a long one, past loading its input (51 of 196 here)
# groups of pages run side by side: most of the time goes to waiting on the long commands, and
# the suite's other workers have ended when this test's last commands run (two groups took 10.5
# minutes in a whole run here)
GROUPS = 4


@pytest.mark.slow
@pytest.mark.timeout(1200)  # every documented command: about three minutes here
def test_the_documented_commands_run_on_a_clone_without_shared(tmp_path):
    """Every command line of the README and the docs, pasted in order into a shell in a copy of
    the project that has no ../shared beside it and no $SATEDGE_BENCHMARKS: each ends as its
    comment says (exit 0, or the status it names), or is still running after a few seconds,
    past loading its input.  The pages are run in groups side by side, each in a copy of its
    own and each page's lines in order (a line that needs another page's output fails).  Skipped:
    `make` and `pip` (the suite runs under them), a Dask scheduler's placeholder address, a
    solver binary that is not installed, and a report of an experiment that the few seconds did
    not finish."""
    lines = {page: shell_lines([page]) for page in PAGES}
    sizes = [0] * GROUPS
    group = {}
    for page in sorted(PAGES, key=lambda page: -len(lines[page])):  # the longest first, to the shortest group
        group[page] = sizes.index(min(sizes))
        sizes[group[page]] += len(lines[page])
    groups = [[line for page in PAGES if group[page] == i for line in lines[page]] for i in range(GROUPS)]
    with ThreadPoolExecutor(len(groups)) as pool:
        outcomes = list(pool.map(_run, [tmp_path / f"clone{i}" for i in range(len(groups))], groups))
    assert [f for _, failed in outcomes for f in failed] == []
    assert sum(ran for ran, _ in outcomes) >= 80


def _run(work: Path, lines: list[str]) -> tuple[int, list[str]]:
    """The lines pasted in order into a shell in the copy ``work``: how many ran, and the failures."""
    work.mkdir()
    for name in ("puzzles", "encodings", "experiments", "benchmarks", "docs"):
        (work / name).symlink_to(ROOT / name)
    (work / ".venv").symlink_to(sys.prefix)  # what `make` sets up
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "SATEDGE_BENCHMARKS": str(work / "absent"),
    }
    env.pop("CI", None)
    ran, failed = 0, []
    for line in lines:
        command, _, comment = line.partition(" #")
        words = shlex.split(command.split(">")[0])
        if words[:1] in (["make"], ["pip"], ["export"]) or "tcp://scheduler" in command:
            continue
        if any(b in command and shutil.which(b) is None for b in ("cadical", "minisat", "drat-trim")):
            continue
        if words[:2] == ["satedge", "report"] and not (work / words[2] / "results.jsonl").exists():
            continue
        expected = next((int(c) for c in "321" if f"exit {c}" in comment or f"exit status {c}" in comment), 0)
        proc = subprocess.Popen(
            ["bash", "-c", command],
            cwd=work,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        ran += 1
        try:
            _, err = proc.communicate(timeout=LONG)
        except subprocess.TimeoutExpired:  # a long command, past its start: stop it and all it started
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            continue
        if proc.returncode != expected or "Traceback" in err:
            failed.append(f"{command.strip()}: exit {proc.returncode}: {err.strip()[-300:]}")
    return ran, failed
