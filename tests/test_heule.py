"""Heule 2008, exactly: the four heule2008-* presets write the variables and clauses of Heule's
encoder (his table, pairwise builds, for the SAT Competition 2009 instances shipped under
puzzles/heule2008/ and Eternity II), and count what the backtracker counts on framed puzzles."""

import hashlib
import json
from pathlib import Path

import pytest
from conftest import PUZZLES
from hypothesis import given
from hypothesis import strategies as st

from satedge.backtrack import search as backtrack
from satedge.encode import Encoding, Options, Size, encode
from satedge.encode.bases import heule
from satedge.encode.core import BlockCNF
from satedge.encode.presets import presets
from satedge.errors import Unsupported
from satedge.puzzle import symmetry
from satedge.puzzle.formats import load_puzzle
from satedge.puzzle.generate import Params, generate
from satedge.sat import dimacs
from satedge.sat.solving import count_modes, solutions

VARIANTS = ("cmp", "exp", "fbc", "all")


def _table() -> dict[str, tuple[int, ...]]:
    """instance: variables, then the clauses of cmp, exp, fbc and all (Heule's encoder, as measured:
    the table of puzzles/heule2008/README.md, which the documentation's page reads too)."""
    text = (PUZZLES / "heule2008" / "README.md").read_text().split("## The sizes of Heule's formulas")[1]
    rows = [
        line.strip("|").split("|")
        for line in text.splitlines()
        if line.startswith("| ") and "instance" not in line
    ]
    return {cells[0].strip(): tuple(int(x) for x in cells[1:]) for cells in rows}


TABLE = _table()
assert len(TABLE) == 13 and TABLE["em_8_4_5"] == (2420, 26228, 55556, 32276, 61604)


def _path(name: str):
    return PUZZLES / (f"{name}.yaml" if "/" in name else f"heule2008/{name}.yaml")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TABLE))
def test_sizes_are_heules(name):
    puzzle = load_puzzle(_path(name))
    nv, *clauses = TABLE[name]
    got = [presets()[f"heule2008-{v}"].size(puzzle) for v in VARIANTS]
    assert [(s.variables, s.clauses) for s in got] == [(nv, c) for c in clauses]


@pytest.mark.parametrize("name", ["em_7_3_6", "clue3"])
def test_the_built_formulas_have_those_sizes(name):
    puzzle = load_puzzle(_path(name))
    for v in VARIANTS:
        e = presets()[f"heule2008-{v}"].encode(puzzle)
        assert (e.nv, len(e.cnf.clauses)) == (TABLE[name][0], TABLE[name][1 + VARIANTS.index(v)]), v
        assert presets()[f"heule2008-{v}"].size(puzzle) == Size(
            e.nv, len(e.cnf.clauses), sum(map(len, e.cnf.clauses))
        )


def test_edgecolor_heule2008_is_close_but_not_equal():
    """Why the presets exist: satedge's own edgecolor-heule2008 with pairwise exactly-one has 1465
    variables on em_7_3_6 where Heule's encoder writes 1473."""
    puzzle = load_puzzle(_path("em_7_3_6"))
    e = encode(puzzle, "edgecolor", Options(card="pairwise"))
    assert e.nv == 1465 != TABLE["em_7_3_6"][0]


def test_an_em_instance_solves_to_its_listed_order():
    """The em_* pieces are listed in solution order: the identity layout is among the models."""
    puzzle = load_puzzle(_path("em_7_3_6"))
    e = presets()["heule2008-all"].encode(puzzle)
    (first,) = solutions(e, "cadical195", limit=1)
    assert first is not None


@pytest.mark.parametrize("variant", VARIANTS)
def test_unframed_puzzles_are_refused_in_one_line(run_cli, variant):
    hunde = PUZZLES / "hunde-spiel.yaml"
    code, out, err = run_cli("count", hunde, "--encoding", f"heule2008-{variant}")
    assert (code, out, err) == (
        2,
        "",
        f"satedge: error: {hunde}: the heule encoding covers framed grid boards only: "
        "this puzzle has no frame\n",
    )
    with pytest.raises(Unsupported):
        presets()[f"heule2008-{variant}"].encode(load_puzzle(hunde))


framed = st.builds(
    lambda rows, cols, colors, border, clues, seed: generate(
        Params(rows=rows, cols=cols, colors=colors, border_colors=border, frame=True, clues=clues), seed
    ),
    st.integers(2, 4),
    st.integers(2, 4),
    st.integers(1, 5),
    st.integers(0, 3),
    st.integers(0, 1),
    st.integers(0, 10**6),
)


