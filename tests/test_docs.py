"""The documentation keeps up with the code: the site builds without a warning, its references
name every command, option and public name, every command in the README and the docs parses,
and every figure the pages quote is recomputed from the committed rows.  That the commands and the
Python blocks run as written is checked in test_documented_commands_run.py and
test_documented_python_runs.py, files of their own so that they run beside this one."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from docpages import INCLUDED, satedge_commands, text

import satedge
from satedge.cli import build_parser
from satedge.encode import DEFAULT_ENCODING
from satedge.errors import SatedgeError
from satedge.experiment import load_results

DOCS = ROOT / "docs"
TEXT = text()


def subcommands() -> dict:
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices


def page(name: str) -> str:
    return " ".join((DOCS / name).read_text(encoding="utf-8").split())


# --- the site -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `make docs` builds it (warnings are errors), into a folder of the test's."""
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    out = tmp_path_factory.mktemp("site")
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-E",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(DOCS),
            str(out / "html"),
            "-d",
            str(out / "doctrees"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0 and r.stderr == "", r.stderr[-3000:]
    return out / "html"


@pytest.mark.slow
def test_the_site_builds_without_a_warning_and_has_every_page(site):
    pages = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert {
        "index.html",
        "getting-started.html",
        "design.html",
        "reference/cli.html",
        "reference/api.html",
        "reference/rows.html",
        "reference/errors.html",
        "results/index.html",
        "results/bench-auto.html",
        "results/bench-certify.html",
        "results/bench-speed.html",
        "results/bench-search.html",
        "results/bench-enumerate.html",
        *(
            f"guides/{g}.html"
            for g in (
                "puzzles",
                "solving",
                "encodings",
                "dimacs",
                "certify",
                "experiments",
                "parallel",
                "limits",
                "python",
            )
        ),
    } <= pages


def _text(page) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.slow
def test_options_and_code_are_printed_as_typed(site):
    """No "--" turned into an en dash (before: "with –all or –limit" 37 times on the CLI page), in
    prose, in option names or in code; no curly quote in code."""
    found = []
    for page in site.rglob("*.html"):
        text = page.read_text()
        body = _text(text)
        found += [
            f"{page.name}: {body[m.start() - 20 : m.end() + 10]!r}"
            for m in re.finditer(r"\u2013[A-Za-z-]", body)
        ]
        for code in re.findall(r"<(pre|code)[^>]*>(.*?)</\1>", text, re.S):
            shown = _text(code[1])
            found += [
                f"{page.name}: {shown[:60]!r}" for ch in "\u2013\u2014\u2018\u2019\u201c\u201d" if ch in shown
            ]
    assert found == []
    assert "--method auto" in _text((site / "reference" / "cli.html").read_text())


@pytest.mark.slow
def test_code_scrolls_and_tables_scroll_in_their_box(site):
    """A long code line scrolls in its box instead of wrapping (before: a comment wrapped onto a
    line of its own that read like YAML); every page loads that stylesheet, and tables scroll
    inside theirs."""
    css = (site / "_static" / "satedge.css").read_text()
    assert re.search(r"pre\s*\{[^}]*white-space:\s*pre;[^}]*overflow-x:\s*auto", css)
    assert re.search(r"table[^{]*\{[^}]*overflow-x:\s*auto", css) and "pre-wrap" not in css
    pages = sorted(site.rglob("*.html"))
    assert pages and all("_static/satedge.css" in p.read_text() for p in pages)


@pytest.mark.slow
def test_results_pages_have_a_readers_title(site):
    titles = {
        p.name: re.search(r"<h1>(.*?)<", p.read_text(), re.S).group(1)
        for p in (site / "results").glob("*.html")
    }
    assert titles and all(
        not t.lower().startswith("bench") and "issue" not in t.lower() for t in titles.values()
    ), titles


@pytest.mark.slow
def test_the_results_lead_with_a_plot_and_define_their_terms(site):
    """Before: tables wider than the page, with 6 to 7 lines a row, and no picture; PAR-2,
    two-set, slices and the hardness peak never defined."""
    for name, image in (
        ("bench-certify", "bench-certify.svg"),
        ("bench-maximize", "bench-maximize-e2.svg"),
        ("bench-maxsat", "bench-maxsat.svg"),
        *((name, f"{name}-cactus.svg") for name in ("bench-solve", "heule2008", "bench-parallel")),
    ):
        html = (site / "results" / f"{name}.html").read_text()
        first_table = html.find("<table") % (len(html) + 1)  # no table: the end of the page
        assert html.index(f'src="../_images/{image}"') < first_table and (site / "_images" / image).exists()
    widths = [
        len(row.split(" | "))
        for row in (ROOT / "benchmarks" / "certify" / "bench-certify.md").read_text().splitlines()
        if row.startswith("| `")
    ]
    assert widths and max(widths) <= 8
    glossary = _text((site / "glossary.html").read_text())
    assert all(term in glossary for term in ("PAR-2", "two-set puzzle", "slice", "hardness peak", "shuffle"))
    assert 'href="../glossary.html#term-PAR-2"' in (site / "results" / "index.html").read_text()


@pytest.mark.slow
def test_heules_sizes_are_a_page_made_from_the_code(site):
    """Every instance of Heule's, every variant, satedge's size beside his (before: only in a test)."""
    text = " ".join(_text((site / "reference" / "heule.html").read_text()).split())
    assert "em_8_4_5 2,420 26,228 55,556 32,276 61,604 the same" in text
    assert text.count("the same") == 13 and "DIFFERENT" not in text


@pytest.mark.slow
def test_the_api_pages_document_every_public_name(site):
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as fh:
        inventory = InventoryFile.load(fh, "", os.path.join)
    documented = {name for kind in inventory.values() for name in kind}
    missing = [n for n in satedge.__all__ if n != "__version__" and f"satedge.{n}" not in documented]
    assert missing == []


@pytest.mark.slow
def test_the_committed_reference_pages_are_what_the_code_makes():
    """Before: the command, error and row pages existed only after `make docs`; now they are
    committed, browsable on the repository, and a stale one fails here (and stops the build)."""
    sys.path.insert(0, str(DOCS))
    try:
        import build_pages
    finally:
        sys.path.remove(str(DOCS))
    assert sorted(p.name for p in build_pages.committed_pages()) == [
        "cli.md",
        "engines.md",
        "errors.md",
        "heule.md",
        "rows.md",
    ]
    assert build_pages.stale_pages() == [], "write them again with python docs/build_pages.py"
    tracked = subprocess.run(
        ["git", "ls-files", "docs/reference"], cwd=ROOT, capture_output=True, text=True
    ).stdout.split()
    if tracked:  # a clone, not an unpacked sdist
        assert {Path(p).name for p in tracked} >= {p.name for p in build_pages.committed_pages()}


@pytest.mark.slow
def test_the_command_reference_names_every_command_and_option(site):
    reference = (DOCS / "reference" / "cli.md").read_text()
    for name, sub in subcommands().items():
        assert f"## satedge {name}\n" in reference, name
        for action in sub._actions:
            for option in action.option_strings if action.dest != "help" else ():
                assert f"`{option}`" in reference, f"{name} {option}"


def test_every_public_module_declares_all():
    missing = [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "satedge").rglob("*.py"))
        if p.name != "__main__.py" and not re.search(r"^__all__ = ", p.read_text(), re.M)
    ]
    assert missing == []


