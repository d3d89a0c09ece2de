"""Reading and writing files, the one way satedge does it.

Every reader raises :class:`SatedgeError` naming the file and the problem, and reads only
regular files of at most :data:`MAX_INPUT_BYTES` (a device, a FIFO or a huge file is refused
before anything is read; YAML: :mod:`satedge.system.yamlfile`).  Every writer of satedge goes
through :func:`atomic_output`, so a failed write never leaves half a file behind, and an output
that is a symlink, a device or a FIFO is written through, never replaced.  An error message
echoes what it quotes through :func:`shown` or :func:`quoted`, cut short.
"""

from __future__ import annotations

import errno
import json
import os
import re
import reprlib
import secrets
import stat
import sys
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import psutil

from ..errors import SatedgeError

__all__ = [
    "cache_folder",
    "MAX_INPUT_BYTES",
    "MAX_LINE",
    "TEMPORARY",
    "one_line",
    "shown",
    "quoted",
    "cut",
    "problems",
    "cannot_write",
    "check_output",
    "sweep_temporaries",
    "atomic_output",
    "atomic_outputs",
    "write_atomic",
    "write_group",
    "check_folder",
    "not_inputs",
    "open_input",
    "check_input",
    "read_bytes",
    "read_text",
    "parse_ints",
    "parse_json",
    "read_json",
]

MAX_INPUT_BYTES = 64 * 2**20  # puzzles, specs, presets, solutions: Eternity II's YAML is 10 kB
MAX_LINE = 300  # characters of an error line, echoes included
# the temporary file an output is written to, beside it: .NAME.satedge-PID-TOKEN.tmpSUFFIX
TEMPORARY = re.compile(r"\..+\.satedge-(\d+)-[0-9a-f]{8}\.tmp.*")


