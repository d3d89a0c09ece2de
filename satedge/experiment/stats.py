"""What holds up: an experiment's rows as a pandas DataFrame, intervals per configuration and a
paired comparison of two configurations (extra ``stats``: pandas and scipy).

A run scores its time (encode + solve) when solved and twice its time limit otherwise (PAR-2,
as the SAT competitions rank).  An instance is a puzzle (its sha256); its score under a
configuration is the median over its shuffles and repetitions, so that one lucky presentation
does not decide.  Intervals are 95%: Wilson's for the share solved, a bootstrap over instances
for PAR-2 and, paired, for the ratio of two configurations' PAR-2; the paired test is the
Wilcoxon signed-rank test on the instances' scores.  Resampling is seeded: the same rows give
the same figures.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import SatedgeError
from ..system.extras import require
from ..system.files import shown
from .rows import RESULTS, SOLVED, config_of, par2, read_results, run_time, unique_runs

__all__ = ["LEVEL", "RESAMPLES", "SEED", "frame", "load_results", "summary", "compare", "describe"]

LEVEL = 0.95
RESAMPLES = 9999
SEED = 2026


def _libs():
    """scipy.stats and numpy (scipy first: a missing extra is named as stats)."""
    return require("scipy.stats"), np


def frame(rows: list[dict]):
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
    df["par2"] = [par2(r) for r in rows]
    df["solved"] = df["status"].isin(SOLVED)
    return df


def load_results(folder: str | Path):
    """The runs of an experiment folder (its ``results.jsonl``) as a pandas DataFrame, one row
    per run: every field of the rows, and ``config`` (``ENCODING/SOLVER``), ``seconds``, ``par2``
    and ``solved``.  Lines that do not parse are left out, as ``report`` leaves them."""
    return frame(read_results(Path(folder) / RESULTS))


def _instances(df, config: str):
    """Per instance (puzzle sha256), the median PAR-2 score over shuffles and repetitions."""
    return df[df["config"] == config].groupby("puzzle_sha256")["par2"].median()


def _bootstrap(data: tuple, statistic, paired: bool) -> list[float] | None:
    stats, np = _libs()
    if len(data[0]) < 2:
        return None
    res = stats.bootstrap(
        data,
        statistic,
        paired=paired,
        vectorized=True,
        confidence_level=LEVEL,
        n_resamples=RESAMPLES,
        method="percentile",
        random_state=np.random.default_rng(SEED),
    )
    low, high = res.confidence_interval
    return [round(float(low), 4), round(float(high), 4)]


def summary(df) -> list[dict]:
    """Per configuration: runs and instances, solved with Wilson's 95% interval, PAR-2 (mean
    over instances of their scores) with a bootstrap 95% interval over instances, and the
    PAR-2 of each shuffle's runs: its median and range across shuffles."""
    stats, np = _libs()
    out = []
    for config, runs in df.groupby("config", sort=False):
        inst = _instances(df, config)
        k, n = int(runs["solved"].sum()), len(runs)
        ci = stats.binomtest(k, n).proportion_ci(LEVEL, method="wilson")
        shuffles = (
            runs.groupby(runs["shuffle"].fillna(-1))["par2"].mean() if runs["shuffle"].notna().any() else None
        )
        out.append(
            {
                "configuration": config,
                "runs": n,
                "instances": len(inst),
                "solved": k,
                "solved_ci": [round(ci.low * n, 1), round(ci.high * n, 1)],
                "par2": round(float(inst.mean()), 3),
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


def compare(df, a: str, b: str) -> dict:
    """B against A over the instances both ran: the ratio of B's PAR-2 to A's with a paired
    bootstrap 95% interval, the Wilcoxon signed-rank test's p-value, and the verdict ``better``:
    ``"a"`` (B's PAR-2 is higher), ``"b"`` or ``None`` at the 5% level."""
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
    ratio = None if mean_a == 0 else round(float(vb.mean()) / mean_a, 4)

    def ratio_of(x, y, axis=-1):
        return np.mean(y, axis=axis) / np.maximum(np.mean(x, axis=axis), 1e-12)

    ci = _bootstrap((va, vb), ratio_of, paired=True) if ratio is not None else None
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
    )