def test_the_public_functions_and_classes_have_numpy_sections():
    import inspect

    bare = []
    for name in satedge.__all__:
        obj = getattr(satedge, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            doc = inspect.getdoc(obj) or ""
            if not re.search(r"^(Parameters|Returns|Attributes)\n-{5,}$", doc, re.M):
                bare.append(name)
    assert bare == []


def test_the_readme_is_short_and_points_to_the_docs():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    assert "make docs" in readme and "CHANGELOG.md" in readme


# --- commands and code blocks -----------------------------------------------------------------


def test_the_docs_have_commands_of_every_kind():
    assert {shlex.split(c)[1] for c in satedge_commands()} == set(subcommands())


@pytest.mark.parametrize("command", satedge_commands() + satedge_commands(INCLUDED))
def test_every_documented_command_parses(command):
    try:
        build_parser().parse_args(shlex.split(command)[1:])
    except SatedgeError as e:
        pytest.fail(f"{command}: {e}")
    except SystemExit as e:  # --help
        assert e.code == 0


def test_every_option_is_in_the_guides():
    """The hand-written pages, not only the generated reference, name every option."""
    missing = [
        f"{name} {action.option_strings[0]}"
        for name, sub in subcommands().items()
        for action in sub._actions
        if action.option_strings
        and action.dest != "help"
        and not any(re.search(re.escape(o) + r"(?![\w-])", TEXT) for o in action.option_strings)
    ]
    assert missing == []


# --- figures ----------------------------------------------------------------------------------


def test_the_bench_solve_figures_are_the_committed_rows():
    """The results page's bench-solve table, and the ratios it quotes, recomputed from the rows
    committed in experiments/bench-solve-results.jsonl."""
    from satedge.experiment.report import summarize
    from satedge.experiment.rows import read_results

    doc = (DOCS / "results" / "bench-solve.md").read_text()
    summary = summarize(read_results(ROOT / "experiments" / "bench-solve-results.jsonl"))
    table = re.search(
        r"^\| configuration \| solved of 70 \| PAR-2 \| median s of solved \|\n\|---.*?\n((?:\|.*\n)+)",
        doc,
        re.M,
    ).group(1)
    quoted = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()]
    names = [re.sub(r"`| \(.*\)| / ", lambda m: "/" if m.group() == " / " else "", q[0]) for q in quoted]
    names = [{"backtrack": "backtrack/backtrack", "cpsat": "cpsat/cpsat"}.get(n, n) for n in names]
    assert [[n, *q[1:]] for n, q in zip(names, quoted)] == [
        [s["configuration"], str(s["solved"]), f"{s['par2']:.1f}", f"{s['median_s']:.1f}"] for s in summary
    ]
    par2 = {s["configuration"]: s["par2"] for s in summary}
    best = par2["edgecolor-corners-sym/cadical195:sat"]

    def ratio(a, b):
        return f"{par2[a] / par2[b]:.2f}"

    solved = {s["configuration"]: s["solved"] for s in summary}
    claims = [
        f"CP-SAT's PAR-2 is {par2['cpsat/cpsat'] / best:.2f} times the best preset's",
        f"`support-seqcounter`'s {par2['support-seqcounter/kissat404'] / best:.2f} to "
        f"{par2['support-seqcounter/cadical195'] / best:.2f} times",
        f"most {round(100 * (par2['edgecolor-corners-sym/cadical195'] / best - 1))}%",
        f"worth {ratio('edgecolor-heule2008/kissat404', 'edgecolor-corners-sym/kissat404')} with Kissat and "
        f"{ratio('edgecolor-heule2008/cadical195:sat', 'edgecolor-corners-sym/cadical195:sat')} to "
        f"{ratio('edgecolor-heule2008/cadical195', 'edgecolor-corners-sym/cadical195')} with CaDiCaL",
        f"the supports make {ratio('edgecolor-heule2008/cadical195:sat', 'edgecolor-corners/cadical195:sat')} of "
        f"that and the corner tile {ratio('edgecolor-corners/cadical195:sat', 'edgecolor-corners-sym/cadical195:sat')}",
        f"with default CaDiCaL {ratio('edgecolor-heule2008/cadical195', 'edgecolor-corners/cadical195')} and "
        f"{ratio('edgecolor-corners/cadical195', 'edgecolor-corners-sym/cadical195')}",
        f"with Kissat {ratio('edgecolor-heule2008/kissat404', 'edgecolor-corners/kissat404')} and "
        f"{ratio('edgecolor-corners/kissat404', 'edgecolor-corners-sym/kissat404')}",
        f"best preset's PAR-2 is {par2['split-ladder/kissat404'] / best:.2f} times better",
        f"still {par2['split-ladder/cadical195:sat'] / best:.2f} times behind the best",
        f"PAR-2 345.0, {par2['direct-pairwise/cadical195:sat'] / best:.2f} times behind the best preset and "
        f"{ratio('cpsat/cpsat', 'direct-pairwise/cadical195:sat')} ahead of CP-SAT",
        f"the backtracker in one process solves {solved['backtrack/backtrack']}",
    ]
    flat = page("results/bench-solve.md")
    assert [c for c in claims if c not in flat] == []


