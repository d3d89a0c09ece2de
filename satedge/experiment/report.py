"""``satedge report``: per encoding x solver, what the runs of an experiment found.

A Markdown table on stdout (for solve and count tasks also the seconds per puzzle and
configuration), ``summary.csv``, and PNG + SVG plots (matplotlib, extra ``plot``):
``cactus`` (instances solved against time), ``sizes`` (formula size per encoding) and, with
``--compare A B``, ``scatter`` (time of A against time of B on the same instances), and with
``--compare A B C ...``, ``critical-difference`` (the average ranks, joined where the post-hoc
test finds no difference: scikit-posthocs' diagram).  With
shuffles the cactus shows each configuration's median curve and a band from the fastest to the
slowest shuffle, and the scatter each instance's median with whiskers over its shuffles.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import SatedgeError
from ..jobs import Job, run
from ..jobs.registry import REFERENCE
from ..jobs.solver import SolverConfig
from ..puzzle.formats import load_puzzle
from ..puzzle.render import pyplot, save_picture
from ..system.extras import available, require
from ..system.files import atomic_output, shown, write_atomic
from ..system.process import Limits
from . import stats
from .columns import ENCODE, STATS, SUMMARY, Column, by_key, whole
from .rows import RESULTS, SOLVED, config_of, rejected_warnings, run_time, scan_results, unique_runs
from .runner import warn_on_stderr

__all__ = [
    "PICTURE_LIMITS",
    "table",
    "summarize",
    "shown_columns",
    "cactus",
    "per_puzzle",
    "natural",
    "markdown",
    "write_csv",
    "plots",
    "pictures",
    "encode_table",
    "report",
    "holds_up",
    "table_of_stats",
]

PICTURE_LIMITS = Limits(timeout=60, memory_mb=2000)  # the backtracker on a board of at most 16 cells


def table(lines: dict[str, Any], columns: Sequence[Column]) -> list[dict]:
    """One dict per line (by its name: a configuration, a formula), each column's value; an
    optional column's where it has one."""
    out = []
    for name, made_of in lines.items():
        line: dict = {}
        for c in columns:
            value = name if c.value is None else c.value(made_of)
            if value is not None or not c.optional:
                line[c.key] = value
        out.append(line)
    return out


def summarize(rows: list[dict]) -> list[dict]:
    """One line per configuration (:data:`satedge.experiment.columns.SUMMARY`), best PAR-2 first."""
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(config_of(r), []).append(r)
    return sorted(
        table(groups, SUMMARY), key=lambda s: (s["par2"] is None, s["par2"] or 0.0, s["configuration"])
    )


def shown_columns(lines: list[dict], columns: Sequence[Column]) -> list[Column]:
    """The columns a table of ``lines`` shows: each, an optional one where a line has its value."""
    return [c for c in columns if not c.optional or any(c.key in line for line in lines)]


def per_puzzle(rows: list[dict], summary: list[dict]) -> tuple[list[dict], list[str]]:
    """Seconds per puzzle (rows, by name; by file where two files share a name) and configuration
    (columns, in the order of ``summary``, the :func:`summarize` of ``rows``): the mean over
    repetitions and shuffles when every run finished, the status when none did, and else
    ``"K of N: S"``, K of the N runs finished, their median seconds S."""
    configs = [s["configuration"] for s in summary]
    names: dict[str, set[str]] = {}
    for r in rows:
        names.setdefault(r["puzzle_name"], set()).add(r["puzzle"])
    runs: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        label = r["puzzle_name"] if len(names[r["puzzle_name"]]) == 1 else r["puzzle"]
        runs.setdefault((label, config_of(r)), []).append(r)
    table: dict[str, dict] = {}
    for (label, config), rs in sorted(runs.items(), key=lambda item: (natural(item[0][0]), item[0][1])):
        done = [run_time(r) for r in rs if r["status"] in SOLVED]
        cell: Any
        if len(done) == len(rs):
            cell = round(statistics.fmean(done), 1)
        else:
            cell = f"{len(done)} of {len(rs)}: {statistics.median(done):.1f}" if done else rs[0]["status"]
        scores = [r["score"] for r in rs if r.get("task") == "maximize" and r.get("score") is not None]
        if scores:  # a best board: its score (the median over runs), * where every run proved it
            proved = "*" if len(done) == len(rs) else ""
            cell = f"{whole(statistics.median(scores))}{proved} ({cell}{' s' if proved else ''})"
        table.setdefault(label, {"puzzle": label})[config] = cell
    return list(table.values()), ["puzzle"] + configs


def natural(name: str) -> tuple:
    """A key that orders names as a reader does: the numbers in them by value (s2 before s10).

    >>> sorted(["s10", "s2", "s1"], key=natural)
    ['s1', 's2', 's10']
    """
    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", name) if part
    )


