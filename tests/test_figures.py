"""The report's figures are fit for a paper: one colour per configuration in every figure, legends
beside the data and naming every band, sizes never averaged over boards of different sizes, PDF
beside PNG and SVG, and the same bytes from the same rows."""

import os
import re
import subprocess
import sys
from xml.etree import ElementTree

import pytest
from test_stats import _rows, _write, fast, fast_again, slow, slower

pytest.importorskip("matplotlib", reason="the figures need the extra plot")

SVG = "{http://www.w3.org/2000/svg}"
# the names' order (a, m, z) is not the ranks' (z/fast best): a diagram coloured by rank differs
CONFIGS = {"z/fast": fast, "a/slow": slow, "m/slower": slower, "q/again": fast_again}


def sized(rows: list[dict]) -> list[dict]:
    """The rows with a formula's size: its encoding's letter sets the scale."""
    scale = {"z": 1, "a": 3, "m": 9, "q": 1}
    return [
        r | {"variables": 100 * scale[r["encoding"]], "clauses": 1000 * scale[r["encoding"]]} for r in rows
    ]


def colours(svg_file, group: str = "legend_1") -> dict[str, str]:
    """Each text of an SVG group (a legend, or the whole figure) with the colour drawn last before
    it: a legend's line, or the text's own fill."""
    root = ElementTree.parse(svg_file).getroot()
    found, last = {}, None
    scope = next(g for g in root.iter(SVG + "g") if g.get("id") == group) if group else root
    for el in scope.iter():
        style = el.get("style", "")
        if el.tag == SVG + "text":
            own = re.search(r"fill: (#[0-9a-f]{6})", style)
            found[el.text.split(" (")[0].split(") ")[-1]] = own.group(1) if own else last
        elif stroke := re.search(r"stroke: (#[0-9a-f]{6})", style):
            last = stroke.group(1)
    return found


def box(svg_file, group: str) -> tuple[float, float]:
    """The least and greatest x of the first path of an SVG group (an axes' or a legend's frame)."""
    root = ElementTree.parse(svg_file).getroot()
    g = next(g for g in root.iter(SVG + "g") if g.get("id") == group)
    xs = [float(x) for x in re.findall(r"[ML] ([\d.]+) ", next(g.iter(SVG + "path")).get("d"))]
    return min(xs), max(xs)


def test_one_configuration_has_one_colour_in_every_figure_and_the_legend_is_beside_the_data(
    run_cli, tmp_path
):
    """Before: a configuration was coloured in alphabetical order on the cactus and in rank order on
    the critical-difference diagram, and the cactus legend lay over the curves."""
    from satedge.experiment.figures import OKABE_ITO

    d = _write(tmp_path, _rows(CONFIGS))
    code, _, _ = run_cli("report", d, "--compare", "z/fast", "a/slow", "m/slower")
    assert code == 0
    cactus = colours(d / "cactus.svg")
    assert {k: cactus[k] for k in CONFIGS} == {
        "a/slow": OKABE_ITO[0].lower(),
        "m/slower": OKABE_ITO[1].lower(),
        "q/again": OKABE_ITO[2].lower(),
        "z/fast": OKABE_ITO[3].lower(),
    }
    diagram = {k: v for k, v in colours(d / "critical-difference.svg", group=None).items() if k in CONFIGS}
    assert diagram == {k: cactus[k] for k in ("z/fast", "a/slow", "m/slower")}
    assert "band: the fastest to the slowest shuffle" in (d / "cactus.svg").read_text()
    assert box(d / "cactus.svg", "patch_2")[1] < box(d / "cactus.svg", "legend_1")[0]  # axes, then legend


def test_the_cactus_legend_names_the_band(run_cli, tmp_path):
    d = _write(tmp_path, _rows({"z/fast": fast}))
    assert run_cli("report", d)[0] == 0
    labels = [t.text for t in ElementTree.parse(d / "cactus.svg").getroot().iter(SVG + "text")]
    assert labels.count("z/fast (median of 3 shuffles)") == 1
    assert "band: the fastest to the slowest shuffle" in labels and "to solve that many instances" in labels


def test_sizes_are_per_board_size_never_averaged_across_sizes():
    """Before: one bar per encoding, the mean over 6x6 and 9x9 boards alike."""
    from satedge.experiment.figures import _sizes_figure
    from satedge.puzzle.render import pyplot

    def row(encoding, n, clauses, board):
        return {
            "encoding": encoding,
            "rows": n,
            "cols": n,
            "variables": clauses // 10,
            "clauses": clauses,
            "puzzle_sha256": board,
        }

    rows = [
        row("a", 6, 100, "p"),
        row("a", 6, 140, "q"),
        row("a", 6, 400, "r"),
        row("a", 9, 5000, "s"),
        row("b", 6, 300, "p"),
        row("b", 9, 9000, "s"),
    ]
    fig = _sizes_figure(pyplot(), rows)
    variables, clauses = fig.axes
    got = {line.get_label(): (list(line.get_xdata()), list(line.get_ydata())) for line in clauses.get_lines()}
    assert got == {"6x6 (3 boards)": ([0, 1], [140, 300]), "9x9 (1 board)": ([0, 1], [5000, 9000])}
    assert [t.get_text() for t in clauses.get_xticklabels()] == ["a", "b"]
    assert [line.get_ydata()[0] for line in variables.get_lines()] == [14, 500]


def test_two_reports_of_the_same_rows_are_the_same_files(tmp_path):
    """Before: each SVG carried its date and a random salt for its ids; the diagram's bars came in
    the order of a set, which changes with the process's hash seed."""
    rows = sized(_rows(CONFIGS, instances=8))
    for seed, name in (("1", "a"), ("2", "b")):
        (tmp_path / name).mkdir()
        d = _write(tmp_path / name, rows)
        subprocess.run(
            [sys.executable, "-m", "satedge", "report", d, "--compare", "all"],
            env={**os.environ, "PYTHONHASHSEED": seed},
            check=True,
            capture_output=True,
        )
    a, b = tmp_path / "a" / "exp", tmp_path / "b" / "exp"
    figures = sorted(f.name for f in a.iterdir() if f.suffix in (".png", ".svg", ".pdf"))
    assert figures == [
        f"{stem}.{ext}"
        for stem in ("cactus", "critical-difference", "sizes")
        for ext in ("pdf", "png", "svg")
    ]
    assert [f for f in figures if (a / f).read_bytes() != (b / f).read_bytes()] == []
