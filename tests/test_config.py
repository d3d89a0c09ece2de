"""One value per concept, parsed once: every solver and encoding string the docs, the specs in
experiments/ and the committed rows use parses into a SolverConfig or an Encoding whose one
string form reads back into the same value; the rules about which settings go together are
the same words from the command line, a spec and Python."""

import json
import re
import shlex

import pytest
import yaml
from conftest import PUZZLES, ROOT
from docpages import shell_lines

from satedge.encode import Encoding, Options
from satedge.errors import SatedgeError
from satedge.experiment.spec import load_spec
from satedge.jobs import Job
from satedge.jobs.registry import takers
from satedge.jobs.solver import SolverConfig
from satedge.puzzle.formats import load_puzzle

SPECS = sorted((ROOT / "experiments").glob("*.yaml")) + sorted((ROOT / "benchmarks").glob("*/*.yaml"))
ROWS = sorted((ROOT / "experiments").glob("*-results.jsonl")) + sorted(
    (ROOT / "benchmarks").glob("*/*-results.jsonl")
)


def _doc_values(option: str) -> set[str]:
    found = set()
    for line in shell_lines():
        for part in re.split(r"&&|\||;", line.split(" #")[0]):
            words = shlex.split(part.split(">")[0])
            found |= {words[i + 1] for i, w in enumerate(words[:-1]) if w == option}
    return found


def _spec_entries(key: str) -> list:
    out = []
    for f in SPECS:
        entries = yaml.safe_load(f.read_text()).get(key) or []
        out += entries if isinstance(entries, list) else [entries]
    return out


# benchmarks/auto/bench-auto.py times whole commands; its rows name the default `--method auto` "auto"
SCRIPTED = {"bench-auto-peak-results.jsonl", "bench-auto-count-results.jsonl"}


def _row_values() -> set[tuple[str, str]]:
    return {
        (r["encoding"], r["solver"])
        for f in ROWS
        for line in f.read_text().splitlines()
        if line.strip()
        for r in [json.loads(line)]
        if r["solver"] != "auto"
    }


SOLVERS = sorted(
    _doc_values("--solver") | {str(s) for s in _spec_entries("solvers")} | {s for _, s in _row_values()}
)
ENCODINGS = sorted(
    _doc_values("--encoding")
    | {e for e in _spec_entries("encodings") if isinstance(e, str)}
    | {e for e, s in _row_values() if SolverConfig.parse(s).has_formula}
)


def test_the_strings_are_many():
    assert len(SOLVERS) >= 10 and len(ENCODINGS) >= 12
    assert {"cadical195:sat,workers=2,strategy=cubes", "backtrack:workers=2", "cpsat"} <= set(SOLVERS)
    assert "edgecolor+card=pairwise+redundant=true+symmetry=rotation" in ENCODINGS


@pytest.mark.parametrize("text", SOLVERS)
def test_every_solver_string_round_trips(text):
    config = SolverConfig.parse(text)
    assert SolverConfig.parse(str(config)) == config
    assert str(config) == text  # the strings in use are the one form


@pytest.mark.parametrize("text", ENCODINGS)
def test_every_encoding_string_round_trips(text):
    encoding = Encoding.parse(text)
    assert Encoding.parse(encoding.name) == encoding
    if not text.endswith((".yaml", ".yml")):
        assert encoding.name == text


def test_committed_rows_name_their_configuration_as_a_spec_run_does():
    """Every committed row's encoding and solver are the names a run of the same configuration
    gets today, so that new rows and old ones meet under one name; an engine with a model of
    its own names itself as its encoding, as rows always have."""
    for encoding, solver in _row_values():
        config = SolverConfig.parse(solver)
        if not config.has_formula:
            assert encoding == str(config)
        else:
            assert Encoding.parse(encoding).name == encoding


def test_every_committed_spec_loads_and_its_runs_keep_their_ids():
    """The specs of the committed studies give the ids of their committed rows (resume skips them)."""
    for rows in ROWS:
        spec = rows.parent / rows.name.replace("-results.jsonl", ".yaml")
        ids = {json.loads(line)["id"] for line in rows.read_text().splitlines() if line.strip()}
        if spec.name == "bench-solve.yaml" or rows.name in SCRIPTED:  # slices of several specs; a script
            continue
        runs = load_spec(spec).runs
        assert ids <= {r.id for r in runs}, spec.name


@pytest.mark.parametrize(
    "text,value",
    [
        ("cadical195:sat", SolverConfig()),
        ("cadical195", SolverConfig(name="cadical195")),
        ("cadical195:seed=2", SolverConfig(options=("seed=2",))),
        ("cadical195:seed=2,sat", SolverConfig(options=("sat", "seed=2"))),
        (
            "kissat404:strategy=cubes,workers=2",
            SolverConfig(name="kissat404", workers=2, settings={"strategy": "cubes"}),
        ),
        ("cmd:cadical -q", SolverConfig(engine="cmd", name="cadical -q")),
        ("cmd,workers=2:cadical -q", SolverConfig(engine="cmd", name="cadical -q", workers=2)),
        ("backtrack:workers=2", SolverConfig(engine="backtrack", workers=2)),
        ("cpsat", SolverConfig(engine="cpsat")),
    ],
)
def test_solver_strings_and_values(text, value):
    assert SolverConfig.parse(text) == value
    assert SolverConfig.parse(str(value)) == value


