"""Drawing puzzles and solutions without matplotlib: ASCII grids for the terminal, SVG for files
and notebooks.  It reads a puzzle through its attributes only (``labels``, ``oriented``, ``board``,
...), so that the puzzle model itself can draw (``Puzzle._repr_svg_``)."""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = [
    "ANSI",
    "RESET",
    "ascii_grid",
    "PALETTE",
    "FRAME_GREY",
    "PALE",
    "TILE",
    "PAD",
    "TILES_TOP",
    "caption",
    "label_colours",
    "layout",
    "to_svg",
]

ANSI = (
    "\033[31m",
    "\033[32m",
    "\033[33m",
    "\033[34m",
    "\033[35m",
    "\033[36m",
    "\033[91m",
    "\033[92m",
    "\033[93m",
    "\033[94m",
    "\033[95m",
    "\033[96m",
)
RESET = "\033[0m"


def ascii_grid(
    puzzle: Any, solution: Any, color: bool = False, mismatched: Any = (), width: int | None = None
) -> str:
    """The solution as a grid of tiles, each showing its four labels and ``tile/rotation``;
    the touching sides that do not fit (``mismatched``, adjacencies of the board graph) cross
    their border with ``X`` (``|`` between cells side by side, ``-`` between cells one above
    the other).  A grid wider than ``width`` columns is drawn compact: one line per row of
    tiles, each cell only its ``tile/rotation`` (Eternity II's 16x16 in 97 columns, not 193).

    >>> from satedge.puzzle import Puzzle, Solution
    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> print(ascii_grid(p, Solution(((0, 0), (1, 0)))))
    +-------+-------+
    |   0   |   0   |
    |0 0/0 1|1 1/0 0|
    |   0   |   0   |
    +-------+-------+
    >>> print(ascii_grid(p, Solution(((1, 0), (0, 0))), mismatched=p.board.adjacencies))
    +-------+-------+
    |   0   |   0   |
    |1 1/0 0X0 0/0 1|
    |   0   |   0   |
    +-------+-------+
    >>> print(ascii_grid(p, Solution(((1, 0), (0, 0))), mismatched=p.board.adjacencies, width=16))
    +---+---+
    |1/0X0/0|
    +---+---+
    """
    walls, floors = set(), set()  # (row, border k of 0..cols) crossed; (border k of 0..rows, col) crossed
    for adj in mismatched:
        if adj.a == adj.b:
            continue
        r, c = puzzle.board.position(adj.a)
        if adj.side_a in (1, 3):
            k = c + 1 if adj.side_a == 1 else c
            walls |= {(r, k % puzzle.cols), (r, puzzle.cols)} if k % puzzle.cols == 0 else {(r, k)}
        else:
            k = r + 1 if adj.side_a == 2 else r
            floors |= {(k % puzzle.rows, c), (puzzle.rows, c)} if k % puzzle.rows == 0 else {(k, c)}
    texts = {x: str(x) for x in puzzle.labels}
    w = max(len(t) for t in texts.values())
    widest = len(f"{len(puzzle.tiles) - 1}/3")  # the longest tile/turn tag
    inner = max(2 * w + widest + 2, 7)
    if inner % 2 == 0:
        inner += 1
    compact = width is not None and 1 + (inner + 1) * puzzle.cols > width
    if compact:
        inner = widest

    def paint(x: int) -> str:
        text = texts[x]
        if not color or x == puzzle.frame:
            return text
        i = puzzle.label_id[x] // (2 if puzzle.matching == "complementary" else 1)
        return f"{ANSI[i % len(ANSI)]}{text}{RESET}"

    def centre(x: int) -> str:
        t = texts[x]
        left = (inner - len(t)) // 2
        return " " * left + paint(x) + " " * (inner - len(t) - left)

    def sep(k: int) -> str:
        return "+" + "+".join(("X" if (k, c) in floors else "-") * inner for c in range(puzzle.cols)) + "+"

    def joined(row: int, parts: list[str], mid: bool) -> str:
        bars = ["X" if mid and (row, k) in walls else "|" for k in range(puzzle.cols + 1)]
        return bars[0] + "".join(p + b for p, b in zip(parts, bars[1:]))

    lines = [sep(0)]
    for row in range(puzzle.rows):
        cells = [
            (puzzle.oriented(t, r), f"{t}/{r}")
            for t, r in solution.placements[row * puzzle.cols : (row + 1) * puzzle.cols]
        ]
        if compact:
            lines.append(joined(row, [t.center(inner) for _, t in cells], True))
            lines.append(sep(row + 1))
            continue
        lines.append(joined(row, [centre(lab[0]) for lab, _ in cells], False))
        mids = []
        for lab, tag in cells:
            gap = inner - len(texts[lab[3]]) - len(texts[lab[1]]) - len(tag)
            mids.append(paint(lab[3]) + " " * (gap // 2) + tag + " " * (gap - gap // 2) + paint(lab[1]))
        lines.append(joined(row, mids, True))
        lines.append(joined(row, [centre(lab[2]) for lab, _ in cells], False))
        lines.append(sep(row + 1))
    return "\n".join(lines)


# Colour-blind-safe colours: Okabe-Ito, then Paul Tol's muted and light schemes (no greys).
PALETTE = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#000000",
    "#332288",
    "#88CCEE",
    "#44AA99",
    "#117733",
    "#999933",
    "#DDCC77",
    "#CC6677",
    "#882255",
    "#AA4499",
    "#77AADD",
    "#EE8866",
    "#EEDD88",
    "#FFAABB",
    "#99DDFF",
    "#BBCC33",
    "#AAAA00",
)
FRAME_GREY = "#B0B0B0"
PALE = 0.55  # the tail half: the pattern's colour mixed with this much white
TILE = 60  # pixels per tile
PAD = 4
TILES_TOP = PAD + 36  # the caption's two lines above the tiles


def _mix(hex_colour: str, white: float) -> str:
    rgb = [int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * white):02X}" for c in rgb)


