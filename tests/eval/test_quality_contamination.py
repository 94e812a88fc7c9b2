"""The contamination view: accuracy on exams published before and after a model's release."""
from __future__ import annotations

import csv
import datetime as dt

import pytest

from eval.analysis.contamination import side
from tests.eval.conftest import SECRET, make_question, run_cli, write_parquet


@pytest.mark.parametrize("year, session, expected", [
    (2023, "maj", "before"), (2024, "maj", "undetermined"), (2024, "czerwiec", "after"), (2024, "styczeń", "before"),
    (2023, None, "before"), (2024, None, "undetermined"), (2025, "zima", "after"), (None, "maj", "undetermined"),
])
def test_an_exam_falls_before_or_after_the_release_by_year_and_session_month(year, session, expected):
    assert side(year, session, dt.date(2024, 5, 13)) == expected


def test_accuracy_is_split_at_each_models_release_date(tmp_path, openai_server, monkeypatch, capsys):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    questions = [make_question(i, year=year, number=str(i)) for i, year in zip(range(11, 19), [2021] * 4 + [2025] * 4)]
    for q, token in zip(questions, range(11, 19)):
        openai_server.answers[f"Q{token}"] = q.answer
    openai_server.scripts.update({"Q15": ["wrong"], "Q16": ["wrong"], "Q17": ["wrong"]})  # 1 of 4 right after release
    data = write_parquet(tmp_path / "d.parquet", questions)
    for model in ("m1", "m2"):
        assert run_cli("eval", "run", "--data", data, "--model", f"openai:{model}", "--base-url", openai_server.base_url,
                       "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", tmp_path / "runs" / model, "--no-progress") == 0
    meta = tmp_path / "models.yaml"
    meta.write_text("models:\n  openai:m1: {released: 2023-07-01}\n")
    out = tmp_path / "c"
    assert run_cli("eval", "contamination", tmp_path / "runs", "--models", meta, "--out", out) == 0
    with open(out / "contamination.csv", newline="") as fh:
        [row] = list(csv.DictReader(fh))
    assert (row["model"], row["n_before"], row["n_after"], row["n_undetermined"]) == ("openai:m1", "4", "4", "0")
    assert (float(row["accuracy_before_pct"]), float(row["accuracy_after_pct"]), float(row["after_minus_before_pp"])) == (100.0, 25.0, -75.0)
    assert "No release date for: openai:m2" in (out / "contamination.md").read_text()
    meta.write_text("models:\n  openai:m1: {released: soon}\n")
    assert run_cli("eval", "contamination", tmp_path / "runs", "--models", meta, "--out", out) == 1
    assert "models.yaml: model 'openai:m1' needs 'released: YYYY-MM-DD', got 'soon'" in capsys.readouterr().err