@pytest.mark.parametrize(
    "text,base,options,name",
    [
        ("support", "support", Options(), "support"),
        (
            "edgecolor+symmetry=rotation",
            "edgecolor",
            Options(symmetry="rotation"),
            "edgecolor+card=pairwise+symmetry=rotation",
        ),
        (
            "edgecolor-heule2008+card=ladder,symmetry=rotation",
            "edgecolor",  # the comma form of older names reads too
            Options(card="ladder", symmetry="rotation"),
            "edgecolor-heule2008+card=ladder+symmetry=rotation",
        ),
        (
            "edgecolor-corners+card=seqcounter",
            "edgecolor",
            Options(card="seqcounter", redundant=True),
            "edgecolor-corners",
        ),
        (
            "heule+families=atmostone,fbcolors",
            "heule",
            Options(families=("atmostone", "fbcolors")),
            "heule+card=pairwise+families=atmostone,fbcolors",
        ),
        ("heule2008-all+families=", "heule", Options(), "heule2008-all+families="),
    ],
)
def test_encoding_strings_and_values(text, base, options, name):
    e = Encoding.parse(text)
    assert (e.base, e.options, e.name) == (base, options, name)
    assert Encoding.parse(name) == e


@pytest.mark.parametrize(
    "text,message",
    [
        ("kissat404:sat", "solver 'kissat404' takes no options; only cadical153, cadical195, cadical300 do"),
        ("cadical195:seed=1,seed=2", "cadical195 takes one seed, not seed=1, seed=2"),
        ("backtrack:sat", "solver 'backtrack:sat': backtrack takes workers=, order= and loop="),
        (
            "cpsat:strategy=cubes",
            f"a strategy applies to {takers('strategy')} only, not to cpsat",
        ),
        ("cmd:", "the solver command is empty: give a solver binary and its options, e.g. 'cadical -q'"),
        ("cadical195:workers=two", "solver 'cadical195:workers=two': workers=N takes N from 1 to 1,024"),
    ],
)
def test_bad_solver_strings(text, message):
    with pytest.raises(SatedgeError) as e:
        SolverConfig.parse(text)
    assert str(e.value) == message


@pytest.mark.parametrize(
    "text,message",
    [
        ("support+card=nope", "unknown card encoding 'nope'; choose from pairwise"),
        (
            "support+colour=red",
            "encoding 'support+colour=red': options are key=value with a key among card, symmetry, "
            "redundant, families, counts, not 'colour=red'",
        ),
        ("support+redundant=yes", "encoding 'support+redundant=yes': redundant is true or false, not 'yes'"),
        ("support+card=ladder+card=totalizer", "card is given twice"),
        (
            "edgecolor+families=atmostone",
            "edgecolor has no clause family 'atmostone': its MaxSAT form takes colorcount",
        ),
    ],
)
def test_bad_encoding_strings(text, message):
    with pytest.raises(SatedgeError, match=re.escape(message)):
        Encoding.parse(text)


def test_the_same_rule_in_the_same_words_from_python_a_spec_and_the_command_line(tmp_path, run_cli):
    hunde = PUZZLES / "hunde-spiel.yaml"
    rule = "a strategy applies with workers=N (N at least 2) or a Dask scheduler"
    with pytest.raises(SatedgeError, match=re.escape(rule)):
        Job(load_puzzle(hunde), solver="kissat404:strategy=cubes")
    assert run_cli("solve", hunde, "--solver", "kissat404", "--strategy", "cubes") == (
        2,
        "",
        f"satedge: error: {rule}\n",
    )
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f"name: s\npuzzles: [{hunde}]\nencodings: [support]\nsolvers: ['kissat404:strategy=cubes']\n"
    )
    assert run_cli("run", spec, "--out", tmp_path / "o") == (
        2,
        "",
        f"satedge: error: {spec}: solver kissat404:strategy=cubes: {rule}\n",
    )
    own = "backtrack has its own model: it takes no encoding ('support')"
    with pytest.raises(SatedgeError, match=re.escape(own)):
        Job(load_puzzle(hunde), solver="backtrack", encoding="support")
    assert run_cli("count", hunde, "--method", "backtrack", "--encoding", "support") == (
        2,
        "",
        f"satedge: error: {own}\n",
    )
    proof = "a proof folder goes with a certified answer: name a checker"
    for make in (
        lambda: Job(load_puzzle(hunde), "count", proof=str(tmp_path / "p")),
        lambda: Job.make(None, "count", method="sat", proof=str(tmp_path / "p")),
    ):
        with pytest.raises(SatedgeError, match=f"^{re.escape(proof)}$"):
            make()
    assert not (tmp_path / "p").exists()


def test_a_solver_binary_is_looked_up_on_path_when_a_job_is_made_not_before():
    """Before: a SolverConfig of a binary looked it up on PATH when made, so that a test module
    that made one at import failed to load on a machine without the binary."""
    config = SolverConfig.parse("cmd:no-such-solver-here -q")
    assert str(config) == "cmd:no-such-solver-here -q"
    with pytest.raises(SatedgeError, match=r"^solver command 'no-such-solver-here -q' not found on PATH$"):
        Job(None, "solve", config)