def test_the_quoted_comparison_is_the_committed_rows():
    """The results page's verdict on the committed bench-solve rows, recomputed (extra stats)."""
    from satedge.experiment.rows import read_results
    from satedge.experiment.stats import compare, frame

    c = compare(
        frame(read_results(ROOT / "experiments" / "bench-solve-results.jsonl")),
        "edgecolor-corners-sym/cadical195:sat",
        "support-seqcounter/kissat404",
    )
    quoted = (
        f"ratio {c['ratio']:.2f} (95% interval {c['ci'][0]:.2f} to {c['ci'][1]:.2f}), p = {c['p_value']:.0e} over "
        f"{c['instances']} instances: `edgecolor-corners-sym` is better"
    )
    assert c["better"] == "a" and quoted in page("results/bench-solve.md"), quoted


@pytest.mark.parametrize(
    "a, b, better, verdict",
    [
        (
            "edgecolor-corners/cadical195",
            "edgecolor-corners/cadical195:sat",
            "b",
            "the `sat` configuration is better, and is the default",
        ),
        (
            "edgecolor-corners/cadical195:sat",
            "edgecolor-corners-sym/cadical195:sat",
            None,
            "no difference at the 5% level",
        ),
    ],
)
def test_the_default_solver_is_the_committed_comparison(a, b, better, verdict):
    """The default of ``--method sat`` (CaDiCaL's ``sat`` configuration, the encoding without
    symmetry breaking) and the two comparisons on the results page that say why, recomputed
    from the committed bench-solve rows (extra stats)."""
    from satedge.experiment.rows import read_results
    from satedge.experiment.stats import compare, frame
    from satedge.jobs.solver import SolverConfig

    c = compare(frame(read_results(ROOT / "experiments" / "bench-solve-results.jsonl")), a, b)
    quoted = (
        f"ratio {c['ratio']:.2f} (95% interval {c['ci'][0]:.2f} to {c['ci'][1]:.2f}), p = {c['p_value']:.4f} over "
        f"{c['instances']} instances: {verdict}"
    )
    assert c["better"] == better and quoted in page("results/bench-solve.md"), quoted
    assert str(SolverConfig()) == "cadical195:sat" and DEFAULT_ENCODING == "edgecolor-corners"


