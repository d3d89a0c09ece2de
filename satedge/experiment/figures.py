"""The figures of a report (matplotlib, extra ``plot``), fit for a paper.

* ``cactus``: per configuration, instances solved against time (log scale); with shuffles its
  median curve and a band from the fastest to the slowest shuffle at each count;
* ``sizes``: per encoding, the formula's variables and clauses (log scale), one marker per board
  size, the median over the boards of that size (never a mean over boards of different sizes);
* ``scatter`` (two configurations to compare): A's time against B's per instance, the median of
  its runs with whiskers over them, timeouts at the limit;
* ``critical-difference`` (three or more): the average ranks, joined where the post-hoc test
  finds no difference (scikit-posthocs' diagram).

Each configuration keeps one colour (and marker and line style) in every figure of a report:
the Okabe-Ito palette, which readers with any common colour blindness tell apart, given to the
configurations in the order of their names.  Legends sit beside the axes, never over the data,
and name every band and marker.  Each figure is written as PNG, SVG and PDF, and the same rows
give the same bytes: no dates, a fixed hash salt for the SVG's ids.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..puzzle.render import pyplot
from ..system.extras import require
from ..system.files import atomic_output
from .rows import SOLVED, config_of, run_time

__all__ = [
    "OKABE_ITO",
    "FORMATS",
    "Style",
    "styles",
    "cactus",
    "plain_log_ticks",
    "plots",
    "critical_difference",
]

# Okabe & Ito (2008), "Color Universal Design": orange, sky blue, bluish green, yellow, blue,
# vermillion, reddish purple, black
OKABE_ITO = ("#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DASHES = ("-", "--", ":", "-.")
FORMATS = ("png", "svg", "pdf")
# what each format would otherwise stamp with the time it was written
NO_DATES = {"png": {}, "svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}}
SALT = "satedge"  # the SVG's element ids come from it, not from a random salt


Style = dict  # matplotlib's keywords of a configuration's line: color, marker, linestyle


def styles(configs: Iterable[str]) -> dict[str, Style]:
    """Each configuration's colour, marker and line style, given in the order of the names: the
    colours of the palette first, then the same colours with the next marker and line style.

    >>> s = styles(["b/x", "a/x"])
    >>> s["a/x"]["color"], s["b/x"]["color"]
    ('#E69F00', '#56B4E9')
    >>> styles(f"e{i:02}/s" for i in range(9))["e08/s"]
    {'color': '#E69F00', 'marker': 's', 'linestyle': '--'}
    """
    out = {}
    for i, name in enumerate(sorted(set(configs))):
        turn = i // len(OKABE_ITO)
        out[name] = {
            "color": OKABE_ITO[i % len(OKABE_ITO)],
            "marker": MARKERS[turn % len(MARKERS)],
            "linestyle": DASHES[turn % len(DASHES)],
        }
    return out


def cactus(rows: list[dict]) -> dict[str, dict]:
    """Per configuration, its cactus curve: a curve per shuffle (its solved runs' times, sorted),
    and at each position k their ``median`` (a shuffle that solved fewer than k counts as not
    done: the median curve stops where the median shuffle stops), the ``low`` and ``high`` of a
    band over the shuffles that solved k (``high`` infinite where one did not), and how many
    ``shuffles``.

    >>> rows = [{"encoding": "e", "solver": "s", "shuffle": s, "status": "SAT" if i < n else "TIMEOUT",
    ...          "encode_seconds": 0, "solve_seconds": i + s} for s, n in ((1, 3), (2, 1), (3, 2)) for i in range(3)]
    >>> c = cactus(rows)["e/s"]
    >>> c["median"], c["low"], c["high"], c["shuffles"]
    ([2.0, 4.0], [1.0, 2.0, 3.0], [3.0, inf, inf], 3)
    """
    out = {}
    for name in sorted({config_of(r) for r in rows}):
        per_shuffle: dict = {}
        for r in rows:
            if config_of(r) == name:
                per_shuffle.setdefault(r.get("shuffle"), [])
                if r["status"] in SOLVED:
                    per_shuffle[r.get("shuffle")].append(run_time(r))
        curves = [sorted(t) for t in per_shuffle.values()]
        depth = max(map(len, curves), default=0)
        kth = [[c[k] if len(c) > k else math.inf for c in curves] for k in range(depth)]
        medians = [statistics.median(t) for t in kth]
        out[name] = {
            "median": [m for m in medians if m != math.inf],
            "low": [min(t) for t in kth],
            "high": [max(t) for t in kth],
            "shuffles": len(curves),
        }
    return out


def plain_log_ticks(axis: Any, low: float, high: float) -> None:
    """Ticks of a log axis as plain numbers (``0.5``, ``2``, ``10``) at 1, 2 and 5 of each decade,
    at 1 alone over more than three decades, and no labels on the minor ticks: matplotlib's
    own labels of a short span (``3x10^0`` beside ``4x10^0``) run into each other."""
    ticker = require("matplotlib.ticker")
    wide = high > 0 and low > 0 and math.log10(high / low) > 3
    axis.set_major_locator(ticker.LogLocator(subs=(1.0,) if wide else (1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def _beside(ax: Any, **kwargs: Any) -> None:
    """The legend to the right of the axes, outside them: never over a curve or a bar."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=7, **kwargs)


def plots(
    rows: list[dict], out: Path, compare: tuple[str, ...] | None = None, many: dict | None = None
) -> list[Path]:
    """The report's figures of ``rows`` into the folder ``out`` (module docstring): cactus and
    sizes, the scatter of the two configurations to ``compare``, and the critical-difference
    diagram of ``many`` (:func:`satedge.experiment.stats.compare_many`); the files written."""
    plt = pyplot()
    written: list[Path] = []
    style = styles(config_of(r) for r in rows)

    def save(fig: Any, stem: str) -> None:
        with plt.rc_context({"svg.hashsalt": SALT, "svg.fonttype": "none"}):
            for ext in FORMATS:
                f = out / f"{stem}.{ext}"
                with atomic_output(f) as tmp:
                    fig.savefig(tmp, format=ext, dpi=150, bbox_inches="tight", metadata=NO_DATES[ext])
                written.append(f)
        plt.close(fig)

    timeout = max(r["timeout"] for r in rows)
    save(_cactus_figure(plt, rows, style, timeout, out.name), "cactus")
    sizes = _sizes_figure(plt, rows)
    if sizes is not None:
        save(sizes, "sizes")
    if many is not None:
        save(critical_difference(many, style), "critical-difference")
    if compare and len(compare) == 2:
        save(_scatter_figure(plt, rows, compare, timeout), "scatter")
    return written


def _cactus_figure(plt: Any, rows: list[dict], style: dict[str, Style], timeout: float, folder: str) -> Any:
    patches = require("matplotlib.patches")
    fig, ax = plt.subplots(figsize=(8, 5))
    banded = False
    for name, c in cactus(rows).items():
        if not c["median"]:
            continue
        ax.step(
            range(1, len(c["median"]) + 1),
            c["median"],
            where="post",
            markersize=3,
            label=name + (f" (median of {c['shuffles']} shuffles)" if c["shuffles"] > 1 else ""),
            **style[name],
        )
        if c["shuffles"] > 1:
            banded = True
            ax.fill_between(
                range(1, len(c["low"]) + 1),
                c["low"],
                [min(h, timeout) for h in c["high"]],
                step="post",
                alpha=0.2,
                color=style[name]["color"],
                linewidth=0,
            )
    ax.set_xlabel("instances solved")
    ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))  # no "1.25 instances"
    ax.set_ylabel("time per instance (s, log scale)")
    ax.set_yscale("log")
    ax.set_title(f"Cactus plot: {rows[0].get('experiment', folder)} (timeout {timeout:g} s)")
    ax.grid(True, which="both", alpha=0.3)
    handles, _ = ax.get_legend_handles_labels()
    if banded:  # one entry says what every band is
        handles.append(
            patches.Patch(
                facecolor="grey",
                alpha=0.3,
                label="band: the fastest to the slowest shuffle\nto solve that many instances",
            )
        )
    if handles:
        _beside(ax, handles=handles)
    return fig


