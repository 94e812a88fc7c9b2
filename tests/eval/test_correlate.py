"""Correlation of model accuracy with CKE human results, per exam type, category and year."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from eval import correlate
from tests.eval.conftest import SECRET, make_question, run_cli, write_parquet


def test_spearman_ranks_average_ties():
    assert correlate.rankdata(np.array([10.0, 20.0, 20.0, 5.0])).tolist() == [2.0, 3.5, 3.5, 1.0]


def test_llmzszl_correlations_match_an_independent_pandas_computation():
    human = pd.read_csv(correlate.HUMAN_CSV)
    models = pd.read_csv(correlate.LLMZSZL_CSV)
    joined = models.merge(human, on=["year", "exam_type", "category"])
    joined = joined[(joined.model == "gemma-7b") & (joined.category != "(all)") & (joined.human_metric == "mean_score_pct")]
    results = {r.human_metric: r for r in correlate.correlate_llmzszl("gemma-7b")}
    got = results["mean_score_pct"]
    assert got.n_points == len(joined)
    assert got.pearson == pytest.approx(joined.accuracy_pct.corr(joined.value), abs=1e-12)
    assert got.spearman == pytest.approx(joined.accuracy_pct.corr(joined.value, method="spearman"), abs=1e-12)
    with pytest.raises(ValueError, match="no model 'gpt-0'"):
        correlate.correlate_llmzszl("gpt-0")


def test_a_run_is_placed_on_the_human_results_grid_through_a_mapping(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    questions, right_per_year = [], {2015: 1, 2016: 2, 2017: 4, 2018: 3, 2019: 0}
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
    mapping = tmp_path / "mapping.yaml"
    mapping.write_text("rules:\n  - match: {exam: matura, subject: informatyka}\n    exam_type: High school\n    category: Math\n")
    out = tmp_path / "corr.json"
    assert run_cli("eval", "correlate", "--run", run, "--mapping", mapping, "--json", out) == 0
    [result] = json.loads(out.read_text())
    assert [p["year"] for p in result["points"]] == [2015, 2016, 2017, 2018, 2019]
    assert [p["model_accuracy_pct"] for p in result["points"]] == [25.0, 50.0, 100.0, 75.0, 0.0]
    human = pd.read_csv(correlate.HUMAN_CSV)
    math = human[(human.exam_type == "High school") & (human.category == "Math") & human.year.between(2015, 2019)]
    assert [p["human_value"] for p in result["points"]] == math.sort_values("year").value.tolist()
    expected = np.corrcoef(math.sort_values("year").value, [25, 50, 100, 75, 0])[0, 1]
    assert result["pearson"] == pytest.approx(expected)


def test_a_mapping_without_rules_is_an_error_naming_the_file(tmp_path):
    bad = tmp_path / "m.yaml"
    bad.write_text("rules: []\n")
    with pytest.raises(ValueError, match="m.yaml: expected 'rules"):
        correlate.run_accuracy_by_exam_year(tmp_path, bad)
