"""The layered core: the import-linter contract, imports inside functions only to load late what
a command may not need, optional dependencies imported in one guarded place, and a missing extra
failing in one line."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PUZZLES, ROOT

from satedge.jobs.registry import engines
from satedge.system.extras import EXTRAS

# every optional library: the extras' and the engines' (the engine table's needs)
OPTIONAL = sorted({*EXTRAS, *(e.needs.module for e in engines().values() if e.needs and e.needs.module)})

SOURCES = sorted((ROOT / "satedge").rglob("*.py"))


def test_the_import_contracts_hold():
    """`lint-imports` with the contracts in pyproject.toml: the layers, and no import cycle
    (imports inside functions count)."""
    lint = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 12 kept, 0 broken." in r.stdout


def _imports(node):
    return [n for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom))]


# what a function may import when it first needs it, so that a command that does not need it does not
# pay for it: satedge's own modules (the layers contract sees these imports as it sees the others),
# and the core dependencies that only some commands use
LATE = {"networkx", "tqdm"}


def test_imports_inside_a_function_only_load_late():
    """An import inside a function is of a satedge module or of :data:`LATE`; optional
    dependencies come through satedge.system.extras.require, which imports by name."""
    inside = []
    for f in SOURCES:
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inside += [
                    f"{f.relative_to(ROOT)}:{i.lineno}"
                    for i in _imports(node)
                    if getattr(i, "level", 0) == 0
                    and not all(
                        n.split(".")[0] in LATE
                        for n in (
                            [a.name for a in i.names] if isinstance(i, ast.Import) else [i.module or ""]
                        )
                    )
                ]
    assert inside == []


def test_optional_dependencies_are_imported_only_by_extras():
    found = []
    for f in SOURCES:
        for i in _imports(ast.parse(f.read_text())):
            names = [a.name for a in i.names] if isinstance(i, ast.Import) else [i.module or ""]
            found += [
                f"{f.relative_to(ROOT)}: {n}"
                for n in names
                if getattr(i, "level", 0) == 0 and n.split(".")[0] in OPTIONAL
            ]
    assert found == []


# every optional dependency missing, as on an install without extras
_WITHOUT_EXTRAS = (
    "import sys\nfor m in {mods!r}: sys.modules[m] = None\n"
    "from satedge.cli import main\nsys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["crosscheck", "--examples", "1"],
            "crosscheck and the hypothesis strategies need hypothesis: pip install 'satedge[crosscheck]'",
        ),
        (
            ["count", "{hunde}", "--solver", "cpsat"],
            "the cpsat engine needs ortools: pip install 'satedge[cp]'",
        ),
        (
            ["count", "{hunde}", "--solver", "clasp"],
            "the clasp engine needs clingo: pip install 'satedge[asp]'",
        ),
        (
            ["maximize", "{hunde}", "--solver", "uwrmaxsat"],
            "the hermax engine needs hermax: pip install 'satedge[maxsat]'",
        ),
        (
            ["render", "{hunde}", "--solve", "-o", "{tmp}/h.png"],
            "PNG pictures and plots need matplotlib: pip install 'satedge[plot]'",
        ),
        (
            [
                "run",
                str(ROOT / "experiments" / "demo.yaml"),
                "--out",
                "{tmp}/o",
                "--executor",
                "dask",
                "--scheduler",
                "tcp://x:1",
            ],
            "Dask clusters need dask: pip install 'satedge[dist]'",
        ),
    ],
)
def test_a_missing_extra_is_one_line(tmp_path, args, message):
    """Before: `satedge crosscheck` without the test extra ended in a ModuleNotFoundError traceback."""
    code = _WITHOUT_EXTRAS.format(mods=OPTIONAL)
    fill = {"hunde": PUZZLES / "hunde-spiel.yaml", "tmp": tmp_path}
    r = subprocess.run(
        [sys.executable, "-c", code, *[a.format(**fill) for a in args]],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"satedge: error: {message.format(**fill)}\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_the_core_commands_work_without_extras(tmp_path):
    code = _WITHOUT_EXTRAS.format(mods=OPTIONAL)
    r = subprocess.run(
        [sys.executable, "-c", code, "count", str(PUZZLES / "hunde-spiel.yaml"), "--json"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert '"solutions": 16, "distinct": 8, "unique": 2' in r.stdout


@pytest.mark.slow
def test_the_parsed_arguments_stop_at_the_command_line():
    """Only the command line's modules know argparse (its commands name the parsed namespace in
    their annotations): below it every function takes satedge's values (a Job, a SolverConfig,
    an Encoding), never a parsed namespace."""
    knows = sorted(
        str(f.relative_to(ROOT))
        for f in SOURCES
        if any(
            (isinstance(i, ast.Import) and any(a.name == "argparse" for a in i.names))
            or (isinstance(i, ast.ImportFrom) and i.module == "argparse")
            for i in _imports(ast.parse(f.read_text()))
        )
    )
    assert [k for k in knows if not k.startswith("satedge/cli/")] == []
    assert {"satedge/cli/__init__.py", "satedge/cli/options.py", "satedge/cli/common.py"} <= set(knows)
    params = [
        f"{f.relative_to(ROOT)}:{node.name}"
        for f in SOURCES
        if "cli" not in f.parts
        for node in ast.walk(ast.parse(f.read_text()))
        if isinstance(node, ast.FunctionDef)
        for a in node.args.args + node.args.kwonlyargs
        if a.arg == "args" and (a.annotation is None or "Namespace" in ast.unparse(a.annotation))
    ]
    assert params == []


def test_a_missing_extra_names_the_smallest_extra_that_brings_it():
    """Each optional module's error line names an extra that lists its package, and no smaller
    extra lists it (before: crosscheck named `test`, which brings everything)."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]

    def packages(extra: str) -> set[str]:
        out = set()
        for req in extras[extra]:
            name = req.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower()
            if name == "satedge":  # satedge[a,b]: the extras it names
                out |= {p for e in req.split("[")[1].split("]")[0].split(",") for p in packages(e.strip())}
            else:
                out.add(name)
        return out

    pip = {
        "dask": "dask",
        "distributed": "dask",
        "scipy": "scipy",
        "pandas": "pandas",
        "matplotlib": "matplotlib",
        "ortools": "ortools",
        "clingo": "clingo",
        "dratify": "dratify",
        "drup": "drup",
        "hypothesis": "hypothesis",
        "hermax": "hermax",
        "scikit_posthocs": "scikit-posthocs",
        "zstandard": "zstandard",
    }
    needs = {e.needs.module: e.needs.extra for e in engines().values() if e.needs and e.needs.module}
    for module, extra in {**{m: x for m, (x, _) in EXTRAS.items()}, **needs}.items():
        package = pip[module]
        assert package in packages(extra), (module, extra)
        holders = [e for e in extras if package in packages(e)]
        assert len(packages(extra)) == min(len(packages(e)) for e in holders), (module, extra, holders)


