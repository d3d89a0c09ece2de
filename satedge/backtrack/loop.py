"""The search loop's driver: a search's state (:class:`State`), set at the root or below a prefix
(:func:`at_root`, :func:`place`), stepped by one of the loops (:data:`LOOPS`) through one contract
(:func:`arguments`: each array by its name), and run to its solutions (:func:`run`).

The loops are one algorithm, :func:`satedge.backtrack.advance.advance`: ``python`` runs it as it is
(slowly: tests and checks), ``numba`` compiled by numba, ``c`` as the C loop written for the cell
order (:mod:`satedge.backtrack.native`); ``auto`` takes the C loop where a C compiler builds it and
numba's otherwise.  They find the same placements in the same order at the same cost in candidates
and placements (``tests/test_loops.py``); the loop that ran is in :attr:`State.loop`, and from there
in each result and results row.  :mod:`.split` shares the tree among worker processes.
"""

from __future__ import annotations

import inspect
import os
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..errors import SatedgeError
from ..system.progress import REPORT_SECONDS
from . import native
from .advance import advance, compiled_advance
from .arrays import Tables, budgeted
from .kernels import Step, compiled_for

__all__ = [
    "LOOPS",
    "check_loop",
    "CALL_BUDGET",
    "COMPILING",
    "State",
    "Quota",
    "arguments",
    "at_root",
    "place",
    "misses",
    "stepper",
    "run",
    "search",
]

# the loops that run the search, and auto's choice among them
LOOPS = ("auto", "python", "numba", "c")
# candidates tried per call of a loop: a tenth of a second or so compiled, so that Ctrl-C is seen
# between calls and the workers' shares of the counts follow the search closely
CALL_BUDGET = 1 << 22
COMPILING = (
    "compiling the C loop, once per board shape, cell order and label count"  # a progress report's stage
)


@dataclass(frozen=True, eq=False)
class State:
    """A search's state arrays, each named as the loops' parameters name it, and the loop bound to
    them.  With the tables of misfits, ``allow`` (the most misfits per depth, which may be set again
    between searches), ``spent`` (the misfits so far per depth) and ``best`` (the deepest
    placements, or None where they are not kept).  With a quota (:class:`Quota`; None: none),
    ``qsides`` (per tile, its sides of the quota's labels), ``quota`` (the least such sides per
    depth) and ``qsum`` (those so far per depth).  ``step(floor, last, budget)`` runs the loop;
    ``loop`` names it (``python``, ``numba`` or ``c``)."""

    placed: Any
    word: Any
    bits: Any
    keys: Any
    used: Any
    depth: Any
    allow: Any
    spent: Any
    best: Any
    qsides: Any = None
    quota: Any = None
    qsum: Any = None
    step: Callable[[int, int, int], int] = field(default=lambda floor, last, budget: _unbound())
    loop: str = ""


@dataclass(frozen=True)
class Quota:
    """A quota of labels for the search: ``sides[t]``, the sides of tile ``t`` (in the tables'
    numbering) whose label is one of the quota's, and ``least[i]``, the least number of such sides
    the placements of positions ``0..i`` must show (non-decreasing is not required)."""

    sides: Any
    least: Any


def check_loop(loop: str) -> None:
    """A one-line error where ``loop`` is not one of :data:`LOOPS`."""
    if loop not in LOOPS:
        raise SatedgeError(f"unknown loop {loop!r}; choose from {', '.join(LOOPS)}")


def _unbound() -> int:
    raise RuntimeError("no loop is bound to this state: make it with at_root")


# what a call gives the loop beside the tables and the state
_CALL = ("floor", "last", "budget", "counts")


def arguments(names: Sequence[str], t: Tables, state: State) -> list:
    """The arrays a loop takes, in the order of its parameters ``names``: each from the tables
    ``t`` or the state, by its name.  The state's ``allow`` is passed as None where ``t`` has no
    misfits (numba compiles their code away)."""
    out = []
    for name in names:
        if name == "allow":
            out.append(state.allow if budgeted(t) else None)
        elif hasattr(t, name):
            out.append(getattr(t, name))
        else:
            out.append(getattr(state, name))
    return out


