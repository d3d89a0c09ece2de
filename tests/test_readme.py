"""The README keeps up with the command line: every `satedge` command in its shell blocks parses,
and every option of every command is in it."""

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from satedge.cli import build_parser
from satedge.errors import SatedgeError
from satedge.experiment import load_results

README = (ROOT / "README.md").read_text(encoding="utf-8")


def shell_commands() -> list[str]:
    """The `satedge ...` commands of the README's ```sh blocks, continuation lines joined, comments,
    redirections and pipes cut off."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", README, re.S | re.M):
        for line in block.replace("\\\n", " ").splitlines():
            for part in re.split(r"&&|\||;", line.split(" #")[0]):
                words = shlex.split(part.split(">")[0])
                if words[:1] == ["satedge"]:
                    commands.append(shlex.join(words))
    return commands


def subcommands() -> dict:
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices


def test_the_readme_has_commands_of_every_kind():
    assert {shlex.split(c)[1] for c in shell_commands()} == set(subcommands())


@pytest.mark.parametrize("command", shell_commands())
def test_every_readme_command_parses(command):
    try:
        build_parser().parse_args(shlex.split(command)[1:])
    except SatedgeError as e:
        pytest.fail(f"{command}: {e}")
    except SystemExit as e:  # --help
        assert e.code == 0


def test_every_option_is_in_the_readme():
    missing = [f"{name} {action.option_strings[0]}" for name, sub in subcommands().items() for action in sub._actions
               if action.option_strings and action.dest != "help"
               and not any(re.search(re.escape(o) + r"(?![\w-])", README) for o in action.option_strings)]
    assert missing == []


def test_the_python_example_runs_and_prints_what_its_comments_say(tmp_path, monkeypatch, capsys):
    """The README's first Python block, run as written in an empty folder: it names shipped
    puzzles and the shipped demo spec, so it runs from an installed satedge as from a clone."""
    code = re.findall(r"^```python\n(.*?)^```", README, re.S | re.M)[0]
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    checked = 0
    for line in code.splitlines():
        if not line.startswith("print(") or "  # " not in line:
            continue
        comment = line.split("  # ", 1)[1].strip()
        if comment.endswith("(seconds vary)"):  # all but the last figure
            expected = comment.removesuffix("(seconds vary)").split()[:-1]
            assert any(out.split()[:len(expected)] == expected for out in printed), comment
        else:
            assert comment in printed, comment
        checked += 1
    assert checked == 10
    assert sorted(p.name for p in (tmp_path / "out" / "demo").iterdir()) == [
        ".lock", "pictures", "results.jsonl", "summary.csv"]


def shell_lines() -> list[str]:
    """Every line of the README's ```sh blocks, continuation lines joined."""
    return [line for block in re.findall(r"^```sh\n(.*?)^```", README, re.S | re.M)
            for line in block.replace("\\\n", " ").splitlines() if line.strip()]


