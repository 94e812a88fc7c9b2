"""Model accuracy against CKE human results, per exam type and per category, year by year."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from eval.analysis import correlate
from tests.eval.conftest import SECRET, make_question, run_cli, write_parquet

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "human_results"
COLUMNS = ["model", "exam_type", "category", "n", "pearson_r", "pearson_p", "spearman_rho", "spearman_p",
           "pearson_p_holm", "pearson_q_bh", "spearman_p_holm", "spearman_q_bh"]


def _correlations(out: Path) -> pd.DataFrame:
    return pd.read_csv(out / "correlations.csv", keep_default_na=False, na_values={c: [""] for c in COLUMNS[4:]})


def _scipy_cells(scores_csv: Path, human_csv: Path) -> dict[tuple[str, str, str], tuple]:
    """The expected values, computed apart from eval.analysis: a pandas join and scipy.stats."""
    joined = pd.read_csv(scores_csv).merge(pd.read_csv(human_csv), on=["year", "exam_type", "category"])
    cells = {}
    for (model, exam_type, category), g in joined.groupby(["model", "exam_type", "category"]):
        r, p = stats.pearsonr(g.accuracy_pct, g.value)
        rho, rho_p = stats.spearmanr(g.accuracy_pct, g.value)
        cells[(model, exam_type, "" if category == "(all)" else category)] = (len(g), r, p, rho, rho_p)
    return cells


def test_the_shipped_tables_are_the_shared_corpus_copies():
    if not SHARED.exists():
        pytest.skip("../shared is not here")
    for name in ("cke_human_results_2015_2023.csv", "llmzszl_model_accuracy_by_year.csv"):
        assert (correlate.DATA / name).read_bytes() == (SHARED / name).read_bytes()


def test_every_cell_of_the_llmzszl_table_is_reproduced_per_exam_type(tmp_path):
    # The paper's printed Table 5 is not in ../shared, nor in the stored copy of arXiv 2501.02266v1 that
    # the search tool reaches (only the page's opening is indexed), so the reference is scipy over a
    # pandas join of the same two CSVs; every model x exam type and model x category cell is checked.
    assert run_cli("eval", "correlate", "--scores", correlate.LLMZSZL_CSV, "--human", correlate.HUMAN_CSV,
                   "--out", tmp_path, "--no-plots") == 0
    got = _correlations(tmp_path)
    assert list(got.columns) == COLUMNS
    expected = _scipy_cells(correlate.LLMZSZL_CSV, correlate.HUMAN_CSV)
    assert len(got) == len(expected) == 4 * 13  # 4 models x (4 exam types + 9 categories)
    exam_level = got[got.category == ""]
    assert sorted(exam_level.exam_type.unique()) == ["8-grade exam", "High school", "Junior high school", "Professional"]
    assert len(exam_level) == 16
    for row in got.itertuples():
        n, r, p, rho, rho_p = expected[(row.model, row.exam_type, row.category)]
        assert row.n == n
        assert row.pearson_r == pytest.approx(r, abs=0.005) and row.spearman_rho == pytest.approx(rho, abs=0.005)
        assert row.pearson_p == pytest.approx(p, abs=1e-6) and row.spearman_p == pytest.approx(rho_p, abs=1e-6)
    mistral_junior = got[(got.model == "Mistral-Large-Instruct-2407") & (got.exam_type == "Junior high school") & (got.category == "")]
    assert mistral_junior.pearson_r.item() == pytest.approx(0.925, abs=0.001)


def test_the_report_and_plots_come_with_the_table(tmp_path):
    # two models on two exam types keep the drawing quick; the full table is checked above
    table = pd.read_csv(correlate.LLMZSZL_CSV)
    table = table[table.model.isin(["gemma-7b", "Mistral-Large-Instruct-2407"]) & table.exam_type.isin(["Junior high school", "Professional"])]
    scores = tmp_path / "scores.csv"
    table.to_csv(scores, index=False)
    out = tmp_path / "out"
    assert run_cli("eval", "correlate", "--scores", scores, "--out", out) == 0
    report = (out / "report.md").read_text()
    assert "| Mistral-Large-Instruct-2407 | Professional | (all) | pass_rate_pct | 9 |" in report
    assert "0 year(s) dropped" in report
    from PIL import Image

    assert sorted(p.name for p in (out / "plots").iterdir()) == sorted(
        f"{kind}_{exam}.{ext}" for kind in ("by_year", "scatter") for exam in ("junior-high-school", "professional") for ext in ("png", "svg"))
    for png in (out / "plots").glob("*.png"):
        with Image.open(png) as image:
            assert image.format == "PNG" and len(image.convert("RGB").getcolors(maxcolors=1 << 20)) > 5
        svg = ET.parse(png.with_suffix(".svg")).getroot()
        assert svg.tag.endswith("svg") and "gemma-7b" in ET.tostring(svg, encoding="unicode")
        assert f"plots/{png.name}" in report


def test_years_missing_on_one_side_are_dropped_and_counted_and_too_few_give_no_coefficient(tmp_path):
    scores = tmp_path / "scores.csv"
    scores.write_text("year,exam_type,category,model,accuracy_pct\n"
                      "2014,Professional,(all),m,50\n"  # no human result for 2014
                      "2015,Professional,(all),m,60\n2016,Professional,(all),m,55\n2017,Professional,(all),m,70\n"
                      "2015,Professional,Arts,m,40\n2016,Professional,Arts,m,45\n2017,Professional,Arts,m,41\n")
    out = tmp_path / "out"
    assert run_cli("eval", "correlate", "--scores", scores, "--out", out, "--no-plots") == 0
    got = _correlations(out).set_index("category")
    assert got.loc["", "n"] == 3
    human = pd.read_csv(correlate.HUMAN_CSV)
    prof = human[(human.exam_type == "Professional") & (human.category == "(all)") & human.year.between(2015, 2017)]
    assert got.loc["", "pearson_r"] == pytest.approx(stats.pearsonr([60, 55, 70], prof.sort_values("year").value)[0])
    # Arts has no 2016 human result: two years left, no coefficient
    assert got.loc["Arts", "n"] == 2 and np.isnan(got.loc["Arts", "pearson_r"]) and np.isnan(got.loc["Arts", "spearman_p"])
    report = (out / "report.md").read_text()
    assert "| m | Professional | (all) | pass_rate_pct | 3 |" in report and "| 7 (no human result: 2014; no model score: 2018, 2019, 2020, 2021, 2022, 2023) |" in report
    assert "only 2 year(s) with both a model score and a human result; need 3" in report
    assert not (out / "plots").exists()


@pytest.mark.parametrize("content, message", [
    ("year,exam_type,model,accuracy_pct\n2015,High school,m,50\n", "scores.csv: missing column(s) category"),
    ("year,exam_type,category,model,accuracy_pct\n2015,High school,Math,m,fifty\n", "scores.csv:2: accuracy_pct 'fifty' is not a number"),
    ("year,exam_type,category,model,accuracy_pct\n2015,High school,Math,m,50\n2015,High school,Math,m,51\n",
     "scores.csv: m / High school / Math / 2015 appears twice"),
])
def test_a_bad_scores_table_is_an_error_naming_the_file(tmp_path, capsys, content, message):
    scores = tmp_path / "scores.csv"
    scores.write_text(content)
    assert run_cli("eval", "correlate", "--scores", scores, "--out", tmp_path / "o") == 1
    assert message in capsys.readouterr().err


def test_a_run_folder_needs_a_mapping_and_out(tmp_path, capsys):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "plan.json").write_text("{}")
    assert run_cli("eval", "correlate", "--scores", tmp_path / "run", "--out", tmp_path / "o") == 1
    assert "run: a run folder needs --mapping" in capsys.readouterr().err
    assert run_cli("eval", "correlate", "--scores", correlate.LLMZSZL_CSV) == 1
    assert "--scores needs --out DIR" in capsys.readouterr().err


def _year_run(tmp_path, openai_server, right_per_year: dict[int, int]) -> Path:
    questions = []
    for y, year in enumerate(right_per_year):
        for k in range(4):
            i = 10 + 4 * y + k
            questions.append(make_question(i, year=year, number=str(k + 1)))
            openai_server.answers[f"Q{i:02d}"] = questions[-1].answer
            if k >= right_per_year[year]:
                openai_server.scripts[f"Q{i:02d}"] = ["wrong"]
    data = write_parquet(tmp_path / "d.parquet", questions)
    run = tmp_path / "run"
    assert run_cli("eval", "run", "--data", data, "--model", "openai:m", "--base-url", openai_server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", run, "--no-progress") == 0
    return run


def test_a_run_folder_is_placed_on_the_human_results_grid_through_a_mapping(tmp_path, openai_server, monkeypatch, capsys):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    run = _year_run(tmp_path, openai_server, {2015: 1, 2016: 2, 2017: 4, 2018: 3, 2019: 0})
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text("rules:\n  - match: {exam: matura, subject: informatyka}\n    exam_type: High school\n    category: Math\n")
    out = tmp_path / "out"
    assert run_cli("eval", "correlate", "--scores", run, "--mapping", mapping, "--out", out, "--no-plots") == 0
    got = _correlations(out)
    assert set(got.model) == {"openai:m"} and list(got.category) == ["", "Math"]
    human = pd.read_csv(correlate.HUMAN_CSV)
    for category, row in zip(["(all)", "Math"], got.itertuples()):
        series = human[(human.exam_type == "High school") & (human.category == category) & human.year.between(2015, 2019)]
        expected = stats.pearsonr(series.sort_values("year").value, [25, 50, 100, 75, 0])
        assert row.n == 5 and row.pearson_r == pytest.approx(expected[0]) and row.pearson_p == pytest.approx(expected[1])

    # the removed pooled interface names what replaced it instead of answering differently
    capsys.readouterr()
    assert run_cli("eval", "correlate", "--scores", run, "--run", run, "--mapping", mapping) == 1
    assert "--run: the pooled correlation was removed; use `eval correlate --scores" in capsys.readouterr().err


def test_spearman_ranks_average_ties():
    assert correlate.rankdata(np.array([10.0, 20.0, 20.0, 5.0])).tolist() == [2.0, 3.5, 3.5, 1.0]


def test_a_mapping_without_rules_is_an_error_naming_the_file(tmp_path):
    bad = tmp_path / "m.yaml"
    bad.write_text("rules: []\n")
    with pytest.raises(ValueError, match="m.yaml: expected 'rules"):
        correlate.load_mapping(bad)
    bad.write_text("rules:\n  - {match: x, exam_type: High school, category: Math}\n")
    with pytest.raises(ValueError, match="m.yaml: rule 1 needs match"):
        correlate.load_mapping(bad)


def _holm_by_hand(p: list[float]) -> list[float]:
    """Holm's step-down procedure as the textbooks write it, one p-value at a time."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    adjusted, running = [0.0] * len(p), 0.0
    for k, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - k) * p[i]))
        adjusted[i] = running
    return adjusted


