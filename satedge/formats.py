"""Readers and writers: canonical YAML, ``.puz`` (+ ``.clue``), ``.sol``, JSON solutions and
the ``tile_dict.yaml`` layout of the Scramble Squares seed.

Every reader raises :class:`SatedgeError` naming the file and the problem, and reads only
regular files of at most :data:`MAX_INPUT_BYTES` (a device, a FIFO or a huge file is refused
before anything is read); YAML aliases and nesting are bounded.  Every writer of satedge goes
through :func:`atomic_output`, so a failed write never leaves half a file behind, and an output
that is a symlink, a device or a FIFO is written through, never replaced.
"""

from __future__ import annotations

import json
import os
import reprlib
import secrets
import stat
import unicodedata
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import yaml

from .errors import SatedgeError, cannot_write
from .puzzle import SIDES, Clue, Puzzle, Solution

PUZZLE_KEYS = {"name", "rows", "cols", "matching", "frame", "topology", "edge_order", "tiles", "clues", "planted"}
CLOCKWISE = list(SIDES)


MAX_INPUT_BYTES = 64 * 2**20  # puzzles, specs, presets, solutions: Eternity II's YAML is 10 kB
MAX_YAML_NODES = 1_000_000  # values, aliases expanded: Eternity II's YAML has 1,300
MAX_YAML_DEPTH = 64
MAX_NAME = 200  # characters of a puzzle's name


