"""What a base encoding declares, once, in its own module: :class:`Base`.

A base encoding is how a puzzle becomes variables and clauses.  satedge's own are the modules
of :mod:`satedge.encode.bases`, each with a ``BASE`` of this class; yours is a file, a module or
an installed package's entry point (:mod:`satedge.encode.registry`), and it may be a
:class:`Base` or just its ``build`` function, ``(puzzle, options) -> Encoded``.  Everything else
satedge does with an encoding (its name, its size before it is built, its MaxSAT form, the
meaning of its variables in a DIMACS header, its clause families) reads the declaration.

>>> from satedge.encode.registry import bases
>>> b = bases()["support"]
>>> b.name, b.relaxed is not None, sorted(b.kinds)
('support', True, ['m', 'x'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..errors import SatedgeError
from ..puzzle.model import Puzzle
from ..system.files import quoted
from .core import KINDS, Encoded, Options, Size

__all__ = ["Base", "kinds", "meanings"]


def kinds(*letters: str) -> dict[str, str]:
    """The meanings (:data:`satedge.encode.core.KINDS`) of the variable kinds ``letters``."""
    return {k: KINDS[k] for k in letters}


@dataclass(frozen=True, kw_only=True)
class Base:
    """A base encoding: how a puzzle becomes a formula, and what satedge needs to know of it.

    Attributes
    ----------
    name
        How ``--encoding``, specs and presets name it (for one of yours given by reference, the
        reference as written: ``mine.py:encode``).
    build
        ``build(puzzle, options) -> Encoded``: the formula (:class:`satedge.encode.Encoded`).  A
        puzzle it does not cover raises :class:`satedge.errors.Unsupported`.
    summary
        What it is, in a line (``satedge encodings`` shows it).
    size, floor
        ``(puzzle, options) -> Size``: the formula's exact size counted without building it, and
        a low bound counted at once from the kinds of cells; ``None``: not known before it is
        built (a formula beyond ``--memory`` is then stopped while it is built, not refused
        before).
    relaxed
        ``(puzzle, options) -> Encoded``: its MaxSAT form (:mod:`satedge.encode.maxsat`: the
        clauses that make each inner edge fit guarded by a match variable, whose soft unit
        clause ``soft`` holds); ``None``: it has none, and ``maximize --method sat`` refuses it
        in one line.
    kinds
        What each kind of its named variables means (``{"x": "x CELL TILE TURN: ..."}``), as
        the DIMACS header's ``c var`` lines name them: the first word of a variable's name in the
        formula's pool.
    families
        The optional clause families it takes (``options.families``, besides the MaxSAT forms'
        ``colorcount``).
    source
        Where it is declared: a module, or for one of yours the file or module and name it was
        loaded from (``/home/me/mine.py:encode``), from which a new process loads it again.
    sha256
        Of one of yours: the sha256 of its source file, which rows, reports and DIMACS headers
        record beside its name; ``None`` for satedge's own.
    """

    name: str
    build: Callable[[Puzzle, Options], Encoded]
    summary: str = ""
    size: Callable[[Puzzle, Options], Size] | None = None
    floor: Callable[[Puzzle, Options], Size] | None = None
    relaxed: Callable[[Puzzle, Options], Encoded] | None = None
    kinds: Mapping[str, str] = field(default_factory=dict)
    families: tuple[str, ...] = ()
    source: str = ""
    sha256: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 200:
            raise SatedgeError(
                f"a base encoding's name is a string of 1 to 200 characters, not {quoted(repr(self.name), 40)}"
            )
        wrong = [
            what
            for what, value in (
                ("build", self.build),
                ("size", self.size),
                ("floor", self.floor),
                ("relaxed", self.relaxed),
            )
            if value is not None and not callable(value)
        ]
        if wrong or self.build is None:
            raise SatedgeError(
                f"base encoding {quoted(self.name, 60)}: {(wrong or ['build'])[0]} must be a function "
                "(puzzle, options) -> ..."
            )
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in dict(self.kinds).items()):
            raise SatedgeError(f"base encoding {quoted(self.name, 60)}: kinds map a letter to its meaning")
        object.__setattr__(self, "kinds", dict(self.kinds))
        object.__setattr__(self, "families", tuple(self.families))

    @property
    def own(self) -> bool:
        """Whether it is one of yours (a file, a module or an entry point), not satedge's."""
        return self.sha256 is not None


def meanings(encoded: Encoded, base: Base | None = None) -> str:
    """What the kinds of the formula's named variables mean, as its DIMACS header says: those
    its ``base`` declares (:attr:`Base.kinds`), else satedge's (:data:`satedge.encode.core.KINDS`)."""
    named = {encoded.pool.obj(v)[0] for v in [*encoded.decision, *(encoded.soft or ())]}
    known = {**KINDS, **(base.kinds if base is not None else {})}
    unknown = sorted(map(str, named - set(known)))
    return "; ".join(
        [text for kind, text in known.items() if kind in named]
        + [f"{kind} ...: a kind of {encoded.base}'s own" for kind in unknown]
    )
