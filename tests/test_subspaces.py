"""The subspaces enumeration (``enumeration=subspaces``): no clause added, and exactly the
solutions, models and counts of the blocking enumeration and of the backtracker."""

import pytest
from conftest import PUZZLES
from hypothesis import given, settings
from hypothesis import strategies as st

from satedge.backtrack import search as backtrack
from satedge.encode import Encoding
from satedge.errors import SatedgeError
from satedge.jobs.registry import takers
from satedge.jobs.solver import SolverConfig
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.strategies import puzzles
from satedge.sat import solving

PRESETS = (
    "edgecolor-corners",
    "edgecolor-corners-sym",
    "direct-pairwise",
    "split-ladder",
    "support-seqcounter",
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    puzzle=puzzles(max_cells=6),
    preset=st.sampled_from(PRESETS),
    solver=st.sampled_from(["minisat22", "cadical195"]),
)
def test_subspaces_give_the_backtrackers_solutions_and_counts(puzzle, preset, solver):
    expected = set(backtrack.solutions(puzzle, limit=1001))
    if len(expected) > 1000:  # enumerated one by one, thousands take long; the counts are what matter
        return
    encoded = Encoding.of(preset).encode(puzzle)
    config = f"{solver}:enumeration=subspaces"
    stats = solving.Stats()
    with solving.Enumerator(encoded, config, stats) as e:
        if encoded.orbit == 1:
            found = list(e.solutions("solutions"))
            assert len(found) == len(set(found)) and set(found) == expected
        assert e.counts() == solving.count_modes(encoded, solver)
    assert {
        k: v for k, v in solving.count_modes(encoded, config).items() if k != "models"
    } == symmetry.counts(puzzle, expected)


def test_a_limit_and_the_modes_on_a_seed_puzzle():
    encoded = Encoding.of("edgecolor-corners").encode(load_puzzle(PUZZLES / "hunde-spiel.yaml"))
    config = "minisat22:enumeration=subspaces"
    assert len(list(solving.solutions(encoded, config, limit=5))) == 5
    assert [
        len(list(solving.solutions(encoded, config, m))) for m in ("solutions", "distinct", "unique")
    ] == [16, 8, 2]


@pytest.mark.parametrize(
    "text,message",
    [
        (
            "minisat22:enumeration=chains",
            "solver 'minisat22:enumeration=chains': enumeration is one of auto, blocking, subspaces",
        ),
        (
            "backtrack:enumeration=subspaces",
            f"an enumeration applies to {takers('enumeration')} only, not to backtrack",
        ),
    ],
)
def test_bad_enumerations_are_refused_in_one_line(text, message):
    with pytest.raises(SatedgeError) as e:
        SolverConfig.parse(text)
    assert str(e.value) == message


def test_the_string_form_names_the_enumeration_once():
    assert (
        str(SolverConfig.parse("minisat22:enumeration=subspaces,workers=2"))
        == "minisat22:workers=2,enumeration=subspaces"
    )
    assert str(SolverConfig.parse("cadical195:enumeration=auto")) == "cadical195"  # the default
    assert str(SolverConfig.parse("cadical195:enumeration=blocking")) == "cadical195:enumeration=blocking"
    with pytest.raises(
        SatedgeError,
        match=f"an enumeration applies to {takers('enumeration')} only, not to cpsat",
    ):
        SolverConfig(engine="cpsat", settings={"enumeration": "subspaces"})


def test_the_command_line_counts_with_subspaces(run_cli):
    hunde = PUZZLES / "hunde-spiel.yaml"
    code, out, err = run_cli("count", hunde, "--enumeration", "subspaces", "--solver", "minisat22", "--json")
    assert (code, err) == (0, "")
    assert (
        '"solutions": 16, "distinct": 8, "unique": 2' in out
        and '"solver": "minisat22:enumeration=subspaces"' in out
    )
    code, out, err = run_cli("count", hunde, "--enumeration", "subspaces", "--method", "backtrack")
    assert (code, out, err) == (
        2,
        "",
        f"satedge: error: an enumeration applies to {takers('enumeration')} only, not to backtrack\n",
    )
