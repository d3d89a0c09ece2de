"""Reading and writing files, the one way satedge does it.

Every reader raises :class:`SatedgeError` naming the file and the problem, and reads only
regular files of at most :data:`MAX_INPUT_BYTES` (a device, a FIFO or a huge file is refused
before anything is read); YAML aliases and nesting are bounded.  Every writer of satedge goes
through :func:`atomic_output`, so a failed write never leaves half a file behind, and an output
that is a symlink, a device or a FIFO is written through, never replaced.  An error message
echoes what it quotes through :func:`shown` or :func:`quoted`, cut short.
"""

from __future__ import annotations

import os
import reprlib
import secrets
import stat
import unicodedata
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import yaml

from .errors import SatedgeError, cannot_write

MAX_INPUT_BYTES = 64 * 2**20  # puzzles, specs, presets, solutions: Eternity II's YAML is 10 kB
MAX_YAML_NODES = 1_000_000  # values, aliases expanded: Eternity II's YAML has 1,300
MAX_YAML_DEPTH = 64


# ---------------------------------------------------------------------------- text helpers
def one_line(text: str) -> str:
    """``text`` with its control characters (line breaks among them) escaped, so that it stays on
    one line of a comment, a header or a table.

    >>> one_line("a\\nb\\tc\\x1b[31m")
    'a\\\\nb\\\\tc\\\\x1b[31m'
    """
    out = []
    for c in text:
        if unicodedata.category(c) in ("Cc", "Zl", "Zp"):
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c) or
                       (f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"))
        else:
            out.append(c)
    return "".join(out)


def shown(value: Any, width: int = 40) -> str:
    """A value as an error message echoes it: its repr, on one line, cut to ``width`` characters
    (however large the value: a list of millions is not written out first).

    >>> shown("x" * 100), shown(list(range(10**6)))
    ("'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'", '[0, 1, 2, 3, 4, 5, ...]')
    """
    short = reprlib.Repr()
    short.maxstring = short.maxother = width
    short.maxlist = short.maxdict = short.maxtuple = short.maxset = 6
    text = one_line(short.repr(value))
    return text if len(text) <= width else text[:width - 3] + "..."


def quoted(text: str, width: int) -> str:
    """Text an error message echoes (a token of a file, a command-line word): quoted, at most
    ``width`` characters of it.

    >>> quoted("12x", 30), quoted("1" * 40, 5)
    ("'12x'", "'11111...'")
    """
    return repr(text if len(text) <= width else text[:width] + "...")


# ---------------------------------------------------------------------------- writing helpers
def _output_target(path: Path) -> Path | None:
    """Where to write ``path`` atomically: the file a symlink points to, or ``path`` itself;
    ``None`` for a character device or a FIFO (``/dev/null``, ``/dev/stdout``), written through."""
    try:
        mode = os.stat(path).st_mode  # follows symlinks
    except FileNotFoundError:
        return Path(os.path.realpath(path)) if os.path.islink(path) else path  # a dangling link: its target
    except OSError:
        return path  # the write says why
    if stat.S_ISREG(mode):
        return Path(os.path.realpath(path))
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return None
    what = "a folder" if stat.S_ISDIR(mode) else "not a regular file, a character device or a FIFO"
    raise SatedgeError(f"cannot write: it is {what}", path)


@contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """A path to write ``path``'s content to.  For a regular file (or none yet): a fresh temporary
    path beside it (same suffix), renamed to it when the block ends and removed if it fails; a
    symlink is written through to the file it points to, never replaced by a file.  For a
    character device or a FIFO: the path itself, written through.  A write the file system
    refuses (a missing folder, a full disk or ``/dev/full``) becomes a one-line error naming
    ``path``.  The file gets the usual permissions."""
    path = Path(path)
    target = _output_target(path)
    if target is None:
        try:
            yield path
        except OSError as e:
            raise cannot_write(e, path) from None
        return
    tmp = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp{target.suffix}")
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as e:
        raise cannot_write(e, path) from None
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through :func:`atomic_output`."""
    with atomic_output(path) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding="utf-8")


def check_input(path: str | Path, limit: int = MAX_INPUT_BYTES) -> int:
    """The size of an input file; a missing file, one that is not a regular file (a device, a
    FIFO, a folder) or one of more than ``limit`` bytes is a one-line error, before it is read."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise SatedgeError("no such file", path) from None
    except OSError as e:
        raise SatedgeError(f"cannot read: {e.strerror or e}", path) from None
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise SatedgeError(f"cannot read: it is {what}", path)
    if st.st_size > limit:
        raise SatedgeError(f"cannot read: {st.st_size:,} bytes, more than the {limit:,} an input file may have", path)
    return st.st_size


def read_text(path: str | Path) -> str:
    check_input(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SatedgeError("no such file", path) from None
    except (OSError, UnicodeDecodeError) as e:
        raise SatedgeError(f"cannot read: {e.strerror if isinstance(e, OSError) else 'not UTF-8 text'}", path) from None


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with nesting and the expanded document bounded: a few hundred bytes of
    aliases can stand for billions of nodes, and deep nesting ends in a RecursionError.  Each node
    weighs one plus its children, an alias what the node it names weighs."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self._weight: dict[int, int] = {}

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.YAMLError(f"nested more than {MAX_YAML_DEPTH} deep")
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if id(node) not in self._weight:  # an alias returns the node it names, weighed already
            if isinstance(node, yaml.MappingNode):
                children = [n for pair in node.value for n in pair]
            else:
                children = node.value if isinstance(node, yaml.SequenceNode) else []
            weight = 1 + sum(self._weight.get(id(n), 1) for n in children)
            if weight > MAX_YAML_NODES:
                raise yaml.YAMLError(f"more than {MAX_YAML_NODES:,} values once its aliases are expanded")
            self._weight[id(node)] = weight
        return node


def read_yaml(path: str | Path) -> Any:
    """The YAML document in ``path``; a missing, unreadable or malformed file is a one-line error."""
    text = read_text(path)
    try:
        return yaml.load(text, Loader=_BoundedLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]  # a reader's error has no problem, two lines
        raise SatedgeError(f"not valid YAML{where}: {one_line(problem)[:200]}", path) from None
    except ValueError as e:  # an integer of thousands of digits
        raise SatedgeError(f"not valid YAML: {one_line(str(e))[:200]}", path) from None
