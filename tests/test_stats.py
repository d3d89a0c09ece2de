"""Statistics that say what holds up: load_results, intervals per configuration, and a paired
comparison with a verdict (on results files written here, so the figures are exact)."""

import json
import random

import pandas as pd
import pytest

from satedge.experiment import load_results
from satedge.experiment.stats import compare, frame, summary


def _rows(configs: dict, instances: int = 12, shuffles: int = 3, timeout: float = 100.0) -> list[dict]:
    """Rows of a solve experiment: ``configs`` maps ENCODING/SOLVER to a function (instance,
    shuffle, rng) -> seconds (None: a timeout)."""
    rng = random.Random(2026)  # (with 7 the two noisy copies differ at p = 0.042: one in twenty does)
    out = []
    for config, seconds in configs.items():
        encoding, solver = config.split("/")
        for i in range(instances):
            for s in range(1, shuffles + 1):
                t = seconds(i, s, rng)
                out.append(
                    {
                        "id": f"{config}-{i}-{s}",
                        "puzzle": f"p{i}.yaml",
                        "puzzle_name": f"p{i}",
                        "puzzle_sha256": f"{i:064x}",
                        "rows": 7,
                        "cols": 7,
                        "encoding": encoding,
                        "solver": solver,
                        "task": "solve",
                        "repetition": 0,
                        "shuffle": s,
                        "timeout": timeout,
                        "status": "TIMEOUT" if t is None else "SAT",
                        "encode_seconds": 0.0,
                        "solve_seconds": None if t is None else t,
                    }
                )
    return out