@pytest.mark.slow
@given(puzzle=framed, variant=st.sampled_from(VARIANTS + ("rotation",)))
def test_counts_equal_the_backtrackers_on_framed_puzzles(puzzle, variant):
    """Every solution once, and the three counts, as the backtracker has them (with symmetry
    breaking on top of heule2008-cmp as 'rotation')."""
    expected = set(backtrack.solutions(puzzle, limit=501))
    if len(expected) > 500:
        return
    if variant == "rotation":
        e = encode(puzzle, "heule", Options(symmetry="rotation"))
    else:
        e = presets()[f"heule2008-{variant}"].encode(puzzle)
    got = list(solutions(e, "cadical195"))
    assert len(got) == len(set(got)) and set(got) <= expected
    assert len(got) * e.orbit == len(expected)
    counts = symmetry.count(puzzle, expected)
    got_counts = count_modes(e, "cadical195")
    assert (got_counts["solutions"], got_counts["distinct"], got_counts["unique"]) == (
        counts.solutions,
        counts.distinct,
        counts.unique,
    )
    assert got_counts["models"] <= len(got)  # a model stands for every turn of a tile that looks the same


# the formulas the heule encoding wrote when its clauses were Python lists (before the arrays):
# sha256 of the text from the 'p cnf' line on, per puzzle, encoding string and shuffle seed
SHA256 = json.loads((Path(__file__).parent / "data" / "heule-formula-sha256.json").read_text())
# the whole file, header included, but its command line; since 2026-11-27 the header says what each kind of
# variable means (before: 4729a382..., 112,331,994 bytes); since 2026-11-29 heule's placement variables
# are 'p CELL TILE' there (before: 'x TILE CELL', 36b734f8..., 112,332,083 bytes)
E2_ALL_FILE = "650639f705322e569b7f6a33d13323683ccf214d08b088bb045a784a025baba2"


def _formula(text: str) -> str:
    return hashlib.sha256(text[text.index("\np cnf") + 1 :].encode()).hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("arrays_from", [0, 10**9])  # every formula built with arrays; none
@pytest.mark.parametrize("case", sorted(SHA256))
def test_the_array_built_formulas_are_the_list_built_ones_byte_for_byte(case, arrays_from, monkeypatch):
    monkeypatch.setattr(heule, "ARRAYS_FROM", arrays_from)
    name, encoding, seed = case.split()
    encoded = Encoding.of(encoding).encode(
        load_puzzle(PUZZLES / f"{name}.yaml"), None if seed == "None" else int(seed)
    )
    assert _formula(dimacs.to_text(encoded)) == SHA256[case]
    assert encoded.clause_count == len(encoded.cnf.clauses)  # the lists a solver takes: the same clauses
    assert _formula(dimacs.to_text(encoded)) == SHA256[case]  # written from those lists, once made


@pytest.mark.slow
def test_eternity2_heule2008_all_is_written_as_before(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(PUZZLES.parent)  # the header names the puzzle's path as given
    out = tmp_path / "e2.cnf"
    assert run_cli("encode", "puzzles/eternity2/e2.yaml", "--encoding", "heule2008-all", "-o", out)[0] == 0
    first, command, rest = out.read_bytes().split(b"\n", 2)  # the command line, with this run's folder, aside
    assert (
        command
        == f"c command: satedge encode puzzles/eternity2/e2.yaml --encoding heule2008-all -o {out}".encode()
    )
    body = first + b"\n" + rest
    assert hashlib.sha256(body).hexdigest() == E2_ALL_FILE
    assert len(body) == 112_332_066


@given(
    puzzle=framed,
    card=st.sampled_from(["pairwise", "seqcounter"]),
    symmetry=st.sampled_from(["none", "rotation"]),
    families=st.sampled_from([(), ("atmostone",), ("fbcolors",), ("atmostone", "fbcolors")]),
)
def test_arrays_and_lists_build_the_same_clauses(puzzle, card, symmetry, families):
    options = Options(card=card, symmetry=symmetry, families=families)
    as_lists = BlockCNF(heule._blocks(puzzle, heule._Layout(puzzle, options), card, arrays=False), 0)
    as_arrays = BlockCNF(heule._blocks(puzzle, heule._Layout(puzzle, options), card, arrays=True), 0)
    assert as_arrays.clauses == as_lists.clauses == encode(puzzle, "heule", options).cnf.clauses
