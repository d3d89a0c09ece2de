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
and the processor.  From :data:`PROFILED_CELLS` cells on it is compiled a second time with the
branch profile of a short search of the puzzle at hand (GCC's profile-guided optimisation; the
gain is in the notes of ``experiments/bench-search.md``); where that fails (another compiler)
the first library serves.  The labels a placement needs are read, a byte each, from a table
beside the rotations (:func:`labels`), one load less on the way from a placement to its next
cell's candidates, and kept per cell on the stack for the cells that look back at it (the row
below, on a row scan) instead of being looked up again through its placement.  On boards of
more than :data:`MAX_NATIVE_CELLS` cells (whose code takes more than a few seconds to compile),
without a compiler or where it fails, :func:`kernel` returns ``None`` and the search runs
numba's loop instead.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import platform
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "MAX_NATIVE_CELLS",
    "FLAGS",
    "PROFILED_CELLS",
    "MAX_LABEL_ENTRIES",
    "TRAINING",
    "PROFILE_FLAGS",
    "source",
    "labels",
    "tile_words",
    "kernel",
    "compiler",
    "cache_folder",
]

MAX_NATIVE_CELLS = 100  # Owen's 8x8 compiles in about a second, Eternity II's 256 cells in about 15
FLAGS = ("-O2", "-march=native", "-shared", "-fPIC")
# boards from this many cells on are compiled again with the branch profile of a short search of
# TRAINING candidates (a tenth of a second or so)
PROFILED_CELLS = 36
MAX_LABEL_ENTRIES = 1 << 24  # the table of labels (4 bytes an entry) takes at most 64 MB
TRAINING = 1 << 23
PROFILE_FLAGS = ("-fprofile-use", "-Wno-missing-profile")
_DUMP = "extern void __gcov_dump(void);\nvoid satedge_dump(void) { __gcov_dump(); }\n"

_HEAD = """#include <stdint.h>
typedef int64_t i64;
typedef uint64_t u64;
#define DONE 0
#define FOUND 1
#define PAUSED 2
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
static inline uint32_t packed(const int64_t *need, int64_t o) {
  const int64_t *q = need + o * 4;
  return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}
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
    a function ``advance(need, shown, masks, turn, words, twin, lab, placed, word, bits, keys, used,
    depth, floor, last, budget, counts)`` with the meaning of
    :func:`satedge.backtrack.compiled.advance`'s (``lab``: :func:`labels`), a block of code per position."""
    n = len(t.ndeps)
    words = tile_words(t.n_tiles)
    one_word = words == 1
    used = "u0" if one_word else "used[{w} & TW]"
    flip = "u0 ^= (u64)1 << tt;" if one_word else "used[tt >> 6] ^= (u64)1 << (tt & 63);"
    packed = t.labels.size > 1  # the labels a placement needs, a byte per side in one word of :func:`labels`
    out = [
        _HEAD,
        f"#define TW {words - 1}\n#define NK {t.masks.shape[1]}\n#define NL {t.n_labels}\n"
        f"#define TURNS {t.masks.shape[0] * 64}\n",
        "i64 advance(const i64 *need, const i64 *shown, const u64 *masks, const unsigned char *turn, "
        "const i64 *words, const i64 *twin, const uint32_t *lab, i64 *placed, i64 *word, u64 *bits, i64 *keys, "
        "u64 *used, "
        "i64 *depth, i64 floor, i64 last, i64 budget, i64 *counts) {",
        "  i64 given = budget, nodes = 0, w, key, o = 0, tt, ret;",
        "  u64 m; uint32_t lw = 0;" + (" u64 u0 = used[0];" if one_word else ""),
        "  i64 i = depth[0];",
        *(
            [
                f"  uint32_t lp[{n + 1}];  /* the labels each placed cell needs, as lab has them */",
                "  for (i64 j = 0; j < i; j++) lp[j] = packed(need, placed[j]);",
                f"  lp[{n}] = packed(need, placed[{n}]);",
            ]
            if packed
            else []
        ),
        "  w = word[i]; m = bits[i]; key = keys[i];",
        "  switch (i) {",
        *(f"    case {i}: goto next_{i};" for i in range(n)),
        "    default: return DONE;",
        "  }",
    ]

    def needs(cell, side) -> str:  # the label placed cell ``cell`` needs on ``side``
        return f"((lp[{cell}] >> {8 * side}) & 255)" if packed else f"need[placed[{cell}] * 4 + {side}]"

    for i in range(n):
        if i > 0:
            left = (
                (f"((lw >> {8 * t.s0[i]}) & 255)" if packed else f"need[o * 4 + {t.s0[i]}]")
                if t.prev[i]
                else (needs(t.d0[i], t.s0[i]))
            )
            out += [
                f" enter_{i}:",
                f"  key = {t.kind[i]} + {left} * NL + {needs(t.d1[i], t.s1[i])};",
                f"  keys[{i}] = key; w = 0; m = masks[key] & ~{used.format(w=0)};",
            ]
        back = (
            f"if (unlikely({i} <= floor)) {{ i = {i}; w = 0; ret = DONE; goto out; }} goto back_{i - 1};"
            if i
            else ("i = 0; w = 0; ret = DONE; goto out;")
        )
        out += [
            f" next_{i}:",
            f"  while (m == 0) {{ if (likely(++w >= words[key])) {{ {back} }} "
            f"m = masks[w * NK + key] & ~{used.format(w='w')}; }}",
            f"  if (unlikely(budget == 0)) {{ i = {i}; ret = PAUSED; goto out; }}",
            "  { int b = __builtin_ctzll(m); m &= m - 1; tt = (w & TW) * 64 + b;",
        ]
        if t.twin is not None:  # a copy of an identical tile only once the copy before it is placed
            test = "(u0 >> p) & 1" if one_word else "(used[p >> 6] >> (p & 63)) & 1"
            out += [f"    {{ i64 p = twin[tt]; if (p >= 0 && !({test})) goto next_{i}; }}"]
        out += [
            "    budget--; i64 at = key * TURNS + w * 64 + b; o = tt * 4 + turn[at];"
            + (" lw = lab[at];" if packed else "")
            + " }"
        ]
        for q in range(2, int(t.ndeps[i])):  # further neighbours (a torus): checked one by one
            out += [
                f"  if (shown[o * 4 + {t.own_side[i, q]}] != {needs(t.dep_cell[i, q], t.dep_side[i, q])}) "
                f"goto next_{i};"
            ]
        out += [
            f"  placed[{i}] = o;" + (f" lp[{i}] = lw;" if packed else "") + " nodes++;",
            f"  if (unlikely(last == {i})) {{ i = {i}; ret = FOUND; goto out; }}",
            f"  {flip} word[{i}] = w; bits[{i}] = m;",
        ]
        if i + 1 < n:
            out += [
                f"  goto enter_{i + 1};",
                f" back_{i}:",
                f"  tt = placed[{i}] >> 2; {flip}",
                f"  w = word[{i}]; m = bits[{i}]; key = keys[{i}]; goto next_{i};",
            ]
        else:
            out += ["  i = last; ret = DONE; goto out;  /* not reached: last < n */"]
    out += [
        " out:",
        "  depth[0] = i; word[i] = ret == DONE ? 0 : w; bits[i] = ret == DONE ? 0 : m;"
        + (" used[0] = u0;" if one_word else ""),
        "  counts[0] += given - budget; counts[1] += nodes;",
        "  return ret;",
        "}",
    ]
    return "\n".join(out) + "\n"