def _write(tmp_path, rows):
    d = tmp_path / "exp"
    d.mkdir()
    (d / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return d


def fast(i, s, rng):
    return (1 + i) * rng.uniform(0.8, 1.25)


def slow(i, s, rng):
    t = 3 * (1 + i) * rng.uniform(0.8, 1.25)
    return None if i == 11 and s == 1 else t  # one timeout


def fast_again(i, s, rng):  # the same configuration with another solver seed: the same times, other noise
    return (1 + i) * rng.uniform(0.8, 1.25)


def test_load_results_is_a_dataframe_with_one_row_per_run(tmp_path):
    rows = _rows({"e/fast": fast, "e/slow": slow})
    d = _write(tmp_path, rows + rows[:3])  # three rows twice: each run once
    df = load_results(d)
    assert isinstance(df, pd.DataFrame) and len(df) == 72 and df["id"].is_unique
    assert {"config", "seconds", "par2", "solved", "shuffle", "puzzle_sha256"} <= set(df.columns)
    assert df.loc[df["id"] == "e/slow-11-1", "par2"].item() == 200.0


def test_a_clear_difference_is_found(run_cli, tmp_path):
    d = _write(tmp_path, _rows({"e/fast": fast, "e/slow": slow}))
    code, out, err = run_cli("report", d, "--compare", "e/fast", "e/slow", "--json")
    c = json.loads(out)
    assert (code, err) == (0, "") and set(c) >= {"a", "b", "instances", "ratio", "ci", "p_value", "better"}
    assert (c["a"], c["b"], c["instances"], c["better"]) == ("e/fast", "e/slow", 12, "a")
    assert c["ratio"] > 2.5 and 1 < c["ci"][0] < c["ratio"] < c["ci"][1] and c["p_value"] < 0.001
    swapped = compare(load_results(d), "e/slow", "e/fast")
    assert swapped["better"] == "b" and swapped["ratio"] < 1 and swapped["ci"][1] < 1


def test_noise_is_not_a_difference(run_cli, tmp_path):
    d = _write(tmp_path, _rows({"e/cadical195": fast, "e/cadical195:seed=2": fast_again}))
    code, out, _ = run_cli("report", d, "--compare", "e/cadical195", "e/cadical195:seed=2", "--json")
    c = json.loads(out)
    assert code == 0 and c["better"] is None and c["p_value"] >= 0.05 and c["ci"][0] < 1 < c["ci"][1]


def test_the_report_gives_intervals_and_the_spread_across_shuffles(run_cli, tmp_path):
    d = _write(tmp_path, _rows({"e/fast": fast, "e/slow": slow}))
    table = {
        row["configuration"]: row
        for row in summary(
            frame([json.loads(line) for line in (d / "results.jsonl").read_text().splitlines()])
        )
    }
    assert (table["e/slow"]["runs"], table["e/slow"]["instances"], table["e/slow"]["solved"]) == (36, 12, 35)
    # one instance solved by 2 of its 3 shuffles: 11 instances and two thirds of one
    assert table["e/slow"]["solved_instances"] == 11.67
    low, high = table["e/slow"]["solved_ci"]
    assert low < 11.67 < high == 12 and table["e/slow"]["shuffles"] == 3
    lo, hi = table["e/fast"]["par2_ci"]
    assert lo < table["e/fast"]["par2"] < hi
    smin, smax = table["e/fast"]["par2_shuffle_range"]
    assert smin <= table["e/fast"]["par2_shuffle_median"] <= smax
    code, out, _ = run_cli("report", d, "--compare", "e/fast", "e/slow", "--no-plots")
    assert (
        code == 0
        and "\nWhat holds up: an instance is a puzzle, scored by the median PAR-2 of its runs" in out
    )
    assert (
        "| e/fast | 12 | 12 of 12 (12.0 to 12.0) |" in out
        and "| e/slow | 12 | 11.67 of 12 (11.0 to 12.0) |" in out
        and "| shuffles | PAR-2 per shuffle (s): median (range) |" in out
    )
    assert "e/slow against e/fast over 12 instances: PAR-2 " in out and ": e/fast is better." in out


def test_json_needs_compare(run_cli, tmp_path):
    d = _write(tmp_path, _rows({"e/fast": fast}))
    assert run_cli("report", d, "--json") == (
        2,
        "",
        "satedge: error: --json prints a comparison: give --compare A B (or more, or all)\n",
    )
    code, _, err = run_cli("report", d, "--compare", "e/fast", "e/nope", "--json")
    assert (code, err) == (2, "satedge: error: --compare: no configuration 'e/nope'; there are e/fast\n")


@pytest.mark.slow
def test_plots_show_the_spread_across_shuffles(run_cli, tmp_path):
    """A band on the cactus (fastest to slowest shuffle), whiskers on the scatter."""
    d = _write(tmp_path, _rows({"e/fast": fast, "e/slow": slow}))
    assert run_cli("report", d, "--compare", "e/fast", "e/slow")[0] == 0
    cactus, scatter = (d / "cactus.svg").read_text(), (d / "scatter.svg").read_text()
    assert (
        cactus.count("fill-opacity: 0.2") == 2 and "median of 3 shuffles" in cactus
    )  # a band per configuration
    assert "whiskers: range over shuffles" in scatter


def slower(i, s, rng):
    return 9 * (1 + i) * rng.uniform(0.8, 1.25)


def _instance_table(rows, configs):
    """Per instance (rows, in order of the sha256) and configuration (columns), the median PAR-2
    of its shuffles: what the tests of several configurations rank."""
    df = frame(rows)
    return pd.DataFrame({c: df[df["config"] == c].groupby("puzzle_sha256")["par2"].median() for c in configs})


@pytest.mark.slow
def test_several_configurations_get_friedman_the_corrected_pairs_and_the_diagram(run_cli, tmp_path):
    """Before: a second pair was refused (one pair per call), and three configurations had no test
    across them.  The figures are scipy's and scikit-posthocs' own on the same rows."""
    import scikit_posthocs as sp
    from scipy import stats as ss

    configs = ["e/fast", "e/slow", "e/slower", "e/again"]
    rows = _rows({"e/fast": fast, "e/slow": slow, "e/slower": slower, "e/again": fast_again})
    d = _write(tmp_path, rows)
    table = _instance_table(rows, configs)
    friedman = ss.friedmanchisquare(*(table[c] for c in configs))
    ranks = table.rank(axis=1).mean()
    for posthoc, p in (
        ("holm", None),
        ("nemenyi", sp.posthoc_nemenyi_friedman(table.reset_index(drop=True))),
        ("conover", sp.posthoc_conover_friedman(table.reset_index(drop=True), p_adjust="holm")),
    ):
        code, out, err = run_cli("report", d, "--compare", *configs, "--posthoc", posthoc, "--json")
        assert (code, err) == (0, "")
        got = json.loads(out)
        assert got["configurations"] == configs and got["instances"] == 12 and got["posthoc"] == posthoc
        assert got["friedman"] == {
            "statistic": round(friedman.statistic, 6),
            "p_value": round(friedman.pvalue, 6),
        }
        assert got["ranks"] == {c: round(ranks[c], 4) for c in configs}
        pairs = [(a, b) for i, a in enumerate(configs) for b in configs[i + 1 :]]
        assert [(x["a"], x["b"]) for x in got["pairs"]] == pairs
        if p is None:  # Holm's correction of the pairwise Wilcoxon signed-rank tests
            from statsmodels.stats.multitest import multipletests

            raw = [ss.wilcoxon(table[a], table[b]).pvalue for a, b in pairs]
            want = [round(float(x), 6) for x in multipletests(raw, method="holm")[1]]
        else:
            want = [round(float(p.loc[a, b]), 6) for a, b in pairs]
        assert [x["p_value"] for x in got["pairs"]] == want
        for x, q in zip(got["pairs"], want):
            assert x["better"] == (None if q >= 0.05 else "a" if x["ratio"] > 1 else "b")
    holm = json.loads(run_cli("report", d, "--compare", "all", "--json")[1])
    verdicts = {(x["a"], x["b"]): x["better"] for x in holm["pairs"]}
    assert holm["configurations"] == sorted(configs)
    assert verdicts[("e/again", "e/fast")] is None  # the same configuration with other noise
    assert verdicts[("e/fast", "e/slower")] == "a" and verdicts[("e/again", "e/slower")] == "a"
    code, out, err = run_cli("report", d, "--compare", "all")
    assert code == 0
    assert "4 configurations over the 12 instances they all ran: Friedman chi-square " in out
    assert (
        "Average ranks (1 is the lowest PAR-2): " in out
        and "Per pair (Wilcoxon signed-rank, Holm-corrected):" in out
    )
    assert "* e/slower against e/fast: ratio " in out and ": e/fast is better." in out
    assert "![Critical-difference diagram: the average ranks](critical-difference.svg)" in out
    assert (d / "critical-difference.svg").stat().st_size > 0 and (
        d / "critical-difference.png"
    ).stat().st_size > 0
    from satedge.experiment.figures import critical_difference

    labels = [t.get_text() for t in critical_difference(holm).axes[0].texts]  # "NAME (RANK)" or "(RANK) NAME"
    assert sorted(word for label in labels for word in label.split() if "/" in word) == sorted(configs)


def test_a_comparison_names_each_configuration_once(run_cli, tmp_path):
    d = _write(tmp_path, _rows({"e/fast": fast, "e/slow": slow}))
    assert run_cli("report", d, "--compare", "e/fast") == (
        2,
        "",
        "satedge: error: --compare takes two configurations or more, or all\n",
    )
    assert run_cli("report", d, "--compare", "e/fast", "e/slow", "e/fast") == (
        2,
        "",
        "satedge: error: --compare names 'e/fast' twice: name each configuration once\n",
    )
    pair = json.loads(run_cli("report", d, "--compare", "all", "--json")[1])  # two: the paired comparison
    assert (pair["a"], pair["b"], pair["better"]) == ("e/fast", "e/slow", "a")


def test_an_error_is_no_timeout(run_cli, tmp_path):
    """A run whose engine failed is counted and shown apart, with its first line; PAR-2 leaves it
    out instead of scoring it twice the limit, as the SAT competitions do."""
    rows = _rows({"e/fast": fast})
    rows[0] |= {"status": "ERROR", "solve_seconds": None, "error": "solver crashed: signal 11\nits traceback"}
    d = _write(tmp_path, rows)
    code, out, _ = run_cli("report", d, "--no-plots")
    want = round(sum(r["solve_seconds"] for r in rows[1:]) / 35, 3)
    assert code == 0 and f"| e/fast | 36 | 35 | 0 | 0 | 1 | {want} |" in out
    assert (
        "\n\n1 of 36 runs ended in an error, which PAR-2 leaves out; the first line of each:\n\n"
        "- `e/fast` on p0: solver crashed: signal 11\n\n"
    ) in out
    (line,) = summary(load_results(d))
    assert (line["instances"], line["solved_instances"], line["solved"]) == (12, 12.0, 35)


def _steady(factor):
    return lambda i, s, rng: factor * (1 + i) * rng.uniform(0.98, 1.02)


def test_the_report_says_why_an_interval_and_the_test_disagree(run_cli, tmp_path):
    """With five instances no Wilcoxon test can reach 5% (its least p is 2/2^5), however clear the
    ratio: the interval excludes 1, and the report says why the verdict is still none."""
    from satedge.experiment.stats import compare_many

    d = _write(tmp_path, _rows({"e/a": _steady(1), "e/b": _steady(1.4), "e/c": _steady(2)}, instances=5))
    why = (
        "The interval excludes 1 but the test finds no difference: with 5 instances the smallest two-sided p "
        "the Wilcoxon test can give is 2/2^5 = 0.0625, above 5% before any correction."
    )
    pair = json.loads(run_cli("report", d, "--compare", "e/a", "e/b", "--json")[1])
    assert (pair["better"], pair["p_value"], pair["disagree"]) == (None, 0.0625, why)
    assert pair["ci"][0] > 1.3 and pair["ci"][1] < 1.5
    code, out, _ = run_cli("report", d, "--compare", "e/a", "e/b", "--no-plots")
    assert code == 0 and f": no difference at the 5% level. {why}\n" in out
    # three at once: each pair's interval is at the family's level, so wider than the pair's alone
    many = compare_many(load_results(d), ["e/a", "e/b", "e/c"])
    ab = many["pairs"][0]
    assert (ab["a"], ab["b"], ab["better"], ab["disagree"]) == ("e/a", "e/b", None, why)
    assert ab["ci"][0] < pair["ci"][0] and ab["ci"][1] > pair["ci"][1]
    assert "family 95% interval" in run_cli("report", d, "--compare", "all", "--no-plots")[1]


def test_agreeing_interval_and_test_say_nothing_more():
    from satedge.experiment.stats import disagreement

    assert disagreement([1.2, 1.5], "a", 12, 1) is None and disagreement([0.9, 1.1], None, 12, 1) is None
    assert disagreement([0.9, 1.3], "a", 12, 1).startswith(
        "The test finds a difference but the interval takes in 1"
    )
    assert disagreement([1.1, 1.3], None, 12, 1).startswith(
        "The interval excludes 1 but the test finds no difference: the interval is of the ratio"
    )
    assert disagreement([1.1, 1.3], None, 6, 3) == (
        "The interval excludes 1 but the test finds no difference: with 6 instances the smallest two-sided p "
        "the Wilcoxon test can give is 2/2^6 = 0.0312, and 0.0938 corrected over 3 pairs, above 5%."
    )
