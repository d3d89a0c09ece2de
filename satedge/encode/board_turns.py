"""The board's turns as renamings of a formula's variables, and the cube that breaks them.

A turn of the whole board maps each placement ``(cell, tile, turn)`` to ``(cell turned, tile,
turn + k)``, and so each solution to a solution.  Where the formula is built alike around every
cell, the turn is also a renaming of its variables that maps its clauses onto its clauses: the
placement variables by the turn, every other variable (an edge's label, a card encoding's
auxiliary) by what its clauses say of it.  :func:`turns` finds that renaming, by colour
refinement of the formula's variables seeded with the placements' images, and keeps it only
if it maps the clauses onto exactly the same clauses; a formula it does not map (a card encoding
whose auxiliaries follow the order of its inputs, say) has none, and None says so.

A renaming that maps the clauses onto themselves maps a DRAT proof of the formula with some
unit clauses to a DRAT proof of the formula with the renamed units: every step is checked by
unit propagation (and a RAT step on its first literal), which a renaming keeps.  So one proof
of the formula with :func:`cube` (what ``symmetry: rotation`` keeps of the board's orbit), turned,
proves the formula with each turned cube, and the cubes together cover every solution: the
symmetry breaking is proved, not assumed (:mod:`satedge.jobs.certified`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..puzzle.symmetry import symmetry_breaking
from .core import Encoded

__all__ = ["turns", "cube", "turned"]


def _placements(formula: Encoded) -> dict[tuple[int, int, int], tuple[int, tuple[int, ...]]] | None:
    """Each placement ``(cell, tile, turn)`` the formula reads, with its variable and the literals of
    its turn (none where the variable is the placement's own); None where a turn is read from more
    than one literal set."""
    out: dict[tuple[int, int, int], tuple[int, tuple[int, ...]]] = {}
    for c, cell in enumerate(formula.cells()):
        for v, t, rotations in cell:
            for r, lits in rotations:
                if (c, t, r) in out:
                    return None
                out[c, t, r] = (v, tuple(lits))
    return out


def _seed(formula: Encoded, k: int, at: dict) -> dict[int, int] | None:
    """The images of the placements' variables under turn ``k`` (their turns' literals are left to
    the refinement); None where a placement's image is not one of the formula's, or two images of
    one variable differ."""
    board, out = formula.puzzle.board, dict[int, int]()
    for (c, t, r), (v, _) in at.items():
        image = at.get((board.turn_cell(c, k), t, (r + k) % 4))
        if image is None or out.setdefault(v, image[0]) != image[0]:
            return None
    return out if len(set(out.values())) == len(out) else None


def _mix(x: np.ndarray, salt: int) -> np.ndarray:
    """splitmix64 of ``x`` (uint64) with ``salt``: a colour's hash, sums of which hash multisets."""
    z = x + np.uint64((0x9E3779B97F4A7C15 * (salt + 1)) % (1 << 64))
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


class _Formula:
    """A formula's literals flat, for colour refinement: each literal's variable and sign, where
    each clause's literals start, and the literals in the order of their variables."""

    def __init__(self, clauses: list[list[int]], nv: int):
        self.nv = nv
        lits = np.fromiter((x for c in clauses for x in c), dtype=np.int64)
        lengths = np.fromiter(map(len, clauses), dtype=np.int64, count=len(clauses))
        self.var, self.neg = np.abs(lits), (lits < 0).astype(np.uint64)
        self.starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
        self.lengths, self.empty = lengths, lengths == 0
        self.clause = np.repeat(np.arange(len(clauses)), lengths)
        self.lits = lits

    def sums(self, values: np.ndarray, starts: np.ndarray) -> np.ndarray:
        """Per clause, the sum of ``values`` (one per literal) over its literals (0: empty)."""
        # a zero past the end: an empty clause may start there
        out = np.add.reduceat(np.append(values, np.zeros(1, values.dtype)), starts)
        out[self.empty] = 0
        return out

    def refine(self, colours: np.ndarray, rounds: int | None = None) -> tuple[np.ndarray, int]:
        """Colour refinement from ``colours`` (per variable, uint64): a variable's next colour
        hashes its colour and the multiset of the clauses it is in (a clause: the multiset of its
        literals' colours) with its sign there.  ``rounds`` of it, or (None) until the number of
        colours stops growing; the colours and the rounds run."""
        ran, before = 0, len(np.unique(colours))
        while rounds is None or ran < rounds:
            lit = colours[self.var] * np.uint64(2) + self.neg
            clause = self.sums(_mix(lit, 1), self.starts)
            occ = _mix(clause[self.clause] * np.uint64(2) + self.neg, 2)
            nexts = _mix(colours, 3)
            np.add.at(nexts, self.var, occ)
            colours, ran = _mix(nexts, 4), ran + 1
            now = len(np.unique(colours))
            if rounds is None and now == before:
                break
            before = now
        return colours, ran

    def key(self, image: np.ndarray) -> list[np.ndarray]:
        """The clauses renamed by ``image``, exactly, in an order of their own: per clause length,
        each clause's literals sorted, the clauses sorted."""
        lits = np.where(self.lits < 0, -image[self.var], image[self.var])
        out = []
        for n in np.unique(self.lengths).tolist():
            rows = self.starts[self.lengths == n]
            block = np.sort(lits[rows[:, None] + np.arange(n)], axis=1)
            out.append(block[np.lexsort(block.T[::-1])] if n else block)
        return out