def markdown(lines: list[dict], columns: Sequence[Column | str] | None = None) -> str:
    """A Markdown table of ``columns`` (declared ones, or their keys; default: the summary's
    that ``lines`` have) of ``lines``, headed in words."""
    given = shown_columns(lines, SUMMARY) if columns is None else columns
    cols = [by_key(c) if isinstance(c, str) else c for c in given]

    def cell(v: Any) -> str:
        return "-" if v is None else f"{v:,}" if isinstance(v, int) else str(v)

    out = ["| " + " | ".join(c.heading for c in cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(cell(line.get(c.key)) for c in cols) + " |" for line in lines]
    return "\n".join(out)


def write_csv(lines: list[dict], path: Path, columns: Sequence[Column]) -> None:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=[c.key for c in columns])
    w.writeheader()
    w.writerows(lines)
    write_atomic(path, buf.getvalue())


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


def plain_log_ticks(axis, low: float, high: float) -> None:
    """Ticks of a log axis as plain numbers (``0.5``, ``2``, ``10``) at 1, 2 and 5 of each decade,
    at 1 alone over more than three decades, and no labels on the minor ticks: matplotlib's
    own labels of a short span (``3x10^0`` beside ``4x10^0``) run into each other."""
    ticker = require("matplotlib.ticker")
    wide = high > 0 and low > 0 and math.log10(high / low) > 3
    axis.set_major_locator(ticker.LogLocator(subs=(1.0,) if wide else (1.0, 2.0, 5.0)))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(ticker.NullFormatter())


