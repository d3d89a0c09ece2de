"""benchmarks/search/bench-search.md is what its committed rows give, and the rows answer what it
claims: both loops searched the same trees and counted the same solutions."""

import json

from conftest import ROOT, benchmark_script, prose

LINES = (ROOT / "benchmarks" / "search" / "bench-search-rows.jsonl").read_text().splitlines()
META, ROWS = json.loads(LINES[0]), [json.loads(line) for line in LINES[1:]]


def test_the_report_is_its_rows():
    assert (
        benchmark_script("search").report(ROWS, META)
        == (ROOT / "benchmarks" / "search" / "bench-search.md").read_text()
    )


def test_both_loops_count_the_same_solutions_in_the_same_tree():
    count = [r for r in ROWS if r["kind"] in ("count", "workers")]
    assert count and all(r["exit"] == 0 for r in count)
    for board in {r["puzzle"] for r in count}:
        mine = [r for r in count if r["puzzle"] == board]
        # every loop, 1 or 2 workers, here or on a cluster: the same solutions and the same tree
        assert len({r["solutions"] for r in mine}) == 1 and len({r["nodes"] for r in mine}) == 1


def test_the_c_loop_places_more_tiles_a_second_on_every_board():
    rate = [r for r in ROWS if r["kind"] == "rate"]
    for board in {r["puzzle"] for r in rate}:
        speed = {
            loop: min(r["nodes"] / r["cpu"] for r in rate if r["puzzle"] == board and r["loop"] == loop)
            for loop in ("numba", "c")
        }
        assert speed["c"] > speed["numba"], board


def test_every_first_solution_of_owens_8x8_is_a_solution():
    from satedge import load_puzzle, validate
    from satedge.puzzle.solutions import solution_from_json

    owen = load_puzzle("eternity2/8x8")
    assert len([r for r in ROWS if r["kind"] == "owen"]) == 10
    for r in ROWS:
        if r["kind"] in ("owen", "owen-again") and r["status"] == "SAT":
            assert validate(owen, solution_from_json(r["solution"], owen)) is None


def test_the_solving_guide_quotes_the_c_loops_rates_as_measured():
    import statistics

    by_loop = benchmark_script("search")._by_loop  # the report's pairs
    rate = [r for r in ROWS if r["kind"] == "rate"]
    ratios = []
    for board in {r["puzzle"] for r in rate}:
        speed = by_loop(rate, board, lambda r: r["nodes"] / r["cpu"])
        ratios.append(statistics.median(c / n for n, c in zip(speed["numba"], speed["c"])))
    guide = prose(ROOT / "docs" / "guides" / "solving.md")
    assert (
        f"at {min(ratios):.1f} to {max(ratios):.1f} times the placements per second of numba's loop" in guide
    )