def test_holm_and_benjamini_hochberg_match_their_definitions():
    from eval.analysis import pvalues

    p = [0.01, 0.04, 0.03, 0.005, 0.5, 0.04]
    assert pvalues.holm(p) == pytest.approx(_holm_by_hand(p))
    assert pvalues.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert pvalues.benjamini_hochberg(p) == pytest.approx(list(stats.false_discovery_control(p, method="bh")))
    assert pvalues.holm([]) == pvalues.benjamini_hochberg([]) == []
    # The tabulated two-sided 5 % critical values of Pearson's r
    assert pvalues.critical_r(5) == pytest.approx(0.878, abs=5e-4) and pvalues.critical_r(9) == pytest.approx(0.666, abs=5e-4)
    assert pvalues.critical_r(2) is None


def test_the_console_gets_a_table_with_adjusted_p_values_and_a_warning_on_few_years(tmp_path, capsys):
    assert run_cli("eval", "correlate", "--scores", correlate.LLMZSZL_CSV, "--out", tmp_path, "--no-plots") == 0
    out = capsys.readouterr().out
    assert ",".join(COLUMNS[:4]) not in out and "p Holm" in out  # a table to read, not the CSV
    assert "52 correlations with a coefficient: each p-value is adjusted for the 52 tests of this table" in out
    assert "warning: 52 of 52 rest on fewer than 10 years (n = 5–9); |r| must exceed 0.88 at n = 5, 0.67 at n = 9" in out
    got = _correlations(tmp_path)
    tested = got[got.pearson_p.notna()]
    assert list(tested.pearson_p_holm) == pytest.approx(_holm_by_hand(list(tested.pearson_p)), rel=1e-8)
    assert list(tested.spearman_q_bh) == pytest.approx(list(stats.false_discovery_control(list(tested.spearman_p))), rel=1e-8)
    raw, holm = (tested.pearson_p < 0.05).sum(), (tested.pearson_p_holm < 0.05).sum()
    assert f"Pearson p < 0.05: {raw} unadjusted, {holm} after Holm" in out and raw > holm
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "| p Holm | q BH |" in report and "warning: 52 of 52 rest on fewer than 10 years" in report