_ADVANCE = tuple(inspect.signature(advance).parameters)
_BOUND = _ADVANCE[: -len(_CALL)]  # the tables' and the state's, bound once per state


def at_root(
    t: Tables,
    counts: np.ndarray | None = None,
    allow: Any = None,
    deepest: bool = False,
    loop: str = "auto",
    quota: Quota | None = None,
) -> State:
    """The search's state arrays, set at the root, with the loop that steps them (``counts``
    gains what it costs; ``allow`` the most misfits per depth, default none; ``deepest``: keep
    the deepest placements in ``best``; ``loop``: one of :data:`LOOPS`; ``quota``: the least
    sides of some labels per depth, :class:`Quota`, default none): :func:`place` sets them
    again for another subtree, so that a worker binds the loop once for all its subtrees."""
    n = len(t.ndeps)
    placed = np.zeros(n + 1, np.int64)
    placed[n] = 4 * t.n_tiles  # the neighbour of cells with fewer than two: its labels are 0
    limit = np.zeros(n, np.int64) if allow is None else np.array(allow, np.int64)
    if len(limit) != n or np.any(np.diff(limit) < 0) or np.any(limit < 0):
        raise ValueError(f"allow is {n} non-decreasing numbers of misfits, at least 0")
    if (deepest or (allow is not None and np.any(limit))) and not budgeted(t):
        raise ValueError("misfits need the tables of misfits (tables(..., misfits=True))")
    state = State(
        placed=placed,
        word=np.zeros(n, np.int64),
        bits=np.zeros(n, np.uint64),
        keys=np.zeros(n, np.int64),
        used=np.zeros(native.tile_words(t.n_tiles), np.uint64),
        depth=np.zeros(1, np.int64),
        allow=limit,
        spent=np.zeros(n + 1, np.int64),
        best=np.zeros(n + 2, np.int64) if deepest else None,
        qsides=None if quota is None else np.array(quota.sides, np.int64),
        quota=None if quota is None else np.array(quota.least, np.int64),
        qsum=None if quota is None else np.zeros(n + 1, np.int64),
    )
    if quota is not None and (len(state.quota) != n or len(state.qsides) != t.n_tiles):
        raise ValueError(f"a quota is {n} numbers of sides and one number per tile ({t.n_tiles})")
    place(t, state, [], None)  # the C loop trains its branch profile from here
    step, name = stepper(t, state, np.zeros(2, np.int64) if counts is None else counts, loop)
    return replace(state, step=step, loop=name)


def run(
    t: Tables,
    prefix: list[int],
    last: int,
    parent: int | None = None,
    counts: np.ndarray | None = None,
    paused: Callable[..., None] | None = None,
    start: tuple[int, ...] | None = None,
    allow: Any = None,
    loop: str = "auto",
    ran: Callable[[str, float], None] | None = None,
) -> Generator[list[int], None, None]:
    """Placements of cells ``0..last`` that extend ``prefix`` (the placements of the first
    cells), lazily, in the search order; with ``parent``, it stops early once the process with
    that id is no longer this one's parent.  ``counts`` (two int64s) gains the candidates tried and
    the nodes placed; ``paused`` is called about every
    :data:`satedge.system.progress.REPORT_SECONDS`, whether or not it finds (and with
    :data:`COMPILING` before a loop is compiled).  ``start``: the ``(word, bits)`` of the next
    cell's candidates left to try, and with misfits their phase (a branch of
    :func:`satedge.backtrack.split.branches`), instead of all of them.  ``allow``: with the
    tables of misfits, the most misfits per depth (:func:`satedge.backtrack.advance.advance`; default
    none); ``loop``: which loop runs it (:data:`LOOPS`), and ``ran`` is told the name of the one
    that does, once it is bound, and the seconds binding it took (its compile, or its load from
    the cache: none of the search's)."""
    if len(prefix) > last:
        yield list(prefix)
        return
    if paused is not None and loop in ("auto", "c") and native.compiles(t):
        paused(COMPILING)  # the few seconds before the first placement: the progress line says why
    bound = time.perf_counter()
    state = at_root(t, counts, allow, loop=loop)
    if ran is not None:  # the loop that runs, and the seconds its compile (or its load) took
        ran(state.loop, time.perf_counter() - bound)
    place(t, state, prefix, start)
    reported = time.monotonic()
    while True:
        outcome = state.step(len(prefix), last, CALL_BUDGET)
        if outcome == Step.DONE:
            return
        if outcome == Step.FOUND:
            yield state.placed[: last + 1].tolist()
        elif parent is not None and os.getppid() != parent:
            return
        if paused is not None and time.monotonic() - reported >= REPORT_SECONDS:  # found or not
            reported = time.monotonic()
            paused()


