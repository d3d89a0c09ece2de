"""DIMACS clause lines, written in large blocks: from lists of clauses, or from numpy arrays of
one clause per row (shorter clauses padded with 0) turned into text all at once through a
table of every literal's text."""

from __future__ import annotations

from typing import IO

import numpy as np

__all__ = ["CHUNK", "write_clauses", "literal_table", "rows_text"]

CHUNK = 20000  # clauses of a list formatted into one string


def write_clauses(fh: IO[str], blocks: list, nv: int) -> int:
    """Write the clauses of ``blocks`` (lists of clauses or arrays, in order) as DIMACS lines of a
    formula of ``nv`` variables; returns the characters written.  The lines of an array go
    to the text file's bytes underneath when it has them (they are ASCII)."""
    total, table = 0, None
    for block in blocks:
        if isinstance(block, list):
            for i in range(0, len(block), CHUNK):
                text = "".join([" ".join(map(str, c)) + " 0\n" for c in block[i:i + CHUNK]])
                fh.write(text)
                total += len(text)
            continue
        if table is None:
            table = literal_table(nv)
        raw = getattr(fh, "buffer", None)
        if raw is not None:
            fh.flush()  # what the text layer holds goes first
        rows = max(1, 16 * CHUNK // max(1, block.shape[1]))
        for i in range(0, len(block), rows):
            text = rows_text(block[i:i + rows], table, nv)
            if raw is None:
                fh.write(text.decode("ascii"))
            else:
                raw.write(text)
            total += len(text)
    return total


def literal_table(nv: int) -> np.ndarray:
    """The text of every literal and a space (``-17 ``), NUL-padded to a multiple of 8 bytes and
    seen as ``uint64`` words: row ``lit + nv``; row ``nv`` (0, the padding of short clauses) is
    empty.  Made digit by digit."""
    digits = len(str(nv))
    v = np.arange(1, nv + 1, dtype=np.int64)
    length = np.ones(nv, dtype=np.int64)  # digits of each number
    for p in range(1, digits):
        length += v >= 10**p
    width = 8 * -(-(digits + 2) // 8)
    pos = np.zeros((nv, width), dtype=np.uint8)
    for j in range(digits):  # the j-th digit from the left, where the number has one
        power = length - 1 - j
        has = power >= 0
        pos[has, j] = 48 + (v[has] // 10 ** power[has]) % 10
    pos[np.arange(nv), length] = 32
    table = np.zeros((2 * nv + 1, width), dtype=np.uint8)
    table[nv + 1:] = pos
    table[:nv, 0] = 45
    table[:nv, 1:] = pos[::-1, :-1]
    return table.view(np.uint64)


def rows_text(rows: np.ndarray, table: np.ndarray, nv: int) -> bytes:
    """DIMACS lines (ASCII) of an array of clauses, one per row (0: padding).

    >>> rows_text(np.array([[1, -2], [3, 0]], dtype=np.int32), literal_table(3), 3)
    b'1 -2 0\\n3 0\\n'
    """
    words = np.take(table, rows + np.int32(nv), axis=0).view(np.uint8).reshape(len(rows), -1)
    out = np.empty((len(rows), words.shape[1] + 2), dtype=np.uint8)
    out[:, :-2] = words
    out[:, -2], out[:, -1] = 48, 10  # "0\n"
    return out.tobytes().translate(None, b"\0")
