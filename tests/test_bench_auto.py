"""benchmarks/auto/bench-auto.md quotes what the committed rows give: the PAR-2 of each configuration
with its interval, the paired ratios and verdicts, and the target it claims met."""

import json

import pytest
from conftest import ROOT, prose

from satedge.experiment.rows import read_results
from satedge.experiment.stats import compare, frame, summary

REPORT = prose(ROOT / "benchmarks" / "auto" / "bench-auto.md")
AUTO, BT = "auto/auto", "backtrack:workers=2/backtrack:workers=2"
SAT = {
    "peak": "edgecolor-corners-sym/cadical195:sat,workers=2,strategy=cubes",
    "count": "direct-pairwise+symmetry=rotation/cadical195:workers=2",
}


def _rows(kind):
    pytest.importorskip("scipy")
    return frame(read_results(ROOT / "benchmarks" / "auto" / f"bench-auto-{kind}-results.jsonl"))


@pytest.mark.parametrize("kind", ["peak", "count"])
def test_the_tables_are_the_committed_rows(kind):
    df = _rows(kind)
    for s in summary(df):
        name = s["configuration"]
        shown = {AUTO: "`auto`", BT: "`backtrack:workers=2`"}.get(name) or "`{}`, `{}`".format(
            *name.split("/")
        )
        line = (
            f"| {shown} | {s['solved']} of {s['runs']} | {s['par2']:.3f} | {s['par2_ci'][0]:.1f} to "
            f"{s['par2_ci'][1]:.1f} |"
        )
        assert line in REPORT, line


@pytest.mark.parametrize("kind", ["peak", "count"])
def test_the_verdicts_are_the_committed_rows(kind):
    df = _rows(kind)
    c = compare(df, AUTO, BT)
    assert f"ratio {c['ratio']:.2f} (95% interval {c['ci'][0]:.2f} to {c['ci'][1]:.2f}), p = " in REPORT
    assert c["better"] == (None if kind == "peak" else "a")
    s = compare(df, AUTO, SAT[kind])
    assert (
        f"ratio {s['ratio']:.2f} ({s['ci'][0]:.2f} to {s['ci'][1]:.2f}), p = {s['p_value']:.2g}: `auto` is better"
        in REPORT
        and s["better"] == "a"
    )
    # the target: auto's PAR-2 within 1.2 times the best single engine's
    par2 = {x["configuration"]: x["par2"] for x in summary(df)}
    assert par2[AUTO] <= 1.2 * min(par2[BT], par2[SAT[kind]])


def test_every_run_of_a_counting_puzzle_gave_the_same_counts():
    counts: dict = {}
    for line in (ROOT / "benchmarks" / "auto" / "bench-auto-count-results.jsonl").read_text().splitlines():
        r = json.loads(line)
        counts.setdefault(r["puzzle_sha256"], set()).add(tuple(r["counts"]))
    assert len(counts) == 8 and all(len(v) == 1 for v in counts.values())
    assert sorted(next(iter(v))[0] for v in counts.values()) == [
        4160,
        10112,
        13824,
        17280,
        18408,
        36864,
        69120,
        77408,
    ]
