"""The backtracker's loop in C (``search.c``, shipped beside this module), compiled at run time
for one cell order.

:func:`satedge.backtrack.advance.advance` reads per position which neighbours to look at,
which sides, which kind of cell and whether further neighbours need a check; ``search.c`` gives
each position a block of code with those as constants, and the search jumps from block to
block.  Python writes only what varies by puzzle (:func:`header`): a ``board.h`` of the sizes
and one line per position.  The tables (masks, rotations, labels) stay data, so one compiled
search serves every puzzle of the same shape, order and sizes.  It takes the same arguments and
keeps the same state as :func:`~satedge.backtrack.advance.advance`, so it finds the same
solutions in the same order, with the same counts of candidates and placements, and places about
twice as many tiles a second (``benchmarks/search/bench-search.md``).

The C compiler is the one ``$CC`` names (empty: none), else ``cc``, looked up when a search
first asks for it; the code is compiled for this processor (``-march=native``) and kept in
``$SATEDGE_CACHE`` (default ``~/.cache/satedge``) under the hash of its source, the compiler
and the processor.  From :data:`PROFILED_CELLS` cells on it is compiled a second time with the
branch profile of a short search of the puzzle at hand (GCC's profile-guided optimisation; the
gain is in the notes of ``benchmarks/search/bench-search.md``); where that fails (another compiler)
the first library serves.  The C loop reads its own copy of the candidates (:func:`entries`): a
key's words of tiles side by side, and on large tables only the entries there are, so that the
caches hold them.  The labels a placement needs are read, a byte each, from a table beside the
rotations, one load less on the way from a placement to its next cell's candidates, and kept per
cell on the stack for the cells that look back at it (the row below, on a row scan) instead of
being looked up again through its placement.  On boards of
more than :data:`OPTIMISED_CELLS` cells the code is compiled at ``-O1`` (:data:`LARGE_FLAGS`)
and without a profile, as ``-O2`` takes minutes there; on boards of more than
:data:`MAX_NATIVE_CELLS` cells, without a compiler or where it fails, :func:`kernel` returns
``None`` and the search runs numba's loop instead.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SatedgeError
from ..system.files import cache_folder, quoted
from ..system.limits import seconds_left
from ..system.machine import cpu_lines
from ..system.proctree import sweep
from .kernels import Step

__all__ = [
    "MAX_NATIVE_CELLS",
    "FLAGS",
    "OPTIMISED_CELLS",
    "LARGE_FLAGS",
    "PROFILED_CELLS",
    "MAX_LABEL_ENTRIES",
    "TRAINING",
    "PROFILE_FLAGS",
    "RECORD_FLAGS",
    "SEARCH_C",
    "header",
    "entries",
    "COMPACT_SLOTS",
    "tile_words",
    "kernel",
    "unavailable",
    "ARGUMENTS",
    "STATE",
    "compiler",
    "described",
    "compiles",
    "COMPILE_SECONDS",
    "COMPILE_SHARE",
    "compile_seconds",
]

MAX_NATIVE_CELLS = 400
FLAGS = ("-O2", "-march=native", "-shared", "-fPIC")
# boards of more cells are compiled with LARGE_FLAGS, without a profile: the loop of Eternity II's 256
# cells with the field's quota and breaks took 3.6 s to bind on an empty cache at -O1, 16.0 s at -O2
# (1.00 to 1.02 times as fast) and 58.2 s at -O2 with its profile (1.02 to 1.03 times as fast); the
# flags study of benchmarks/maximize/bench-maximize.md
OPTIMISED_CELLS = 100
LARGE_FLAGS = ("-O1", "-march=native", "-shared", "-fPIC")
# boards from this many cells on are compiled again with the branch profile of a short search of
# TRAINING candidates (a tenth of a second or so)
PROFILED_CELLS = 36
MAX_LABEL_ENTRIES = 1 << 24  # the table of labels (4 bytes an entry) takes at most 64 MB
# the C loop takes compact entries (entries()) where the tables have more slots than this
# (the restarts' tables of Owen's 8x8, 1.01 million slots, are as fast with their slots; those of the 9x9,
# 2.76 million, and the field's of Eternity II, 18.96 million, faster with their entries: the tables study
# of benchmarks/maximize/bench-maximize.md)
COMPACT_SLOTS = 1 << 20
TRAINING = 1 << 23
PROFILE_FLAGS = ("-fprofile-use", "-Wno-missing-profile")
SEARCH_C = Path(__file__).with_name("search.c")  # the loop; it includes the board.h of header()
# the library that records its branches: it defines satedge_dump(), which writes its profile
RECORD_FLAGS = ("-DSATEDGE_PROFILE", "-fprofile-generate", "-fprofile-update=single")
# the most a compile may take before the numba loop answers instead (one takes 1 to 12 s, the
# most on a busy machine for Eternity II's 256 cells; $SATEDGE_COMPILE_SECONDS sets another), and
# at most this part of the time the job has left (its --timeout)
COMPILE_SECONDS = 15
COMPILE_BOUND = "SATEDGE_COMPILE_SECONDS"
COMPILE_SHARE = 0.5
MAX_EXTRA = 2  # further earlier neighbours a position checks one by one (a torus), beside its first two


def compiler() -> str | None:
    """The C compiler: ``$CC`` (empty: none), else ``cc`` on PATH; ``None`` when there is none
    (looked up once per ``$CC`` and ``$PATH`` in a process, as each binding of the loop asks)."""
    named = os.environ.get("CC", "cc")
    return _which(named, os.environ.get("PATH")) if named.strip() else None


@cache
def _which(named: str, path: str | None) -> str | None:
    return shutil.which(named, path=path)


def described() -> str | None:
    """The C compiler's path and the first line of its ``--version`` (``/usr/bin/cc cc (Debian
    12.2.0-14) 12.2.0``), as a results row's environment names it; ``None`` without one."""
    cc = compiler()
    if cc is None:
        return None
    return f"{cc} {_version(cc)}".strip()