@pytest.mark.parametrize(
    "rows, a, b, inverse, quoted",
    [
        (
            "heule2008",
            "heule2008-all/kissat404",
            "edgecolor-corners-sym/cadical195",
            True,
            "(ratio 1.27, 95% interval 0.42 to 3.86, p = 0.22)",
        ),
        (
            "bench-solve-shuffled",
            "heule2008-all/kissat404",
            "edgecolor-corners-sym/cadical195:sat",
            False,
            "the PAR-2 ratio is 0.85 (95% interval 0.61 to 0.99) in the preset's favour, but with p = 0.125",
        ),
        (
            "heule2008-tries",
            "heule2008-all/kissat404",
            "edgecolor+card=pairwise+redundant=true+symmetry=rotation/cadical195",
            True,
            "2.36 times better than `heule2008-all` with Kissat in PAR-2 (95% interval 1.36 to 3.80), p = 0.078",
        ),
    ],
)
def test_the_heule_verdicts_come_from_the_committed_rows(tmp_path, rows, a, b, inverse, quoted):
    """The verdicts of the shuffled studies are what `report --compare` computes from the
    committed rows (``inverse``: the page quotes the ratio of A to B, else of B to A)."""
    from satedge.experiment.stats import compare

    (tmp_path / "results.jsonl").write_bytes((ROOT / "experiments" / f"{rows}-results.jsonl").read_bytes())
    c = compare(load_results(tmp_path), a, b)
    ratio = 1 / c["ratio"] if inverse else c["ratio"]
    low, high = sorted(1 / x for x in c["ci"]) if inverse else c["ci"]
    figures = [float(x) for x in re.findall(r"\d+\.\d+", quoted)]
    assert figures == [
        round(ratio, 2),
        round(low, 2),
        round(high, 2),
        round(c["p_value"], len(str(figures[-1])) - 2),
    ]
    assert c["better"] is None
    assert quoted in page("results/heule2008.md")


