"""``decide=backtracker``: CaDiCaL deciding in the backtracker's fill order (satedge.sat.decide).
A decision is no constraint: every base finds exactly the backtracker's solutions and counts with
it, alone, in cubes and certified; solvers without an external propagator are refused."""

import json

import pytest
from conftest import PUZZLES, ROOT, covers
from hypothesis import given, settings
from hypothesis import strategies as st

from satedge.backtrack import search as backtrack
from satedge.backtrack.orders import cell_order
from satedge.encode import encode
from satedge.encode.registry import bases
from satedge.errors import SatedgeError
from satedge.jobs import Job, execute
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.strategies import puzzles
from satedge.sat.solvers import SatSolver
from satedge.sat.solving import Enumerator, count_modes

DECIDING = "cadical195:decide=backtracker"


@settings(max_examples=40, deadline=None)
@given(puzzle=puzzles(max_rows=3, max_cols=3, max_cells=9), base=st.sampled_from(sorted(bases())))
def test_every_base_deciding_as_the_backtracker_finds_its_solutions(puzzle, base):
    if not covers(base, puzzle):
        return
    expected = list(backtrack.solutions(puzzle, limit=2001))
    if len(expected) > 2000:  # enumerated one by one, thousands take long
        return
    formula = encode(puzzle, base)
    solver = SatSolver(order=cell_order(puzzle))
    with Enumerator(formula, solver) as e:
        found = list(e.solutions("solutions"))
        assert e.decider is not None
    assert len(found) == len(set(found)) and set(found) == set(expected)
    assert count_modes(formula, solver) == count_modes(formula, "cadical195")


@pytest.mark.parametrize(
    "solver",
    [
        DECIDING,
        DECIDING + ",cubes=backtracker",
        DECIDING + ",workers=2,strategy=cubes",
        DECIDING + ",workers=2,strategy=portfolio",
    ],
)
def test_jobs_deciding_as_the_backtracker_count_what_it_counts(solver):
    hunde = load_puzzle(PUZZLES / "hunde-spiel.yaml")
    expected = symmetry.counts(hunde, list(backtrack.solutions(hunde)))
    for encoding in ("edgecolor-corners", "edgecolor-corners-sym"):
        res = execute(
            Job(hunde, "count", solver=solver, encoding=encoding, modes=("solutions", "distinct", "unique"))
        )
        assert (
            {k: v for k, v in res.counts.items() if k != "models"}
            == expected
            == {
                "solutions": 16,
                "distinct": 8,
                "unique": 2,
            }
        )


def test_a_certified_count_deciding_as_the_backtracker(run_cli):
    code, out, _ = run_cli("count", PUZZLES / "hunde-spiel.yaml", "--solver", DECIDING, "--certify", "--json")
    row = json.loads(out)
    assert code == 0 and (row["solutions"], row["distinct"], row["unique"]) == (16, 8, 2)
    assert row["certificate"]["certified"] is True and row["solver"] == DECIDING
    assert (row["certificate"]["prover"], row["certificate"]["route"]) == ("cadical195", "own")


def test_the_order_is_the_backtrackers_and_only_cadical_takes_it(run_cli):
    code, out, err = run_cli(
        "count", PUZZLES / "insects.yaml", "--solver", "minisat22", "--decide", "backtracker"
    )
    assert (code, out) == (2, "")
    assert err == (
        "satedge: error: decide=backtracker needs a solver that takes an external propagator "
        "(cadical195), not minisat22\n"
    )
    code, _, err = run_cli("count", PUZZLES / "insects.yaml", "--decide", "rows")
    assert (code, err) == (
        2,
        "satedge: error: argument --decide: invalid choice: 'rows' (choose from 'auto', 'backtracker')\n",
    )
    with pytest.raises(
        SatedgeError, match="^solver 'cadical195:decide=rows': decide is one of auto, backtracker$"
    ):
        Job(load_puzzle(PUZZLES / "insects.yaml"), "count", solver="cadical195:decide=rows")
    code, _, err = run_cli(
        "count", PUZZLES / "insects.yaml", "--solver", "cmd:kissat", "--decide", "backtracker"
    )
    assert (code, err) == (
        2,
        "satedge: error: a way to decide applies to PySAT solvers only, not to kissat\n",
    )
    with pytest.raises(SatedgeError, match="not cmd:kissat"):
        SatSolver("kissat", binary=True, order=(0,))


def test_the_committed_decide_study_says_what_its_rows_say(tmp_path, run_cli):
    """experiments/bench-decide.md quotes `report --compare` on its committed rows, and each
    configuration's instances solved, PAR-2 and median; the guide quotes the pair."""
    (tmp_path / "results.jsonl").write_bytes(
        (ROOT / "experiments" / "bench-decide-results.jsonl").read_bytes()
    )
    sat = [f"edgecolor-corners-sym/cadical195:sat{c}" for c in ("", ",decide=backtracker")]
    code, out, err = run_cli("report", tmp_path, "--no-plots", "--compare", *sat)
    assert code == 0, err
    page = (ROOT / "experiments" / "bench-decide.md").read_text()
    quoted = [line.removeprefix("> ") for line in page.splitlines() if line.startswith("> ")]
    assert len(quoted) == 1 and quoted[0] in out
    for config, name, solved, par2, median in (
        ("backtrack/backtrack", "backtracker", "14 of 15", "15.0 (0.5 to 42.4)", "0.276"),
        (sat[0], "the solver alone", "10 of 15", "100.5 (63.8 to 139.7)", "47.685"),
        (sat[1], "`decide=backtracker`", "6 of 15", "132.5 (87.6 to 175.9)", "32.203"),
    ):
        assert f"| {config} | 15 | {solved} (" in out and f") | {par2} |" in out
        assert f"| {name} | {solved} | {par2} | {median} |" in page
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").open()]
    runs = {(r["puzzle_name"], r["solver"]): r for r in rows}
    both = [
        p
        for p, s in runs
        if s == "cadical195:sat"
        and runs[p, s]["status"] == runs[p, s + ",decide=backtracker"]["status"] == "SAT"
    ]
    ratios = sorted(
        round(
            runs[p, "cadical195:sat,decide=backtracker"]["stats"]["conflicts"]
            / runs[p, "cadical195:sat"]["stats"]["conflicts"],
            2,
        )
        for p in both
    )
    assert ratios == [0.36, 0.42, 0.47, 0.48, 0.54, 0.93]
    guide = " ".join((ROOT / "docs" / "guides" / "parallel.md").read_text().split())
    assert (
        "solved 6 of 15 peak puzzles against the solver's 10, a PAR-2 1.32 times the solver's (interval 1.02 to 1.85,"
        in guide
    )
    rates = sorted(
        round(
            (
                runs[p, "cadical195:sat,decide=backtracker"]["stats"]["conflicts"]
                / runs[p, "cadical195:sat,decide=backtracker"]["solve_seconds"]
            )
            / (runs[p, "cadical195:sat"]["stats"]["conflicts"] / runs[p, "cadical195:sat"]["solve_seconds"]),
            2,
        )
        for p in both
    )
    assert (rates[0], rates[-1]) == (0.47, 0.74)
