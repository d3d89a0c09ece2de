"""Encoding configurations: :class:`Encoding`, the one value that names a base encoding with its
options, with its one parser and its one name; and the presets, named configurations in YAML.

An encoding is written (``--encoding``, specs, rows, reports, DIMACS headers) as

* a preset's name (``edgecolor-corners``; ``satedge encodings`` lists them), a base encoding's
  name (``support``) or a preset file's path (``mine.yaml``);
* any of these with options after ``+``: ``edgecolor-corners+card=ladder``,
  ``edgecolor+card=pairwise+redundant=true+symmetry=rotation`` (a comma between options reads
  too).  The name an :class:`Encoding` gives itself lists the options that differ from the
  preset's or the base's, and after a base always ``card`` (its own name alone when none is
  changed): one configuration, one name.

A preset file is ``name``, ``description``, ``reference``, ``base`` and ``options`` (``card``,
``symmetry``, ``redundant``, ``families``: ``heule``'s optional clause families, and for
every MaxSAT form ``colorcount``; and ``counts``: the puzzle's global counts, for every base,
:mod:`satedge.encode.counts`).  The presets are
the shipped ones (``satedge encodings`` lists them) and your own, in the folders of
``$SATEDGE_ENCODINGS`` (several joined by ``:``), whose names come first.

>>> e = Encoding.parse("edgecolor-corners+card=ladder")
>>> e.name, e.base, e.options.card, e.options.redundant
('edgecolor-corners+card=ladder', 'edgecolor', 'ladder', True)
>>> str(Encoding.parse("split").with_options(redundant=True))
'split+card=pairwise+redundant=true'
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from difflib import get_close_matches
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import OutOfMemory, SatedgeError, Unsupported
from ..puzzle.model import Puzzle
from ..puzzle.shuffle import shuffle as shuffled_puzzle
from ..system.files import quoted, shown
from ..system.plugins import is_reference, load
from ..system.resources import preset_folders
from ..system.yamlfile import read_yaml
from .base import Base
from .core import COLORCOUNT, Encoded, Options, Size
from .counts import check, with_counts
from .registry import bases, declared, find
from .shuffled import encode_shuffled

__all__ = [
    "DEFAULT_ENCODING",
    "PRESET_KEYS",
    "OPTION_KEYS",
    "Encoding",
    "load_preset",
    "presets",
    "too_big",
    "catalogue",
]

DEFAULT_ENCODING = "edgecolor-corners"  # every command's default: the best preset without symmetry breaking
PRESET_KEYS = {"name", "description", "reference", "base", "options"}
OPTION_KEYS = tuple(f.name for f in fields(Options))  # card, symmetry, redundant, families, counts


@dataclass(frozen=True)
class Encoding:
    """A base encoding with its options, by name; checked when made.

    Attributes
    ----------
    base
        The base encoding's name (:func:`satedge.encode.registry.bases`) or a reference to one
        of yours, ``FILE.py:NAME`` or ``package.module:NAME``
    options
        :class:`satedge.encode.Options`
    name
        The configuration's one name (see the module's docstring); made from ``base`` and
        ``options`` when not given
    origin, defaults
        The preset or base it was named from and that one's options; ``description``,
        ``reference``: a preset's own words.
    declaration
        The base encoding's declaration (:class:`satedge.encode.base.Base`), found from
        ``base`` when not given; :attr:`declared` reads it.
    """

    base: str
    options: Options = Options()
    name: str = ""
    description: str = field(default="", compare=False)
    reference: str = field(default="", compare=False)
    origin: str = field(default="", compare=False)
    defaults: Options = field(default=Options(), compare=False)
    declaration: Base | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.declaration is None:
            found = find(self.base) if isinstance(self.base, str) else None
            if found is None:
                raise SatedgeError(
                    f"unknown base encoding {shown(self.base)}; choose from {', '.join(bases())} or "
                    "FILE.py:FUNCTION of your own"
                )
            object.__setattr__(self, "declaration", found)
        elif not isinstance(self.declaration, Base):
            raise SatedgeError(f"a declaration is a satedge.encode.Base, not {shown(self.declaration)}")
        if not isinstance(self.options, Options):
            raise SatedgeError(
                f"options must be satedge.encode.Options, not {quoted(repr(self.options), 40)}"
            )
        check(self.options.counts)
        own = self.declared.families
        unknown = sorted(set(self.options.families) - {*own, COLORCOUNT})
        if unknown and not own:
            raise SatedgeError(
                f"{self.base} has no clause family {quoted(unknown[0], 30)}: its MaxSAT form takes {COLORCOUNT}"
            )
        if unknown:
            raise SatedgeError(
                f"unknown clause family {quoted(unknown[0], 30)}; choose from {', '.join([*own, COLORCOUNT])}"
            )
        if not self.origin:
            object.__setattr__(self, "origin", self.base)
            object.__setattr__(self, "defaults", Options())
        if not self.name:
            object.__setattr__(self, "name", _name(self.origin, self.options, self.defaults, self.is_base))
        elif not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 200:
            raise SatedgeError(
                f"an encoding's name is a string of 1 to 200 characters, not {quoted(repr(self.name), 40)}"
            )

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Encoding({self.name!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what names it, so that a new process finds its base again: a base of yours
        is loaded again from its source, which must not have changed (its sha256)."""
        b = self.declared
        if not b.source:  # a declaration made in Python: pickled as it is
            return (_unpickled, (self.base, self.options, self.name, self._words(), b, None, None))
        return (_unpickled, (self.base, self.options, self.name, self._words(), None, b.source, b.sha256))

    def _words(self) -> tuple[str, str, str, Options]:
        return (self.description, self.reference, self.origin, self.defaults)

    @property
    def declared(self) -> Base:
        """Its base encoding's declaration."""
        if self.declaration is None:  # set when it is made
            raise AssertionError("an Encoding is made with its declaration")
        return self.declaration

    @property
    def is_base(self) -> bool:
        """Whether it is named from its base (not from a preset)."""
        return self.origin == self.base

    @property
    def sha256(self) -> str | None:
        """Of a base encoding of yours: the sha256 of its source file; ``None`` for satedge's."""
        return self.declared.sha256

    def with_options(self, **changes: Any) -> Encoding:
        """The same configuration with some options changed (``card``, ``symmetry``, ``redundant``,
        ``families``; ``None`` keeps one), named anew from the preset or base it came from."""
        given = {k: v for k, v in changes.items() if v is not None}
        unknown = sorted(set(given) - set(OPTION_KEYS))
        if unknown:
            raise SatedgeError(
                f"unknown option(s) {', '.join(map(str, unknown))}; choose from {', '.join(OPTION_KEYS)}"
            )
        if not given:
            return self
        options = replace(self.options, **given)
        return replace(self, options=options, name=_name(self.origin, options, self.defaults, self.is_base))

    def encode(self, puzzle: Puzzle, shuffle: int | None = None) -> Encoded:
        """The formula of ``puzzle``; with ``shuffle``, of the puzzle under that shuffle seed
        (:mod:`satedge.encode.shuffled`), read back in the puzzle's own numbering."""
        if COLORCOUNT in self.options.families:
            raise SatedgeError(
                f"{COLORCOUNT} bounds the edges that fit in a MaxSAT form (maximize --method sat, "
                "encode --maxsat); in a SAT formula every edge fits"
            )
        build = self.declared.build
        if self.options.counts:
            build = partial(with_counts, build, dict(self.declared.kinds))
        return (
            build(puzzle, self.options)
            if shuffle is None
            else encode_shuffled(build, puzzle, self.options, shuffle)
        )

    def size(self, puzzle: Puzzle, shuffle: int | None = None) -> Size | None:
        """The formula's size, counted from its clause families without building it (``None``
        where its base declares no way to count it, and with count families, counted as they
        are built: :mod:`satedge.encode.counts`)."""
        count = self.declared.size
        if count is None or self.options.counts:
            return None
        return count(puzzle if shuffle is None else shuffled_puzzle(puzzle, shuffle)[0], self.base_options)

    def floor(self, puzzle: Puzzle) -> Size | None:
        """A low bound on the formula's size (the same under any shuffle), counted at once from
        the kinds of cells (``None`` where its base declares none)."""
        bound = self.declared.floor
        return None if bound is None else bound(puzzle, self.base_options)

    @property
    def base_options(self) -> Options:
        """The options its base encoding reads: without the MaxSAT forms' family (whose formula
        :mod:`satedge.encode.maxsat` adds)."""
        return replace(self.options, families=tuple(f for f in self.options.families if f != COLORCOUNT))

    def check_fits(self, puzzle: Puzzle, memory_mb: float | None, shuffle: int | None = None) -> Size | None:
        """The formula's size; :class:`OutOfMemory` at once, before anything is built, when even
        a low estimate of the memory its clauses take (:meth:`Size.memory_mb`) is more than
        ``memory_mb``: first of its low bound (:meth:`floor`, at once however large the board),
        then of its exact size."""
        error = too_big(self, self.floor(puzzle), memory_mb, at_least=True)
        size = None
        if error is None:
            error = too_big(self, size := self.size(puzzle, shuffle), memory_mb)
        if error is not None:
            raise error
        return size

    @classmethod
    def parse(cls, text: str, folder: str | os.PathLike | None = None) -> Encoding:
        """The configuration an encoding string names (see the module's docstring); the one parser
        of encoding strings in satedge.  ``folder``: where a relative ``FILE.py`` (or preset file)
        is, default the working directory."""
        if not isinstance(text, str) or not text.strip():
            raise SatedgeError(
                f"an encoding is a preset, a base encoding or a preset file, not {quoted(repr(text), 40)}"
            )
        start, _, rest = text.partition("+")
        table = presets()
        found: Encoding
        if start in table:
            found = table[start]
        elif (base := find(start, folder)) is not None:
            found = cls(start, description=base.summary or f"base encoding {start}", declaration=base)
        elif start.endswith((".yaml", ".yml")):
            found = load_preset(start if folder is None else Path(folder) / start)
        else:
            close = get_close_matches(start, [*table, *bases()], 1, 0.8)
            raise SatedgeError(
                f"unknown encoding {quoted(start, 40)}"
                + (f" (did you mean {close[0]}?)" if close else "")
                + f"; choose a preset (satedge encodings lists them), a base encoding "
                f"({', '.join(bases())}), a preset file or FILE.py:FUNCTION of your own"
            )
        return found.with_options(**_option_items(text, rest)) if rest else found

    @classmethod
    def of(cls, value: Encoding | str | None) -> Encoding:
        """``value`` itself, the default encoding for ``None``, or a string :meth:`parse` reads."""
        if isinstance(value, Encoding):
            return value
        return cls.parse(DEFAULT_ENCODING if value is None else value)