# ---------------------------------------------------------------------------- text helpers
def one_line(text: str) -> str:
    """``text`` with its control characters (line breaks among them) escaped, so that it stays on
    one line of a comment, a header or a table.

    >>> one_line("a\\nb\\tc\\x1b[31m")
    'a\\\\nb\\\\tc\\\\x1b[31m'
    """
    out = []
    for c in text:
        if unicodedata.category(c) in ("Cc", "Zl", "Zp"):
            out.append({"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c) or
                       (f"\\x{ord(c):02x}" if ord(c) < 256 else f"\\u{ord(c):04x}"))
        else:
            out.append(c)
    return "".join(out)


def shown(value: Any, width: int = 40) -> str:
    """A value as an error message echoes it: its repr, on one line, cut to ``width`` characters
    (however large the value: a list of millions is not written out first).

    >>> shown("x" * 100), shown(list(range(10**6)))
    ("'xxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxx'", '[0, 1, 2, 3, 4, 5, ...]')
    """
    short = reprlib.Repr()
    short.maxstring = short.maxother = width
    short.maxlist = short.maxdict = short.maxtuple = short.maxset = 6
    text = one_line(short.repr(value))
    return text if len(text) <= width else text[:width - 3] + "..."


def quoted(text: str, width: int) -> str:
    """Text an error message echoes (a token of a file, a command-line word): quoted, at most
    ``width`` characters of it.

    >>> quoted("12x", 30), quoted("1" * 40, 5)
    ("'12x'", "'11111...'")
    """
    return repr(text if len(text) <= width else text[:width] + "...")


# ---------------------------------------------------------------------------- writing helpers
def _output_target(path: Path) -> Path | None:
    """Where to write ``path`` atomically: the file a symlink points to, or ``path`` itself;
    ``None`` for a character device or a FIFO (``/dev/null``, ``/dev/stdout``), written through."""
    try:
        mode = os.stat(path).st_mode  # follows symlinks
    except FileNotFoundError:
        return Path(os.path.realpath(path)) if os.path.islink(path) else path  # a dangling link: its target
    except OSError:
        return path  # the write says why
    if stat.S_ISREG(mode):
        return Path(os.path.realpath(path))
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return None
    what = "a folder" if stat.S_ISDIR(mode) else "not a regular file, a character device or a FIFO"
    raise SatedgeError(f"cannot write: it is {what}", path)


@contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """A path to write ``path``'s content to.  For a regular file (or none yet): a fresh temporary
    path beside it (same suffix), renamed to it when the block ends and removed if it fails; a
    symlink is written through to the file it points to, never replaced by a file.  For a
    character device or a FIFO: the path itself, written through.  A write the file system
    refuses (a missing folder, a full disk or ``/dev/full``) becomes a one-line error naming
    ``path``.  The file gets the usual permissions."""
    path = Path(path)
    target = _output_target(path)
    if target is None:
        try:
            yield path
        except OSError as e:
            raise cannot_write(e, path) from None
        return
    tmp = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp{target.suffix}")
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as e:
        raise cannot_write(e, path) from None
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(path: str | os.PathLike, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through :func:`atomic_output`."""
    with atomic_output(path) as tmp:
        if isinstance(data, bytes):
            tmp.write_bytes(data)
        else:
            tmp.write_text(data, encoding="utf-8")


def check_input(path: str | Path, limit: int = MAX_INPUT_BYTES) -> int:
    """The size of an input file; a missing file, one that is not a regular file (a device, a
    FIFO, a folder) or one of more than ``limit`` bytes is a one-line error, before it is read."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise SatedgeError("no such file", path) from None
    except OSError as e:
        raise SatedgeError(f"cannot read: {e.strerror or e}", path) from None
    if not stat.S_ISREG(st.st_mode):
        what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise SatedgeError(f"cannot read: it is {what}", path)
    if st.st_size > limit:
        raise SatedgeError(f"cannot read: {st.st_size:,} bytes, more than the {limit:,} an input file may have", path)
    return st.st_size


def _read_text(path: str | Path) -> str:
    check_input(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SatedgeError("no such file", path) from None
    except (OSError, UnicodeDecodeError) as e:
        raise SatedgeError(f"cannot read: {e.strerror if isinstance(e, OSError) else 'not UTF-8 text'}", path) from None


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with nesting and the expanded document bounded: a few hundred bytes of
    aliases can stand for billions of nodes, and deep nesting ends in a RecursionError.  Each node
    weighs one plus its children, an alias what the node it names weighs."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self._weight: dict[int, int] = {}

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.YAMLError(f"nested more than {MAX_YAML_DEPTH} deep")
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if id(node) not in self._weight:  # an alias returns the node it names, weighed already
            if isinstance(node, yaml.MappingNode):
                children = [n for pair in node.value for n in pair]
            else:
                children = node.value if isinstance(node, yaml.SequenceNode) else []
            weight = 1 + sum(self._weight.get(id(n), 1) for n in children)
            if weight > MAX_YAML_NODES:
                raise yaml.YAMLError(f"more than {MAX_YAML_NODES:,} values once its aliases are expanded")
            self._weight[id(node)] = weight
        return node


def read_yaml(path: str | Path) -> Any:
    """The YAML document in ``path``; a missing, unreadable or malformed file is a one-line error."""
    text = _read_text(path)
    try:
        return yaml.load(text, Loader=_BoundedLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]  # a reader's error has no problem, two lines
        raise SatedgeError(f"not valid YAML{where}: {one_line(problem)[:200]}", path) from None
    except ValueError as e:  # an integer of thousands of digits
        raise SatedgeError(f"not valid YAML: {one_line(str(e))[:200]}", path) from None


# ---------------------------------------------------------------------------- puzzles
def load_puzzle(path: str | os.PathLike) -> Puzzle:
    """Read a puzzle from canonical YAML, ``.puz``, Heule's ``.txt`` or a ``tile_dict.yaml``."""
    path = Path(path)
    try:
        if path.suffix == ".puz":
            return _parse_puz(_read_text(path), path)
        if path.suffix == ".txt":
            return _parse_heule(_read_text(path), path)
        data = read_yaml(path)
        if isinstance(data, dict) and data and all(isinstance(k, int) for k in data):
            return _parse_tile_dict(data, path)
        return puzzle_from_dict(data)
    except SatedgeError as e:
        if e.path is None:
            raise SatedgeError(str(e), path) from None
        raise


def _label(x: Any, matching: str, where: str) -> Any:
    if matching == "complementary":
        if isinstance(x, list) and len(x) == 2 and str(x[1]) in ("+", "-"):
            return f"{x[0]}{x[1]}"
        if isinstance(x, str) and len(x) >= 2 and x[-1] in "+-":
            return x
        raise SatedgeError(f"{where}: complementary label {x!r} needs a pattern and a half (+ or -)")
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise SatedgeError(f"{where}: label {x!r} must be an integer or a string")
    return x


def puzzle_from_dict(data: Any) -> Puzzle:
    """Build a puzzle from the canonical YAML mapping (already parsed)."""
    if not isinstance(data, dict):
        raise SatedgeError("a puzzle file must be a mapping with rows, cols, matching and tiles")
    unknown = sorted(set(map(str, data)) - PUZZLE_KEYS)
    if unknown:
        raise SatedgeError(f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(PUZZLE_KEYS))}")
    for key in ("rows", "cols", "tiles"):
        if key not in data:
            raise SatedgeError(f"missing key {key!r}")
    matching = data.get("matching", "identical")
    if matching not in ("complementary", "identical"):
        raise SatedgeError(f"matching must be complementary or identical, not {matching!r}")
    order = data.get("edge_order") or CLOCKWISE
    if not isinstance(order, list) or len(order) != 4:
        raise SatedgeError(f"edge_order must list the four words {', '.join(SIDES)}, found {order!r}")
    for word in order:
        if word not in SIDES:
            raise SatedgeError(f"unknown edge_order word {word!r}; use top, right, bottom, left")
    if len(set(order)) != 4:
        raise SatedgeError(f"edge_order {order!r} repeats a side")
    where = [order.index(s) for s in SIDES]  # position in the file of top, right, bottom, left
    tiles = data["tiles"]
    if not isinstance(tiles, list):
        raise SatedgeError("tiles must be a list of four-edge lists")
    parsed = []
    for i, tile in enumerate(tiles):
        if not isinstance(tile, list) or len(tile) != 4:
            n = len(tile) if isinstance(tile, list) else "not a list"
            raise SatedgeError(f"tile {i} must have four edges, found {n}")
        labels = [_label(x, matching, f"tile {i}") for x in tile]
        parsed.append(tuple(labels[k] for k in where))
    frame = data.get("frame")
    if frame is not None:
        frame = _label(frame, matching, "frame") if matching == "identical" else frame
    clues, given = [], data.get("clues") or []
    if not isinstance(given, list):
        raise SatedgeError("clues must be a list of {row, col, tile, rotation} mappings")
    for k, c in enumerate(given):
        if not isinstance(c, dict) or set(c) != {"row", "col", "tile", "rotation"}:
            raise SatedgeError(f"clue {k} must be a mapping with row, col, tile and rotation")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in c.values()):
            raise SatedgeError(f"clue {k}: row, col, tile and rotation must be integers")
        clues.append(Clue(c["row"], c["col"], c["tile"], c["rotation"]))
    planted = data.get("planted")
    puzzle = Puzzle(
        rows=data["rows"], cols=data["cols"], tiles=tuple(parsed), matching=matching,
        name=str(data.get("name") or ""), frame=frame, topology=data.get("topology") or "grid",
        clues=tuple(clues),
    )
    if planted is not None:
        try:
            puzzle = puzzle.with_(planted=solution_from_json(planted, puzzle))
        except SatedgeError as e:
            raise SatedgeError(f"planted: {e}") from None
    return puzzle


def puzzle_to_dict(puzzle: Puzzle) -> dict:
    """The canonical mapping: clockwise edge order, complementary labels as ``pattern+`` strings."""
    d: dict[str, Any] = {
        "name": puzzle.name,
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "matching": puzzle.matching,
        "frame": puzzle.frame,
        "topology": puzzle.topology,
        "edge_order": CLOCKWISE,
        "tiles": [list(t) for t in puzzle.tiles],
    }
    if puzzle.clues:
        d["clues"] = [{"row": c.row, "col": c.col, "tile": c.tile, "rotation": c.rotation} for c in puzzle.clues]
    if puzzle.planted is not None:
        d["planted"] = solution_to_json(puzzle, puzzle.planted)
    return d


class _Dumper(yaml.SafeDumper):
    pass


def _flow_list(dumper, data):  # short lists (tiles, edge_order) on one line
    flow = all(not isinstance(x, (list, dict)) for x in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _flow_dict(dumper, data):
    flow = set(data) == {"row", "col", "tile", "rotation"}
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)


_Dumper.add_representer(list, _flow_list)
_Dumper.add_representer(dict, _flow_dict)


def puzzle_to_yaml(puzzle: Puzzle) -> str:
    return yaml.dump(puzzle_to_dict(puzzle), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def _parse_ints(line: str, path: Path, lineno: int) -> list[int]:
    try:
        return [int(x) for x in line.split()]
    except ValueError:
        raise SatedgeError(f"line {lineno}: expected integers, found {shown(line.strip())}", path) from None


def _parse_puz(text: str, path: Path) -> Puzzle:
    rows = cols = None
    tiles = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        if cols is None:
            words = s.split()
            if words[:2] == ["p", "tile"]:
                words = words[2:]
            nums = _parse_ints(" ".join(words), path, lineno)
            if not 1 <= len(nums) <= 3 or min(nums) < 1:
                raise SatedgeError(f"line {lineno}: expected '<cols> [rows]', found {shown(s)}", path)
            cols = nums[0]
            rows = nums[1] if len(nums) > 1 else cols
            continue
        nums = _parse_ints(s, path, lineno)
        if len(nums) != 4 or min(nums) < 0:
            raise SatedgeError(f"line {lineno}: a tile is four non-negative colours (north east south west), found "
                               f"{shown(s)}", path)
        tiles.append(tuple(nums))
    if cols is None:
        raise SatedgeError("no size line: expected '<cols> [rows]'", path)
    frame = 0 if any(0 in t for t in tiles) else None
    puzzle = Puzzle(rows=rows, cols=cols, tiles=tuple(tiles), matching="identical", name=path.stem, frame=frame)
    clue_path = path.with_suffix(".clue")
    if clue_path.exists():
        clues = tuple(Clue(cell // cols, cell % cols, t, r) for t, cell, r in
                      _sol_lines(_read_text(clue_path), clue_path, puzzle))
        try:
            puzzle = puzzle.with_(clues=clues)
        except SatedgeError as e:
            raise SatedgeError(str(e), clue_path) from None
    return puzzle


def _parse_heule(text: str, path: Path) -> Puzzle:
    """Heule's ``.txt`` instances (the SAT Competition 2009 ``em_*`` family): a count of hint
    lines, then ``north east south west`` per piece; colour 0 is the frame.  The board's size is
    not written: ``rows + cols`` follows from the border pieces (one side 0) and ``rows * cols``
    from the number of pieces; the shorter side is taken as the rows."""
    lines = [(n, s.strip()) for n, s in enumerate(text.splitlines(), 1) if s.strip()]
    if not lines:
        raise SatedgeError("empty: expected a hint count, then 'north east south west' per piece", path)
    lineno, first = lines[0]
    hints = _parse_ints(first, path, lineno)
    if len(hints) != 1 or hints[0] < 0:
        raise SatedgeError(f"line {lineno}: expected the number of hint lines, found {shown(first)}", path)
    if hints[0]:
        raise SatedgeError(f"line {lineno}: {hints[0]} hint lines; satedge reads instances without hints (every "
                           "published one has none): give clues in YAML instead", path)
    tiles = []
    for lineno, s in lines[1:]:
        nums = _parse_ints(s, path, lineno)
        if len(nums) != 4 or min(nums) < 0:
            raise SatedgeError(f"line {lineno}: a piece is four non-negative colours (north east south west), found "
                               f"{shown(s)}", path)
        tiles.append(tuple(nums))
    n, border = len(tiles), sum(t.count(0) == 1 for t in tiles)
    half = border // 2 + 4  # rows + cols
    disc = half * half - 4 * n
    root = int(disc ** 0.5) if disc >= 0 else -1
    while root > 0 and root * root > disc:
        root -= 1
    if n < 4 or border % 2 or root < 0 or root * root != disc or (half - root) % 2:
        raise SatedgeError(f"{n} pieces of which {border} border pieces fit no rectangular framed board", path)
    rows, cols = (half - root) // 2, (half + root) // 2
    return Puzzle(rows=rows, cols=cols, tiles=tuple(tiles), matching="identical", name=path.stem, frame=0)


def puzzle_to_puz(puzzle: Puzzle) -> str:
    """``.puz`` text; only identical-matching grid puzzles with integer labels, 0 being the frame."""
    if puzzle.matching != "identical" or puzzle.topology != "grid":
        raise SatedgeError(".puz holds identical-matching grid puzzles only")
    labels = {x for t in puzzle.tiles for x in t}
    if not all(isinstance(x, int) and x >= 0 for x in labels):
        raise SatedgeError(".puz needs non-negative integer labels")
    if (puzzle.frame is None and 0 in labels) or puzzle.frame not in (None, 0):
        raise SatedgeError(".puz reserves colour 0 for the frame")
    lines = [f"c {one_line(puzzle.name)}" if puzzle.name else "c satedge puzzle", f"{puzzle.cols} {puzzle.rows}"]
    lines += [" ".join(map(str, t)) for t in puzzle.tiles]
    return "\n".join(lines) + "\n"


def _parse_tile_dict(data: dict, path: Path) -> Puzzle:
    """Scramble Squares seed layout: keys 1..n, four ``[colour, half]`` pairs right, top, left, bottom."""
    n = len(data)
    side = round(n ** 0.5)
    if side * side != n or sorted(data) != list(range(1, n + 1)):
        raise SatedgeError(f"tile_dict keys must be 1..n for a square n, found {sorted(data)}")
    puzzle = {
        "name": path.parent.parent.name if path.parent.name == "input" else path.stem,
        "rows": side, "cols": side, "matching": "complementary",
        "edge_order": ["right", "top", "left", "bottom"],
        "tiles": [data[k] for k in range(1, n + 1)],
    }
    return puzzle_from_dict(puzzle)


def save_puzzle(puzzle: Puzzle, path: str | os.PathLike) -> None:
    """Write canonical YAML (``.yaml``/``.yml``) or ``.puz`` (with a ``.clue`` sibling for clues; a
    ``.clue`` already there is rewritten, or removed when the puzzle has none)."""
    path = Path(path)
    if path.suffix in (".yaml", ".yml"):
        write_atomic(path, puzzle_to_yaml(puzzle))
    elif path.suffix == ".puz":
        try:
            text = puzzle_to_puz(puzzle)
        except SatedgeError as e:
            raise SatedgeError(str(e), path) from None
        clue_path = path.with_suffix(".clue")
        if puzzle.clues:
            clue = Solution(tuple((c.tile, c.rotation) for c in puzzle.clues))
            cells = [puzzle.board.cell(c.row, c.col) for c in puzzle.clues]
            write_atomic(clue_path, _sol_text(puzzle, clue, cells))
        elif clue_path.is_file():  # a .clue left from an earlier puzzle would clue this one
            try:
                clue_path.unlink()
            except OSError as e:
                raise cannot_write(e, clue_path) from None
        write_atomic(path, text)
    else:
        raise SatedgeError("unknown puzzle format: use .yaml, .yml or .puz", path)


# ---------------------------------------------------------------------------- solutions
def _sol_lines(text: str, path: Path, puzzle: Puzzle) -> list[tuple[int, int, int]]:
    """``(tile, cell, clockwise rotation)`` for each ``tile col row rot`` line (rot anti-clockwise)."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        nums = _parse_ints(s, path, lineno)
        if len(nums) != 4:
            raise SatedgeError(f"line {lineno}: expected 'tile col row rot', found {s!r}", path)
        t, col, row, rot = nums
        if not (0 <= row < puzzle.rows and 0 <= col < puzzle.cols):
            raise SatedgeError(f"line {lineno}: cell col {col}, row {row} is outside the {puzzle.rows}x{puzzle.cols} board", path)
        if not 0 <= t < len(puzzle.tiles) or rot not in range(4):
            raise SatedgeError(f"line {lineno}: tile {t} or rotation {rot} out of range", path)
        out.append((t, puzzle.board.cell(row, col), (-rot) % 4))
    return out


def _sol_text(puzzle: Puzzle, solution: Solution, cells=None) -> str:
    cells = range(len(solution)) if cells is None else cells
    lines = []
    for cell, (t, r) in zip(cells, solution):
        row, col = puzzle.board.position(cell)
        lines.append(f"{t} {col} {row} {(-r) % 4}")
    return "\n".join(lines) + "\n"


def solution_to_json(puzzle: Puzzle, solution: Solution) -> list[dict]:
    return [{"row": cell // puzzle.cols, "col": cell % puzzle.cols, "tile": t, "rotation": r}
            for cell, (t, r) in enumerate(solution)]


def solution_from_json(data: Any, puzzle: Puzzle) -> Solution:
    """A solution from a list of ``{row, col, tile, rotation}`` (or an object with ``solution``)."""
    if isinstance(data, dict) and "solution" in data:
        data = data["solution"]
    if not isinstance(data, list):
        raise SatedgeError("a solution is a list of {row, col, tile, rotation} objects")
    cells: dict[int, tuple[int, int]] = {}
    for k, item in enumerate(data):
        if not isinstance(item, dict) or not {"row", "col", "tile", "rotation"} <= set(item):
            raise SatedgeError(f"solution item {k} must have row, col, tile and rotation")
        vals = [item[key] for key in ("row", "col", "tile", "rotation")]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            raise SatedgeError(f"solution item {k}: row, col, tile and rotation must be integers")
        row, col, t, r = vals
        if not (0 <= row < puzzle.rows and 0 <= col < puzzle.cols):
            raise SatedgeError(f"solution item {k}: cell ({row}, {col}) is outside the {puzzle.rows}x{puzzle.cols} board")
        cell = puzzle.board.cell(row, col)
        if cell in cells:
            raise SatedgeError(f"solution item {k}: cell ({row}, {col}) is placed twice")
        cells[cell] = (t, r)
    if len(cells) != puzzle.n:
        raise SatedgeError(f"the solution places {len(cells)} of {puzzle.n} cells")
    return Solution(tuple(cells[c] for c in range(puzzle.n)))


def load_solution(path: str | os.PathLike, puzzle: Puzzle) -> Solution:
    """Read a ``.sol`` file or a JSON solution (as ``satedge solve --json`` prints it)."""
    path = Path(path)
    text = _read_text(path)
    if path.suffix == ".sol":
        placed = _sol_lines(text, path, puzzle)
        cells = {}
        for t, cell, r in placed:
            if cell in cells:
                raise SatedgeError(f"cell {puzzle.board.position(cell)} is placed twice", path)
            cells[cell] = (t, r)
        if len(cells) != puzzle.n:
            raise SatedgeError(f"the solution places {len(cells)} of {puzzle.n} cells", path)
        return Solution(tuple(cells[c] for c in range(puzzle.n)))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SatedgeError(f"not valid JSON: {e.msg} at line {e.lineno}", path) from None
    except RecursionError:
        raise SatedgeError("not valid JSON: nested too deep", path) from None
    try:
        return solution_from_json(data, puzzle)
    except SatedgeError as e:
        raise SatedgeError(str(e), path) from None


def save_solution(puzzle: Puzzle, solution: Solution, path: str | os.PathLike) -> None:
    """Write ``.sol`` or JSON (any other suffix)."""
    path = Path(path)
    if path.suffix == ".sol":
        write_atomic(path, _sol_text(puzzle, solution))
    else:
        write_atomic(path, json.dumps(solution_to_json(puzzle, solution)) + "\n")