def test_the_parallel_figures_are_the_committed_results(tmp_path):
    """The advice on workers quotes benchmarks/parallel/bench-parallel-results.jsonl (the solving) and
    benchmarks/parallel/bench-parallel-extra.json (the enumeration)."""
    import statistics

    from satedge.experiment.stats import compare, summary

    (tmp_path / "results.jsonl").write_bytes(
        (ROOT / "benchmarks" / "parallel" / "bench-parallel-results.jsonl").read_bytes()
    )
    df = load_results(tmp_path)
    single, cubes, folio = (
        f"edgecolor-corners-sym/cadical195:sat{x}"
        for x in ("", ",workers=2,strategy=cubes", ",workers=2,strategy=portfolio")
    )
    bt = "backtrack:workers=2/backtrack:workers=2"
    rows = {r["configuration"]: r for r in summary(df)}
    solved = [rows[c]["solved"] for c in (bt, single, cubes, folio)]
    par2 = [f"{rows[c]['par2']:.1f}" for c in (bt, single, cubes, folio)]
    c1, c2, c3 = compare(df, bt, cubes), compare(df, single, cubes), compare(df, single, folio)
    text = page("results/bench-parallel.md")
    assert solved == [9, 7, 7, 7]
    assert (
        f"solves 9 of the ten peak puzzles at 50 s (PAR-2 {par2[0]}) against 7 for the best SAT configuration on "
        f"one core, on two with `cubes` and with `portfolio` (PAR-2 {par2[1]}, {par2[2]} and {par2[3]})"
    ) in text
    assert c1["better"] == "a" and c2["better"] is None and c3["better"] == "a"
    assert (
        f"(ratio {c1['ratio']:.2f}, 95% interval {c1['ci'][0]:.2f} to {c1['ci'][1]:.1f}, p = "
        f"{c1['p_value']:.1g})"
    ) in text
    assert (
        f"ratio {c2['ratio']:.2f} ({c2['ci'][0]:.2f} to {c2['ci'][1]:.2f}), p = {c2['p_value']:.2f}, no verdict"
        in text
    )
    assert f"ratio {c3['ratio']:.2f}, {c3['ci'][0]:.2f} to {c3['ci'][1]:.2f}, p = {c3['p_value']:.3f}" in text
    extra = json.loads((ROOT / "benchmarks" / "parallel" / "bench-parallel-extra.json").read_text())
    med = {}
    for r in extra["enumerate"]["4x4-55296"]:
        med.setdefault(r["config"], []).append(r["seconds"])
        assert r["solutions"] == 55296
    one, two, dask, bt1 = (
        statistics.median(med[k])
        for k in (
            "sat, 1 worker",
            "sat, cubes on 2 local workers",
            "sat, cubes on a 2-worker Dask LocalCluster",
            "backtrack, 1 worker",
        )
    )
    assert (
        f"55,296 solutions in {two:.2f} s for the whole command on 2 workers against {one:.2f} s on one "
        f"({one / two:.2f} times; {55296 / two:,.0f} solutions/s); on a 2-worker Dask `LocalCluster` {dask:.2f} s"
    ) in text
    assert f"The backtracker is faster still here ({bt1:.2f} s)" in text