def _assigned(target: ast.expr) -> list[str]:
    """The names an assignment's target binds: a name, or each name of a tuple (``A, B = 1, 2``)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple | ast.List):
        return [name for item in target.elts for name in _assigned(item)]
    return []


def _top_level_names(tree: ast.Module) -> list[str]:
    """What a module binds at its top: its constants (tuple assignments too), functions and classes."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names += [name for target in node.targets for name in _assigned(target)]
        elif isinstance(node, ast.AnnAssign):
            names += _assigned(node.target)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
    return names


def test_each_constant_and_shared_helper_has_one_home():
    """No ALL_CAPS constant is defined at the top of two modules (a tuple assignment such as
    ``DONE, FOUND = 0, 1`` counts each of its names), and the helpers that once had several
    homes (``cores``, ``too_big``, ``internal``, ``cannot_write``, ``answered``, ``certified``)
    are defined once."""
    once = ("cores", "too_big", "internal", "cannot_write", "answered", "certified")
    declarations = {"BASE", "ENGINE"}  # what each base encoding's and each engine's module declares
    homes: dict[str, list[str]] = {}
    for f in SOURCES:
        for name in _top_level_names(ast.parse(f.read_text())):
            if (name.isupper() and name not in declarations) or name in once:
                homes.setdefault(name, []).append(str(f.relative_to(ROOT)))
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}


def test_the_kernels_outcome_codes_have_one_home():
    """The outcomes of the compiled kernels are the members of one enumeration
    (``satedge.backtrack.kernels.Step``); no module binds DONE, FOUND, BETTER or PAUSED of its own,
    and the C search loop gets them from it."""
    from satedge.backtrack.kernels import Step

    codes = {"DONE", "FOUND", "BETTER", "PAUSED"}
    bound = [
        f"{f.relative_to(ROOT)}: {name}"
        for f in SOURCES
        for name in _top_level_names(ast.parse(f.read_text()))
        if name in codes
    ]
    assert bound == []
    assert {s.name: s.value for s in Step} == {"DONE": 0, "FOUND": 1, "PAUSED": 2}


def test_the_house_plan_stays_small():
    """At most 14 entries in ``satedge/`` (nine packages by idea, the API, the errors, the package's
    and the command's entry points); the module the commands share imports at most 10 of
    satedge's modules."""
    entries = sorted(p.name for p in (ROOT / "satedge").iterdir() if p.name != "__pycache__")
    assert len(entries) <= 14, entries
    cli = ROOT / "satedge" / "cli"
    shared = {
        i.module
        for i in _imports(ast.parse((cli / "common.py").read_text()))
        if isinstance(i, ast.ImportFrom) and i.level == 2
    }
    assert len(shared) <= 10, sorted(shared)
