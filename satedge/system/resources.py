"""Where satedge's own data lies: the presets (``encodings``), the shipped puzzles (``puzzles``)
and the example specs (``experiments``).  Installed from a wheel or an sdist they travel inside
the package (``satedge/data/``); in a clone they are the project's top-level folders, their
source.  A shipped puzzle or spec can be named without a path: ``hunde-spiel``,
``eternity2/8x8``, ``board-suite/7/8/board_0``; ``demo`` for a spec.  And satedge's version,
for the files that record it (DIMACS headers, experiment rows) and for the package's own
metadata (``pyproject.toml`` reads it from here)."""

from __future__ import annotations

import os
from pathlib import Path

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "HERE",
    "PUZZLE_SUFFIXES",
    "folder",
    "preset_folders",
    "shipped_puzzles",
    "shipped_specs",
]

HERE = Path(__file__).resolve().parent.parent  # the package satedge
PUZZLE_SUFFIXES = (".yaml", ".yml", ".puz", ".txt")


def folder(kind: str) -> Path:
    """The folder of ``kind`` (``encodings``, ``puzzles`` or ``experiments``) that ships with satedge."""
    installed = HERE / "data" / kind
    return installed if installed.is_dir() else HERE.parent / kind


def preset_folders() -> list[Path]:
    """Where presets are looked up, first to last: the folders of ``$SATEDGE_ENCODINGS`` (several
    joined by ``:``), then the shipped presets; a preset of a name found earlier wins."""
    mine = [Path(p) for p in os.environ.get("SATEDGE_ENCODINGS", "").split(os.pathsep) if p]
    return [*mine, folder("encodings")]


def _named(kind: str, suffixes: tuple[str, ...]) -> dict[str, Path]:
    base = folder(kind)
    found = {}
    for f in sorted(base.rglob("*")) if base.is_dir() else []:
        if f.suffix in suffixes and f.is_file():
            found[f.relative_to(base).with_suffix("").as_posix()] = f
    return found


def shipped_puzzles() -> dict[str, Path]:
    """Every shipped puzzle by its name: its path under ``puzzles/`` without the suffix."""
    return _named("puzzles", PUZZLE_SUFFIXES)


def shipped_specs() -> dict[str, Path]:
    """Every shipped experiment spec by its name (``demo``, ``bench-solve-quick``, ...)."""
    return {k: v for k, v in _named("experiments", (".yaml",)).items() if "/" not in k}