def cache_folder() -> Path:
    """Where satedge keeps what it makes for later (compiled searches, the logs of a batch
    queue's worker jobs): ``$SATEDGE_CACHE``, else ``$XDG_CACHE_HOME/satedge`` or
    ``~/.cache/satedge``."""
    if os.environ.get("SATEDGE_CACHE"):
        return Path(os.environ["SATEDGE_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "satedge"


# ---------------------------------------------------------------------------- text helpers
def one_line(text: str) -> str:
    """``text`` with its control characters (line breaks among them) escaped, so that it stays on
    one line of a comment, a header or a table.

    >>> one_line("a\\nb\\tc\\x1b[31m")
    'a\\\\nb\\\\tc\\\\x1b[31m'
    """
    if text.isascii() and text.isprintable():  # nothing to escape (the common case, fast)
        return text
    out = []
    for c in text:
        if unicodedata.category(c) in ("Cc", "Zl", "Zp"):
            out.append(
                {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c)
                or (f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}")
            )
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
    return text if len(text) <= width else text[: width - 3] + "..."


def quoted(text: str, width: int) -> str:
    """Text an error message echoes (a token of a file, a command-line word): quoted, at most
    ``width`` characters of it.

    >>> quoted("12x", 30), quoted("1" * 40, 5)
    ("'12x'", "'11111...'")
    """
    return repr(text if len(text) <= width else text[:width] + "...")


def cut(message: str, width: int = MAX_LINE) -> str:
    """An error message of at most ``width`` characters, on one line: what it quotes is cut in
    the middle, so that its start (the file, the problem) and its end stay.

    >>> cut("a" * 20 + "b" * 20, 15)
    'aaaaaa ... bbbb'
    """
    text = one_line(message)
    if len(text) <= width:
        return text
    head = (width - 5) * 2 // 3
    return text[:head] + " ... " + text[len(text) - (width - 5 - head) :]


def problems(found: list[str], width: int = 220) -> str:
    """Several problems in one line of at most ``width`` characters (room is left for the file's
    name in an error line of about :data:`MAX_LINE`): where they do not all fit, each by what it
    says before its advice (its first ``; ``), and then as many as fit and how many more there are.

    >>> problems(["no tiles", "rows must be a positive integer", "x" * 400], 60)
    'no tiles; rows must be a positive integer; and 1 more'
    >>> problems(["unknown solver 'm99'; choose from " + "a, " * 30, "unknown key 'timout'"], 60)
    "unknown solver 'm99'; unknown key 'timout'"
    """
    if len("; ".join(found)) > width:
        found = [p.split("; ")[0] for p in found]
    out: list[str] = []
    n = 0
    for p in found:
        rest = len(found) - n - 1
        more = f"; and {rest} more" if rest else ""
        if len("; ".join(out + [p]) + more) > width and out:
            break
        out.append(cut(p, width))
        n += 1
    left = len(found) - n
    return "; ".join(out) + (f"; and {left} more" if left else "")


# ---------------------------------------------------------------------------- writing
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


def _temporary(target: Path) -> Path:
    """A fresh temporary path beside ``target`` (same suffix, so that a compressing writer knows
    it), named so that :func:`sweep_temporaries` knows whose it is."""
    return target.with_name(f".{target.name}.satedge-{os.getpid()}-{secrets.token_hex(4)}.tmp{target.suffix}")


def sweep_temporaries(folder: str | Path) -> list[str]:
    """Remove the temporary files in ``folder`` that satedge processes which have ended (killed
    by SIGKILL while writing) left beside their outputs; the names removed."""
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = TEMPORARY.fullmatch(entry.name)
        if m and not psutil.pid_exists(int(m.group(1))) and entry.is_file(follow_symlinks=False):
            try:
                os.unlink(entry.path)
                removed.append(entry.name)
            except OSError:
                continue
    return removed


def cannot_write(e: OSError, path: object) -> SatedgeError:
    """The error for an output that cannot be written, named by the path the user gave:
    ``out/p.yaml: cannot write: No such file or directory``."""
    return SatedgeError(f"cannot write: {e.strerror or e}", path)


@contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """A path to write ``path``'s content to.  For a regular file (or none yet): a fresh temporary
    path beside it (same suffix), renamed to it when the block ends and removed if it fails; a
    symlink is written through to the file it points to, never replaced by a file.  For a
    character device or a FIFO: the path itself, written through.  A write the file system
    refuses (a missing folder, a full disk or ``/dev/full``) becomes a one-line error naming
    ``path``.  The file gets the usual permissions.  Temporary files of satedge processes that
    were killed while writing beside it are removed first."""
    with atomic_outputs([path]) as (tmp,):
        yield tmp


@contextmanager
def atomic_outputs(paths: list) -> Iterator[list[Path]]:
    """:func:`atomic_output` for a group of files written together (a ``.puz`` and its ``.clue``):
    each is written to a temporary path, and only when every one of them is written are they all
    renamed into place; if one fails, none is (a path whose temporary file the block leaves
    unwritten is removed, as a stale ``.clue`` is)."""
    paths = [Path(p) for p in paths]
    targets = [_output_target(p) for p in paths]
    for folder in {t.parent for t in targets if t is not None}:
        sweep_temporaries(folder)
    tmps = [p if t is None else _temporary(t) for p, t in zip(paths, targets)]
    done = False
    try:
        try:
            yield tmps
        except OSError as e:
            raise cannot_write(e, paths[0]) from None
        for path, target, tmp in zip(paths, targets, tmps):
            if target is None:
                continue
            try:
                if tmp.exists():
                    os.replace(tmp, target)
                elif target.is_file():
                    target.unlink()
            except OSError as e:
                raise cannot_write(e, path) from None
        done = True
    finally:
        if not done:
            for target, tmp in zip(targets, tmps):
                if target is not None:
                    _remove(tmp)


def _remove(tmp: Path) -> None:
    """Remove a temporary file if it is there; a file system that refuses (a read-only one says
    so even of a file that is not there) leaves nothing to remove."""
    try:
        tmp.unlink(missing_ok=True)
    except OSError:
        pass


def check_output(path: str | os.PathLike | None) -> None:
    """Refuse, before any work is done, an output file that could not be written when the work
    ends: a folder, a missing folder, a read-only one or file system (a file is made beside it and
    removed again, as :func:`atomic_output` will), the device that refuses every write
    (``/dev/full``, or a link to it); the error names ``path``.  ``None`` and ``-`` (standard
    output), another character device or a FIFO pass."""
    if path is None or str(path) == "-":
        return
    target = _output_target(Path(path))
    if target is None:
        if _full(Path(path)):
            raise cannot_write(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)), path)
        return
    probe = _temporary(target)
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError as e:
        raise cannot_write(e, path) from None
    _remove(probe)


