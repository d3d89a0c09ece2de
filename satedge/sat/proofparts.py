"""A long DRAT proof checked in parts, at once on several processes, and while it is logged.

A part is a run of the proof's steps with the clauses live where it starts: the formula's and
the lemmas before it, less those deleted.  Each part is checked as a DRUP proof, every lemma by
unit propagation alone from its live clauses, by dratify's compiled checker.  That is sound
whatever the deletions: a lemma found by unit propagation follows from the clauses it was
checked against, all of them the formula's or such lemmas, so each follows from the formula,
and the part that derives the empty clause refutes it.  Deletions are matched by a 64-bit hash
of the clause's literals; one matched wrongly can only make a part fail, and then the whole
proof is checked in one go (:class:`satedge.sat.certify.FormulaCheck`).

:class:`Tail` checks parts of a proof as the solver writes it, on a process of its own, so that
the check of a long enumeration's proof mostly runs beside the enumeration.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..system.proctree import as_worker, kill_tree, stops_blocked
from . import drat

__all__ = ["PARTS_PER_WORKER", "PART_LEMMAS", "Part", "keys", "checksum", "parts", "check_part", "Tail"]

PARTS_PER_WORKER = 4  # parts of a long proof per process checking it: parts differ in cost
PART_LEMMAS = 10_000  # lemmas of a part at least: below, starting a process costs more than it saves


@dataclass(frozen=True, eq=False)
class Part:
    """A part of a proof: its steps ``start`` to ``end`` and the clauses ``live`` as they begin
    (``-1 - i``: clause ``i`` of the formula with the piece's clauses; ``j``: the proof's step
    ``j``), and whether it is the ``last``, the one that must derive the empty clause."""

    start: int
    end: int
    live: np.ndarray
    last: bool


class _Live:
    """The clauses live as a proof goes, by their hash: each added, and removed by a deletion of
    two literals or more (a unit is never deleted, as dratify has it)."""

    def __init__(self) -> None:
        self.by_key: dict[int, list] = {}

    def add(self, key: int, item: Any) -> None:
        self.by_key.setdefault(key, []).append(item)

    def steps(self, keys: list[int], lengths: list[int], deleted: list[bool], items: Any) -> None:
        for key, length, d, item in zip(keys, lengths, deleted, items):
            if not d:
                self.by_key.setdefault(key, []).append(item)
            elif length > 1 and self.by_key.get(key):
                self.by_key[key].pop()

    def items(self) -> list:
        return [item for items in self.by_key.values() for item in items]


def keys(lits: np.ndarray, ends: Any) -> tuple[list[int], list[int]]:
    """A 64-bit hash of each clause (its literals ``lits[ends[i - 1]:ends[i]]``, in dratify's
    numbering), the same whatever their order, and each clause's length."""
    with np.errstate(over="ignore"):
        x = (np.asarray(lits).astype(np.uint64) + np.uint64(1)) * np.uint64(
            0x9E3779B97F4A7C15
        )  # splitmix64's
        x ^= x >> np.uint64(31)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(29)
        sums = np.concatenate(([np.uint64(0)], np.cumsum(x, dtype=np.uint64)))
        ends = np.asarray(ends, dtype=np.int64)
        starts = np.concatenate(([0], ends[:-1]))
        lengths = ends - starts
        return (
            (sums[ends] - sums[starts] + lengths.astype(np.uint64) * np.uint64(0x94D049BB133111EB)).tolist(),
            lengths.tolist(),
        )


def _base_keys(base: list[list[int]]) -> list[int]:
    sizes = np.fromiter(map(len, base), dtype=np.int64, count=len(base))
    flat = np.fromiter((lit for c in base for lit in c), dtype=np.int64, count=int(sizes.sum()))
    return keys(flat, np.cumsum(sizes))[0]


def _digest(step_keys: list[int], deleted: list[bool], first: int) -> int:
    """A 64-bit digest of steps ``first``, ``first + 1``, ... (their keys and kinds), summed over
    runs of steps as :func:`checksum` sums over the whole."""
    with np.errstate(over="ignore"):
        k = np.array(step_keys, dtype=np.uint64) ^ np.array(deleted, dtype=np.uint64)
        return int((k * np.arange(first + 1, first + len(k) + 1, dtype=np.uint64)).sum(dtype=np.uint64))


