"""Would the model pass: the key's points per question, per sheet, against the pass threshold."""
from __future__ import annotations

import csv
import dataclasses

import pandas as pd
import pytest

from eval.analysis import correlate
from pipeline.records import question_id
from tests.eval.conftest import SECRET, TOKEN, make_question, run_cli, write_parquet


def _sheet(code: str, year: int, tokens: range, points: list[float]):
    out = []
    for k, (i, p) in enumerate(zip(tokens, points)):
        q = make_question(i, source="pl_zaw", year=year, number=str(k + 1))
        out.append(dataclasses.replace(q, sheet_code=code, points=p, id=question_id("pl_zaw", year, "maj", code, str(k + 1))))
    return out


@pytest.fixture
def run(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    questions = _sheet("EE.08", 2019, range(11, 16), [1, 1, 2, 2, 4]) + _sheet("EE.09", 2020, range(21, 25), [1, 1, 1, 1])
    for q in questions:
        openai_server.answers[TOKEN.search(q.question).group(1)] = q.answer
    # EE.08: the 4-point and one 1-point question wrong -> 5 of 10 points; EE.09: one of four wrong -> 3 of 4
    openai_server.scripts.update({"Q15": ["wrong"], "Q11": ["wrong"], "Q22": ["wrong"]})
    data = write_parquet(tmp_path / "data" / "pl_zaw.parquet", questions)
    out = tmp_path / "runs" / "r1"
    assert run_cli("eval", "run", "--data", data, "--model", "openai:m", "--base-url", openai_server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress") == 0
    return out


def _rows(path):
    with open(path, newline="") as fh:
        return {r["sheet_code"]: r for r in csv.DictReader(fh)}


def test_points_come_from_the_key_and_the_threshold_is_inclusive(tmp_path, run):
    mapping = tmp_path / "map.yaml"
    mapping.write_text("rules:\n  - match: {source: pl_zaw}\n    exam_type: Professional\n    category: MMM\n")
    assert run_cli("eval", "passing", run.parent, "--out", tmp_path / "p", "--mapping", mapping) == 0
    rows = _rows(tmp_path / "p" / "passing.csv")
    assert rows["EE.08"]["points"] == "5.0" and rows["EE.08"]["max_points"] == "10.0"  # not 3 of 5 questions (60 %)
    assert rows["EE.08"]["score_pct"] == "50.0" and rows["EE.08"]["passed"] == "yes"  # 50 % reaches 50 %
    assert rows["EE.09"]["score_pct"] == "75.0" and rows["EE.09"]["passed"] == "yes"
    human = pd.read_csv(correlate.HUMAN_CSV).set_index(["exam_type", "category", "year"])
    assert float(rows["EE.08"]["human_value"]) == human.loc[("Professional", "MMM", 2019), "value"]
    assert rows["EE.09"]["human_metric"] == "pass_rate_pct"
    md = (tmp_path / "p" / "passing.md").read_text()
    assert "| m | pl_zaw 2019 maj EE.08 | 5 | 5.00 / 10.00 | 50.0 | 50 | yes |" in md


def test_thresholds_are_set_per_config(tmp_path, run):
    thresholds = tmp_path / "t.yaml"
    thresholds.write_text("default: 30\nthresholds:\n  pl_zaw: 60\n")
    assert run_cli("eval", "passing", run, "--out", tmp_path / "p", "--thresholds", thresholds) == 0
    rows = _rows(tmp_path / "p" / "passing.csv")
    assert (rows["EE.08"]["threshold_pct"], rows["EE.08"]["passed"]) == ("60.0", "no")
    assert rows["EE.09"]["passed"] == "yes" and rows["EE.09"]["human_value"] == ""
    assert "1 of 2 sheet results pass." in (tmp_path / "p" / "passing.md").read_text()


def test_bad_thresholds_and_changed_data_are_errors_naming_the_file(tmp_path, run, capsys):
    thresholds = tmp_path / "t.yaml"
    thresholds.write_text("thresholds:\n  pl_zaw: 150\n")
    assert run_cli("eval", "passing", run, "--out", tmp_path / "p", "--thresholds", thresholds) == 1
    assert "t.yaml: threshold for 'pl_zaw' must be a percentage in (0, 100], got 150" in capsys.readouterr().err
    data = tmp_path / "data" / "pl_zaw.parquet"
    write_parquet(data, [make_question(1, source="pl_zaw")])
    assert run_cli("eval", "passing", run, "--out", tmp_path / "p") == 1
    err = capsys.readouterr().err
    assert "r1: the run's data is needed for points per question" in err and "differs from the pinned data" in err
