"""benchmarks/macmahon: the report is what its rows make, and the figures the puzzle's README and
the changelog quote are the rows'."""

from conftest import ROOT, benchmark_script

HERE = ROOT / "benchmarks" / "macmahon"


def _bench():
    return benchmark_script("macmahon")


def test_the_report_is_made_from_the_rows_and_the_readme_quotes_them():
    bench = _bench()
    assert (HERE / "bench-macmahon.md").read_text() == bench.report()
    rows = {r["config"]: r for r in bench.rows()}
    four, ring = rows["4x6, the backtracker"], rows["ring form, the order the estimate chooses"]
    assert (four["solutions"], four["distinct"], four["unique"]) == (54_591_488, 106_624, 53_312)
    assert (ring["distinct"], ring["unique"]) == (106_624, 53_312) and four["exit"] == ring["exit"] == 0
    # the marks: the 4x6 within 175 s on 2 cores, the ring form within 10 minutes
    assert four["seconds"] <= 175 and ring["seconds"] <= 600
    readme = (ROOT / "puzzles" / "macmahon" / "README.md").read_text()
    assert "54,591,488 solutions, 106,624 distinct and 53,312 unique" in readme
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"106,624 distinct pictures in {four['seconds']:.0f} s on 2 cores" in changelog
    assert f"`macmahon/ring-6x8` in {ring['seconds']:.0f} s" in changelog


def test_the_counts_up_to_the_puzzles_symmetries_are_the_rows_and_the_changelog_quotes_them():
    rows = {r["config"]: r for r in _bench().rows()}
    back = rows["4x6, the backtracker, up to its symmetries"]
    sat = rows["4x6, SAT, up to its symmetries"]
    every, certified = (
        rows["4x6, SAT, every count (one class at a time)"],
        rows["4x6, SAT, every count, certified"],
    )
    assert back["classes"] == sat["classes"] == 13_328 and back["symmetries"] == sat["symmetries"] == 8
    for r in (every, certified):
        assert (r["solutions"], r["distinct"], r["unique"], r["exit"]) == (54_591_488, 106_624, 53_312, 0)
    # the certificate blocks every picture once: the formula's models show exactly the 106,624
    assert certified["certificate"]["models"] == 106_624
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"13,328 classes in {back['seconds']:.0f} s by the backtracker on 2 cores" in changelog
    assert f"{sat['seconds']:.0f} s by SAT" in changelog
    assert f"every count by SAT in {every['seconds']:.0f} s" in changelog
    assert f"certified in {certified['seconds']:.0f} s" in changelog