def misses(t: Tables, placed: Any, i: int, o: int) -> int:
    """The misfits of placement ``o`` at position ``i`` with its earlier neighbours in ``placed``."""
    return sum(
        int(t.shown[o * 4 + t.own_side[i, q]] != t.need[placed[t.dep_cell[i, q]] * 4 + t.dep_side[i, q]])
        for q in range(t.ndeps[i])
    )


def place(t: Tables, state: State, prefix: list[int], start: tuple[int, ...] | None) -> None:
    """``state`` set to go on below ``prefix`` (``start`` as :func:`run` has it)."""
    floor = len(prefix)
    placed, used = state.placed, state.used
    used[:] = 0
    for i, o in enumerate(prefix):
        placed[i] = o
        used[o >> 8] |= np.uint64(1) << np.uint64((o >> 2) & 63)
        state.spent[i + 1] = state.spent[i] + (misses(t, placed, i, o) if budgeted(t) else 0)
        if state.qsum is not None:
            state.qsum[i + 1] = state.qsum[i] + state.qsides[o >> 2]
    key = int(
        t.kind[floor]
        + t.need[placed[t.d0[floor]] * 4 + t.s0[floor]] * t.n_labels
        + t.need[placed[t.d1[floor]] * 4 + t.s1[floor]]
    )
    if start is None:
        state.word[floor], state.bits[floor] = 0, t.masks[0, key] & ~used[0]
    else:
        key += t.nkp * (start[2] if len(start) > 2 else 0)
        state.word[floor], state.bits[floor] = start[0], np.uint64(start[1])
    state.keys[floor], state.depth[0] = key, floor


def stepper(
    t: Tables, state: State, counts: np.ndarray, loop: str = "auto"
) -> tuple[Callable[[int, int, int], int], str]:
    """The loop ``loop`` (:data:`LOOPS`) over ``t`` and ``state``, as ``(floor, last, budget) ->
    outcome``, and the name of the loop it is (``auto``: the C loop where it is built here, else
    numba's).  ``counts`` gains what it costs.  A loop asked for by name that cannot run here is an
    error that says why."""
    check_loop(loop)
    if loop in ("auto", "c"):
        built = native.kernel(t, state, counts)
        if built is not None:
            return built, "c"
        if loop == "c":
            raise SatedgeError(f"the C loop does not run here: {native.unavailable(t)}")
    kernel: Callable[..., int] = advance if loop == "python" else compiled_advance()
    bound = arguments(_BOUND, t, state)
    if loop != "python":
        compiled_for(kernel, [*bound, 0, 0, 0, counts])

    def step(floor: int, last: int, budget: int) -> int:
        return kernel(*bound, floor, last, budget, counts)

    return step, "python" if loop == "python" else "numba"


def search(
    t: Tables,
    counts: np.ndarray | None = None,
    paused: Callable[[], None] | None = None,
    loop: str = "auto",
    ran: Callable[[str, float], None] | None = None,
) -> Generator[list[int], None, None]:
    """Placements (``tile * 4 + rotation`` per cell, row-major) of every solution, lazily
    (``counts``, ``paused``, ``loop`` and ``ran`` as :func:`run` has them)."""
    return run(t, [], len(t.ndeps) - 1, counts=counts, paused=paused, loop=loop, ran=ran)
