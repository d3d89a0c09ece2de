"""Named encoding configurations: YAML files in the project's ``encodings/`` folder.

A preset is ``name``, ``description``, ``reference``, ``base`` and ``options`` (``card``,
``symmetry``, ``redundant``).  The folder is ``$SATEDGE_ENCODINGS`` when set, else the
``encodings/`` folder beside the package; a path to a preset file works anywhere a name does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import SatedgeError
from ..formats import read_yaml
from . import Options, bases

KEYS = {"name", "description", "reference", "base", "options"}


@dataclass(frozen=True)
class Preset:
    name: str
    base: str
    options: Options
    description: str = ""
    reference: str = ""


def folder() -> Path:
    return Path(os.environ.get("SATEDGE_ENCODINGS") or Path(__file__).resolve().parents[2] / "encodings")


def load_preset(path: str | Path) -> Preset:
    data = read_yaml(path)
    if not isinstance(data, dict) or not {"name", "base"} <= set(data):
        raise SatedgeError("a preset is a mapping with at least name and base", path)
    unknown = sorted(map(str, set(data) - KEYS))
    if unknown:
        raise SatedgeError(f"unknown key(s) {', '.join(unknown)}", path)
    if not isinstance(data["base"], str) or data["base"] not in bases():
        raise SatedgeError(f"unknown base encoding {data['base']!r}; choose from {', '.join(bases())}", path)
    opts = data.get("options") or {}
    if not isinstance(opts, dict):
        raise SatedgeError(f"options must be a mapping of card, symmetry and redundant, not {opts!r}", path)
    bad = sorted(map(str, set(opts) - {"card", "symmetry", "redundant"}))
    if bad:
        raise SatedgeError(f"unknown option(s) {', '.join(bad)}", path)
    try:
        options = Options(**opts)
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None
    return Preset(str(data["name"]), data["base"], options, str(data.get("description", "")), str(data.get("reference", "")))


def presets() -> dict[str, Preset]:
    """Every preset in :func:`folder`, by name."""
    d = folder()
    out = {}
    for f in sorted(d.glob("*.yaml")) if d.is_dir() else []:
        p = load_preset(f)
        out[p.name] = p
    return out


def resolve(name: str, card: str | None = None, symmetry: str | None = None, redundant: bool | None = None) -> Preset:
    """A preset name, a preset file or a base encoding, with options overridden where given."""
    table = presets()
    if name in table:
        preset = table[name]
    elif name in bases():
        preset = Preset(name, name, Options(), description=f"base encoding {name}")
    elif name.endswith((".yaml", ".yml")) and Path(name).is_file():
        preset = load_preset(Path(name))
    else:
        raise SatedgeError(f"unknown encoding {name!r}; choose from {', '.join(list(table) + list(bases()))}")
    changes = {k: v for k, v in (("card", card), ("symmetry", symmetry), ("redundant", redundant)) if v is not None}
    if changes:
        opts = replace(preset.options, **changes)
        label = preset.name if opts == preset.options else f"{preset.name}+" + ",".join(f"{k}={str(v).lower()}" for k, v in sorted(changes.items()))
        preset = replace(preset, name=label, options=opts)
    return preset


def encode_preset(puzzle, preset: Preset):
    """Encode ``puzzle`` with a preset."""
    return bases()[preset.base](puzzle, preset.options)