@pytest.mark.timeout(900)  # every README command: about 190 s here
def test_the_readme_commands_run_on_a_clone_without_shared(tmp_path):
    """Every command line of the README, pasted in order into a shell in a copy of the project
    that has no ../shared beside it and no $SATEDGE_BENCHMARKS: each ends as its comment says
    (exit 0, or the status it names), or is still running after a few seconds, past loading
    its input (the benchmarks, the 17-minute solve).  Skipped: `make` (the suite runs under it),
    a Dask scheduler's placeholder address, a solver binary that is not installed, and a report of
    an experiment that the few seconds did not finish."""
    work = tmp_path / "clone"
    work.mkdir()
    for name in ("puzzles", "encodings", "experiments"):
        (work / name).symlink_to(ROOT / name)
    (work / ".venv").symlink_to(sys.prefix)  # what `make` sets up
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "SATEDGE_BENCHMARKS": str(tmp_path / "absent")}
    env.pop("CI", None)
    ran, failed = 0, []
    for line in shell_lines():
        command, _, comment = line.partition(" #")
        words = shlex.split(command.split(">")[0])
        if words[:1] in (["make"], ["pip"], ["export"]) or "tcp://scheduler" in command:
            continue
        if "cadical" in command and shutil.which("cadical") is None:
            continue
        if words[:2] == ["satedge", "report"] and not (work / words[2] / "results.jsonl").exists():
            continue
        expected = 3 if "exit status 3" in comment else 2 if "exit 2" in comment else 0
        proc = subprocess.Popen(["bash", "-c", command], cwd=work, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        ran += 1
        try:
            _, err = proc.communicate(timeout=6)
        except subprocess.TimeoutExpired:  # a long command, past its start: stop it and all it started
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            continue
        if proc.returncode != expected or "Traceback" in err:
            failed.append(f"{command.strip()}: exit {proc.returncode}: {err.strip()[-300:]}")
    assert failed == [] and ran >= 60


def test_the_bench_solve_figures_are_the_committed_rows():
    """The README's bench-solve table, and the ratios its notes quote, recomputed from the rows
    committed in experiments/bench-solve-results.jsonl (before: the table quoted first runs whose
    rows had been replaced, backtrack 61 / 93.6 where the rows give 59 / 104.5)."""
    from satedge.experiment.report import summarize
    from satedge.experiment.rows import read_results

    summary = summarize(read_results(ROOT / "experiments" / "bench-solve-results.jsonl"))
    table = re.search(r"^\| configuration \| solved of 70 \| PAR-2 \| median s of solved \|\n\|---.*?\n((?:\|.*\n)+)",
                      README, re.M).group(1)
    quoted = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()]
    names = [re.sub(r"`| \(.*\)| / ", lambda m: "/" if m.group() == " / " else "", q[0]) for q in quoted]
    names = [{"backtrack": "backtrack/backtrack", "cpsat": "cpsat/cpsat"}.get(n, n) for n in names]
    assert [[n, *q[1:]] for n, q in zip(names, quoted)] == [
        [s["configuration"], str(s["solved"]), f"{s['par2']:.1f}", f"{s['median_s']:.1f}"] for s in summary]
    par2 = {s["configuration"]: s["par2"] for s in summary}
    best = par2["edgecolor-corners-sym/cadical195:sat"]
    ratio = lambda a, b: f"{par2[a] / par2[b]:.2f}"  # noqa: E731
    claims = [
        f"CP-SAT's PAR-2 is {par2['cpsat/cpsat'] / best:.2f} times the best preset's",
        f"`support-seqcounter`'s {par2['support-seqcounter/kissat404'] / best:.2f} to "
        f"{par2['support-seqcounter/cadical195'] / best:.2f} times",
        f"most {round(100 * (par2['edgecolor-corners-sym/cadical195'] / best - 1))}%",
        f"worth {ratio('edgecolor-heule2008/kissat404', 'edgecolor-corners-sym/kissat404')} with Kissat and "
        f"{ratio('edgecolor-heule2008/cadical195:sat', 'edgecolor-corners-sym/cadical195:sat')} to "
        f"{ratio('edgecolor-heule2008/cadical195', 'edgecolor-corners-sym/cadical195')} with CaDiCaL",
        f"the supports make\n  {ratio('edgecolor-heule2008/cadical195:sat', 'edgecolor-corners/cadical195:sat')} of "
        f"that and the corner tile {ratio('edgecolor-corners/cadical195:sat', 'edgecolor-corners-sym/cadical195:sat')}",
        f"with default CaDiCaL {ratio('edgecolor-heule2008/cadical195', 'edgecolor-corners/cadical195')} and "
        f"{ratio('edgecolor-corners/cadical195', 'edgecolor-corners-sym/cadical195')}",
        f"with Kissat {ratio('edgecolor-heule2008/kissat404', 'edgecolor-corners/kissat404')}\n  and "
        f"{ratio('edgecolor-corners/kissat404', 'edgecolor-corners-sym/kissat404')}",
        f"best preset's PAR-2 is {par2['split-ladder/kissat404'] / best:.2f} times better",
        f"still {par2['split-ladder/cadical195:sat'] / best:.2f} times behind the best",
        f"PAR-2 345.0, {par2['direct-pairwise/cadical195:sat'] / best:.2f} times behind the best preset and "
        f"{ratio('cpsat/cpsat', 'direct-pairwise/cadical195:sat')} ahead of\n  CP-SAT",
    ]
    assert [c for c in claims if c not in README] == []


def test_the_quoted_comparison_is_the_committed_rows():
    """The README's verdict on the committed bench-solve rows, recomputed (extra stats)."""
    from satedge.experiment.rows import read_results
    from satedge.experiment.stats import compare, frame

    c = compare(frame(read_results(ROOT / "experiments" / "bench-solve-results.jsonl")),
                "edgecolor-corners-sym/cadical195:sat", "support-seqcounter/kissat404")
    quoted = (f"ratio {c['ratio']:.2f} (95% interval {c['ci'][0]:.2f} to\n{c['ci'][1]:.2f}), p = {c['p_value']:.0e} over "
              f"{c['instances']} instances: `edgecolor-corners-sym` is better")
    assert c["better"] == "a" and quoted in README, quoted


