"""scores.json and the printed table: overall accuracy, per config and language, and breakdowns by
exam, subject, year and question type, each with its interval."""
from __future__ import annotations

import dataclasses
import json

import pytest

from tests.eval.conftest import make_question, run_standin, write_parquet


@pytest.fixture
def mixed_run(tmp_path, openai_server, standin_key):
    questions = []
    for i in range(1, 9):
        q = make_question(i, year=2020 if i <= 4 else 2021)
        q = dataclasses.replace(q, subject="fizyka" if i % 2 else "informatyka", exam="matura" if i <= 6 else "egzamin_zawodowy",
                                type="true_false" if i == 8 else "single_choice")
        questions.append(q)
    questions.append(make_question(9, language="en", source="en_test"))
    data = write_parquet(tmp_path / "mixed" / "d.parquet", questions)
    openai_server.answers["Q09"] = questions[-1].answer
    openai_server.scripts.update({"Q01": ["wrong"], "Q02": ["wrong"], "Q07": ["noletter"]})
    out = tmp_path / "run"
    assert run_standin(data, openai_server, out) == 0
    return out


def _cells(scores, dimension, config="pl_test"):
    return {c["value"]: c for c in scores["breakdowns"][dimension] if c["config"] == config}


def test_breakdowns_give_accuracy_and_interval_per_value_within_each_group(mixed_run):
    scores = json.loads((mixed_run / "scores.json").read_text())
    assert scores["scores_version"] == 2
    assert scores["overall"]["n_questions"] == 9
    assert scores["overall"]["accuracy_pct"] == pytest.approx(100 * 6 / 9)
    assert [(g["config"], g["language"], g["accuracy_pct"]) for g in scores["groups"]] == [
        ("en_test", "en", 100.0), ("pl_test", "pl", 62.5)]
    years = _cells(scores, "year")
    assert {y: c["accuracy_pct"] for y, c in years.items()} == {2020: 50.0, 2021: 75.0}
    assert {s: c["accuracy_pct"] for s, c in _cells(scores, "subject").items()} == {"fizyka": 50.0, "informatyka": 75.0}
    assert {e: c["n_questions"] for e, c in _cells(scores, "exam").items()} == {"egzamin_zawodowy": 2, "matura": 6}
    assert _cells(scores, "exam")["egzamin_zawodowy"]["accuracy_pct"] == 50.0
    assert {t: c["accuracy_pct"] for t, c in _cells(scores, "type").items()} == {"single_choice": pytest.approx(100 * 4 / 7), "true_false": 100.0}
    for dimension in ("exam", "subject", "year", "type"):
        for cell in scores["breakdowns"][dimension]:
            assert cell["ci_low"] <= cell["accuracy_pct"] <= cell["ci_high"]
    assert years[2020]["ci_low"] < 50.0 < years[2020]["ci_high"]  # four questions: a wide interval
    assert _cells(scores, "year", "en_test") == {2020: _cells(scores, "year", "en_test")[2020]}


def test_the_printed_table_shows_the_overall_row_and_each_breakdown(mixed_run, capsys):
    from tests.eval.conftest import run_cli

    capsys.readouterr()
    assert run_cli("eval", "rescore", mixed_run) == 0
    out = capsys.readouterr().out
    assert "│ all " in out and "66.67" in out
    for title in ("by exam", "by subject", "by year", "by type"):
        assert title in out
    assert "egzamin_zawodowy" in out and "true_false" in out and "[" in out