def test_the_random_insects_experiment_is_what_the_guide_says():
    """100 uniform 3x3 puzzles with four complementary patterns, seeds 1 to 100: the solutions
    in all and the solvable ones, as the puzzles guide quotes them."""
    from satedge.backtrack import search as backtrack
    from satedge.puzzle.generate import Params, generate

    counts = [
        len(
            list(
                backtrack.solutions(
                    generate(
                        Params(rows=3, cols=3, colors=4, matching="complementary", model="uniform"), seed
                    )
                )
            )
        )
        for seed in range(1, 101)
    ]
    assert (
        f"satedge's puzzles have {sum(counts)} solutions in all, and {sum(c > 0 for c in counts)} of the 100 are "
        f"solvable"
    ) in page("guides/puzzles.md")


def test_the_sizes_the_guides_quote_are_the_encodings():
    from satedge.encode import Encoding
    from satedge.puzzle.formats import load_puzzle

    e2 = load_puzzle("eternity2/e2")
    size = Encoding.parse("direct-pairwise").size(e2)
    assert (
        f"`direct-pairwise` on Eternity II has {size.clauses:,} clauses of {size.literals:,} literals"
        in page("guides/dimacs.md")
    )
    em = load_puzzle("heule2008/em_7_3_6")
    assert Encoding.parse("edgecolor-heule2008+card=pairwise").size(em).variables == 1465
    assert (
        Encoding.parse("heule2008-all").size(em).variables,
        Encoding.parse("heule2008-all").size(em).clauses,
    ) == (1473, 30037)
    assert "1473 variables and 30,037 clauses for `em_7_3_6` with `heule2008-all`" in page(
        "guides/encodings.md"
    )
    assert "1465 variables on `em_7_3_6` with pairwise exactly-one" in page("guides/encodings.md")


# every `satedge: error: ...` the pages quote, with a command (and a folder to run it in) that
# prints it; FILE, DIR, PRESET, N, C, L, M and "..." stand for what varies
QUOTED_ERRORS = {
    "satedge: error: FILE: encoding PRESET needs more than N MB of memory: its C clauses of L literals take at least "
    "M MB (--memory MB to allow more)": [
        "encode",
        "eternity2/e2",
        "--encoding",
        "direct-pairwise",
        "--memory",
        "4000",
        "-o",
        "e2-direct.cnf",
    ],
    "satedge: error: FILE: the heule encoding covers framed grid boards only: ...": [
        "encode",
        "hunde-spiel",
        "--encoding",
        "heule2008-all",
    ],
    "satedge: error: DIR: another satedge run (pid N) is writing its results here; ...": "lock",
    "satedge: error: FILE: problem": ["count", "no-such-puzzle.yaml"],
}


@pytest.mark.slow
def test_every_error_the_docs_quote_is_what_a_command_prints(tmp_path):
    """Before: the DIMACS guide quoted a memory error that `encode` did not print."""
    import fcntl

    quoted = {" ".join(m.split()) for m in re.findall(r"`(satedge: error:\s[^`]*)`", TEXT)}
    assert quoted == set(QUOTED_ERRORS)
    for quote, command in QUOTED_ERRORS.items():
        if command == "lock":  # a folder another runner holds
            out = tmp_path / "out"
            out.mkdir()
            held = open(out / ".lock", "w")
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.write(str(os.getpid()))
            held.flush()
            command = ["run", str(ROOT / "experiments" / "demo.yaml"), "--out", str(out)]
        r = subprocess.run(
            [sys.executable, "-m", "satedge", *command],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
        )
        pattern = re.sub(r"\b(FILE|DIR|PRESET|N|C|L|M|problem)\b|\\\.\\\.\\\.", ".+", re.escape(quote))
        assert (r.returncode, r.stdout) == (2, "") and re.fullmatch(pattern, r.stderr.strip()), (
            quote,
            r.stderr,
        )
    assert not (tmp_path / "e2-direct.cnf").exists()
