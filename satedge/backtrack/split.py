"""The backtracker's tree shared among worker processes.

:func:`cut` cuts the tree at a depth where it has many subtrees; the workers of
:func:`parallel_search` search them (:func:`explore`), first to last as they come free.  Once
none is left and a worker waits, a busy one hands back the rest of its subtree split into
branches (:func:`branches`: the candidates still to try at each cell below its root), so that the
workers end together.  Every solution is found exactly once, though not in the sequential order.
A Dask cluster's tasks run :func:`explore` too, handing back what is left when their time is up
(:func:`satedge.backtrack.subtrees`).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Generator
from typing import Any

import numpy as np

from ..system.proctree import forked_map
from ..system.progress import REPORT_SECONDS
from . import native
from .arrays import Tables, budgeted
from .kernels import Step
from .loop import CALL_BUDGET, COMPILING, State, at_root, place, run

__all__ = ["SUBTREES_PER_WORKER", "Branch", "branches", "cut", "explore", "parallel_search"]

# cut the tree where it has at least this many subtrees per worker
SUBTREES_PER_WORKER = 256

Branch = tuple  # (prefix, word, bits): a part of the tree, see :func:`branches`


def branches(t: Tables, state: State, floor: int) -> list[Branch]:
    """What is left of a search paused below position ``floor``, as branches that split it
    without overlap: for each position ``j`` from ``floor`` to the one it paused at, the
    candidates of ``j`` not yet tried below the placements of the cells before it, as
    ``(prefix, word, bits)`` (:func:`~satedge.backtrack.loop.run` goes on from one with
    ``start=(word, bits)``); with misfits, ``(prefix, word, bits, phase)``, and the phases after
    it are left too."""
    out: list[Branch] = []
    misfits = budgeted(t)
    for j in range(floor, int(state.depth[0]) + 1):
        w, m, key = int(state.word[j]), int(state.bits[j]), int(state.keys[j])
        if misfits:
            if m or w + 1 < t.words[key] or key < 2 * t.nkp:
                out.append((state.placed[:j].tolist(), w, m, key // t.nkp))
        elif m or w + 1 < t.words[key]:
            out.append((state.placed[:j].tolist(), w, m))
    return out


def cut(
    t: Tables,
    workers: int,
    counts: np.ndarray | None = None,
    allow: Any = None,
    loop: str = "auto",
    ran: Callable[[str, float], None] | None = None,
    subtrees: int | None = None,
) -> tuple[int, list[list[int]]]:
    """The shallowest depth at which the tree has at least ``subtrees`` (default
    ``SUBTREES_PER_WORKER * workers``) subtrees (or the last cell), and the placements of the
    cells above it; ``counts`` gains the
    candidates and nodes of the tree above that depth (with the subtrees', the whole tree's);
    ``allow``, ``loop`` and ``ran`` as :func:`~satedge.backtrack.loop.run` has them."""
    n = len(t.ndeps)
    d, above = 0, np.zeros(2, np.int64)
    prefixes: list[list[int]] = [[]]
    wanted = SUBTREES_PER_WORKER * workers if subtrees is None else subtrees
    while d < n - 1 and 0 < len(prefixes) < wanted:
        d += 1
        above = np.zeros(2, np.int64)
        prefixes = list(run(t, [], d - 1, counts=above, allow=allow, loop=loop, ran=ran))
    if counts is not None:
        counts += above
    return d, prefixes


def explore(
    t: Tables,
    state: State,
    share: list[Branch],
    limit: int | None = None,
    hand_back: Callable[[], bool] = lambda: False,
    parent: int | None = None,
    budget: int | None = None,
    pending: Any = None,
) -> tuple[list[list[int]], list[Branch]]:
    """The solutions (up to ``limit``) in the branches of ``share`` (prefixes from :func:`cut`,
    or :func:`branches` triples), searched one after another on ``state``
    (:func:`~satedge.backtrack.loop.at_root`; its loop counts what they cost).  At each pause
    (every ``budget`` candidates) where ``hand_back()`` says so, and after each branch, it stops
    and gives back what is left, the rest of the branch at hand split (:func:`branches`) before
    the branches not begun; with the solutions found so far.  It gives up when ``parent`` is no
    longer this process's parent.  ``pending`` (an array of one, in memory another process
    reads): how many solutions it holds and has not given back yet, 0 once it gives them back,
    so that a reader that adds those it was given never counts one twice."""
    try:
        return _explore(t, state, share, limit, hand_back, parent, budget, pending)
    finally:
        if pending is not None:
            pending[0] = 0


def _explore(
    t: Tables,
    state: State,
    share: list[Branch],
    limit: int | None,
    hand_back: Callable[[], bool],
    parent: int | None,
    budget: int | None,
    pending: Any,
) -> tuple[list[list[int]], list[Branch]]:
    found: list[list[int]] = []
    last = len(t.ndeps) - 1
    budget = CALL_BUDGET if budget is None else budget
    for k, branch in enumerate(share):
        prefix, start = (branch, None) if isinstance(branch, list) else (branch[0], branch[1:])
        if len(prefix) > last:
            found.append(list(prefix))
            continue
        place(t, state, prefix, start)
        while (outcome := state.step(len(prefix), last, budget)) != Step.DONE:
            if outcome == Step.FOUND:
                found.append(state.placed[: last + 1].tolist())
                if pending is not None:
                    pending[0] = len(found)
                if limit is not None and len(found) >= limit:
                    return found, []
            elif parent is not None and os.getppid() != parent:
                os._exit(0)  # nobody is left to take the answer
            elif hand_back():
                rest = branches(t, state, len(prefix)) + share[k + 1 :]
                if len(rest) > 1:  # one branch only: going deeper gives more to share
                    return found, rest
        if k + 1 < len(share) and hand_back():
            return found, share[k + 1 :]
    return found, []


def parallel_search(
    t: Tables,
    workers: int,
    limit: int | None = None,
    counts: np.ndarray | None = None,
    paused: Callable[..., None] | None = None,
    budget: int | None = None,
    allow: Any = None,
    loop: str = "auto",
    ran: Callable[[str, float], None] | None = None,
    pending: Any = None,
) -> Generator[list[int], None, None]:
    """Placements of every solution (at most ``limit``), searched by ``workers`` processes; each
    solution once, in no fixed order.  The processes stop when the iterator is closed.
    ``counts`` follows the candidates and nodes of the whole search as the workers go (each
    counts into a share of memory of its own), and ``pending`` (an array of one) the solutions
    the workers have found and not handed over yet; ``paused`` is called every half second of
    waiting.  The tree is cut into subtrees (:func:`cut`) that the workers take as they come free;
    when none is left and a worker waits, a busy one splits what is left of its own subtree at
    its next pause (``budget`` candidates: :func:`explore`).  ``allow``, ``loop`` and ``ran`` as
    :func:`~satedge.backtrack.loop.run` has them."""
    counts = np.zeros(2, np.int64) if counts is None else counts
    n = len(t.ndeps)
    above = np.zeros(2, np.int64)
    if paused is not None and loop in ("auto", "c") and native.compiles(t):
        paused(COMPILING)
    _, prefixes = cut(t, workers, above, allow, loop, ran)
    counts += above
    if len(prefixes) <= 1:
        for prefix in prefixes:
            yield from run(t, prefix, n - 1, counts=counts, paused=paused, allow=allow, loop=loop, ran=ran)
        return
    parent, ctx = os.getpid(), multiprocessing.get_context("fork")
    shared, taken = ctx.RawArray("q", 2 * workers), ctx.Value("i", 0)
    hungry = ctx.RawValue("i", 0)  # set while a worker waits with no subtree left to take
    slots = np.frombuffer(shared, dtype=np.int64).reshape(workers, 2)
    held = np.frombuffer(
        ctx.RawArray("q", workers), dtype=np.int64
    )  # each worker's solutions not handed over
    start = counts.copy()

    def worker() -> Callable[[tuple], Any]:
        with taken.get_lock():
            k, taken.value = taken.value, taken.value + 1
        state = at_root(
            t, slots[k], allow, loop=loop
        )  # the loop bound once: each subtree sets the state again
        # a subtree, handed back split (:func:`explore`) while another worker waits for work
        return lambda task: explore(
            t, state, [task[0]], task[1], lambda: hungry.value, parent, task[2], held[k : k + 1]
        )

    def tally() -> None:  # the workers' counts and their solutions not handed over, as they stand
        counts[:] = start + slots.sum(axis=0)
        if pending is not None:
            pending[0] = held.sum()

    def follow() -> None:
        tally()
        if paused is not None:
            paused()

    def waiting(idle: int) -> None:
        hungry.value = int(idle > 0)

    results = forked_map(
        worker,
        [(prefix, limit, budget) for prefix in prefixes],
        workers,
        idle=follow,
        more=lambda got: [(branch, limit, budget) for branch in got[1]],
        waiting=waiting,
    )
    reported = time.monotonic()
    try:
        for found, _ in results:
            tally()
            # work handed back comes often while a worker waits: the progress is told all the same
            if paused is not None and time.monotonic() - reported >= REPORT_SECONDS:
                reported = time.monotonic()
                paused()
            yield from found
        counts[:] = start + slots.sum(axis=0)
    finally:
        results.close()
