"""`satedge report` on every committed experiments/*-results.jsonl prints the tables it printed when
the rows were committed (tests/data/reports/NAME.md, written by the report of 2026-11-26 before
the configuration values were reworked; the per-puzzle rows in the order a reader counts, s2
before s10, and the tables headed in words with a line on what they count, since 2026-11-27): a change of
names, scores or schema shows here."""

import pytest
from conftest import ROOT

RESULTS = sorted((ROOT / "experiments").glob("*-results.jsonl")) + sorted(
    (ROOT / "benchmarks").glob("*/*-results.jsonl")
)
EXPECTED = ROOT / "tests" / "data" / "reports"


def test_every_committed_results_file_has_its_tables():
    assert sorted(f.name.removesuffix("-results.jsonl") for f in RESULTS) == sorted(
        f.stem for f in EXPECTED.glob("*.md")
    )


@pytest.mark.slow
@pytest.mark.parametrize("results", RESULTS, ids=lambda f: f.name)
def test_report_gives_the_committed_tables(tmp_path, run_cli, results):
    (tmp_path / "results.jsonl").write_bytes(results.read_bytes())
    code, out, err = run_cli("report", tmp_path, "--no-plots")
    assert code == 0, err
    assert out == (EXPECTED / f"{results.name.removesuffix('-results.jsonl')}.md").read_text()