def _full(path: Path) -> bool:
    """Whether ``path`` is (or leads to) the device every write to fails with a full disk."""
    try:
        return os.stat(path).st_rdev == os.stat("/dev/full").st_rdev
    except OSError:  # no such device here
        return False


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through :func:`atomic_output`."""
    with atomic_output(path) as tmp:
        _write(tmp, data, path)


def _write(tmp: Path, data: str | bytes, path: str | os.PathLike) -> None:
    try:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding="utf-8")
    except OSError as e:
        raise cannot_write(e, path) from None


def write_group(files: dict) -> None:
    """Write several files together, all or none (:func:`atomic_outputs`): ``{path: text or
    bytes}``, ``None`` for a file that must not be there afterwards."""
    paths = list(files)
    with atomic_outputs(paths) as tmps:
        for path, tmp in zip(paths, tmps):
            if files[path] is not None:
                _write(tmp, files[path], path)


def check_folder(folder: str | os.PathLike, option: str, holds: tuple[str, ...] = (), what: str = "") -> Path:
    """The folder ``option`` names for its output, checked before anything is done: a name that
    is no folder (an empty one, a file, a device, a dangling symlink), a folder that cannot be
    written, or one that holds one of ``holds`` already (``what`` they make up) is a one-line error."""
    if not str(folder).strip():
        raise SatedgeError(f"{option} names no folder: give one, e.g. {option} {option.strip('-')}")
    path = Path(folder)
    if path.is_symlink() and not path.exists():
        raise SatedgeError(f"{option} names a dangling symlink: give a folder", path)
    if path.exists() and not path.is_dir():
        raise SatedgeError(f"{option} names a file, not a folder", path)
    held = [f for f in holds if (path / f).exists() or (path / f).is_symlink()]
    if held:
        raise SatedgeError(
            f"{option} names a folder that holds {what} already ({held[0]}): give another, or "
            "remove it first",
            path,
        )
    existing = next(p for p in (path, *path.absolute().parents) if p.exists())
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise SatedgeError(f"{option}: cannot write in {existing}", path)
    return path


def not_inputs(outputs: list, inputs: list) -> None:
    """Refuse an output that is one of the command's inputs (the same file, by any path or link),
    before anything is read or written."""
    for out in outputs:
        if out is None or str(out) == "-":
            continue
        for given in inputs:
            if given is None or str(given) == "-":
                continue
            try:
                same = os.path.samefile(out, given)
            except OSError:  # one of them is not there (yet)
                same = False
            if same:
                raise SatedgeError(
                    f"is also an input ({shown(str(given), 60)}): write the output elsewhere", out
                )


# ---------------------------------------------------------------------------- reading
def named(path: str | os.PathLike, table: dict[str, Path], suffixes: tuple[str, ...] = ()) -> Path | None:
    """The file of ``table`` (satedge's shipped puzzles or specs by name:
    :mod:`satedge.system.resources`) that the argument ``path`` names where no file of that name
    is there (``-`` is standard input), the name written with or without one of ``suffixes``;
    else ``None``."""
    text = str(path)
    if text == "-" or (os.path.lexists(text) and not os.path.isdir(text)):  # a file of that name wins
        return None
    return table.get(text.removesuffix(Path(text).suffix) if Path(text).suffix in suffixes else text)


def open_input(path: str | Path, limit: int = MAX_INPUT_BYTES) -> IO[bytes]:
    """An input file opened for reading; a missing file, one that is not a regular file (a
    device, a FIFO, a folder: refused without blocking) or one of more than ``limit`` bytes is a
    one-line error.  The size is checked on the file opened, so a file swapped meanwhile is no
    way around it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise SatedgeError("no such file", path) from None
    except IsADirectoryError:
        raise SatedgeError("cannot read: it is a folder", path) from None
    except OSError as e:
        raise SatedgeError(f"cannot read: {e.strerror or e}", path) from None
    st = os.fstat(fd)
    problem = None
    if not stat.S_ISREG(st.st_mode):
        problem = f"cannot read: it is {'a folder' if stat.S_ISDIR(st.st_mode) else 'not a regular file'}"
    elif st.st_size > limit:
        problem = f"cannot read: {st.st_size:,} bytes, more than the {limit:,} an input file may have"
    if problem:
        os.close(fd)
        raise SatedgeError(problem, path)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def check_input(path: str | Path, limit: int = MAX_INPUT_BYTES) -> int:
    """The size of an input file, checked as :func:`open_input` checks it, before it is read."""
    with open_input(path, limit) as fh:
        return os.fstat(fh.fileno()).st_size


