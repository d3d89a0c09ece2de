"""Named encoding configurations: YAML files in the project's ``encodings/`` folder.

A preset is ``name``, ``description``, ``reference``, ``base`` and ``options`` (``card``,
``symmetry``, ``redundant``, and for ``heule`` its optional clause ``families``).  The folder is
``$SATEDGE_ENCODINGS`` when set, else the
``encodings/`` folder beside the package; a path to a preset file works anywhere a name does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import OutOfMemory, SatedgeError
from ..files import read_yaml
from . import Options, Size, bases, sizes
from ..shuffle import shuffle as shuffled_puzzle
from .heule import FAMILIES
from .shuffled import encode_shuffled

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
        raise SatedgeError(f"options must be a mapping of card, symmetry, redundant and families, not {opts!r}", path)
    bad = sorted(map(str, set(opts) - {"card", "symmetry", "redundant", "families"}))
    if bad:
        raise SatedgeError(f"unknown option(s) {', '.join(bad)}", path)
    try:
        options = Options(**opts)
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None
    if options.families and data["base"] != "heule":
        raise SatedgeError(f"families are clause families of the heule encoding; {data['base']} has none", path)
    unknown = sorted(set(options.families) - set(FAMILIES))
    if unknown:
        raise SatedgeError(f"unknown clause family {unknown[0]!r}; choose from {', '.join(FAMILIES)}", path)
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


def encode_preset(puzzle, preset: Preset, shuffle: int | None = None):
    """Encode ``puzzle`` with a preset; with ``shuffle``, under that shuffle seed
    (:mod:`satedge.encode.shuffled`)."""
    if shuffle is None:
        return bases()[preset.base](puzzle, preset.options)
    return encode_shuffled(bases()[preset.base], puzzle, preset.options, shuffle)


def size_preset(puzzle, preset: Preset, shuffle: int | None = None) -> Size:
    """The size of ``preset``'s formula for ``puzzle`` (shuffled by ``shuffle``), counted without
    building it."""
    return sizes()[preset.base](puzzle if shuffle is None else shuffled_puzzle(puzzle, shuffle)[0], preset.options)


def too_big(preset: Preset, size: Size, memory_mb: float | None) -> OutOfMemory | None:
    """The error for a formula of ``size`` when even a low estimate of the memory it takes
    (:meth:`Size.memory_mb`) is more than ``memory_mb``; else ``None``."""
    if memory_mb is None or size.memory_mb() <= memory_mb:
        return None
    return OutOfMemory(f"encoding {preset.name} needs more than {memory_mb:g} MB of memory: its {size.clauses:,} "
                       f"clauses of {size.literals:,} literals take at least {size.memory_mb():,.0f} MB", memory_mb)


def check_fits(puzzle, preset: Preset, memory_mb: float | None, shuffle: int | None = None) -> Size:
    """The formula's size; :class:`OutOfMemory` at once, before anything is built, when it cannot
    fit in ``memory_mb`` (:func:`too_big`)."""
    size = size_preset(puzzle, preset, shuffle)
    error = too_big(preset, size, memory_mb)
    if error is not None:
        raise error
    return size
