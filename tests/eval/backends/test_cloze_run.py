"""The cloze formulation: options' text scored by log-likelihood, without letters, with acc and acc_norm."""
from __future__ import annotations

import dataclasses
import json

import pytest

from eval.prompts.protocols import PROTOCOLS, PromptBuilder
from eval.log.runfolder import read_jsonl
from tests.eval.conftest import make_question, run_cli, write_parquet

TEXTS = ["Osiem bitów tworzy jeden bajt", "8", "dwa", "Szesnaście bitów w słowie"]


def _questions():
    return [dataclasses.replace(make_question(i), choices=TEXTS) for i in range(1, 5)]


def test_a_cloze_prompt_shows_no_options_and_scores_each_option_text():
    first, second = _questions()[:2]
    prompt = PromptBuilder(PROTOCOLS["mcq-cloze"], shots=1).build(second, "pl_test", [first])
    assert "A." not in prompt.context and "opcja" not in prompt.context and TEXTS[0] not in prompt.context.split("Pytanie:")[-1]
    assert prompt.context.endswith("Odpowiedź:")
    assert prompt.continuations == tuple(f" {t}" for t in TEXTS)
    assert f"Odpowiedź: {TEXTS[first.answer_index]}" in prompt.context  # the shot answers with the option's text


def test_a_cloze_run_reports_acc_and_acc_norm_and_rescores(tmp_path, tiny_model_dir, capsys):
    data = write_parquet(tmp_path / "d.parquet", _questions())
    out = tmp_path / "run"
    assert run_cli("eval", "run", "--data", data, "--model", f"hf:{tiny_model_dir}", "--protocol", "mcq-cloze",
                   "--out", out, "--no-progress") == 0
    prompts = {p["qid"]: p for p in read_jsonl(out / "prompts.jsonl")}
    expected_acc, expected_norm, expected_tokens = [], [], []
    for a in read_jsonl(out / "attempts.jsonl"):
        prompt = prompts[a["qid"]]
        lp = a["logprobs"]
        counts = a["continuation_tokens"]  # each option's own tokens, as the model's tokeniser cut them
        assert len(counts) == 4 and all(n >= 1 for n in counts)
        token_choice = max(range(4), key=lambda i: (lp[i] / counts[i], -i))
        expected_tokens.append(prompt["labels"][token_choice] == prompt["answer"])
        acc_choice = max(range(4), key=lambda i: (lp[i], -i))
        norm_choice = max(range(4), key=lambda i: (lp[i] / len(TEXTS[i]), -i))  # lm-eval: per character of the choice
        expected_acc.append(prompt["labels"][acc_choice] == prompt["answer"])
        expected_norm.append(prompt["labels"][norm_choice] == prompt["answer"])
    group = json.loads((out / "scores.json").read_text())["groups"][0]
    assert group["accuracy_pct"] == pytest.approx(100 * sum(expected_acc) / 4)
    assert group["accuracy_norm_pct"] == pytest.approx(100 * sum(expected_norm) / 4)
    assert group["norm_ci_low"] <= group["accuracy_norm_pct"] <= group["norm_ci_high"]
    assert group["accuracy_norm_tokens_pct"] == pytest.approx(100 * sum(expected_tokens) / 4)
    assert json.loads((out / "plan.json").read_text())["protocol"]["formulation"] == "cloze"
    capsys.readouterr()
    assert run_cli("eval", "rescore", out) == 0
    shown = capsys.readouterr().out
    assert "acc_norm %" in shown and "acc_norm per token, " in shown


def test_cloze_is_refused_for_a_generative_model(tmp_path, capsys):
    data = write_parquet(tmp_path / "d.parquet", _questions())
    assert run_cli("eval", "run", "--data", data, "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                   "--protocol", "mcq-cloze", "--out", tmp_path / "run", "--no-progress") == 1
    assert "scores the options' text by log-likelihood" in capsys.readouterr().err
