"""Drawing puzzles and solutions: ASCII grids for the terminal."""

from __future__ import annotations

from .puzzle import Puzzle, Solution

ANSI = ("\033[31m", "\033[32m", "\033[33m", "\033[34m", "\033[35m", "\033[36m", "\033[91m", "\033[92m",
        "\033[93m", "\033[94m", "\033[95m", "\033[96m")
RESET = "\033[0m"


def ascii_grid(puzzle: Puzzle, solution: Solution, color: bool = False) -> str:
    """The solution as a grid of tiles, each showing its four labels and ``tile/rotation``.

    >>> p = Puzzle(rows=1, cols=2, tiles=((0, 1, 0, 0), (0, 0, 0, 1)), frame=0)
    >>> print(ascii_grid(p, Solution(((0, 0), (1, 0)))))
    +-------+-------+
    |   0   |   0   |
    |0 0/0 1|1 1/0 0|
    |   0   |   0   |
    +-------+-------+
    """
    texts = {x: str(x) for x in puzzle.labels}
    w = max(len(t) for t in texts.values())
    inner = max(2 * w + 5, 7)
    if inner % 2 == 0:
        inner += 1

    def paint(x) -> str:
        text = texts[x]
        if not color or x == puzzle.frame:
            return text
        i = puzzle.label_id[x] // (2 if puzzle.matching == "complementary" else 1)
        return f"{ANSI[i % len(ANSI)]}{text}{RESET}"

    def centre(x) -> str:
        t = texts[x]
        left = (inner - len(t)) // 2
        return " " * left + paint(x) + " " * (inner - len(t) - left)

    sep = "+" + "+".join("-" * inner for _ in range(puzzle.cols)) + "+"
    lines = [sep]
    for row in range(puzzle.rows):
        cells = [(puzzle.oriented(t, r), f"{t}/{r}") for t, r in solution.placements[row * puzzle.cols:(row + 1) * puzzle.cols]]
        lines.append("|" + "|".join(centre(lab[0]) for lab, _ in cells) + "|")
        mids = []
        for lab, tag in cells:
            gap = inner - len(texts[lab[3]]) - len(texts[lab[1]]) - len(tag)
            mids.append(paint(lab[3]) + " " * (gap // 2) + tag + " " * (gap - gap // 2) + paint(lab[1]))
        lines.append("|" + "|".join(mids) + "|")
        lines.append("|" + "|".join(centre(lab[2]) for lab, _ in cells) + "|")
        lines.append(sep)
    return "\n".join(lines)