def tile_words(n_tiles: int) -> int:
    """Words of 64 bits for a bit per tile, rounded up to a power of two (as the tables have them)."""
    return 1 << max(0, (n_tiles - 1) // 64).bit_length()


def labels(t) -> np.ndarray:
    """Per entry of the rotation table ``t.turn`` (a key, a layer, a tile), the labels its
    placement needs on sides 0 to 3, a byte each (side ``s`` in bits ``8 s`` on): the loop reads
    the label its next cell asks for from the entry it took, not through the placement.  Zeros
    where labels do not fit a byte, or where the table would pass :data:`MAX_LABEL_ENTRIES` or
    the C loop does not run: the loop reads ``need`` instead."""
    if t.n_labels > 256 or len(t.ndeps) > MAX_NATIVE_CELLS or t.turn.size > MAX_LABEL_ENTRIES:
        return np.zeros(1, np.uint32)
    slot = np.arange(t.turn.shape[1])
    tiles = (slot // 64 % tile_words(t.n_tiles)) * 64 + slot % 64
    placements = np.minimum(tiles * 4 + t.turn, 4 * t.n_tiles)  # past the last tile: no entry, labels 0
    need = t.need.reshape(-1, 4)[placements]
    return (need.astype(np.uint32) << (8 * np.arange(4, dtype=np.uint32))).sum(axis=-1, dtype=np.uint32)


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


def _compiled(text: str, train: Callable[[Path], bool] | None = None) -> Path | None:
    """The shared library of ``text``, compiled once and kept in :func:`cache_folder`; ``None``
    where no compiler is found or it fails (tried once per process, not again for each subtree).
    With ``train`` (which runs a search on a library that records its branches), the library is
    compiled a second time with that profile (:func:`_profiled`)."""
    cc = compiler()
    if cc is None:
        return None
    lib = _built(cc, cache_folder(), text)
    lib = lib if lib is None or lib.is_file() else _built.__wrapped__(cc, cache_folder(), text)
    return lib if lib is None or train is None else _profiled(cc, lib, text, train)


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


@cache
def _built(cc: str, folder: Path, text: str) -> Path | None:
    lib = folder / f"search-{_digest(cc, *FLAGS, _processor(), text)}.so"
    if lib.is_file():
        return lib
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            built = _compile(cc, Path(tmp), text, FLAGS)
            if built is None:
                return None
            os.replace(built, lib)  # whole or not at all, whoever else compiles it at the same time
    except (OSError, subprocess.SubprocessError):
        return None
    return lib


def _compile(cc: str, folder: Path, text: str, flags: tuple[str, ...]) -> Path | None:
    """``folder/search.so`` compiled from ``text`` (as ``folder/search.c``) with ``flags``; ``None``
    where the compiler fails."""
    c, built = folder / "search.c", folder / "search.so"
    c.write_text(text)
    r = subprocess.run([cc, *flags, "-o", str(built), str(c)], capture_output=True, timeout=600)
    return built if r.returncode == 0 and built.is_file() else None


def _profiled(cc: str, plain: Path, text: str, train: Callable[[Path], bool]) -> Path:
    """The library of ``text`` compiled with the branch profile of a short search (GCC's
    ``-fprofile-generate``, the search ``train`` runs on it, then ``-fprofile-use``), kept beside
    ``plain`` (the library compiled without it).  Where a step fails (another compiler, a
    search that ends in error), the plain library is kept under the profiled one's name, so that
    it is not tried again."""
    lib = plain.with_name(f"search-{_digest(cc, *FLAGS, *PROFILE_FLAGS, _processor(), text)}.so")
    if lib.is_file():
        return lib
    try:
        with tempfile.TemporaryDirectory(dir=plain.parent) as tmp:
            folder = Path(tmp)
            recording = _compile(
                cc, folder, text + _DUMP, (*FLAGS, "-fprofile-generate", "-fprofile-update=single")
            )
            if recording is not None and train(recording) and list(folder.glob("*.gcda")):
                built = _compile(cc, folder, text, (*FLAGS, *PROFILE_FLAGS))
            else:
                built = None
            if built is None:
                built = folder / "plain.so"
                shutil.copyfile(plain, built)
            os.replace(built, lib)
    except (OSError, subprocess.SubprocessError):
        return plain
    return lib


def _training(args: list, start: int, last: int) -> Callable[[Path], bool]:
    """A search of :data:`TRAINING` candidates from the present state (``args``: the tables' and
    the state's addresses), on a library that records its branches, in a forked process (the
    state stays as it is here); whether it ended well and wrote its profile."""

    def train(lib: Path) -> bool:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                so = ctypes.CDLL(str(lib))
                so.advance.restype = ctypes.c_int64
                counts = np.zeros(2, np.int64)
                while counts[0] < TRAINING and so.advance(
                    *args,
                    ctypes.c_int64(start),
                    ctypes.c_int64(last),
                    ctypes.c_int64(TRAINING),
                    ctypes.c_void_p(counts.ctypes.data),
                ):
                    pass
                so.satedge_dump()
                code = 0
            finally:
                os._exit(code)
        try:
            _, status = os.waitpid(pid, 0)
        except BaseException:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            raise
        return os.waitstatus_to_exitcode(status) == 0

    return train


def kernel(t, placed, word, bits, keys, used, depth, counts) -> Callable[[int, int, int], int] | None:
    """The compiled search over ``t`` bound to its state arrays (those of
    :func:`satedge.backtrack.compiled.advance`): a function ``(floor, last, budget) -> outcome``
    that advances as ``advance`` does; ``None`` where it is not compiled here."""
    n = len(t.ndeps)
    if n > MAX_NATIVE_CELLS:
        return None
    twin = t.twin if t.twin is not None else np.zeros(1, np.int64)
    keep = [np.ascontiguousarray(a) for a in (t.need, t.shown, t.masks, t.turn, t.words, twin, t.labels)]
    keep += [placed, word, bits, keys, used, depth]  # the state, written in place
    head = [ctypes.c_void_p(a.ctypes.data) for a in keep]
    train = _training(head, int(depth[0]), n - 1) if n >= PROFILED_CELLS else None
    lib = _compiled(source(t), train)
    if lib is None:
        return None
    fn = _library(str(lib)).advance
    fn.restype = ctypes.c_int64
    tail = ctypes.c_void_p(counts.ctypes.data)

    def advance(floor: int, last: int, budget: int) -> int:
        return fn(*head, ctypes.c_int64(floor), ctypes.c_int64(last), ctypes.c_int64(budget), tail)

    advance.arrays = (keep, counts)  # alive as long as the function is
    return advance