@pytest.mark.parametrize("rows, a, b, inverse, quoted", [
    ("heule2008", "heule2008-all/kissat404", "edgecolor-corners-sym/cadical195", True,
     "(ratio 1.27, 95% interval 0.42\nto 3.86, p = 0.22)"),
    ("bench-solve-shuffled", "heule2008-all/kissat404", "edgecolor-corners-sym/cadical195:sat", False,
     "the PAR-2 ratio is 0.85 (95% interval 0.61 to 0.99) in the\npreset's favour, but with p = 0.125"),
    ("heule2008-tries", "heule2008-all/kissat404", "edgecolor+card=pairwise+redundant=true+symmetry=rotation/cadical195",
     True, "2.36 times better than\n`heule2008-all` with Kissat in PAR-2 (95% interval 1.36 to 3.80), p = 0.078"),
])
def test_readme_verdicts_come_from_the_committed_rows(tmp_path, rows, a, b, inverse, quoted):
    """The README's verdicts of the shuffled studies are what `report --compare` computes from the
    committed rows (``inverse``: the README quotes the ratio of A to B, else of B to A)."""
    from satedge.experiment.stats import compare

    (tmp_path / "results.jsonl").write_bytes((ROOT / "experiments" / f"{rows}-results.jsonl").read_bytes())
    c = compare(load_results(tmp_path), a, b)
    ratio = 1 / c["ratio"] if inverse else c["ratio"]
    low, high = sorted(1 / x for x in c["ci"]) if inverse else c["ci"]
    figures = [float(x) for x in re.findall(r"\d+\.\d+", quoted)]
    assert figures == [round(ratio, 2), round(low, 2), round(high, 2), round(c["p_value"], len(str(figures[-1])) - 2)]
    assert c["better"] is None
    assert quoted in (ROOT / "README.md").read_text()


def test_the_parallel_figures_are_the_committed_results(tmp_path):
    """The README's advice on workers quotes experiments/bench-parallel-results.jsonl (the
    solving) and experiments/bench-parallel-extra.json (the enumeration)."""
    import statistics

    from satedge.experiment.stats import compare, summary

    (tmp_path / "results.jsonl").write_bytes((ROOT / "experiments" / "bench-parallel-results.jsonl").read_bytes())
    df = load_results(tmp_path)
    single, cubes, folio = (f"edgecolor-corners-sym/cadical195:sat{x}" for x in ("", ",workers=2,strategy=cubes",
                                                                              ",workers=2,strategy=portfolio"))
    bt = "backtrack:workers=2/backtrack:workers=2"
    rows = {r["configuration"]: r for r in summary(df)}
    solved = [rows[c]["solved"] for c in (bt, single, cubes, folio)]
    par2 = [f"{rows[c]['par2']:.1f}" for c in (bt, single, cubes, folio)]
    c1, c2, c3 = compare(df, bt, cubes), compare(df, single, cubes), compare(df, single, folio)
    text = " ".join(README.split())
    assert solved == [9, 7, 7, 7]
    assert (f"solves 9 of the ten peak puzzles at 50 s (PAR-2 {par2[0]}) against 7 for the best SAT configuration on "
            f"one core, on two with `cubes` and with `portfolio` (PAR-2 {par2[1]}, {par2[2]} and {par2[3]})") in text
    assert c1["better"] == "a" and c2["better"] is None and c3["better"] == "a"
    assert (f"(ratio {c1['ratio']:.2f}, 95% interval {c1['ci'][0]:.2f} to {c1['ci'][1]:.1f}, p = "
            f"{c1['p_value']:.1g})") in text
    assert f"ratio {c2['ratio']:.2f} ({c2['ci'][0]:.2f} to {c2['ci'][1]:.2f}), p = {c2['p_value']:.2f}, no verdict" in text
    assert f"ratio {c3['ratio']:.2f}, {c3['ci'][0]:.2f} to {c3['ci'][1]:.2f}, p = {c3['p_value']:.3f}" in text
    extra = json.loads((ROOT / "experiments" / "bench-parallel-extra.json").read_text())
    med = {}
    for r in extra["enumerate"]["4x4-55296"]:
        med.setdefault(r["config"], []).append(r["seconds"])
        assert r["solutions"] == 55296
    one, two, dask, bt1 = (statistics.median(med[k]) for k in ("sat, 1 worker", "sat, cubes on 2 local workers",
                                                               "sat, cubes on a 2-worker Dask LocalCluster",
                                                               "backtrack, 1 worker"))
    assert (f"55,296 solutions in {two:.2f} s for the whole command on 2 workers against {one:.2f} s on one "
            f"({one / two:.2f} times; {55296 / two:,.0f} solutions/s); on a 2-worker Dask `LocalCluster` {dask:.2f} s") in text
    assert f"The backtracker is faster still here ({bt1:.2f} s)" in text
