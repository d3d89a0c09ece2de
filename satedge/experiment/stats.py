"""What holds up: an experiment's rows as a pandas DataFrame, intervals per configuration, a
paired comparison of two configurations, and of several at once (scipy; extra ``stats``: pandas
and scikit-posthocs).

A run scores its time (encode + solve) when solved and twice its time limit otherwise (PAR-2,
as the SAT competitions rank).  An instance is a puzzle (its sha256); its score under a
configuration is the median over its shuffles and repetitions, so that one lucky presentation
does not decide.  Intervals are 95% bootstraps over instances, never over runs (a puzzle's
shuffled runs are not independent draws): of the instances solved (each counted as the share of its
runs that solved it), of PAR-2 and, paired, of the ratio of two configurations' PAR-2; the paired test is the
Wilcoxon signed-rank test on the instances' scores.  Several configurations are compared as the
field compares solvers over shared instances (Demšar, JMLR 2006): the Friedman test across all of
them, then each pair by a post-hoc test with a correction (Holm's on the pairwise Wilcoxon tests by
default, or the Nemenyi or Conover test after Friedman's), and a critical-difference diagram of
their average ranks.  Resampling is seeded: the same rows give the same figures.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SatedgeError
from ..system.extras import require
from ..system.files import shown
from .rows import RESULTS, SOLVED, config_of, par2, read_results, run_time, unique_runs

__all__ = [
    "LEVEL",
    "RESAMPLES",
    "SEED",
    "POSTHOCS",
    "frame",
    "load_results",
    "summary",
    "compare",
    "compare_many",
    "describe",
    "describe_many",
]

LEVEL = 0.95
RESAMPLES = 9999
SEED = 2026
# the post-hoc tests of several configurations: Holm's correction of the pairwise Wilcoxon tests,
# or Nemenyi's or Conover's test on the Friedman ranks (Conover's p-values Holm-corrected too)
POSTHOCS = ("holm", "nemenyi", "conover")


def _libs() -> tuple[Any, Any]:
    """scipy.stats and numpy (both in the core)."""
    return require("scipy.stats"), np


class _Rows(list):
    """The runs a DataFrame was made from, kept in its ``attrs``: pandas deep-copies ``attrs`` at
    every operation (each selection, each groupby), which for a study's thousand rows cost the
    report most of its time; these are read only, so a copy is the same list."""

    def __deepcopy__(self, memo: dict) -> _Rows:
        return self


def frame(rows: list[dict]) -> Any:
    """One DataFrame row per run (each run id once), with ``config``, ``seconds`` and ``par2``."""
    pd = require("pandas")
    rows, _ = unique_runs(rows)
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    if "shuffle" not in df:
        df["shuffle"] = None
    df["config"] = [config_of(r) for r in rows]
    df["seconds"] = [run_time(r) for r in rows]
    df["par2"] = [par2([r]) for r in rows]
    df["solved"] = df["status"].isin(SOLVED)
    df.attrs["rows"] = _Rows(rows)  # the runs as they were read: PAR-2 per instance is computed from them
    return df


def load_results(folder: str | Path) -> Any:
    """The runs of an experiment folder (its ``results.jsonl``) as a pandas DataFrame, one row
    per run: every field of the rows, and ``config`` (``ENCODING/SOLVER``), ``seconds``, ``par2``
    and ``solved``.  Lines that do not parse are left out, as ``report`` leaves them."""
    return frame(read_results(Path(folder) / RESULTS))


def _instances(df: Any, config: str) -> Any:
    """Per instance (puzzle sha256), the median PAR-2 score over shuffles and repetitions."""
    return df[df["config"] == config].groupby("puzzle_sha256")["par2"].median().dropna()


def _bootstrap(
    data: tuple, statistic: Callable[..., Any], paired: bool, level: float = LEVEL
) -> list[float] | None:
    stats, np = _libs()
    if len(data[0]) < 2:
        return None
    res = stats.bootstrap(
        data,
        statistic,
        paired=paired,
        vectorized=True,
        confidence_level=level,
        n_resamples=RESAMPLES,
        method="percentile",
        random_state=np.random.default_rng(SEED),
    )
    low, high = res.confidence_interval
    return [round(float(low), 4), round(float(high), 4)]


def summary(df: Any) -> list[dict]:
    """Per configuration: runs and instances; the instances solved, each counted as the share of
    its runs (shuffles, repetitions) that solved it, with a bootstrap 95% interval over instances;
    PAR-2 (mean over instances of their scores) with a bootstrap 95% interval over instances;
    and the PAR-2 of each shuffle's runs: its median and range across shuffles.  Intervals are
    over instances, never over runs: the shuffled runs of one instance are not independent."""
    stats, np = _libs()
    out = []
    for config, runs in df.groupby("config", sort=False):
        inst = _instances(df, config)
        mine = [r for r in df.attrs["rows"] if config_of(r) == config]
        scored = runs[runs["status"] != "ERROR"]  # an error is no measurement: PAR-2 leaves it out too
        shares = scored.groupby("puzzle_sha256")["solved"].mean().to_numpy(dtype=float)
        k, n = int(runs["solved"].sum()), len(runs)
        solved_ci = _bootstrap((shares,), lambda x, axis=-1: np.sum(x, axis=axis), paired=False)
        shuffles = (
            runs.groupby(runs["shuffle"].fillna(-1))["par2"].mean() if runs["shuffle"].notna().any() else None
        )
        out.append(
            {
                "configuration": config,
                "runs": n,
                "instances": len(inst),
                "solved": k,
                "solved_instances": round(float(shares.sum()), 2),
                "solved_ci": solved_ci,
                "par2": round(par2(mine, per="instance"), 3),
                "par2_ci": _bootstrap(
                    (inst.to_numpy(),), lambda x, axis=-1: np.mean(x, axis=axis), paired=False
                ),
                "shuffles": 0 if shuffles is None else len(shuffles),
                "par2_shuffle_median": None if shuffles is None else round(float(shuffles.median()), 3),
                "par2_shuffle_range": None
                if shuffles is None
                else [round(float(shuffles.min()), 3), round(float(shuffles.max()), 3)],
            }
        )
    return sorted(out, key=lambda s: (s["par2"], s["configuration"]))


def compare(df: Any, a: str, b: str) -> dict:
    """B against A over the instances both ran: the ratio of B's PAR-2 to A's with a paired
    bootstrap 95% interval, the Wilcoxon signed-rank test's p-value, the verdict ``better``:
    ``"a"`` (B's PAR-2 is higher), ``"b"`` or ``None`` at the 5% level, and ``disagree``: why the
    interval and the test say different things, where they do (:func:`disagreement`)."""
    if a == b:
        raise SatedgeError(f"--compare names {shown(a)} twice: compare two configurations")
    stats, np = _libs()
    configs = set(df["config"]) if not df.empty else set()
    for name in (a, b):
        if name not in configs:
            raise SatedgeError(
                f"--compare: no configuration {shown(name)}; there are {', '.join(sorted(configs))}"
            )
    xa, xb = _instances(df, a), _instances(df, b)
    shared = sorted(set(xa.index) & set(xb.index))
    if not shared:
        raise SatedgeError(f"--compare: {a} and {b} ran no instance in common")
    va, vb = xa[shared].to_numpy(dtype=float), xb[shared].to_numpy(dtype=float)
    mean_a = float(va.mean())
    ratio, ci = _ratio(va, vb)
    differences = vb - va
    p = 1.0 if not np.any(differences) else float(stats.wilcoxon(va, vb).pvalue)
    better = None
    if p < 1 - LEVEL and ratio is not None and ratio != 1:
        better = "a" if ratio > 1 else "b"
    return {
        "a": a,
        "b": b,
        "instances": len(shared),
        "ratio": ratio,
        "ci": ci,
        "p_value": round(p, 6),
        "better": better,
        "disagree": disagreement(ci, better, len(shared), 1),
        "par2_a": round(mean_a, 3),
        "par2_b": round(float(vb.mean()), 3),
        "method": "PAR-2 per instance: median over shuffles; ratio B/A of the means, paired bootstrap 95% "
        "(percentile, 9999 resamples, seeded); Wilcoxon signed-rank, two-sided",
    }


def describe(c: dict) -> str:
    """A comparison in one paragraph, as the report prints it."""
    ci = "" if c["ci"] is None else f" (95% interval {c['ci'][0]:.2f} to {c['ci'][1]:.2f})"
    ratio = "undefined" if c["ratio"] is None else f"{c['ratio']:.2f}"
    verdict = {"a": f"{c['a']} is better", "b": f"{c['b']} is better", None: "no difference at the 5% level"}[
        c["better"]
    ]
    return (
        f"{c['b']} against {c['a']} over {c['instances']} instances: PAR-2 {c['par2_b']} against {c['par2_a']}, "
        f"ratio {ratio}{ci}; Wilcoxon signed-rank p = {c['p_value']:.4g}: {verdict}."
        + (f" {c['disagree']}" if c.get("disagree") else "")
    )


def disagreement(ci: list[float] | None, better: str | None, instances: int, pairs: int) -> str | None:
    """Why an interval of a ratio and the (corrected) test of the same pair say different things,
    where they do: the interval excludes 1 and the test finds no difference, or the other way
    round; ``None`` where they agree.  The usual cause is the instances' number: the Wilcoxon
    signed-rank test of ``n`` instances gives no two-sided p below ``2 / 2^n``, which a
    correction over ``pairs`` multiplies, whatever the times; the interval is of the ratio of
    mean PAR-2s, which a few long instances move.

    >>> print(disagreement([1.06, 1.69], None, 5, 3)[-73:])
    Wilcoxon test can give is 2/2^5 = 0.0625, above 5% before any correction.
    """
    if ci is None:
        return None
    excludes = ci[0] > 1 or ci[1] < 1
    if excludes == (better is not None):
        return None
    least = 2 / 2**instances
    if excludes and least * (pairs if pairs > 1 else 1) >= 1 - LEVEL:
        corrected = (
            f", and {least * pairs:.3g} corrected over {pairs} pairs"
            if pairs > 1 and least < 1 - LEVEL
            else ""
        )
        return (
            f"The interval excludes 1 but the test finds no difference: with {instances} instances the smallest "
            f"two-sided p the Wilcoxon test can give is 2/2^{instances} = {least:.3g}"
            + (", above 5% before any correction." if least >= 1 - LEVEL else f"{corrected}, above 5%.")
        )
    if excludes:
        return (
            "The interval excludes 1 but the test finds no difference: the interval is of the ratio of the mean "
            "PAR-2s, which a few long instances move, the test of the ranks of the instances' differences, which "
            "most instances must agree on."
        )
    return (
        "The test finds a difference but the interval takes in 1: the test ranks the instances' differences, "
        "most of which go one way, while the ratio of the means is moved by a few instances that go the other."
    )


def _ratio(va: np.ndarray, vb: np.ndarray, level: float = LEVEL) -> tuple[float | None, list[float] | None]:
    """B's mean PAR-2 over A's, with the paired bootstrap interval at ``level`` (``None`` where
    A's is 0)."""
    np = _libs()[1]
    mean_a = float(va.mean())
    if mean_a == 0:
        return None, None

    def ratio_of(x: Any, y: Any, axis: int = -1) -> Any:
        return np.mean(y, axis=axis) / np.maximum(np.mean(x, axis=axis), 1e-12)

    return round(float(vb.mean()) / mean_a, 4), _bootstrap((va, vb), ratio_of, paired=True, level=level)


def compare_many(df: Any, configs: list[str], posthoc: str = "holm") -> dict:
    """Several configurations over the instances that every one of them ran: the Friedman test,
    each configuration's average rank (1: the lowest PAR-2), and per pair the ratio of B's PAR-2
    to A's with its paired bootstrap 95% interval, the post-hoc test's p-value (``posthoc``:
    :data:`POSTHOCS`) and the verdict ``better`` at the 5% level of that corrected p-value."""
    stats, np = _libs()
    sp = require("scikit_posthocs")
    present = set(df["config"]) if not df.empty else set()
    if len(set(configs)) != len(configs):
        raise SatedgeError("--compare names a configuration twice: name each once")
    if len(configs) < 3:
        raise SatedgeError("compare_many takes three configurations or more (two: compare)")
    for name in configs:
        if name not in present:
            raise SatedgeError(
                f"--compare: no configuration {shown(name)}; there are {', '.join(sorted(present))}"
            )
    if posthoc not in POSTHOCS:
        raise SatedgeError(f"unknown post-hoc test {shown(posthoc)}; choose from {', '.join(POSTHOCS)}")
    pd = require("pandas")
    table = pd.DataFrame({c: _instances(df, c) for c in configs}).dropna()
    if len(table) < 2:
        raise SatedgeError(
            f"--compare: {', '.join(configs)} ran {len(table)} instance in common: too few to compare"
        )
    matrix = table.to_numpy(dtype=float)
    if np.all(matrix == matrix[:, :1]):
        friedman = {"statistic": 0.0, "p_value": 1.0}  # every configuration the same on every instance
    else:
        res = stats.friedmanchisquare(*matrix.T)
        friedman = {"statistic": round(float(res.statistic), 6), "p_value": round(float(res.pvalue), 6)}
    ranks = table.rank(axis=1, method="average").mean()
    long = table.reset_index(drop=True).melt(var_name="config", value_name="par2", ignore_index=False)
    long["instance"] = long.index
    if posthoc == "holm":
        p = sp.posthoc_wilcoxon(long, val_col="par2", group_col="config", p_adjust="holm", sort=False)
    elif posthoc == "nemenyi":  # blocks as rows, configurations as columns
        p = sp.posthoc_nemenyi_friedman(table.reset_index(drop=True))
    else:
        p = sp.posthoc_conover_friedman(table.reset_index(drop=True), p_adjust="holm")
    pairs = []
    m = len(configs) * (len(configs) - 1) // 2
    level = 1 - (1 - LEVEL) / m  # the intervals of the family, as the tests are corrected (Bonferroni)
    for i, a in enumerate(configs):
        for b in configs[i + 1 :]:
            ratio, ci = _ratio(table[a].to_numpy(dtype=float), table[b].to_numpy(dtype=float), level)
            adjusted = float(p.loc[a, b])
            adjusted = 1.0 if adjusted != adjusted else adjusted  # NaN: identical samples
            better = None
            if adjusted < 1 - LEVEL and ratio is not None and ratio != 1:
                better = "a" if ratio > 1 else "b"
            pairs.append(
                {
                    "a": a,
                    "b": b,
                    "ratio": ratio,
                    "ci": ci,
                    "p_value": round(adjusted, 6),
                    "better": better,
                    "disagree": disagreement(ci, better, len(table), m),
                }
            )
    return {
        "configurations": list(configs),
        "instances": len(table),
        "friedman": friedman,
        "ranks": {c: round(float(ranks[c]), 4) for c in configs},
        "posthoc": posthoc,
        "pairs": pairs,
        "method": "PAR-2 per instance: median over shuffles, over the instances every configuration ran; "
        "Friedman test across the configurations; per pair the ratio B/A of the means with a paired bootstrap "
        "interval at 95% for the family of pairs (Bonferroni: each at 1 - 5%/pairs; percentile, 9999 resamples, "
        "seeded) and "
        + {
            "holm": "the Wilcoxon signed-rank test, two-sided, Holm-corrected",
            "nemenyi": "the Nemenyi test on the Friedman ranks",
            "conover": "the Conover test on the Friedman ranks, Holm-corrected",
        }[posthoc]
        + " (scipy, scikit-posthocs)",
    }


def describe_many(c: dict) -> str:
    """A comparison of several configurations, as the report prints it: the Friedman test, the
    average ranks and a line per pair."""
    test = {
        "holm": "Wilcoxon signed-rank, Holm-corrected",
        "nemenyi": "Nemenyi",
        "conover": "Conover, Holm-corrected",
    }
    ranks = ", ".join(f"{name} {rank:.2f}" for name, rank in sorted(c["ranks"].items(), key=lambda kv: kv[1]))
    lines = [
        f"{len(c['configurations'])} configurations over the {c['instances']} instances they all ran: "
        f"Friedman chi-square {c['friedman']['statistic']:.2f}, {_p(c['friedman']['p_value'])}. "
        f"Average ranks (1 is the lowest PAR-2): {ranks}. Per pair ({test[c['posthoc']]}):",
        "",
    ]
    for pair in c["pairs"]:
        ci = (
            "" if pair["ci"] is None else f" (family 95% interval {pair['ci'][0]:.2f} to {pair['ci'][1]:.2f})"
        )
        ratio = "undefined" if pair["ratio"] is None else f"{pair['ratio']:.2f}"
        verdict = {
            "a": f"{pair['a']} is better",
            "b": f"{pair['b']} is better",
            None: "no difference at the 5% level",
        }[pair["better"]]
        lines.append(
            f"* {pair['b']} against {pair['a']}: ratio {ratio}{ci}, {_p(pair['p_value'])}: {verdict}."
            + (f" {pair['disagree']}" if pair.get("disagree") else "")
        )
    return "\n".join(lines)


def _p(p: float) -> str:
    """A p-value as the report prints it (rounded to 6 places: below that, ``p < 1e-06``)."""
    return "p < 1e-06" if p < 1e-6 else f"p = {p:.4g}"
