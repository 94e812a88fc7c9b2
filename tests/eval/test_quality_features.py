"""Question features against per-question scores: Mann-Whitney U, ranked by p-value, from real runs."""
from __future__ import annotations

import csv
import dataclasses

import pytest
from scipy.stats import mannwhitneyu

from tests.eval.conftest import SECRET, make_question, run_cli, write_parquet


def test_a_feature_that_goes_with_wrong_answers_ranks_first(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    questions = []
    for i in range(11, 23):
        q = make_question(i)
        decimal = i % 2 == 0
        text = f"[Q{i}] Ile wynosi połowa z 2,5 litra wody?" if decimal else f"[Q{i}] Jak nazywa się stolica Polski?"
        questions.append(dataclasses.replace(q, question=text, choices=["Warszawa", "Kraków", "Gdańsk", "Poznań"]))
        openai_server.answers[f"Q{i}"] = q.answer
    data = write_parquet(tmp_path / "d.parquet", questions)
    for model, extra_wrong in (("m1", []), ("m2", ["Q11"])):
        openai_server.scripts.clear()
        openai_server.scripts.update({f"Q{i}": ["wrong"] for i in range(12, 23, 2)})  # every decimal question
        openai_server.scripts.update({t: ["wrong"] for t in extra_wrong})
        assert run_cli("eval", "run", "--data", data, "--model", f"openai:{model}", "--base-url", openai_server.base_url,
                       "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", tmp_path / "runs" / model, "--no-progress") == 0
    out = tmp_path / "features"
    assert run_cli("eval", "features", tmp_path / "runs", "--out", out, "--min-count", "3") == 0
    with open(out / "features.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    decimal = next(r for r in rows if r["feature"] == "a decimal number")
    expected = mannwhitneyu([0.0] * 6, [0.5] + [1.0] * 5, alternative="two-sided")
    assert (decimal["kind"], decimal["n_with"], decimal["n_without"]) == ("number", "6", "6")
    assert float(decimal["mean_with_pct"]) == 0.0 and float(decimal["mean_without_pct"]) == pytest.approx(1100 / 12)
    assert float(decimal["u"]) == expected.statistic and float(decimal["p"]) == expected.pvalue
    assert float(rows[0]["p"]) == expected.pvalue  # nothing separates better ("litra" and "wody" tie with it)
    assert {r["feature"] for r in rows if r["kind"] == "word"} >= {"litra", "stolica"}
    assert {r["feature"] for r in rows if r["kind"] == "key position"} == {"A", "B", "C", "D"}
    assert all(r["feature"] != "a number" for r in rows)  # every question has a digit (its token): nothing to compare
    md = (out / "features.md").read_text()
    assert "12 questions, scored by openai:m1, openai:m2" in md and "| 1 |" in md