def checksum(proof: drat.Proof, steps: int) -> int:
    """A 64-bit digest of the proof's first ``steps`` steps, in order: what :class:`Tail`
    verified must be what the proof read at the end holds."""
    if not steps:
        return 0
    top = int(proof.ends[steps - 1])
    return _digest(
        keys(drat.internal(proof.lits[:top]), proof.ends[:steps])[0], proof.deleted[:steps].tolist(), 0
    )


def parts(base: list[list[int]], proof: drat.Proof, count: int, first: int = 0) -> list[Part]:
    """The steps of ``proof`` from ``first`` on (those before are checked), cut into at most
    ``count`` parts of about as many lemmas, each with the clauses live where it starts: the
    formula's (``base``) and the lemmas before it, less those deleted.  From the first step, none
    when the proof is too short for parts to be worth it."""
    remaining = proof.lemmas - int(np.count_nonzero(~proof.deleted[:first]))
    count = min(count, remaining // PART_LEMMAS)
    if first >= proof.steps or (count < 2 and not first):
        return []
    count = max(count, 1)
    step_keys, lengths = keys(drat.internal(proof.lits), proof.ends)
    live, deleted = _Live(), proof.deleted.tolist()
    for i, key in enumerate(_base_keys(base)):
        live.add(key, -1 - i)
    live.steps(step_keys[:first], lengths[:first], deleted[:first], range(first))
    lemmas = np.cumsum(~proof.deleted)
    done = proof.lemmas - remaining
    bounds = [int(np.searchsorted(lemmas, done + remaining * k // count)) for k in range(1, count)] + [
        proof.steps
    ]
    out, start = [], first
    for end in bounds:
        out.append(Part(start, end, np.array(live.items(), dtype=np.int64), end == proof.steps))
        live.steps(step_keys[start:end], lengths[start:end], deleted[start:end], range(start, end))
        start = end
    return out


def check_part(native: Any, nv: int, base: list[list[int]], proof: drat.Proof, part: Part) -> bool:
    """Whether dratify's compiled checker verifies every lemma of ``part`` by unit propagation
    (and, for the last, derives the empty clause)."""
    top = int(proof.ends[part.end - 1])
    flat = drat.internal(proof.lits[:top]).tolist()
    ends = proof.ends[: part.end].tolist()
    clauses = [base[-1 - i] if i < 0 else flat[ends[i - 1] if i else 0 : ends[i]] for i in part.live.tolist()]
    steps = [
        (d, flat[ends[s - 1] if s else 0 : ends[s]])
        for s, d in zip(range(part.start, part.end), proof.deleted[part.start : part.end].tolist())
    ]
    return _checked(native, nv, clauses, steps, part.last)


def _checked(native: Any, nv: int, clauses: list[list[int]], steps: list, last: bool) -> bool:
    """Whether every step checks by unit propagation from ``clauses`` (and, if ``last``, the
    empty clause is derived); a checker's error (a clause it refuses) is a part that fails."""
    try:
        raw = tuple(native.check_proof(nv, clauses, steps, False, True))
    except (ValueError, TypeError, OverflowError):
        return False
    # raw: ok, reason, steps, RUP steps, RAT steps, deletions, ignored, resolvents, failed step, empty reached
    return bool(raw[0]) and bool(raw[9]) if last else (bool(raw[0]) or int(raw[8]) < 0)


class Tail:
    """Parts of a proof checked as a solver logs it, on a process of its own: ``base``, the
    clauses the proof starts from (in dratify's numbering), then, at each :meth:`mark`, the
    clauses added to the solver since (blocking clauses) and how many bytes of the proof, at
    file descriptor ``fd`` (``binary`` DRAT or text), are written.  A part is checked once it
    has :data:`PART_LEMMAS` lemmas.  :meth:`end` stops it and gives how many steps of the proof
    it verified and their :func:`checksum`."""

    def __init__(self, native: Any, nv: int, base: list[list[int]], fd: int, binary: bool) -> None:
        here, there = multiprocessing.get_context("fork").Pipe()
        self.conn, self.verified = here, (0, 0)
        with stops_blocked():
            self.proc = multiprocessing.get_context("fork").Process(
                target=_tail, args=(there, native, nv, base, fd, binary, os.getpid()), daemon=True
            )
            self.proc.start()
        there.close()

    def mark(self, added: list[list[int]], written: int) -> None:
        """The clauses added since the last mark (in dratify's numbering) and the proof's bytes
        written so far (flushed)."""
        self.conn.send((added, written))

    def poll(self, timeout: float = 0.0) -> tuple[int, int]:
        """The steps verified so far and their checksum, after waiting up to ``timeout`` seconds
        for news of a part checked."""
        try:
            while self.conn.poll(timeout):
                self.verified, timeout = self.conn.recv(), 0.0
        except (EOFError, OSError):
            pass
        return self.verified

    def end(self) -> tuple[int, int]:
        """Stop checking once the part under way is checked: the steps verified and their
        checksum."""
        try:
            self.conn.send(None)
            while True:  # until the process ends
                self.verified = self.conn.recv()
        except (EOFError, OSError):
            pass
        finally:
            if self.proc.pid is not None:
                kill_tree(self.proc.pid)
            self.proc.join()
            self.conn.close()
        return self.verified


def _tail(conn: Any, native: Any, nv: int, base: list[list[int]], fd: int, binary: bool, parent: int) -> None:
    """The process of :class:`Tail`."""
    as_worker(parent)
    inbox: list = []
    arrived = threading.Condition()

    def receive() -> None:  # the pipe is drained while a part is checked: the solver never waits
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                msg = None
            with arrived:
                inbox.append(msg)
                arrived.notify()
            if msg is None:
                return

    threading.Thread(target=receive, daemon=True).start()
    live, read, steps = _Live(), 0, 0
    nv = max(nv, max(((lit >> 1) + 1 for c in base for lit in c), default=0))
    for key, clause in zip(_base_keys(base), base):
        live.add(key, clause)
    pending: list[tuple[bool, list[int], int, int]] = []  # (deleted, literals, key, length): steps to check
    digest, lemmas = 0, 0  # lemmas: those pending
    while True:
        with arrived:
            while not inbox and lemmas < PART_LEMMAS:
                arrived.wait()
            msgs, inbox[:] = list(inbox), []
        for msg in msgs:
            if msg is None:  # the end: the parent checks what is left, on all its workers
                os._exit(0)
            added, written = msg
            for key, clause in zip(_base_keys(added) if added else [], added):
                live.add(key, clause)
            nv = max(nv, max(((lit >> 1) + 1 for c in added for lit in c), default=0))
            if written > read:
                data = os.pread(fd, written - read, read)
                cut = data.rfind(b"\0" if binary else b"\n") + 1
                if cut:
                    chunk = drat.read(data[:cut], binary)
                    read, nv, lemmas = read + cut, max(nv, chunk.nv), lemmas + chunk.lemmas
                    numbered = drat.internal(chunk.lits)
                    flat, ends = numbered.tolist(), chunk.ends.tolist()
                    pending += zip(
                        chunk.deleted.tolist(),
                        (flat[a:b] for a, b in zip([0] + ends[:-1], ends)),
                        *keys(numbered, chunk.ends),
                    )
        if lemmas >= PART_LEMMAS:  # a part of about PART_LEMMAS lemmas: the end waits for one at most
            n, counted = 0, 0
            while n < len(pending) and counted < PART_LEMMAS:
                counted += not pending[n][0]
                n += 1
            deleted, lits, ks, lengths = (list(x) for x in zip(*pending[:n]))
            if not _checked(native, nv, live.items(), list(zip(deleted, lits)), False):
                os._exit(0)
            digest = (digest + _digest(ks, deleted, steps)) % 2**64
            live.steps(ks, lengths, deleted, lits)
            steps, lemmas, pending = steps + n, lemmas - counted, pending[n:]
            conn.send((steps, digest))