def _sizes_figure(plt: Any, rows: list[dict]) -> Any:
    """Per encoding, variables and clauses, one marker per board size (rows x cols), each the
    median over the boards of that size; ``None`` where no row has a formula's size."""
    sized = [r for r in rows if r.get("variables") and r.get("clauses") and r.get("rows") and r.get("cols")]
    if not sized:
        sized = [r for r in rows if r.get("variables") and r.get("clauses")]
    if not sized:
        return None
    encodings = sorted({r["encoding"] for r in sized})
    shapes = sorted(
        {(r.get("rows"), r.get("cols")) for r in sized}, key=lambda s: ((s[0] or 0) * (s[1] or 0), s)
    )
    ramp = require("matplotlib").colormaps["cividis"]  # one lightness per size: read in grey too
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharex=True)
    for k, shape in enumerate(shapes):
        mine = [r for r in sized if (r.get("rows"), r.get("cols")) == shape]
        boards = len({r.get("puzzle_sha256", r.get("puzzle")) for r in mine})
        label = (
            f"{shape[0]}x{shape[1]}" if shape[0] else "boards"
        ) + f" ({boards} board{'s' * (boards != 1)})"
        for ax, key in zip(axes, ("variables", "clauses")):
            xs, ys = [], []
            for i, e in enumerate(encodings):
                values = [r[key] for r in mine if r["encoding"] == e]
                if values:
                    xs.append(i)
                    ys.append(statistics.median(values))
            ax.plot(
                xs,
                ys,
                linestyle="none",
                marker=MARKERS[k % len(MARKERS)],
                color=ramp(0.15 + 0.7 * k / max(1, len(shapes) - 1)),
                label=label,
            )
    for ax, key in zip(axes, ("variables", "clauses")):
        ax.set_xticks(range(len(encodings)), encodings, rotation=30, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_title(key)
        ax.grid(True, axis="y", which="both", alpha=0.3)
    axes[0].set_ylabel("median over the boards of a size (log scale)")
    fig.suptitle("Formula size per encoding and board size")
    _beside(axes[1], title="board size")
    return fig


def _scatter_figure(plt: Any, rows: list[dict], compare: tuple[str, ...], timeout: float) -> Any:
    a, b = compare

    def times_of(config: str) -> dict:  # per instance: the seconds of its runs (shuffles, repetitions)
        times: dict = {}
        for r in rows:
            if config_of(r) == config:
                times.setdefault(r["puzzle_sha256"], []).append(
                    run_time(r) if r["status"] in SOLVED else timeout
                )
        return times

    def spread(config: str) -> dict:  # per instance: median, min and max over its runs
        return {k: (statistics.median(v), min(v), max(v)) for k, v in times_of(config).items()}

    ta, tb = spread(a), spread(b)
    common = sorted(set(ta) & set(tb))
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    xs, ys = [ta[k][0] for k in common], [tb[k][0] for k in common]
    ax.errorbar(
        xs,
        ys,
        xerr=[[ta[k][0] - ta[k][1] for k in common], [ta[k][2] - ta[k][0] for k in common]],
        yerr=[[tb[k][0] - tb[k][1] for k in common], [tb[k][2] - tb[k][0] for k in common]],
        fmt="o",
        color="black",
        markersize=4,
        elinewidth=0.8,
        capsize=2,
    )  # whiskers: the range over its runs
    lo = max(1e-3, min(xs + ys + [timeout]) / 2)
    ax.plot([lo, timeout * 1.2], [lo, timeout * 1.2], color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        plain_log_ticks(axis, lo, timeout * 1.2)
    ax.set_xlabel(f"{a} (s)")
    ax.set_ylabel(f"{b} (s)")
    runs = max(len(v) for v in times_of(a).values()) if common else 1
    spread_of = "shuffles" if any(r.get("shuffle") is not None for r in rows) else "repetitions"
    what = f"median, whiskers: range over {spread_of}" if runs > 1 else "one run each"
    ax.set_title(
        f"{len(common)} instances ({what});\ntimeouts at {timeout:g} s; grey line: equal times, "
        f"above it {b} is slower",
        fontsize=9,
    )
    ax.grid(True, which="both", alpha=0.3)
    return fig


def critical_difference(many: dict, style: dict[str, Style] | None = None) -> Any:
    """The critical-difference diagram of a comparison of several configurations (scikit-posthocs'
    ``critical_difference_diagram``): each configuration at its average rank, in its colour of
    ``style`` (:func:`styles` of the configurations compared, by default), those the post-hoc test
    does not tell apart joined by a bar."""
    plt, pd, sp = pyplot(), require("pandas"), require("scikit_posthocs")
    names = many["configurations"]
    style = style or styles(names)
    p = pd.DataFrame(1.0, index=names, columns=names)
    for pair in many["pairs"]:
        p.loc[pair["a"], pair["b"]] = p.loc[pair["b"], pair["a"]] = pair["p_value"]
    fig, ax = plt.subplots(figsize=(8, 0.6 + 0.35 * len(names)))
    drawn = sp.critical_difference_diagram(
        pd.Series(many["ranks"]), p, ax=ax, color_palette={n: style[n]["color"] for n in names}
    )
    for bar in drawn.get("crossbars", []):  # its points come in a set's order, which varies by process
        for line in bar:
            xs, ys = line.get_data()
            line.set_data(*zip(*sorted(zip(xs, ys))))
    ax.set_title(
        f"Average ranks over {many['instances']} instances (1: the lowest PAR-2); Friedman p = "
        f"{many['friedman']['p_value']:.3g}; joined: no difference at 5% ({many['posthoc']})",
        fontsize=8,
    )
    return fig