def _unpickled(
    base: str,
    options: Options,
    name: str,
    words: tuple[str, str, str, Options],
    made: Base | None,
    source: str | None,
    sha256: str | None,
) -> Encoding:
    """An :class:`Encoding` in a new process (:meth:`Encoding.__reduce__`): its base found again
    from its source, the same file it was (its sha256)."""
    if made is None and source is not None and is_reference(source):  # yours: loaded again
        found = load(source, "encoding")
        if sha256 and found.sha256 != sha256:
            raise SatedgeError(
                f"encoding {quoted(base, 80)}: {source.rpartition(':')[0]} changed since the job was made "
                "(its sha256 differs)"
            )
        made = declared(replace(found, name=base))
    description, reference, origin, defaults = words
    return Encoding(base, options, name, description, reference, origin, defaults, made)


def _value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else ",".join(v) if isinstance(v, (list, tuple)) else str(v)


def _name(origin: str, options: Options, defaults: Options, is_base: bool) -> str:
    """An encoding's name: its origin, then the options that differ from the origin's,
    ``+key=value`` in the order of their keys; after a base encoding (whose name says nothing of
    the exactly-one encoding) ``card`` always among them."""
    if options == defaults:
        return origin
    mine, theirs = options.as_dict(), defaults.as_dict()
    keys = {k for k in mine.keys() | theirs.keys() if mine.get(k, []) != theirs.get(k, [])}
    if is_base:
        keys.add("card")
    return origin + "".join(f"+{k}={_value(mine.get(k, []))}" for k in sorted(keys))