def label_colours(puzzle: Any) -> dict:
    """Fill colour of every label: one palette colour per pattern (complementary: full for the
    head ``+``, pale for the tail ``-``) or per label (identical); the frame label grey."""
    out = {}
    if puzzle.matching == "complementary":
        patterns = sorted({x[:-1] for x in puzzle.labels})
        for i, pat in enumerate(patterns):
            base = PALETTE[i % len(PALETTE)]
            out[pat + "+"], out[pat + "-"] = base, _mix(base, PALE)
    else:
        colours = iter(PALETTE * (1 + len(puzzle.labels) // len(PALETTE)))
        for x in puzzle.labels:
            out[x] = FRAME_GREY if x == puzzle.frame else next(colours)
    return out


def caption(puzzle: Any, solution: Any = None, mismatched: Any = ()) -> tuple[str, str]:
    """The picture's title in two lines: the puzzle's name, then its board's score
    (``mismatched``: the adjacencies that do not fit) or, without a board, its number of tiles."""
    if solution is None:
        return puzzle.name or "puzzle", f"{len(puzzle.tiles)} tiles"
    edges = len(puzzle.board.adjacencies)
    return puzzle.name or "puzzle", f"score {edges - len(mismatched)} of {edges} edges"


def layout(puzzle: Any, solution: Any = None, mismatched: Any = ()) -> tuple:
    """What to draw: ``(width, height, polygons, texts, marks, lines)``, in pixels.  A caption
    (:func:`caption`) on top, the tiles centred under it; each tile is four triangles meeting in its centre (top, right,
    bottom, left), its tile index in the centre; complementary halves carry a + or - mark; clued
    cells get a thick outline; ``lines``: the borders where touching sides do not fit
    (``mismatched``: adjacencies), on both outer borders for an edge that wraps around a torus.
    Without a solution: the tile set in file order, unturned."""
    colours = label_colours(puzzle)
    placements = (
        solution.placements if solution is not None else tuple((t, 0) for t in range(len(puzzle.tiles)))
    )
    clued = {puzzle.board.cell(c.row, c.col) for c in puzzle.clues} if solution is not None else set()
    gap = 0 if solution is not None else 6
    title = caption(puzzle, solution, mismatched)
    tiles_width = puzzle.cols * TILE + (puzzle.cols - 1) * gap
    width = PAD * 2 + max(tiles_width, 7 * max(len(line) for line in title))
    left = (width - tiles_width) // 2  # the tiles centred under a caption wider than they are
    height = TILES_TOP + PAD + puzzle.rows * TILE + (puzzle.rows - 1) * gap
    polygons, texts, marks = [], [], []
    texts += [(width / 2, PAD + 9, title[0], 13), (width / 2, PAD + 26, title[1], 11)]
    for cell, (t, r) in enumerate(placements):
        row, col = divmod(cell, puzzle.cols)
        x0, y0 = left + col * (TILE + gap), TILES_TOP + row * (TILE + gap)
        cx, cy = x0 + TILE / 2, y0 + TILE / 2
        corners = [(x0, y0), (x0 + TILE, y0), (x0 + TILE, y0 + TILE), (x0, y0 + TILE)]
        labels = puzzle.oriented(t, r)
        for side in range(4):
            a, b = corners[side], corners[(side + 1) % 4]
            polygons.append(([a, b, (cx, cy)], colours[labels[side]]))
            if puzzle.matching == "complementary":
                mx, my = (a[0] + b[0] + 2 * cx) / 4, (a[1] + b[1] + 2 * cy) / 4
                texts.append((mx, my, "+" if labels[side][-1] == "+" else "\u2212", 11))
        texts.append((cx, cy, str(t), 10))
        if cell in clued:
            marks.append((x0 + 2, y0 + 2, TILE - 4))
    lines = []
    for adj in mismatched:
        if adj.a == adj.b:
            continue
        for cell, side in ((adj.a, adj.side_a), (adj.b, adj.side_b)):
            row, col = divmod(cell, puzzle.cols)
            x0, y0 = left + col * TILE, TILES_TOP + row * TILE
            seg = {
                0: (x0, y0, x0 + TILE, y0),
                1: (x0 + TILE, y0, x0 + TILE, y0 + TILE),
                2: (x0, y0 + TILE, x0 + TILE, y0 + TILE),
                3: (x0, y0, x0, y0 + TILE),
            }[side]
            if seg not in lines:
                lines.append(seg)
    return width, height, polygons, texts, marks, lines


def to_svg(puzzle: Any, solution: Any = None, mismatched: Any = ()) -> str:
    """An SVG picture (four ``polygon`` elements per tile); the borders where touching sides do
    not fit (``mismatched``: adjacencies) drawn as thick red lines."""
    w, h, polygons, texts, marks, lines = layout(puzzle, solution, mismatched)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
        f"<title>{escape(': '.join(caption(puzzle, solution, mismatched)), quote=False)}</title>",
        '<rect width="100%" height="100%" fill="white"/>',
    ]
    for pts, fill in polygons:
        p = " ".join(f"{x:g},{y:g}" for x, y in pts)
        out.append(f'<polygon points="{p}" fill="{fill}" stroke="#404040" stroke-width="0.6"/>')
    for x, y, size in marks:
        out.append(
            f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" fill="none" stroke="black" '
            'stroke-width="3"/>'
        )
    for x1, y1, x2, y2 in lines:
        out.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#D00000" stroke-width="5" '
            'stroke-linecap="round"/>'
        )
    for x, y, text, size in texts:
        out.append(
            f'<text x="{x:g}" y="{y:g}" font-family="sans-serif" font-size="{size}" text-anchor="middle" '
            f'dominant-baseline="central" fill="black" stroke="white" stroke-width="2.5" paint-order="stroke">'
            f"{escape(text, quote=False)}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
