"""Installable anywhere: a wheel built from the project, installed into a fresh virtual
environment, works from an empty folder, its presets, shipped puzzles and example specs with it.

The fresh environment takes satedge from the wheel alone; its dependencies come from the
suite's own environment (a path file), so that the test needs no download but the build's."""

import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import ROOT

PYTHON_GUIDE = (ROOT / "docs" / "guides" / "python.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(bin folder, empty working folder)`` of a fresh venv with the wheel installed."""
    base = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(base / "dist")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (base / "dist").glob("satedge-*.whl")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = Path(
        subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "suite-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    got = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert got.returncode == 0, got.stderr[-2000:]
    work = base / "empty"
    work.mkdir()
    return venv / "bin", work


def _run(installed, *args, input=None):
    bin_, work = installed
    return subprocess.run(
        [str(bin_ / "satedge"), *map(str, args)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=600,
        input=input,
    )


@pytest.mark.slow
def test_the_wheel_carries_its_data(installed):
    bin_, _ = installed
    where = subprocess.run(
        [
            str(bin_ / "python"),
            "-c",
            "import satedge, satedge.system.resources as r; "
            "print(satedge.__file__); print(r.folder('encodings'))",
        ],
        cwd=installed[1],
        capture_output=True,
        text=True,
    )
    module, presets = where.stdout.split()
    assert str(ROOT) not in module and presets.endswith("satedge/data/encodings")
    assert len(list(Path(presets).glob("*.yaml"))) == 10


@pytest.mark.slow
def test_the_commands_work_from_an_empty_folder(installed):
    _, work = installed
    r = _run(installed, "encodings")
    assert r.returncode == 0 and r.stdout.count("\n    source: ") == 10 + 3, (
        r.stderr
    )  # presets, count families
    assert "\ncount families, for every base (" in r.stdout
    r = _run(installed, "count", "hunde-spiel")
    assert r.returncode == 0 and r.stdout.startswith("hunde-spiel: 16 solutions, 8 distinct, 2 unique"), (
        r.stderr
    )
    (work / "mine.yaml").write_text((ROOT / "puzzles" / "insects.yaml").read_text())
    r = _run(installed, "count", "mine.yaml", "--method", "sat")
    assert r.returncode == 0 and r.stdout.startswith(
        "mine.yaml: 4 solutions, 4 distinct, 1 unique (edgecolor-corners"
    ), r.stderr
    r = _run(installed, "solve", "board-suite/7/8/board_0", "--json")
    assert r.returncode == 0 and '"status": "SAT"' in r.stdout, r.stderr
    r = _run(installed, "encode", "hunde-spiel", "-o", "h.cnf")
    assert r.returncode == 0 and (work / "h.cnf").read_text().startswith("c satedge"), r.stderr
    r = _run(installed, "crosscheck", "--examples", "5", "--workers", "2")
    assert r.returncode == 0 and r.stdout.startswith("75 configurations; 5 puzzles, "), r.stderr
    r = _run(installed, "run", "demo", "--only", "support-seqcounter/cadical195", "--out", "demo-out")
    assert r.returncode == 0 and "demo: 16 runs done" in r.stderr, r.stderr


@pytest.mark.slow
def test_the_python_guide_runs_from_the_wheel(installed):
    bin_, work = installed
    code = re.findall(r"^```python\n(.*?)^```", PYTHON_GUIDE, re.S | re.M)[0]
    r = subprocess.run(
        [str(bin_ / "python"), "-c", code], cwd=work, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Counts(solutions=16, distinct=8, unique=2)" in r.stdout
