"""Puzzle formats: canonical YAML, ``.puz`` (+ ``.clue``), Heule's ``.txt`` and the
``tile_dict.yaml`` layout of the Scramble Squares seed (solutions: :mod:`satedge.puzzle.solutions`).

Every reader raises :class:`SatedgeError` naming the file and the problem; files are read and
written through :mod:`satedge.system.files`.
"""

from __future__ import annotations

import os
from difflib import get_close_matches
from pathlib import Path
from typing import Any

import yaml

from ..errors import SatedgeError
from ..system.files import named, one_line, parse_ints, read_text, shown, write_atomic, write_group
from ..system.resources import PUZZLE_SUFFIXES, shipped_puzzles
from ..system.yamlfile import parse_yaml
from .checker import validate
from .model import SIDES, Clue, Label, Puzzle, Solution
from .solutions import sol_lines, sol_text, solution_from_json, solution_to_json

__all__ = [
    "READERS",
    "PUZZLE_KEYS",
    "CLOCKWISE",
    "load_puzzle",
    "puzzle_from_dict",
    "puzzle_to_dict",
    "puzzle_to_yaml",
    "puzzle_to_puz",
    "save_puzzle",
]

PUZZLE_KEYS = {
    "name",
    "rows",
    "cols",
    "matching",
    "frame",
    "topology",
    "edge_order",
    "tiles",
    "clues",
    "planted",
    "turns",
    "border",
}
CLOCKWISE = list(SIDES)


# ---------------------------------------------------------------------------- puzzles
def load_puzzle(path: str | os.PathLike) -> Puzzle:
    """Read a puzzle.

    Parameters
    ----------
    path : str or path-like
        Canonical YAML, ``.puz`` (with its ``.clue`` sibling), Heule's ``.txt`` or a
        ``tile_dict.yaml``; ``-`` reads YAML from standard input, and a shipped puzzle's name
        (``hunde-spiel``, ``eternity2/8x8``: :func:`satedge.system.resources.shipped_puzzles`) reads
        that one.

    Returns
    -------
    Puzzle

    Raises
    ------
    SatedgeError
        Naming the file and what is wrong with it.
    """
    path = named(path, shipped_puzzles(), PUZZLE_SUFFIXES) or Path(path)
    if str(path) != "-" and not os.path.lexists(path):
        close = get_close_matches(str(path), shipped_puzzles(), 1, 0.8)
        raise SatedgeError(
            "no such file, nor a shipped puzzle of that name"
            + (f" (did you mean {close[0]}?)" if close else " (satedge puzzles lists them)"),
            path,
        )
    try:
        return READERS.get(path.suffix, _parse_yaml)(read_text(path), path)
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
        raise SatedgeError(f"{where}: complementary label {shown(x)} needs a pattern and a half (+ or -)")
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise SatedgeError(f"{where}: label {shown(x)} must be an integer or a string")
    return x


def puzzle_from_dict(data: Any) -> Puzzle:
    """Build a puzzle from the canonical YAML mapping (already parsed)."""
    if not isinstance(data, dict):
        raise SatedgeError("a puzzle file must be a mapping with rows, cols, matching and tiles")
    if "field" in data:  # a key of puzzle files until 2026-12-06
        raise SatedgeError(
            "field: a puzzle file carries no engine settings; give them to the engine "
            "(--quota, --ramp, --ladder, --attempt, or field:quota=... in a solver string)"
        )
    unknown = sorted(set(map(str, data)) - PUZZLE_KEYS)
    if unknown:
        raise SatedgeError(f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(PUZZLE_KEYS))}")
    for key in ("rows", "cols", "tiles"):
        if key not in data:
            raise SatedgeError(f"missing key {shown(key)}")
    matching = data.get("matching", "identical")
    if matching not in ("complementary", "identical"):
        raise SatedgeError(f"matching must be complementary or identical, not {shown(matching)}")
    order = data.get("edge_order") or CLOCKWISE
    if not isinstance(order, list) or len(order) != 4:
        raise SatedgeError(f"edge_order must list the four words {', '.join(SIDES)}, found {shown(order)}")
    for word in order:
        if word not in SIDES:
            raise SatedgeError(f"unknown edge_order word {shown(word)}; use top, right, bottom, left")
    if len(set(order)) != 4:
        raise SatedgeError(f"edge_order {shown(order)} repeats a side")
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
    border = data.get("border")
    border = [] if border is None else border if isinstance(border, list) else [border]
    border = tuple(_label(x, matching, "border") for x in border)
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
        rows=data["rows"],
        cols=data["cols"],
        tiles=tuple(parsed),
        matching=matching,
        name=str(data.get("name") or ""),
        frame=frame,
        topology=data.get("topology") or "grid",
        clues=tuple(clues),
        turns=data.get("turns", "all"),
        border=border,
    )
    if planted is not None:
        try:
            solution = solution_from_json(planted, puzzle)
        except SatedgeError as e:
            raise SatedgeError(f"planted: {e}") from None
        problem = validate(puzzle, solution)
        if problem is not None:
            raise SatedgeError(f"planted: not a solution: {problem}")
        puzzle = puzzle.with_(planted=solution)
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
    if puzzle.turns != "all":  # written where it says something: files of every turn stay as they were
        d["turns"] = puzzle.turns
    if puzzle.border:
        d["border"] = puzzle.border[0] if len(puzzle.border) == 1 else list(puzzle.border)
    if puzzle.clues:
        d["clues"] = [
            {"row": c.row, "col": c.col, "tile": c.tile, "rotation": c.rotation} for c in puzzle.clues
        ]
    if puzzle.planted is not None:
        d["planted"] = solution_to_json(puzzle, puzzle.planted)
    return d


