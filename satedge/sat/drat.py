"""DRAT proofs as arrays: read from a solver's text or binary proof, written as text.

A proof is a sequence of steps, each a clause added (a lemma) or deleted.  :class:`Proof` keeps
them flat: ``lits`` (DIMACS literals, int32), ``ends`` (where each step's literals end) and
``deleted`` (which steps are deletions).  The readers and the writer run compiled by numba
(once, kept on disk by numba) on proofs of more than :data:`SMALL_PROOF` bytes: a proof of millions
of steps is read in a fraction of a second, where reading it line by line in Python took
longer than checking it.  Smaller proofs are read by the same functions uncompiled, which is
quicker than loading numba.

Reading a proof wrongly cannot make a checker accept a false claim: whatever steps a checker
accepts as a refutation of a formula refute that formula.  What a certificate claims is the
formula given to the checker (:mod:`satedge.sat.certify`), which is built from satedge's own clauses.

>>> p = read(b"1 2 0\\nd 1 2 0\\n-3 0\\n0\\n")
>>> p.steps, p.lemmas, p.clause(0), p.deleted.tolist(), p.text(), p.size
(4, 3, [1, 2], [False, True, False, False], b'1 2 0\\nd 1 2 0\\n-3 0\\n0\\n', 21)
>>> read(bytes([0x61, 2, 5, 0, 0x64, 2, 5, 0]), binary=True).text()  # a 1 -2 0 and d 1 -2 0
b'1 -2 0\\nd 1 -2 0\\n'
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np
import pysolvers  # PySAT's compiled module

from ..errors import SatedgeError
from ..system.extras import require

__all__ = ["SMALL_PROOF", "Proof", "read", "internal", "logged", "of_solver"]

SMALL_PROOF = 1 << 18  # bytes of a proof read and written without numba


@dataclass(frozen=True, eq=False)
class Proof:
    """A DRAT proof's steps: ``lits`` (DIMACS literals of every step, one after the other),
    ``ends`` (the end of each step's literals in ``lits``) and ``deleted`` (True for a deletion)."""

    lits: np.ndarray
    ends: np.ndarray
    deleted: np.ndarray

    @property
    def steps(self) -> int:
        return len(self.ends)

    @property
    def lemmas(self) -> int:
        """The clauses the proof adds."""
        return int(self.steps - np.count_nonzero(self.deleted))

    @property
    def nv(self) -> int:
        """The largest variable the proof names."""
        return int(np.abs(self.lits).max()) if len(self.lits) else 0

    def clause(self, i: int) -> list[int]:
        start = int(self.ends[i - 1]) if i else 0
        return self.lits[start : int(self.ends[i])].tolist()

    def text(self) -> bytes:
        """The proof in DRAT's text form, a step per line."""
        return _kernels(self.size)[2](self.lits, self.ends, self.deleted).tobytes()

    @property
    def size(self) -> int:
        """The bytes of :meth:`text`, counted without writing it."""
        a = np.abs(self.lits.astype(np.int64))
        digits = (
            1
            + (a >= 10)
            + (a >= 100)
            + (a >= 1000)
            + (a >= 10**4)
            + (a >= 10**5)
            + (a >= 10**6)
            + (a >= 10**7)
            + (a >= 10**8)
            + (a >= 10**9)
        )
        return int(
            digits.sum()
            + np.count_nonzero(self.lits < 0)
            + len(self.lits)
            + 2 * self.steps
            + 2 * np.count_nonzero(self.deleted)
        )

    def refutation(self) -> Proof:
        """The proof up to its first empty clause: a solver may log steps after it (deletions
        as it is torn down), which some checkers (drup) refuse to parse."""
        starts = np.concatenate(([0], self.ends[:-1]))
        empty = np.flatnonzero((self.ends == starts) & ~self.deleted)
        if not len(empty) or empty[0] == self.steps - 1:
            return self
        n = int(empty[0]) + 1
        return Proof(self.lits[: int(self.ends[n - 1])], self.ends[:n], self.deleted[:n])

    def packed(self) -> list[tuple[bool, list[int]]]:
        """The steps as dratify's native checker takes them: ``(deletion, internal literals)``."""
        flat = internal(self.lits).tolist()
        out, start = [], 0
        for end, d in zip(self.ends.tolist(), self.deleted.tolist()):
            out.append((d, flat[start:end]))
            start = end
        return out


def internal(lits: Any) -> np.ndarray:
    """DIMACS literals as dratify numbers them: ``2 (v - 1)`` for ``v``, one more for ``-v``."""
    lits = np.asarray(lits, dtype=np.int64)
    return 2 * (np.abs(lits) - 1) + (lits < 0)


def internal_clause(clause: Iterable[int]) -> list[int]:
    """A clause in dratify's numbering (:func:`internal`), each literal once (the compiled
    checker's watches need it)."""
    return internal(list(dict.fromkeys(clause))).tolist()


def read(data: bytes, binary: bool = False, compiled: bool | None = None) -> Proof:
    """The proof in ``data``: DRAT text (a step per line, ``d`` before a deletion, ``c`` lines
    skipped) or, with ``binary``, binary DRAT (``a`` or ``d``, then each literal ``2 v + sign``
    in 7-bit groups, then 0).  A proof cut off or damaged is a :class:`SatedgeError`.  ``compiled``:
    whether to read it with numba (default: above :data:`SMALL_PROOF` bytes; a caller with many small
    proofs says so once)."""
    compiled = len(data) > SMALL_PROOF if compiled is None else compiled
    buf = np.frombuffer(data, dtype=np.uint8) if compiled else data  # bytes: Python's int arithmetic
    lits, ends, deleted, status = (_compiled() if compiled else _kernels(0))[1 if binary else 0](buf)
    if status != len(buf):
        raise SatedgeError(
            f"the proof is damaged near byte {status:,} of {len(buf):,} ({'binary' if binary else 'text'} "
            "DRAT)"
        )
    return Proof(lits, ends, deleted.astype(bool))


def logged(solver: Any) -> tuple[int, int] | None:
    """The file descriptor of the file a PySAT solver made with ``with_proof=True`` logs its proof
    to, and the bytes of it written so far (flushed); None where it keeps no such file."""
    inner = getattr(solver, "solver", solver)
    handle, stream = getattr(inner, "prfp", None), getattr(inner, "prfile", None)
    if handle is None or stream is None:
        return None
    pysolvers.flushpr(handle)
    return stream.fileno(), os.fstat(stream.fileno()).st_size


def of_solver(solver: Any, binary: bool) -> Proof:
    """The proof a PySAT solver made with ``with_proof=True`` has logged so far, read from the
    file PySAT gives it (binary DRAT from CaDiCaL, ``binary``; text from the others), or from
    ``get_proof()`` where that file is not where this version of PySAT keeps it."""
    log = logged(solver)
    if log is not None:  # read where the file is, leaving its offset where the solver writes
        fd, size = log
        chunks, at = [], 0
        while at < size:  # one read returns 2 GB at most
            chunks.append(os.pread(fd, size - at, at))
            at += len(chunks[-1]) or size
        return read(b"".join(chunks), binary)
    lines = solver.get_proof() or []
    return read(("\n".join(lines) + "\n").encode() if lines else b"")


def _parse_text(buf: Any) -> Any:
    n = len(buf)
    lits = np.empty(n // 2 + 1, np.int32)
    ends = np.empty(n // 2 + 1, np.int64)
    deleted = np.zeros(n // 2 + 1, np.uint8)
    k = s = 0
    i = 0
    open_ = False
    while i < n:
        c = buf[i]
        if c == 32 or c == 10 or c == 13 or c == 9:
            i += 1
        elif c == 99 and not open_:  # a comment line
            while i < n and buf[i] != 10:
                i += 1
        elif c == 100 and not open_:  # d: a deletion
            deleted[s] = 1
            open_ = True
            i += 1
        else:
            neg = c == 45
            if neg:
                i += 1
            v = 0
            digits = 0
            while i < n and 48 <= buf[i] <= 57 and digits < 10:
                v = v * 10 + (buf[i] - 48)
                i += 1
                digits += 1
            if (
                digits == 0
                or digits == 10
                or (i < n and buf[i] != 32 and buf[i] != 10 and buf[i] != 13 and buf[i] != 9)
                or (neg and v == 0)
                or v > 2147483647
            ):
                return lits[:k], ends[:s], deleted[:s], i
            if v == 0:
                ends[s] = k
                s += 1
                open_ = False
            else:
                lits[k] = -v if neg else v
                k += 1
                open_ = True
    if open_:
        return lits[:k], ends[:s], deleted[:s], n - 1
    return lits[:k], ends[:s], deleted[:s], n


def _parse_binary(buf: Any) -> Any:
    n = len(buf)
    lits = np.empty(n, np.int32)
    ends = np.empty(n // 2 + 1, np.int64)
    deleted = np.zeros(n // 2 + 1, np.uint8)
    k = s = 0
    i = 0
    while i < n:
        c = buf[i]
        if c != 97 and c != 100:
            return lits[:k], ends[:s], deleted[:s], i
        deleted[s] = c == 100
        i += 1
        while True:
            if i >= n:
                return lits[:k], ends[:s], deleted[:s], n - 1
            u = 0
            shift = 0
            while True:
                if i >= n or shift > 28:
                    return lits[:k], ends[:s], deleted[:s], min(i, n - 1)
                b = int(buf[i])
                i += 1
                u |= (b & 127) << shift
                shift += 7
                if b < 128:
                    break
            if u == 0:
                break
            if u < 2 or (u >> 1) > 2147483647:
                return lits[:k], ends[:s], deleted[:s], i - 1
            lits[k] = -(u >> 1) if u & 1 else (u >> 1)
            k += 1
        ends[s] = k
        s += 1
    return lits[:k], ends[:s], deleted[:s], n


def _write_text(lits: Any, ends: Any, deleted: Any) -> Any:
    size = 0
    for j in range(len(ends)):
        size += 3 + 2 * deleted[j]
    for x in lits:
        size += 12
    out = np.empty(size, np.uint8)
    digits = np.empty(12, np.uint8)
    k = 0
    start = 0
    for j in range(len(ends)):
        if deleted[j]:
            out[k] = 100
            out[k + 1] = 32
            k += 2
        for t in range(start, ends[j]):
            x = lits[t]
            if x < 0:
                out[k] = 45
                k += 1
                x = -x
            m = 0
            while True:
                digits[m] = 48 + x % 10
                m += 1
                x //= 10
                if x == 0:
                    break
            while m > 0:
                m -= 1
                out[k] = digits[m]
                k += 1
            out[k] = 32
            k += 1
        out[k] = 48
        out[k + 1] = 10
        k += 2
        start = ends[j]
    return out[:k]


def _kernels(size: int) -> tuple:
    """The readers and the writer for a proof of ``size`` bytes: compiled by numba above
    :data:`SMALL_PROOF`, as they are below."""
    return _compiled() if size > SMALL_PROOF else (_parse_text, _parse_binary, _write_text)


@cache
def _compiled() -> tuple:
    """The readers and the writer compiled by numba (once per process; numba keeps the machine
    code on disk)."""
    numba = require("numba")
    return tuple(numba.njit(cache=True)(f) for f in (_parse_text, _parse_binary, _write_text))