def read_bytes(path: str | Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of an input file (:func:`open_input`), at most ``limit`` of them however it grows;
    ``-`` is standard input."""
    if str(path) == "-":
        data = _read_upto(sys.stdin.buffer, 0, limit)
        if len(data) > limit:
            raise SatedgeError(f"cannot read: more than the {limit:,} bytes an input may have", path)
        return data
    with open_input(path, limit) as fh:
        try:
            data = _read_upto(fh, os.fstat(fh.fileno()).st_size, limit)
        except OSError as e:
            raise SatedgeError(f"cannot read: {e.strerror or e}", path) from None
    if len(data) > limit:
        raise SatedgeError(f"cannot read: more than the {limit:,} bytes an input file may have", path)
    return data


def _read_upto(fh: IO[bytes], size: int, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of ``fh``: the ``size`` it says it holds, then what it grew by
    (or a pipe's), a MB at a time; one ``read(limit + 1)`` would allocate the whole limit."""
    chunks = [fh.read(min(limit, size) + 1)]
    got = len(chunks[0])
    while got > size and got <= limit and (more := fh.read(min(1 << 20, limit + 1 - got))):
        chunks.append(more)
        got += len(more)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_text(path: str | Path, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of an input file (:func:`read_bytes`)."""
    try:
        return read_bytes(path, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise SatedgeError("cannot read: not UTF-8 text", path) from None


def _unique_pairs(pairs: list) -> dict:
    seen: dict = {}
    for k, v in pairs:
        if k in seen:
            raise ValueError(f"duplicate key {shown(k)}")
        seen[k] = v
    return seen


def parse_ints(line: str, path: Path | str, lineno: int) -> list[int]:
    """The integers of a line of a text file, or a one-line error that names the file and the line."""
    try:
        return [int(x) for x in line.split()]
    except ValueError:
        raise SatedgeError(f"line {lineno}: expected integers, found {shown(line.strip())}", path) from None


def parse_json(text: str) -> Any:
    """JSON with its keys unique; a malformed document, a duplicate key, a number of thousands of
    digits or nesting deeper than Python's stack is a :class:`ValueError` of one line."""
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs)
    except json.JSONDecodeError as e:
        raise ValueError(f"{e.msg} at line {e.lineno}") from None
    except RecursionError:
        raise ValueError("nested too deep") from None
    except ValueError as e:  # a duplicate key, or an integer of more digits than Python converts
        raise ValueError(cut(str(e), 120)) from None


def read_json(path: str | Path, limit: int = MAX_INPUT_BYTES) -> Any:
    """The JSON document in ``path`` (:func:`parse_json`); any problem is a one-line error."""
    try:
        return parse_json(read_text(path, limit))
    except ValueError as e:
        raise SatedgeError(f"not valid JSON: {e}", path) from None