def turns(formula: Encoded) -> dict[int, np.ndarray] | None:
    """For each turn ``k`` of the board but none (:attr:`satedge.puzzle.Puzzle.board_turns`), the
    renaming of ``formula``'s variables that turns its models with the board: ``image[v]`` is
    ``v``'s image, and the renaming maps the formula's clauses onto exactly its clauses.  None
    where the board has no turn besides none, has clues, or the formula has no such renaming."""
    puzzle = formula.puzzle
    at = _placements(formula)
    ks = [k for k in puzzle.board_turns if k]
    if at is None or not ks or puzzle.clues:
        return None
    flat, nv = _Formula(formula.cnf.clauses, formula.nv), formula.nv
    seeds = [_seed(formula, k, at) for k in ks]
    if any(s is None for s in seeds):
        return None
    used = np.zeros(nv + 1, dtype=bool)
    used[flat.var] = True
    # the variables that read placements are told apart by their own number: those of the
    # formula as it is, and (per turn) those of the turned formula by their images' number
    seeded = np.zeros(nv + 1, dtype=np.uint64)
    first = seeds[0] or {}
    seeded[list(first)] = np.arange(1, len(first) + 1, dtype=np.uint64)
    mine, rounds = flat.refine(seeded)
    _, counts = np.unique(mine[used], return_counts=True)
    if (counts > 1).any():
        return None
    plain, out = flat.key(np.arange(nv + 1)), {}
    for k, seed in zip(ks, seeds):
        assert seed is not None
        theirs = np.zeros(nv + 1, dtype=np.uint64)
        theirs[[seed[v] for v in first]] = np.arange(1, len(first) + 1, dtype=np.uint64)
        theirs, _ = flat.refine(theirs, rounds)
        where = dict(zip(theirs[used].tolist(), np.flatnonzero(used).tolist()))
        image = np.arange(nv + 1)
        for v in np.flatnonzero(used).tolist():
            w = where.get(int(mine[v]))
            if w is None:
                return None
            image[v] = w
        if len(np.unique(image)) != nv + 1 or not all(map(np.array_equal, flat.key(image), plain)):
            return None
        out[k] = image
    return out


def cube(formula: Encoded) -> tuple[int, ...] | None:
    """The literals that keep, on ``formula`` (an encoding without symmetry breaking), what
    ``symmetry: rotation`` keeps of each board-turn orbit
    (:func:`satedge.puzzle.symmetry.symmetry_breaking`): the negations of the variables whose every
    placement it forbids.  None where no rule applies or a variable reads both a kept and a
    forbidden placement."""
    rule = symmetry_breaking(formula.puzzle)
    at = _placements(formula)
    if rule is None or at is None:
        return None
    tile, cells, keep = rule
    kept: dict[int, set[bool]] = {}
    for (c, t, r), (v, lits) in at.items():
        allowed = t != tile or (c in cells and r in keep)
        kept.setdefault(v, set()).add(allowed)
        for lit in lits:
            kept.setdefault(lit, set()).add(True)  # a turn's literal: other tiles read it too
    if any(len(x) > 1 for x in kept.values()):
        return None
    return tuple(sorted(-v for v, x in kept.items() if x == {False}))


def turned(lits: Any, image: np.ndarray) -> np.ndarray:
    """Literals (an array of DIMACS literals) renamed by ``image``; variables past it are kept."""
    lits = np.asarray(lits, dtype=np.int64)
    a = np.abs(lits)
    inside = a < len(image)
    out = np.where(inside, image[np.minimum(a, len(image) - 1)], a)
    return np.where(lits < 0, -out, out)
