"""Integers of any size as text and in JSON: a count of a board of identical tiles has
thousands of digits."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["digits", "many", "json_dumps"]

_DIGITS = 4000  # decimal digits Python converts an int to text in one step (its limit is 4,300)


def digits(n: int) -> str:
    """``n`` in decimal, whatever its size: Python refuses to convert an int of more than 4,300
    digits in one step (a guard for parsing input), so a large one goes in pieces.

    >>> d = digits(3 ** 20000)
    >>> len(d), d[:10], d[-5:]
    (9543, '2661303427', '00001')
    """
    if -(10**_DIGITS) < n < 10**_DIGITS:
        return str(n)
    if n < 0:
        return "-" + digits(-n)
    high, low = divmod(n, 10**_DIGITS)
    return digits(high) + str(low).zfill(_DIGITS)


def many(n: int, thing: str) -> str:
    """'1 solution', '2 solutions': a count (of any size) and its noun, in the plural unless it is one."""
    return f"{digits(n)} {thing}{'s' * (n != 1)}"


def json_dumps(value: Any, **kwargs: Any) -> str:
    """:func:`json.dumps`, with integers of any size (a count of a board of identical tiles
    has thousands of digits) written in full."""
    big: list[int] = []

    def mark(v: Any) -> Any:
        if isinstance(v, int) and not isinstance(v, bool) and not -(10**_DIGITS) < v < 10**_DIGITS:
            big.append(v)
            return f"\x00{len(big) - 1}\x00"
        if isinstance(v, dict):
            return {k: mark(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [mark(x) for x in v]
        return v

    text = json.dumps(mark(value), **kwargs)
    for i, n in enumerate(big):
        text = text.replace(f'"\\u0000{i}\\u0000"', digits(n), 1)
    return text
