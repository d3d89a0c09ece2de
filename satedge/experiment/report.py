"""``satedge report``: per encoding x solver, what the runs of an experiment found.

A Markdown table on stdout (for solve and count tasks also the seconds per puzzle and
configuration), ``summary.csv``, and the figures of :mod:`satedge.experiment.figures`
(matplotlib, extra ``plot``): ``cactus``, ``sizes``, and with ``--compare`` ``scatter`` or
``critical-difference``, each as PNG, SVG and PDF.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..errors import SatedgeError
from ..jobs import Job, run
from ..jobs.registry import REFERENCE
from ..jobs.solver import SolverConfig
from ..puzzle.formats import load_puzzle
from ..puzzle.render import save_picture
from ..system.extras import available
from ..system.files import shown, write_atomic
from ..system.process import Limits
from . import stats
from .columns import ENCODE, STATS, SUMMARY, Column, by_key, whole
from .figures import plots
from .rows import RESULTS, SOLVED, config_of, rejected_warnings, run_time, scan_results, unique_runs
from .runner import warn_on_stderr

__all__ = [
    "PICTURE_LIMITS",
    "table",
    "summarize",
    "shown_columns",
    "per_puzzle",
    "natural",
    "markdown",
    "write_csv",
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
    warn: Callable[[str], None] = warn_on_stderr,
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


def errors_of(rows: list[dict], most: int = 10) -> str:
    """The runs that ended in an error, apart from the timeouts: how many PAR-2 left out, and the
    first line of each error (the first ``most``); empty where none did."""
    failed = sorted(
        (r for r in rows if r["status"] == "ERROR"),
        key=lambda r: (config_of(r), natural(r["puzzle_name"]), r.get("shuffle") or 0),
    )
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
