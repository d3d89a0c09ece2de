"""What the backtracker's compiled kernels share: the outcome of a kernel's call (:class:`Step`)
and the one way a kernel is compiled with numba (:func:`numba_kernel`).

A kernel is a plain Python function over numpy arrays (the search loop's ``advance``, the branch
and bound's ``step``, the annealing of the neighbourhood search): it runs as it is, slowly, in
tests, and compiled, as a copy, wherever speed matters.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from enum import IntEnum

from ..system.extras import require

__all__ = ["Step", "numba_kernel", "compiled_for"]


class Step(IntEnum):
    """How a kernel's call ended: its search is over (``DONE``), it found what it looks for (a
    solution, a better board: ``FOUND``), or it used its budget of candidates (``PAUSED``) and
    goes on where it stopped when called again.  The C search loop gets them as its defines."""

    DONE = 0
    FOUND = 1
    PAUSED = 2


def numba_kernel(fn: Callable, **names: object) -> Callable:
    """A copy of ``fn`` compiled by numba (numba keeps the machine code on disk), with ``names``
    in place of the globals of the same names (an intrinsic for a helper written in Python);
    ``fn`` itself stays plain Python."""
    numba = require("numba")
    kernel = types.FunctionType(fn.__code__, {**fn.__globals__, **names}, fn.__name__)
    kernel.__module__, kernel.__qualname__ = fn.__module__, fn.__qualname__
    return numba.njit(cache=True)(kernel)


def compiled_for(kernel: Callable, args: list) -> None:
    """``kernel`` (:func:`numba_kernel`'s) compiled, or loaded from numba's cache, for the types of
    ``args`` now, not at its first call: so that what that takes is the compile's time, not the
    search's."""
    numba = require("numba")
    getattr(kernel, "compile")(tuple(numba.typeof(a) for a in args))