def _option_items(text: str, rest: str) -> dict:
    """``key=value`` items after the first ``+`` (``+`` or ``,`` between them; a bare word after a
    comma adds to a list, as in ``families=atmostone,fbcolors``)."""
    items: dict = {}
    last = None
    for word in rest.replace("+", ",").split(","):
        key, eq, value = word.partition("=")
        if not eq and last in ("families", "counts"):
            items[last].append(word)
            continue
        if not eq or key not in OPTION_KEYS:
            raise SatedgeError(
                f"encoding {quoted(text, 60)}: options are key=value with a key among "
                f"{', '.join(OPTION_KEYS)}, not {quoted(word, 30)}"
            )
        if key in items:
            raise SatedgeError(f"encoding {quoted(text, 60)}: {key} is given twice")
        if key == "redundant":
            if value not in ("true", "false"):
                raise SatedgeError(
                    f"encoding {quoted(text, 60)}: redundant is true or false, not {quoted(value, 30)}"
                )
            items[key] = value == "true"
        elif key in ("families", "counts"):
            items[key] = [value] if value else []
        else:
            items[key] = value
        last = key
    return items


# ---------------------------------------------------------------------------- preset files
def load_preset(path: str | Path) -> Encoding:
    """The preset in a YAML file; a one-line error naming the file when it is not one."""
    data = read_yaml(path)
    if not isinstance(data, dict) or not {"name", "base"} <= set(data):
        raise SatedgeError("a preset is a mapping with at least name and base", path)
    unknown = sorted(map(str, set(data) - PRESET_KEYS))
    if unknown:
        raise SatedgeError(f"unknown key(s) {', '.join(unknown)}", path)
    opts = data.get("options") or {}
    if not isinstance(opts, dict):
        raise SatedgeError(
            f"options must be a mapping of card, symmetry, redundant, families and counts, not {shown(opts)}",
            path,
        )
    bad = sorted(map(str, set(opts) - set(OPTION_KEYS)))
    if bad:
        raise SatedgeError(f"unknown option(s) {', '.join(bad)}", path)
    if not isinstance(data["name"], str):
        raise SatedgeError(f"a preset's name is a string, not {quoted(repr(data['name']), 40)}", path)
    base = data["base"]
    try:
        options = Options(**opts)
        return Encoding(
            base,
            options,
            name=data["name"],
            description=str(data.get("description", "")),
            reference=str(data.get("reference", "")),
            origin=data["name"],
            defaults=options,
            declaration=find(base, Path(path).parent) if isinstance(base, str) else None,
        )
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None