@cache
def _version(cc: str) -> str:
    try:
        out = subprocess.run(
            [cc, "--version"], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.splitlines()[0].strip() if out.strip() else ""


def header(t: Any, deepest: bool = False, quota: bool = False) -> str:
    """The ``board.h`` that ``search.c`` includes for the tables ``t``
    (:class:`satedge.backtrack.arrays.Tables`): the sizes, whether the labels fit a byte
    (``PACKED``: :func:`entries`) and whether there are identical tiles, the outcome codes, and one
    line per position (its neighbours, kind and further checks; ``search.c`` says what each
    column means); ``deepest``: the loop keeps the deepest placements (``DEEPEST``); ``quota``: it
    keeps a quota of labels (``QUOTA``)."""
    n = len(t.ndeps)
    rows = []
    for i in range(n):
        extra = [
            (int(t.own_side[i, q]), int(t.dep_cell[i, q]), int(t.dep_side[i, q]))
            for q in range(2, t.ndeps[i])
        ]
        if len(extra) > MAX_EXTRA:
            raise ValueError(
                f"position {i} has {len(extra)} further neighbours; the C loop checks {MAX_EXTRA}"
            )
        checks = [x for check in extra + [(0, 0, 0)] * (MAX_EXTRA - len(extra)) for x in check]
        columns = [i, i - 1 if i else "none", i + 1 if i + 1 < n else "end", int(t.kind[i]), int(t.prev[i])]
        columns += [int(t.d0[i]), int(t.s0[i]), int(t.d1[i]), int(t.s1[i]), len(extra), *checks]
        rows.append("  X(" + ", ".join(map(str, columns)) + ")")
    sizes = {
        "N": n,
        "TW": tile_words(t.n_tiles) - 1,
        "NK": t.masks.shape[1],
        "NL": t.n_labels,
        "MW": t.masks.shape[0],
        "TURNS": t.turn.shape[1],
        "COMPACT": int(t.cstart.size > 0),
        "PACKED": int(t.clabels.size > 0),
        "TWINS": int(t.twin is not None),
        "BUDGETED": int(t.masks.shape[1] > t.nkp),
        "DEEPEST": int(deepest),
        "QUOTA": int(quota),
        "NKP": t.nkp,
        **{step.name: int(step) for step in Step},
    }
    lines = ["/* written by satedge.backtrack.native.header for one cell order and puzzle shape */"]
    lines += [f"#define {name} {value}" for name, value in sizes.items()]
    lines += ["/* X(P, BEFORE, AFTER, KIND, PREV, D0, S0, D1, S1, EXTRA, O2, C2, S2, O3, C3, S3) */"]
    lines += ["#define CELLS(X) \\"] + [row + " \\" for row in rows[:-1]] + rows[-1:]
    return "\n".join(lines) + "\n"


def tile_words(n_tiles: int) -> int:
    """Words of 64 bits for a bit per tile, rounded up to a power of two (as the tables have them)."""
    return 1 << max(0, (n_tiles - 1) // 64).bit_length()


def entries(t: Any, compact: bool | None = None) -> dict[str, Any]:
    """The C loop's own copy of the candidates of ``t``: per key its words of tiles side by side
    (``cmasks``, key by key, where ``t.masks`` has them word by word), each entry's rotation
    (``cturn``) and the labels its placement needs on sides 0 to 3, a byte each, side ``s`` in bits
    ``8 s`` on (``clabels``; empty where labels do not fit a byte or the table would pass
    :data:`MAX_LABEL_ENTRIES`: the loop reads ``need`` through the placement instead).

    The entries are a slot per key and tile as ``t.turn`` has them (``cstart`` empty), or
    ``compact`` (default: where the slots pass :data:`COMPACT_SLOTS`) only those there are, key by
    key, word by word and tile by tile, ``cstart[key * words + w]`` the first of word ``w``'s: the
    entry of bit ``b`` is that plus the word's bits below ``b``.  On Eternity II the field's tables
    have 86,061 entries in 19 million slots, which no cache holds."""
    masks = np.ascontiguousarray(t.masks.T)  # key by key
    if compact is None:
        compact = t.turn.size > COMPACT_SLOTS
    if not compact:
        turn, start = t.turn.ravel(), np.zeros(0, np.int64)
        # an entry's tile follows from its slot: (slot // 64 % words) * 64 + slot % 64, which is
        # slot % (64 * words); in 32 bits, as the table has at most MAX_LABEL_ENTRIES entries
        tiles = np.arange(turn.size, dtype=np.int32) % np.int32(64 * tile_words(t.n_tiles))
    else:
        nk, mw = masks.shape
        ones = np.array([bin(x).count("1") for x in range(256)], np.int64)  # the bits set in a byte
        counts = ones[masks.view(np.uint8)].reshape(nk * mw, 8).sum(axis=1)
        start = np.cumsum(counts) - counts
        key, w = np.nonzero(counts.reshape(nk, mw))
        bits = np.unpackbits(masks[key, w].view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")
        row, b = np.nonzero(bits)  # row by row (key, word), then bit: the entries' order
        key, w = key[row], w[row]
        slot = (key * t.turn.shape[1] if t.base is None else t.base[key]) + w * 64 + b
        turn = t.turn.ravel()[slot]
        tiles = (w % tile_words(t.n_tiles)) * 64 + b
    if t.n_labels > 256 or len(t.ndeps) > MAX_NATIVE_CELLS or turn.size > MAX_LABEL_ENTRIES:
        labels = np.zeros(0, np.uint32)
    else:
        placements = np.minimum(tiles * 4 + turn, 4 * t.n_tiles)  # no entry: past the last tile, labels 0
        need = t.need.reshape(-1, 4).astype(np.uint32) << (8 * np.arange(4, dtype=np.uint32))
        labels = need.sum(axis=-1, dtype=np.uint32)[placements]
    return {"cmasks": masks, "cstart": start, "cturn": turn, "clabels": labels}


@cache
def _library(path: str) -> Any:
    return ctypes.CDLL(path)


def _processor() -> str:
    """What the machine code is compiled for: the processor's model and flags where Linux tells."""
    return "\n".join(cpu_lines())


def _compiled(head: str, flags: tuple[str, ...], train: Callable[[Path], bool] | None = None) -> Path | None:
    """The shared library of ``search.c`` with the ``board.h`` ``head``, compiled once and kept
    in :func:`cache_folder`; ``None`` where no compiler is found or it fails (tried once per
    process, not again for each subtree).  With ``train`` (which runs a search on a library that
    records its branches), the library is compiled a second time with that profile
    (:func:`_profiled`)."""
    cc = compiler()
    if cc is None:
        return None
    lib = _built(cc, cache_folder(), head, flags)
    lib = lib if lib is None or _kept(lib) else _built.__wrapped__(cc, cache_folder(), head, flags)
    return lib if lib is None or train is None else _profiled(cc, lib, head, train)


def _name(cc: str, flags: tuple[str, ...], head: str) -> str:
    """The cache's name of the library of ``search.c`` and ``head`` compiled by ``cc`` with
    ``flags`` for this processor."""
    return f"search-{_digest(cc, *flags, _processor(), SEARCH_C.read_text(), head)}.so"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


@cache
def _built(cc: str, folder: Path, head: str, flags: tuple[str, ...]) -> Path | None:
    lib = folder / _name(cc, flags, head)
    if _kept(lib):
        return lib
    try:
        folder.mkdir(parents=True, exist_ok=True)
        sweep(folder, "build-")  # those of compiles whose process is gone (killed by a time limit)
        with tempfile.TemporaryDirectory(dir=folder, prefix=f"build-{os.getpid()}-") as tmp:
            built = _compile(cc, Path(tmp), head, flags)
            if built is None:
                return None
            _keep(built, lib)
    except (OSError, subprocess.SubprocessError):
        return None
    return lib


def _kept(lib: Path) -> bool:
    """Whether ``lib`` is a library this module kept whole: its bytes are those its ``.sha256``
    says (one overwritten or cut short in the cache is compiled again, never loaded: a file cut
    short would kill the process that maps it with SIGBUS)."""
    try:
        st = lib.stat()
    except OSError:
        return False
    return _whole(str(lib), st.st_mtime_ns, st.st_size)


@cache
def _whole(path: str, mtime_ns: int, size: int) -> bool:  # once per version of the file
    try:
        return Path(path + ".sha256").read_text() == hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return False


def _keep(built: Path, lib: Path) -> None:
    """``built`` kept as ``lib`` if it loads as a library with the search in it (a compiler that
    exits 0 may have written something else), with its digest beside it; each file replaced
    whole, whoever else compiles it at the same time."""
    try:
        ctypes.CDLL(str(built)).advance
    except (OSError, AttributeError):
        raise OSError(f"{built} is not a library of the search") from None
    digest = built.with_name(built.name + ".sha256")
    digest.write_text(hashlib.sha256(built.read_bytes()).hexdigest())
    os.replace(built, lib)
    os.replace(digest, lib.with_name(lib.name + ".sha256"))


def compile_seconds() -> float:
    """How long a compile may take: :data:`COMPILE_SECONDS` (or the seconds
    ``$SATEDGE_COMPILE_SECONDS`` gives), and no more than :data:`COMPILE_SHARE` of what the job has
    left before its ``--timeout``, so that the numba loop still has time to answer where the
    compiler hangs."""
    given = os.environ.get(COMPILE_BOUND, "").strip()
    try:
        bound = float(given) if given else COMPILE_SECONDS
    except ValueError:
        bound = -1.0
    if not 0 < bound < float("inf"):
        raise SatedgeError(f"{COMPILE_BOUND} must be a number of seconds above 0, not {quoted(given, 20)}")
    left = seconds_left()
    return bound if left is None else max(0.5, min(bound, COMPILE_SHARE * left))


def _compile(cc: str, folder: Path, head: str, flags: tuple[str, ...]) -> Path | None:
    """``folder/search.so`` compiled from ``search.c`` and ``head`` (as ``folder/board.h``) with
    ``flags``; ``None`` where the compiler fails or takes more than :func:`compile_seconds`
    (it is stopped, with every process it started, and the numba loop answers instead).  The
    compiler's own temporary files go to ``folder`` too, so that one stopped midway leaves none
    in the user's temporary folder."""
    c, built = folder / "search.c", folder / "search.so"
    shutil.copyfile(SEARCH_C, c)
    (folder / "board.h").write_text(head)
    proc = subprocess.Popen(
        [cc, *flags, "-o", str(built), str(c)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "TMPDIR": str(folder)},
    )
    try:
        code = proc.wait(timeout=compile_seconds())
    except BaseException as e:  # its time is up, or this process is stopped: the compiler goes too
        os.killpg(proc.pid, 9)
        proc.wait()
        if isinstance(e, subprocess.TimeoutExpired):
            return None
        raise
    return built if code == 0 and built.is_file() else None


def _profiled(cc: str, plain: Path, head: str, train: Callable[[Path], bool]) -> Path:
    """The library of ``search.c`` and ``head`` compiled with the branch profile of a short search
    (GCC's ``-fprofile-generate``, the search ``train`` runs on it, then ``-fprofile-use``), kept
    beside ``plain`` (the library compiled without it).  Where a step fails (another compiler, a
    search that ends in error), the plain library is kept under the profiled one's name, so that
    it is not tried again."""
    lib = plain.with_name(_name(cc, (*FLAGS, *PROFILE_FLAGS), head))
    if _kept(lib):
        return lib
    try:
        with tempfile.TemporaryDirectory(dir=plain.parent, prefix=f"build-{os.getpid()}-") as tmp:
            folder = Path(tmp)
            recording = _compile(cc, folder, head, (*FLAGS, *RECORD_FLAGS))
            if recording is not None and train(recording) and list(folder.glob("*.gcda")):
                built = _compile(cc, folder, head, (*FLAGS, *PROFILE_FLAGS))
            else:
                built = None
            if built is None:
                built = folder / "plain.so"
                shutil.copyfile(plain, built)
            _keep(built, lib)
    except (OSError, subprocess.SubprocessError):
        return plain
    return lib


def _training(args: list, start: int, last: int, allow: Any) -> Callable[[Path], bool]:
    """A search of :data:`TRAINING` candidates from the present state (``args``: the tables' and
    the state's addresses), on a library that records its branches, in a forked process (the
    state stays as it is here); whether it ended well and wrote its profile.  It allows no
    misfit (``allow``, the state's, set to 0 in the fork): with many, nearly every candidate of
    the last cell would be a board, a call each."""

    def train(lib: Path) -> bool:
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                allow[:] = 0
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


def compiles(t: Any, deepest: bool = False) -> bool:
    """Whether binding the search over ``t`` (:func:`kernel`) compiles it first: a compiler is
    found and the library (or its profiled twin) is not kept yet; a few seconds, which the
    progress line names."""
    n = len(t.ndeps)
    cc = compiler()
    if cc is None or n > MAX_NATIVE_CELLS:
        return False
    head, flags = header(t, deepest), FLAGS if n <= OPTIMISED_CELLS else LARGE_FLAGS
    libs = [_name(cc, flags, head)]
    if PROFILED_CELLS <= n <= OPTIMISED_CELLS:
        libs.append(_name(cc, (*FLAGS, *PROFILE_FLAGS), head))
    return not all(_kept(cache_folder() / lib) for lib in libs)


# the C loop's parameters (search.c's advance), each the tables' or the state's array of that name
ARGUMENTS = ("need", "shown", "cmasks", "cstart", "cturn", "clabels", "base", "words", "twin")
STATE = (
    "allow",
    "qsides",
    "quota",
    "placed",
    "word",
    "bits",
    "keys",
    "used",
    "spent",
    "qsum",
    "best",
    "depth",
)


def unavailable(t: Any) -> str:
    """Why the C loop does not run over ``t`` here (:func:`kernel` gives ``None``)."""
    if len(t.ndeps) > MAX_NATIVE_CELLS:
        return f"it takes boards of at most {MAX_NATIVE_CELLS} cells, and this one has {len(t.ndeps)}"
    if compiler() is None:
        named = os.environ.get("CC", "cc")
        return "$CC is empty" if not named.strip() else f"no C compiler {named!r} on PATH ($CC names another)"
    return f"{compiler()} did not build it within {compile_seconds():g} s"


def kernel(t: Any, state: Any, counts: np.ndarray) -> Callable[[int, int, int], int] | None:
    """The C loop over the tables ``t`` bound to ``state`` (:class:`satedge.backtrack.loop.State`),
    each array taken by its name: a function ``(floor, last, budget) -> outcome`` that advances as
    :func:`satedge.backtrack.advance.advance` does; ``None`` where it is not built here
    (:func:`unavailable` says why)."""
    n = len(t.ndeps)
    if n > MAX_NATIVE_CELLS:
        return None
    deepest, quota = state.best is not None, state.quota is not None
    given = {name: getattr(t, name) for name in ARGUMENTS} | {name: getattr(state, name) for name in STATE}
    blank = np.zeros(1, np.int64)  # in place of twin, base, best and the quota's where there are none
    keep = [np.ascontiguousarray(given[name]) if given[name] is not None else blank for name in ARGUMENTS]
    keep += [given[name] if given[name] is not None else blank for name in STATE]  # written in place
    head = [ctypes.c_void_p(a.ctypes.data) for a in keep]
    allow, depth = state.allow, state.depth
    train = _training(head, int(depth[0]), n - 1, allow) if PROFILED_CELLS <= n <= OPTIMISED_CELLS else None
    lib = _compiled(header(t, deepest, quota), FLAGS if n <= OPTIMISED_CELLS else LARGE_FLAGS, train)
    if lib is None:
        return None
    try:
        fn = _library(str(lib)).advance
    except (OSError, AttributeError):  # changed since it was checked: the numba loop answers
        return None
    fn.restype = ctypes.c_int64
    tail = ctypes.c_void_p(counts.ctypes.data)

    def advance(floor: int, last: int, budget: int) -> int:
        return fn(*head, ctypes.c_int64(floor), ctypes.c_int64(last), ctypes.c_int64(budget), tail)

    advance.__dict__["arrays"] = (keep, counts)  # alive as long as the function is
    return advance