class _Dumper(yaml.SafeDumper):
    pass


def _flow_list(
    dumper: yaml.SafeDumper, data: list
) -> yaml.SequenceNode:  # short lists (tiles, edge_order) on one line
    flow = all(not isinstance(x, (list, dict)) for x in data)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


def _flow_dict(dumper: yaml.SafeDumper, data: dict) -> yaml.MappingNode:
    flow = set(data) == {"row", "col", "tile", "rotation"}
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)


_Dumper.add_representer(list, _flow_list)
_Dumper.add_representer(dict, _flow_dict)


def puzzle_to_yaml(puzzle: Puzzle) -> str:
    return yaml.dump(puzzle_to_dict(puzzle), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


def _parse_puz(text: str, path: Path) -> Puzzle:
    rows: int | None = None
    cols: int | None = None
    tiles: list[tuple[Label, Label, Label, Label]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("c"):
            continue
        if cols is None:
            words = s.split()
            if words[:2] == ["p", "tile"]:
                words = words[2:]
            nums = parse_ints(" ".join(words), path, lineno)
            if not 1 <= len(nums) <= 3 or min(nums) < 1:
                raise SatedgeError(f"line {lineno}: expected '<cols> [rows]', found {shown(s)}", path)
            cols = nums[0]
            rows = nums[1] if len(nums) > 1 else cols
            continue
        nums = parse_ints(s, path, lineno)
        if len(nums) != 4 or min(nums) < 0:
            raise SatedgeError(
                f"line {lineno}: a tile is four non-negative colours (north east south west), found "
                f"{shown(s)}",
                path,
            )
        tiles.append((nums[0], nums[1], nums[2], nums[3]))
    if cols is None or rows is None:
        raise SatedgeError("no size line: expected '<cols> [rows]'", path)
    frame = 0 if any(0 in t for t in tiles) else None
    puzzle = Puzzle(
        rows=rows, cols=cols, tiles=tuple(tiles), matching="identical", name=path.stem, frame=frame
    )
    clue_path = path.with_suffix(".clue")
    if clue_path.exists():
        clues = tuple(
            Clue(cell // cols, cell % cols, t, r)
            for t, cell, r in sol_lines(read_text(clue_path), clue_path, puzzle)
        )
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
    hints = parse_ints(first, path, lineno)
    if len(hints) != 1 or hints[0] < 0:
        raise SatedgeError(f"line {lineno}: expected the number of hint lines, found {shown(first)}", path)
    if hints[0]:
        raise SatedgeError(
            f"line {lineno}: {hints[0]} hint lines; satedge reads instances without hints (every "
            "published one has none): give clues in YAML instead",
            path,
        )
    tiles: list[tuple[Label, Label, Label, Label]] = []
    for lineno, s in lines[1:]:
        nums = parse_ints(s, path, lineno)
        if len(nums) != 4 or min(nums) < 0:
            raise SatedgeError(
                f"line {lineno}: a piece is four non-negative colours (north east south west), found "
                f"{shown(s)}",
                path,
            )
        tiles.append((nums[0], nums[1], nums[2], nums[3]))
    n, border = len(tiles), sum(t.count(0) == 1 for t in tiles)
    half = border // 2 + 4  # rows + cols
    disc = half * half - 4 * n
    root = int(disc**0.5) if disc >= 0 else -1
    while root > 0 and root * root > disc:
        root -= 1
    if n < 4 or border % 2 or root < 0 or root * root != disc or (half - root) % 2:
        raise SatedgeError(
            f"{n} pieces of which {border} border pieces fit no rectangular framed board", path
        )
    rows, cols = (half - root) // 2, (half + root) // 2
    return Puzzle(rows=rows, cols=cols, tiles=tuple(tiles), matching="identical", name=path.stem, frame=0)


def puzzle_to_puz(puzzle: Puzzle) -> str:
    """``.puz`` text; only identical-matching grid puzzles with integer labels, 0 being the frame."""
    if puzzle.matching != "identical" or puzzle.topology != "grid":
        raise SatedgeError(".puz holds identical-matching grid puzzles only")
    if puzzle.turns != "all":
        raise SatedgeError(f".puz has no way to say turns: {puzzle.turns}: write a .yaml")
    if puzzle.border:
        raise SatedgeError(".puz has no way to say a border: write a .yaml")
    labels = {x for t in puzzle.tiles for x in t}
    if not all(isinstance(x, int) and x >= 0 for x in labels):
        raise SatedgeError(".puz needs non-negative integer labels")
    if (puzzle.frame is None and 0 in labels) or puzzle.frame not in (None, 0):
        raise SatedgeError(".puz reserves colour 0 for the frame")
    lines = [
        f"c {one_line(puzzle.name)}" if puzzle.name else "c satedge puzzle",
        f"{puzzle.cols} {puzzle.rows}",
    ]
    lines += [" ".join(map(str, t)) for t in puzzle.tiles]
    return "\n".join(lines) + "\n"


def _parse_yaml(text: str, path: Path) -> Puzzle:
    """Canonical YAML, or the Scramble Squares seed's ``tile_dict.yaml`` (integer keys)."""
    data = parse_yaml(text, path)
    if isinstance(data, dict) and data and all(isinstance(k, int) for k in data):
        return _parse_tile_dict(data, path)
    return puzzle_from_dict(data)


def _parse_tile_dict(data: dict, path: Path) -> Puzzle:
    """Scramble Squares seed layout: keys 1..n, four ``[colour, half]`` pairs right, top, left, bottom."""
    n = len(data)
    side = round(n**0.5)
    if side * side != n:
        raise SatedgeError(f"a tile_dict has a square number of tiles (keys 1..n), not {n}", path)
    wrong = sorted(k for k in data if not 1 <= k <= n)
    if wrong:  # a gap in the numbering: one key missing, another beyond n
        missing = min(set(range(1, n + 1)) - set(data))
        raise SatedgeError(
            f"tile_dict keys are 1..{n} for its {n} tiles: key {missing} is missing and key {wrong[0]} "
            f"is beyond {n}",
            path,
        )
    puzzle = {
        "name": path.parent.parent.name if path.parent.name == "input" else path.stem,
        "rows": side,
        "cols": side,
        "matching": "complementary",
        "edge_order": ["right", "top", "left", "bottom"],
        "tiles": [data[k] for k in range(1, n + 1)],
    }
    return puzzle_from_dict(puzzle)


# how a puzzle file is read, by its suffix: its text -> Puzzle (any other suffix: YAML)
READERS = {".puz": _parse_puz, ".txt": _parse_heule}


def save_puzzle(puzzle: Puzzle, path: str | os.PathLike) -> None:
    """Write a puzzle, whole or not at all.

    Parameters
    ----------
    puzzle : Puzzle
    path : str or path-like
        Canonical YAML (``.yaml``/``.yml``) or ``.puz`` with its ``.clue`` sibling, both or
        neither (a ``.clue`` already there is rewritten, or removed when the puzzle has none).
    """
    path = Path(path)
    if path.suffix in (".yaml", ".yml"):
        write_atomic(path, puzzle_to_yaml(puzzle))
    elif path.suffix == ".puz":
        try:
            text = puzzle_to_puz(puzzle)
        except SatedgeError as e:
            raise SatedgeError(str(e), path) from None
        clue = None  # a .clue left from an earlier puzzle would clue this one: it goes
        if puzzle.clues:
            placed = Solution(tuple((c.tile, c.rotation) for c in puzzle.clues))
            clue = sol_text(puzzle, placed, [puzzle.board.cell(c.row, c.col) for c in puzzle.clues])
        write_group({path: text, path.with_suffix(".clue"): clue})
    else:
        raise SatedgeError("unknown puzzle format: use .yaml, .yml or .puz", path)
