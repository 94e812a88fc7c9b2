"""The command line: plan files, flags, and the `examcorpus eval` group inside the project's CLI."""
from __future__ import annotations

import json

import pytest

from eval.analysis.correlate import LLMZSZL_CSV
from eval.run.plan import load_plan
from tests.eval.conftest import SECRET


def test_a_yaml_plan_file_runs_like_the_equivalent_flags(tmp_path, curated, openai_server, monkeypatch):
    from pipeline.cli import main

    monkeypatch.setenv("STANDIN_KEY", SECRET)
    plan = tmp_path / "plan.yaml"
    plan.write_text(f"""
data: {curated}
protocol: mcq
protocol_version: "1"
shots: 1
repeats: 2
languages: [pl]
model:
  backend: openai
  name: standin
  base_url: {openai_server.base_url}
  api_key_env: STANDIN_KEY
  max_tokens: 256
  concurrency: 2
retry:
  base_delay_s: 0.01
""")
    out = tmp_path / "run"
    assert main(["eval", "run", "--plan", str(plan), "--out", str(out), "--no-progress"]) == 0
    stored = json.loads((out / "plan.json").read_text())["plan"]
    assert stored["repeats"] == 2 and stored["shots"] == 1 and stored["model"]["max_tokens"] == 256
    assert len(openai_server.requests) == 16
    assert main(["eval", "rescore", str(out)]) == 0


def test_a_plan_with_an_unknown_field_is_an_error_naming_the_file_and_field(tmp_path):
    plan = tmp_path / "plan.yaml"
    plan.write_text("data: x\nprotocol: mcq\nrepeat: 3\nmodel: {backend: openai, name: m}\n")
    with pytest.raises(ValueError, match=r"plan.yaml: invalid run plan:\n  - repeat: Extra inputs are not permitted"):
        load_plan(plan)


def test_a_key_in_the_base_url_is_refused(tmp_path, capsys):
    from eval.cli import main

    code = main(["eval", "run", "--data", str(tmp_path), "--model", "openai:m", "--base-url", "https://u:sk-123@api.example/v1",
                 "--protocol", "mcq", "--out", str(tmp_path / "run")])
    assert code == 1
    assert "must not carry credentials" in capsys.readouterr().err


def test_unknown_backend_and_protocol_are_named(tmp_path, curated, capsys):
    from eval.cli import main

    assert main(["eval", "run", "--data", str(curated), "--model", "vllm:m", "--protocol", "mcq", "--out", str(tmp_path / "r")]) == 1
    assert "unknown backend 'vllm'; known: gemini, hf, hf-generate, openai" in capsys.readouterr().err
    assert main(["eval", "run", "--data", str(curated), "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                 "--protocol", "essay", "--out", str(tmp_path / "r")]) == 1
    assert "unknown protocol 'essay'" in capsys.readouterr().err


def test_correlate_through_the_project_cli(tmp_path, capsys):
    from pipeline.cli import main

    out = tmp_path / "corr"
    assert main(["eval", "correlate", "--scores", str(LLMZSZL_CSV), "--out", str(out),
                 "--no-plots"]) == 0
    rows = (out / "correlations.csv").read_text().splitlines()
    assert rows[0].startswith("model,exam_type,category,n,pearson_r")
    assert "gemma-7b" in capsys.readouterr().out and any(row.startswith("gemma-7b,") for row in rows)