def plots(
    rows: list[dict], out: Path, compare: tuple[str, ...] | None = None, many: dict | None = None
) -> list[Path]:
    """Cactus, size and (with two configurations to ``compare``) scatter plots, and the
    critical-difference diagram of ``many`` (:func:`satedge.experiment.stats.compare_many`), as
    PNG and SVG; the files written."""
    plt = pyplot()
    written: list[Path] = []

    def save(fig, stem: str) -> None:
        for ext in ("png", "svg"):
            f = out / f"{stem}.{ext}"
            with atomic_output(f) as tmp:
                fig.savefig(tmp, dpi=150, bbox_inches="tight")
            written.append(f)
        plt.close(fig)

    timeout = max(r["timeout"] for r in rows)
    fig, ax = plt.subplots(figsize=(8, 5))
    for name, c in cactus(rows).items():
        if not c["median"]:
            continue
        (line,) = ax.step(
            range(1, len(c["median"]) + 1),
            c["median"],
            where="post",
            marker=".",
            label=name + (f" (median of {c['shuffles']} shuffles)" if c["shuffles"] > 1 else ""),
        )
        if c["shuffles"] > 1:
            ax.fill_between(
                range(1, len(c["low"]) + 1),
                c["low"],
                [min(h, timeout) for h in c["high"]],
                step="post",
                alpha=0.2,
                color=line.get_color(),
            )
    ax.set_xlabel("instances solved")
    ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))  # no "1.25 instances"
    ax.set_ylabel("time per instance (s, log scale)")
    ax.set_yscale("log")
    ax.set_title(f"Cactus plot: {rows[0].get('experiment', out.name)} (timeout {timeout:g} s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left")
    save(fig, "cactus")

    sized = [r for r in rows if r.get("variables") and r.get("clauses")]
    encodings = sorted({r["encoding"] for r in sized})
    if encodings:
        fig, ax = plt.subplots(figsize=(8, 4))
        clauses = [statistics.fmean(r["clauses"] for r in sized if r["encoding"] == e) for e in encodings]
        variables = [statistics.fmean(r["variables"] for r in sized if r["encoding"] == e) for e in encodings]
        places = range(len(encodings))
        ax.bar([x - 0.2 for x in places], variables, width=0.4, label="variables")
        ax.bar([x + 0.2 for x in places], clauses, width=0.4, label="clauses")
        ax.set_xticks(list(places), encodings, rotation=20, ha="right", fontsize=8)
        ax.set_yscale("log")
        ax.set_ylabel("mean over the instances (log scale)")
        ax.set_title("Formula size per encoding")
        ax.legend()
        ax.grid(True, axis="y", which="both", alpha=0.3)
        save(fig, "sizes")

    if many is not None:
        save(critical_difference(many), "critical-difference")
    if compare and len(compare) == 2:
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
        ax.set_title(f"{len(common)} instances ({what}); timeouts at {timeout:g} s", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        save(fig, "scatter")
    return written


def pictures(rows: list[dict], out: Path, with_png: bool) -> list[Path]:
    """The first solution of every small puzzle file in the experiment (the seed puzzles among them),
    drawn into ``out/pictures/``."""
    written = []
    files = sorted({r["puzzle"] for r in rows if not r["puzzle"].startswith("generated:")})
    stems = [Path(f).stem for f in files]
    for path in files:
        if not Path(path).exists() or not any(r["puzzle"] == path and r["status"] == "SAT" for r in rows):
            continue
        puzzle = load_puzzle(path)
        if puzzle.n > 16:
            continue
        found = run(Job(puzzle, solver=SolverConfig(engine=REFERENCE), limit=1, limits=PICTURE_LIMITS))
        if not found.solutions:
            continue
        solution = found.solutions[0]
        (out / "pictures").mkdir(exist_ok=True)
        stem = Path(path).stem
        if stems.count(stem) > 1:  # files of one name in two folders: one picture each
            stem += "-" + hashlib.sha256(path.encode()).hexdigest()[:8]
        for ext in (".svg", ".png") if with_png else (".svg",):
            f = out / "pictures" / (stem + ext)
            save_picture(puzzle, solution, f)
            written.append(f)
    return written


def encode_table(rows: list[dict]) -> list[dict]:
    """For ``task: encode``: one line per puzzle x encoding (:data:`satedge.experiment.columns.ENCODE`),
    smallest boards first."""
    ordered = sorted(rows, key=lambda r: (r["rows"] * r["cols"], r["puzzle_name"], r["encoding"]))
    return table({str(k): r for k, r in enumerate(ordered)}, ENCODE)


def report(
    out: str | Path,
    compare: tuple[str, ...] | None = None,
    with_plots: bool = True,
    warn=warn_on_stderr,
    posthoc: str = "holm",
) -> tuple[str, list[Path]]:
    """The Markdown table (also ``summary.csv``) and the plots of an experiment folder; ``warn``
    is called with each warning (lines that do not parse, run ids found twice).  ``compare``: two
    configurations (the paired verdict and a scatter plot), three or more, or ``("all",)``: every
    configuration (the Friedman test, ``posthoc``'s pairwise verdicts and the critical-difference
    diagram)."""
    out = Path(out)
    rows, rejected = scan_results(out / RESULTS)
    for message in rejected_warnings(out / RESULTS, rejected, "left out"):
        warn(message)
    rows, repeated = unique_runs(rows)
    if repeated:
        warn(
            f"{out / RESULTS}: {repeated} row{'s' * (repeated != 1)} repeat a run id found before: each run "
            "is counted once (were two runners writing here?)"
        )
    if not rows:
        raise SatedgeError(f"no results in {out / RESULTS}")
    if with_plots and not available("matplotlib"):  # the tables still: the plots need an extra
        warn(
            "no plots: they need matplotlib, the extra plot (pip install 'satedge[plot]'); the tables follow"
        )
        with_plots = False
    configs = sorted({config_of(r) for r in rows})
    if compare == ("all",):
        compare = tuple(configs)
    for name in compare or ():  # checked before anything is written
        if name not in configs:
            raise SatedgeError(f"--compare: no configuration {shown(name)}; there are {', '.join(configs)}")
    if all(r["task"] == "encode" for r in rows):
        formulas = encode_table(rows)
        write_csv(formulas, out / "summary.csv", ENCODE)
        files = plots(rows, out) if with_plots else []
        return markdown(formulas, ENCODE), files
    summary = summarize(rows)
    columns = shown_columns(summary, SUMMARY)
    printed = columns  # the engines that maximize report no conflicts: no column of dashes
    if all(r["task"] == "maximize" for r in rows) and not any(s.get("conflicts") for s in summary):
        printed = [c for c in columns if c.key != "conflicts"]
    many = (
        stats.compare_many(stats.frame(rows), list(compare), posthoc)
        if compare and len(compare) > 2
        else None
    )
    extra = holds_up(rows, compare, many)  # before anything is written: a missing extra stops here
    write_csv(summary, out / "summary.csv", columns)
    files = plots(rows, out, compare, many) + pictures(rows, out, with_png=True) if with_plots else []
    if many is not None and with_plots:
        extra += "\n\n![Critical-difference diagram: the average ranks](critical-difference.svg)"
    seconds, puzzle_columns = per_puzzle(rows, summary)
    return (
        SUMMARY_NOTE
        + markdown(summary, printed)
        + errors_of(rows)
        + own_encodings(rows)
        + extra
        + PER_PUZZLE_NOTE
        + (SCORED_NOTE if any(r["task"] == "maximize" for r in rows) else "")
        + markdown(seconds, [Column(c, c) for c in puzzle_columns]),
        files,
    )


SUMMARY_NOTE = (
    "Per configuration (encoding/solver), over all its runs. A run's time is encode + solve (a compiled "
    "loop's compile apart); its PAR-2 is that time when it solved and twice the time limit when it ran out "
    "of time or memory, and PAR-2 per run is the mean. A run that ended in an error (the engine's failure, "
    "counted under errors and listed below the table) has no time: PAR-2 leaves it out.\n\n"
)
PER_PUZZLE_NOTE = (
    "\n\nSeconds per puzzle (encode + solve): the mean over the puzzle's runs (shuffles, repetitions) "
    "when every one solved it; `k of n: s` when k of its n runs did, s their median; else how its "
    "runs ended.\n\n"
)
SCORED_NOTE = (  # of a report of best boards, after PER_PUZZLE_NOTE
    "Of a best board, its score comes first: the median over its runs, `*` where every run proved it "
    "optimal.\n\n"
)


def holds_up(rows: list[dict], compare: tuple[str, ...] | None, many: dict | None = None) -> str:
    """The report's statistics (:mod:`.stats`): per configuration, intervals and the spread across
    shuffles, and with two configurations to ``compare`` the paired verdict, with ``many`` (of
    three or more) the Friedman test and the pairwise verdicts.  Without the extra ``stats`` they are left
    out, unless ``compare`` asks for them (then its one-line error names the extra)."""
    if compare is None and not (available("scipy") and available("pandas")):
        return "\n\n(Intervals and comparisons need the extra stats: pip install 'satedge[stats]'.)"
    df = stats.frame(rows)
    lines = stats.summary(df)
    shuffled = any(row["shuffles"] for row in lines)
    text = (
        "\n\nWhat holds up: an instance is a puzzle, scored by the median PAR-2 of its runs; a configuration "
        "by the mean over its instances, with a bootstrap 95% interval over them, and the instances it "
        "solved, each counted as the share of its runs that solved it, with a bootstrap 95% interval over the "
        "instances (a puzzle's shuffled runs are not independent draws)"
        + (
            "; per shuffle: the mean PAR-2 of each shuffle's runs, its median and range over the shuffles"
            if shuffled
            else ""
        )
        + ".\n\n"
    )
    cells = table_of_stats(lines)
    text += markdown(cells, shown_columns(cells, STATS))
    if many is not None:
        text += "\n\n" + stats.describe_many(many)
    elif compare is not None:
        text += "\n\n" + stats.describe(stats.compare(df, *compare))
    return text


def critical_difference(many: dict):
    """The critical-difference diagram of a comparison of several configurations (scikit-posthocs'
    ``critical_difference_diagram``): each configuration at its average rank, those the post-hoc
    test does not tell apart joined by a bar."""
    plt, pd, sp = pyplot(), require("pandas"), require("scikit_posthocs")
    names = many["configurations"]
    p = pd.DataFrame(1.0, index=names, columns=names)
    for pair in many["pairs"]:
        p.loc[pair["a"], pair["b"]] = p.loc[pair["b"], pair["a"]] = pair["p_value"]
    fig, ax = plt.subplots(figsize=(8, 0.6 + 0.35 * len(names)))
    sp.critical_difference_diagram(pd.Series(many["ranks"]), p, ax=ax)
    ax.set_title(
        f"Average ranks over {many['instances']} instances (1: the lowest PAR-2); Friedman p = "
        f"{many['friedman']['p_value']:.3g}; joined: no difference at 5% ({many['posthoc']})",
        fontsize=8,
    )
    return fig


def errors_of(rows: list[dict], most: int = 10) -> str:
    """The runs that ended in an error, apart from the timeouts: how many PAR-2 left out, and the
    first line of each error (the first ``most``); empty where none did."""
    failed = [r for r in rows if r["status"] == "ERROR"]
    if not failed:
        return ""
    lines = [
        f"- `{config_of(r)}` on {r['puzzle_name']}: {(r.get('error') or 'no message').splitlines()[0]}"
        for r in failed[:most]
    ]
    more = [f"- and {len(failed) - most} more"] if len(failed) > most else []
    return (
        f"\n\n{len(failed)} of {len(rows)} runs ended in an error, which PAR-2 leaves out; the first "
        "line of each:\n\n" + "\n".join(lines + more)
    )


def own_encodings(rows: list[dict]) -> str:
    """A line naming each base encoding of the user's among the rows with the sha256 of its file
    (a name alone does not say which version of a file ran); empty where there is none."""
    own = sorted({(r["encoding"], r["encoding_sha256"]) for r in rows if r.get("encoding_sha256")})
    if not own:
        return ""
    return (
        "\n\nEncodings of your own, by the sha256 of their files: "
        + "; ".join(f"`{name}` {sha256}" for name, sha256 in own)
        + "."
    )


def table_of_stats(lines: list[dict]) -> list[dict]:
    """What holds up, one line per configuration (:data:`satedge.experiment.columns.STATS`)."""
    return table({line["configuration"]: line for line in lines}, STATS)