def presets() -> dict[str, Encoding]:
    """Every preset by name: yours, in the folders of ``$SATEDGE_ENCODINGS``, then the shipped
    ones (:func:`satedge.system.resources.preset_folders`); a name found first wins."""
    out: dict[str, Encoding] = {}
    for d in preset_folders():
        for f in sorted(d.glob("*.yaml")) if d.is_dir() else []:
            p = load_preset(f)
            out.setdefault(p.name, p)
    return out


def too_big(
    encoding: Encoding, size: Size | None, memory_mb: float | None, at_least: bool = False
) -> OutOfMemory | None:
    """The error for a formula of ``size`` (with ``at_least``: of at least that size) when even a
    low estimate of the memory it takes (:meth:`Size.memory_mb`) is more than ``memory_mb``;
    else ``None``."""
    if memory_mb is None or size is None or size.memory_mb() <= memory_mb:
        return None
    more = " or more" if at_least else ""
    return OutOfMemory(
        f"encoding {encoding.name} needs more than {memory_mb:g} MB of memory: its {size.clauses:,}{more} "
        f"clauses of {size.literals:,}{more} literals take at least {size.memory_mb():,.0f} MB",
        memory_mb,
    )


def catalogue(
    puzzle: Puzzle | None = None,
    memory_mb: float | None = None,
    tick: Callable[[], None] = lambda: None,
    encodings: list[Encoding] | None = None,
) -> list[dict]:
    """Every preset (or each of ``encodings``) as ``satedge encodings`` lists it: name, base, options, description and
    reference; with ``puzzle`` also whether it covers the puzzle and its formula's variables,
    clauses, literals and memory (MB), counted without building it, and whether that fits in
    ``memory_mb`` (``fits``); a formula whose low bound (:meth:`Encoding.floor`) is beyond
    ``memory_mb`` has that bound, with ``at_least`` true, its exact size not counted.  ``tick``
    is called after each preset."""
    rows = []
    for p in presets().values() if encodings is None else encodings:
        tick()
        own = p.declared
        row: dict[str, Any] = {
            "name": p.name,
            "base": p.base,
            "options": p.options.as_dict(),
            "description": p.description,
            "reference": p.reference or (f"{own.source} (sha256 {own.sha256})" if own.own else ""),
        }
        if puzzle is not None:
            try:
                size = p.floor(puzzle)
                at_least = too_big(p, size, memory_mb) is not None
                size = size if at_least else p.size(puzzle)
                if size is None:  # a base of yours that declares no size: counted from its formula
                    built = p.encode(puzzle)
                    size = Size(built.nv, built.clause_count, sum(map(len, built.cnf.clauses)))
                row.update(
                    covers=True,
                    variables=size.variables,
                    clauses=size.clauses,
                    literals=size.literals,
                    memory_mb=round(size.memory_mb()),
                    fits=too_big(p, size, memory_mb) is None,
                    at_least=at_least,
                )
            except Unsupported as e:
                row.update(
                    covers=False,
                    variables=None,
                    clauses=None,
                    literals=None,
                    memory_mb=None,
                    fits=False,
                    at_least=False,
                    problem=str(e),
                )
        rows.append(row)
    return rows
