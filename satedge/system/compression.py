"""Compressed text files, told by their name's last suffix: ``.gz`` (gzip), ``.xz`` (xz),
``.bz2`` (bzip2) and ``.zst`` (Zstandard, with the extra ``zstd``), read and written alike.

>>> compression_of("h.cnf.bz2"), compression_of("h.cnf"), compression_of("h.tar.gz")
('.bz2', '', '.gz')
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys
from os import PathLike
from pathlib import Path
from typing import IO, Literal

from ..errors import SatedgeError
from .extras import require

__all__ = ["SUFFIXES", "compression_of", "can_compress", "open_compressed", "not_compressed", "read_errors"]

SUFFIXES = (".gz", ".xz", ".bz2", ".zst")
# the suffixes of other compressors, refused by name rather than written as plain text
OTHERS = (".lz4", ".lzma", ".lz", ".zip", ".7z", ".br", ".zstd", ".bz", ".z", ".tgz", ".tbz2", ".txz")


def read_errors(*more: type[BaseException]) -> tuple[type[BaseException], ...]:
    """What a damaged or truncated file raises as it is read, and ``more``: ``OSError`` (gzip's
    and bzip2's), ``EOFError``, ``lzma.LZMAError``, and Zstandard's ``ZstdError`` once a ``.zst``
    file was opened (its module is imported only then)."""
    zstandard = sys.modules.get("zstandard")
    found: tuple[type[BaseException], ...] = (OSError, EOFError, lzma.LZMAError, *more)
    return found + ((zstandard.ZstdError,) if zstandard else ())


def compression_of(path: str | PathLike) -> str:
    """The compression suffix of ``path``'s name, or ``""`` for a plain file."""
    suffix = Path(path).suffix.lower()
    return suffix if suffix in SUFFIXES else ""


def can_compress(path: str | PathLike) -> None:
    """Nothing where ``path``'s name asks for no compression or one satedge writes here; else
    the one-line error: another compressor's suffix, or ``.zst`` without its library.

    >>> can_compress("h.cnf.lz4")
    Traceback (most recent call last):
    ...
    satedge.errors.SatedgeError: h.cnf.lz4: .lz4 is no compression satedge writes: it writes .gz, .xz, .bz2 and .zst
    """
    suffix = Path(path).suffix.lower()
    if suffix in OTHERS:
        raise SatedgeError(
            f"{suffix} is no compression satedge writes: it writes {', '.join(SUFFIXES[:-1])} and {SUFFIXES[-1]}",
            Path(path),
        )
    if suffix == ".zst":
        require("zstandard")


def open_compressed(path: str | PathLike, mode: Literal["rt", "wt"]) -> IO[str]:
    """``path`` opened as UTF-8 text (``mode``: ``"rt"`` or ``"wt"``), through the compression its
    name says.  Writing favours speed over size, as a formula is written once and read a few times:
    gzip level 6, xz preset 1, bzip2 level 9 (its only sensible one), Zstandard level 3.  The same
    text makes the same bytes: gzip's header gets neither a name nor a time."""
    kind = compression_of(path)
    if kind == ".zst":
        zstandard = require("zstandard")
        if mode == "wt":
            return zstandard.open(path, mode, cctx=zstandard.ZstdCompressor(level=3), encoding="utf-8")
        return zstandard.open(path, mode, encoding="utf-8")
    if mode == "rt":
        if kind == ".gz":
            return gzip.open(path, "rt", encoding="utf-8")
        if kind == ".xz":
            return lzma.open(path, "rt", encoding="utf-8")
        if kind == ".bz2":
            return bz2.open(path, "rt", encoding="utf-8")
        return open(path, encoding="utf-8")
    if kind == ".gz":
        raw = open(path, "wb")
        try:
            packed = gzip.GzipFile(filename="", mode="wb", compresslevel=6, fileobj=raw, mtime=0)
        except BaseException:
            raw.close()
            raise
        return _Closing(packed, raw)
    if kind == ".xz":
        return lzma.open(path, "wt", encoding="utf-8", preset=1)
    if kind == ".bz2":
        return bz2.open(path, "wt", encoding="utf-8")
    return open(path, "w", encoding="utf-8")


def not_compressed(path: str | PathLike, what: str) -> None:
    """A one-line refusal where ``path`` names a compressed file that its command writes plain
    (``what``: the files it does write)."""
    kind = compression_of(path)
    if kind:
        raise SatedgeError(f"{what}, never compressed: leave out {kind}", Path(path))


class _Closing(io.TextIOWrapper):
    """UTF-8 text into a gzip stream that closes the file under it as it closes (``GzipFile``
    leaves a ``fileobj`` it was given open)."""

    def __init__(self, packed: gzip.GzipFile, raw: IO[bytes]):
        super().__init__(packed, encoding="utf-8")
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()
