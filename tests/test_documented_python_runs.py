"""Every ```python block of the README and the docs runs as written and prints what its comments
say."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT
from docpages import blocks

PYTHON = blocks("python")


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    "where,code", PYTHON, ids=[f"{p.relative_to(ROOT)}:{i}" for i, (p, _) in enumerate(PYTHON)]
)
def test_every_python_block_runs_and_prints_what_its_comments_say(tmp_path, where, code):
    """Each ```python block, run as written in an empty folder (a fresh interpreter) beside the
    documentation's examples (``docs/``, as in a clone): it names shipped puzzles and specs, so it
    runs from an installed satedge as from a clone.  A line
    `print(...)  # TEXT` must print TEXT (the last figure left out when it ends with
    '(seconds vary)'), or one of the texts `A | B`: what it prints on a loaded machine too, where
    a time limit may stop a job first."""
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    r = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 0, r.stderr[-2000:]
    printed = r.stdout.splitlines()
    for line in code.splitlines():
        if not line.startswith("print(") or "  # " not in line:
            continue
        comment = line.split("  # ", 1)[1].strip()
        assert any(_printed(text.strip(), printed) for text in comment.split(" | ")), comment


def _printed(comment: str, printed: list[str]) -> bool:
    if comment.endswith("(seconds vary)"):
        expected = comment.removesuffix("(seconds vary)").split()[:-1]
        return any(out.split()[: len(expected)] == expected for out in printed)
    return comment in printed


def test_the_guides_job_prints_its_answer_when_its_time_limit_stops_it(tmp_path):
    """Before: on a machine too busy for the guide's 60 s, `round(res.solve_seconds, 1)` met a
    TIMEOUT's None and the block failed.  The block with a limit no solver meets prints TIMEOUT."""
    code = next(c for p, c in PYTHON if p.name == "python.md" and "Limits(timeout=60" in c)
    r = subprocess.run(
        [sys.executable, "-c", code.replace("Limits(timeout=60", "Limits(timeout=0.01")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 0 and "TIMEOUT None" in r.stdout.splitlines(), r.stderr[-2000:]


def test_there_are_python_blocks_in_the_readme_and_the_guides():
    assert {p.relative_to(ROOT).as_posix() for p, _ in PYTHON} >= {
        "README.md",
        "docs/guides/python.md",
        "docs/guides/encodings.md",
        "docs/guides/certify.md",
        "docs/guides/experiments.md",
    }
