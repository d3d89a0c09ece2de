"""The backtracker's loop as C code written for one cell order and compiled at run time.

:func:`satedge.backtrack.compiled.advance` reads per position which neighbours to look at,
which sides, which kind of cell and whether further neighbours need a check; here each position
gets a block of code with those as constants, and the search jumps from block to block.  The
tables (masks, rotations, labels) stay data, so one compiled search serves every puzzle of the
same shape, order and sizes.  It takes the same arguments and keeps the same state as
:func:`~satedge.backtrack.compiled.advance`, so it finds the same solutions in the same order,
with the same counts of candidates and placements, and places about twice as many tiles a
second (``experiments/bench-search.md``).

The C compiler is the one ``$CC`` names (empty: none), else ``cc``, looked up when a search
first asks for it; the code is compiled for this processor (``-march=native``) and kept in
``$SATEDGE_CACHE`` (default ``~/.cache/satedge``) under the hash of its source, the compiler
and the processor.  On boards of more than :data:`MAX_NATIVE_CELLS` cells (whose code takes
more than a few seconds to compile), without a compiler or where it fails, :func:`kernel`
returns ``None`` and the search runs numba's loop instead.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

__all__ = ["MAX_NATIVE_CELLS", "FLAGS", "source", "kernel", "compiler", "cache_folder"]

MAX_NATIVE_CELLS = 100  # Owen's 8x8 compiles in about a second, Eternity II's 256 cells in about 15
FLAGS = ("-O2", "-march=native", "-shared", "-fPIC")

_HEAD = """#include <stdint.h>
typedef int64_t i64;
typedef uint64_t u64;
#define DONE 0
#define FOUND 1
#define PAUSED 2
"""


def compiler() -> str | None:
    """The C compiler: ``$CC`` (empty: none), else ``cc`` on PATH; ``None`` when there is none."""
    named = os.environ.get("CC", "cc")
    return shutil.which(named) if named.strip() else None


def cache_folder() -> Path:
    """Where compiled searches are kept: ``$SATEDGE_CACHE``, else ``$XDG_CACHE_HOME/satedge`` or
    ``~/.cache/satedge``."""
    if os.environ.get("SATEDGE_CACHE"):
        return Path(os.environ["SATEDGE_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "satedge"


def source(t) -> str:
    """The C source of the search over the tables ``t`` (:class:`satedge.backtrack.compiled.Tables`):
    a function ``advance(need, shown, masks, turn, words, twin, placed, word, bits, keys, used,
    depth, floor, last, budget, counts)`` with the meaning of
    :func:`satedge.backtrack.compiled.advance`'s, a block of code per position."""
    n = len(t.ndeps)
    tile_words = 1 << max(0, (t.n_tiles - 1) // 64).bit_length()
    one_word = tile_words == 1
    used = "u0" if one_word else "used[{w} & TW]"
    flip = "u0 ^= (u64)1 << tt;" if one_word else "used[tt >> 6] ^= (u64)1 << (tt & 63);"
    out = [_HEAD, f"#define TW {tile_words - 1}\n#define NK {t.masks.shape[1]}\n#define NL {t.n_labels}\n"
           f"#define TURNS {t.masks.shape[0] * 64}\n",
           "i64 advance(const i64 *need, const i64 *shown, const u64 *masks, const unsigned char *turn, "
           "const i64 *words, const i64 *twin, i64 *placed, i64 *word, u64 *bits, i64 *keys, u64 *used, "
           "i64 *depth, i64 floor, i64 last, i64 budget, i64 *counts) {",
           "  i64 given = budget, nodes = 0, w, key, o = 0, tt, ret;",
           "  u64 m;" + (" u64 u0 = used[0];" if one_word else ""),
           "  i64 i = depth[0];",
           "  w = word[i]; m = bits[i]; key = keys[i];",
           "  switch (i) {", *(f"    case {i}: goto next_{i};" for i in range(n)), "    default: return DONE;", "  }"]
    for i in range(n):
        if i > 0:
            left = "o" if t.prev[i] else f"placed[{t.d0[i]}]"
            out += [f" enter_{i}:",
                    f"  key = {t.kind[i]} + need[{left} * 4 + {t.s0[i]}] * NL + need[placed[{t.d1[i]}] * 4 + {t.s1[i]}];",
                    f"  keys[{i}] = key; w = 0; m = masks[key] & ~{used.format(w=0)};"]
        back = f"if ({i} <= floor) {{ i = {i}; w = 0; ret = DONE; goto out; }} goto back_{i - 1};" if i else (
            "i = 0; w = 0; ret = DONE; goto out;")
        out += [f" next_{i}:",
                f"  while (m == 0) {{ if (++w >= words[key]) {{ {back} }} m = masks[w * NK + key] & ~{used.format(w='w')}; }}",
                f"  if (budget == 0) {{ i = {i}; ret = PAUSED; goto out; }}",
                "  { int b = __builtin_ctzll(m); m &= m - 1; tt = (w & TW) * 64 + b;"]
        if t.twin is not None:  # a copy of an identical tile only once the copy before it is placed
            test = "(u0 >> p) & 1" if one_word else "(used[p >> 6] >> (p & 63)) & 1"
            out += [f"    {{ i64 p = twin[tt]; if (p >= 0 && !({test})) goto next_{i}; }}"]
        out += ["    budget--; o = tt * 4 + turn[key * TURNS + w * 64 + b]; }"]
        for q in range(2, int(t.ndeps[i])):  # further neighbours (a torus): checked one by one
            out += [f"  if (shown[o * 4 + {t.own_side[i, q]}] != need[placed[{t.dep_cell[i, q]}] * 4 + "
                    f"{t.dep_side[i, q]}]) goto next_{i};"]
        out += [f"  placed[{i}] = o; nodes++;",
                f"  if (last == {i}) {{ i = {i}; ret = FOUND; goto out; }}",
                f"  {flip} word[{i}] = w; bits[{i}] = m;"]
        if i + 1 < n:
            out += [f"  goto enter_{i + 1};",
                    f" back_{i}:",
                    f"  tt = placed[{i}] >> 2; {flip}",
                    f"  w = word[{i}]; m = bits[{i}]; key = keys[{i}]; goto next_{i};"]
        else:
            out += ["  i = last; ret = DONE; goto out;  /* not reached: last < n */"]
    out += [" out:",
            "  depth[0] = i; word[i] = ret == DONE ? 0 : w; bits[i] = ret == DONE ? 0 : m;"
            + (" used[0] = u0;" if one_word else ""),
            "  counts[0] += given - budget; counts[1] += nodes;",
            "  return ret;", "}"]
    return "\n".join(out) + "\n"


@cache
def _library(path: str) -> Any:
    return ctypes.CDLL(path)


def _processor() -> str:
    """What the machine code is compiled for: the processor's model and flags where Linux tells."""
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.machine() + platform.processor()
    return "\n".join(sorted({line for line in info.splitlines() if line.startswith(("model name", "flags"))}))


def _compiled(text: str) -> Path | None:
    """The shared library of ``text``, compiled once and kept in :func:`cache_folder`; ``None``
    where no compiler is found or it fails (tried once per process, not again for each subtree)."""
    cc = compiler()
    if cc is None:
        return None
    lib = _built(cc, cache_folder(), text)
    return lib if lib is None or lib.is_file() else _built.__wrapped__(cc, cache_folder(), text)


@cache
def _built(cc: str, folder: Path, text: str) -> Path | None:
    digest = hashlib.sha256("\0".join((cc, *FLAGS, _processor(), text)).encode()).hexdigest()[:24]
    lib = folder / f"search-{digest}.so"
    if lib.is_file():
        return lib
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            c = Path(tmp) / "search.c"
            c.write_text(text)
            built = Path(tmp) / "search.so"
            r = subprocess.run([cc, *FLAGS, "-o", str(built), str(c)], capture_output=True, timeout=600)
            if r.returncode != 0 or not built.is_file():
                return None
            os.replace(built, lib)  # whole or not at all, whoever else compiles it at the same time
    except (OSError, subprocess.SubprocessError):
        return None
    return lib


def kernel(t, placed, word, bits, keys, used, depth, counts) -> Callable[[int, int, int], int] | None:
    """The compiled search over ``t`` bound to its state arrays (those of
    :func:`satedge.backtrack.compiled.advance`): a function ``(floor, last, budget) -> outcome``
    that advances as ``advance`` does; ``None`` where it is not compiled here."""
    if len(t.ndeps) > MAX_NATIVE_CELLS:
        return None
    lib = _compiled(source(t))
    if lib is None:
        return None
    fn = _library(str(lib)).advance
    fn.restype = ctypes.c_int64
    twin = t.twin if t.twin is not None else np.zeros(1, np.int64)
    keep = [np.ascontiguousarray(a) for a in (t.need, t.shown, t.masks, t.turn, t.words, twin)]
    keep += [placed, word, bits, keys, used, depth]  # the state, written in place
    head = [ctypes.c_void_p(a.ctypes.data) for a in keep]
    tail = ctypes.c_void_p(counts.ctypes.data)

    def advance(floor: int, last: int, budget: int) -> int:
        return fn(*head, ctypes.c_int64(floor), ctypes.c_int64(last), ctypes.c_int64(budget), tail)

    advance.arrays = (keep, counts)  # alive as long as the function is
    return advance
