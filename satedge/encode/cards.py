"""Exactly one, and at most one, of some literals: the clauses (PySAT's card encodings) and their
sizes, counted without building them where they have a closed form."""

from __future__ import annotations

from functools import cache

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from .core import Size, clauses_size

__all__ = ["LINEAR", "COUNTED", "card_floor", "card_size", "exactly_one", "at_most_one"]

# PySAT's at-most-one encodings of n >= 3 literals whose size has a closed form: (auxiliary
# variables, clauses, literals)
LINEAR = {
    "seqcounter": lambda n: (n - 1, 3 * n - 4, 6 * n - 8),
    "ladder": lambda n: (n + 1, 4 * n, 9 * n - 1),
    "kmtotalizer": lambda n: (2 * n - 2, 4 * n - 4, 10 * n - 10),
    "bitwise": lambda n: ((n - 1).bit_length(), n * (n - 1).bit_length(), 2 * n * (n - 1).bit_length()),
}
COUNTED = 4096  # up to this many literals, the other encodings' sizes are counted from PySAT's clauses


def card_floor(n: int, card: str, exactly: bool = True) -> Size:
    """A low bound on :func:`card_size`, at once whatever ``n``: the exact size where it has a
    closed form or ``n`` is at most :data:`COUNTED`, else at least ``n - 1`` binary clauses (every
    at-most-one encoding has a clause per literal but one: a test checks it)."""
    if n <= COUNTED or card == "pairwise" or card in LINEAR:
        return card_size(n, card, exactly)
    return Size(0, n - 1, 2 * (n - 1)) + (Size(0, 1, n) if exactly else Size())


@cache
def card_size(n: int, card: str, exactly: bool = True) -> Size:
    """Auxiliary variables, clauses and literals of :func:`exactly_one` (``exactly``) or
    :func:`at_most_one` over ``n`` literals with the card encoding ``card``.

    >>> card_size(5, "pairwise"), card_size(5, "seqcounter")
    (Size(variables=0, clauses=11, literals=25), Size(variables=4, clauses=12, literals=27))
    >>> card_size(1, "ladder", exactly=False)
    Size(variables=0, clauses=0, literals=0)
    """
    if n <= 1:
        return Size(0, 1, n) if exactly else Size()
    one = Size(0, 1, n) if exactly else Size()  # at least one: a clause of every literal
    if card == "pairwise":  # closed form: PySAT would build n^2/2 clauses to be counted
        pairs = n * (n - 1) // 2
        return Size(0, pairs, 2 * pairs) + one
    if n >= 3 and card in LINEAR:  # closed forms of PySAT's (a test compares them): a large cell at once
        return Size(*LINEAR[card](n)) + one
    pool = IDPool(start_from=n + 1)
    make = CardEnc.equals if exactly else CardEnc.atmost
    enc = make(lits=list(range(1, n + 1)), bound=1, vpool=pool, encoding=getattr(EncType, card))
    return Size(pool.top - n, 0, 0) + clauses_size(enc.clauses)


def exactly_one(lits: list[int], pool: IDPool, card: str) -> list[list[int]]:
    """Clauses for "exactly one of ``lits``" (an empty list: the empty clause)."""
    if len(lits) <= 1:
        return [list(lits)]
    return CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=getattr(EncType, card)).clauses


def at_most_one(lits: list[int], pool: IDPool, card: str) -> list[list[int]]:
    if len(lits) <= 1:
        return []
    return CardEnc.atmost(lits=lits, bound=1, vpool=pool, encoding=getattr(EncType, card)).clauses
