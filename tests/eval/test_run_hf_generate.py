"""`--model hf-generate:PATH`: a local transformers model answers with `generate`, and its text goes
through the same extraction rule and statuses as the API backends' answers.

The model is the tiny offline Llama of tests/eval/backends/tiny_model.py (random weights, so its
answers are gibberish: what is checked is the machinery, not the model's skill).
"""
from __future__ import annotations

import dataclasses
import json

import pytest

from eval.scorers.answers import FINAL_STATUSES, classify_generation, get_rule
from eval.log.runfolder import read_json, read_jsonl
from tests.eval.conftest import make_question, questions_of_varied_lengths, run_cli, write_parquet

pytest.importorskip("torch")
pytest.importorskip("transformers")

CHATML = ("{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from tests.eval.backends.tiny_model import build_tiny_llama

    return build_tiny_llama(tmp_path_factory.mktemp("tiny") / "model")


@pytest.fixture(scope="module")
def chat_model(tiny_model, tmp_path_factory):
    """The same weights with a ChatML chat template in the tokenizer."""
    from tests.eval.backends.tiny_model import with_chat_template

    return with_chat_template(tiny_model, tmp_path_factory.mktemp("tiny-chat") / "model", CHATML)


def _generate(data, model, out, *extra) -> int:
    return run_cli("eval", "run", "--data", data, "--model", f"hf-generate:{model}", "--protocol", "mcq",
                   "--max-tokens", "4", "--out", out, "--no-progress", *extra)


def _answers(out) -> dict:
    return {(a["qid"], a["repeat"]): a["response"] for a in read_jsonl(out / "attempts.jsonl")}


def test_greedy_answers_get_the_api_backends_statuses_the_folder_verifies_and_a_rerun_gives_the_same_answers(
        tmp_path, curated, tiny_model):
    assert _generate(curated, tiny_model, tmp_path / "a", "--batch-size", "4") in (0, 3)  # 3: truncated answers
    prompts = {p["qid"]: p for p in read_jsonl(tmp_path / "a" / "prompts.jsonl")}
    attempts = read_jsonl(tmp_path / "a" / "attempts.jsonl")
    assert len(attempts) == len(prompts) == 8
    rule = get_rule("letter-v1")
    for a in attempts:
        assert a["status"] in {s.value for s in FINAL_STATUSES}
        assert a["finish_reason"] in ("stop", "length") and "seed" not in a  # greedy: no seed
        assert a["usage"]["completion_tokens"] <= 4
        prompt = prompts[a["qid"]]
        status, extraction = classify_generation(text=a["response"], finish_reason=a["finish_reason"], labels=prompt["labels"],
                                                 answer=prompt["answer"], language=prompt["language"], rule=rule)
        assert (a["status"], a["extracted"]) == (status.value, extraction.label)
    assert run_cli("eval", "verify", tmp_path / "a") == 0
    assert run_cli("eval", "rescore", tmp_path / "a") == 0
    session = read_jsonl(tmp_path / "a" / "sessions.jsonl")[0]["backend"]
    assert session["backend"] == "hf-generate" and session["chat_template_sha256"] is None
    assert _generate(curated, tiny_model, tmp_path / "b", "--batch-size", "4") in (0, 3)
    assert _answers(tmp_path / "b") == _answers(tmp_path / "a")


def test_batching_with_left_padding_gives_each_question_the_answer_it_gets_alone(tmp_path, tiny_model):
    data = write_parquet(tmp_path / "d.parquet", questions_of_varied_lengths(6, " Uzasadnij."))
    assert _generate(data, tiny_model, tmp_path / "alone", "--batch-size", "1") in (0, 3)
    assert _generate(data, tiny_model, tmp_path / "batched", "--batch-size", "6") in (0, 3)
    lengths = {a["usage"]["prompt_tokens"] for a in read_jsonl(tmp_path / "batched" / "attempts.jsonl")}
    assert len(lengths) > 1  # the batch was padded
    assert _answers(tmp_path / "batched") == _answers(tmp_path / "alone")


def test_sampling_with_a_seed_is_reproduced_and_each_repeat_records_its_own_seed(tmp_path, curated, tiny_model):
    sampled = ("--temperature", "1.0", "--repeats", "2")
    assert _generate(curated, tiny_model, tmp_path / "s1", *sampled, "--seed", "7") in (0, 3)
    assert _generate(curated, tiny_model, tmp_path / "s2", *sampled, "--seed", "7") in (0, 3)
    assert _generate(curated, tiny_model, tmp_path / "other", *sampled, "--seed", "8") in (0, 3)
    first = _answers(tmp_path / "s1")
    assert first == _answers(tmp_path / "s2")
    assert first != _answers(tmp_path / "other")  # the seed is what was drawn from
    assert {(a["repeat"], a["seed"]) for a in read_jsonl(tmp_path / "s1" / "attempts.jsonl")} == {(0, 7), (1, 8)}


def test_sampling_without_a_seed_is_refused_before_a_run_folder_exists(tmp_path, curated, tiny_model, capsys):
    assert _generate(curated, tiny_model, tmp_path / "run", "--temperature", "0.7") == 1
    assert "needs --seed" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_the_chat_template_and_system_prompt_are_what_the_model_is_fed(tmp_path, chat_model):
    from eval.models.hf_generate import HFGenerateBackend

    data = write_parquet(tmp_path / "d.parquet", [make_question(1), make_question(2)])
    out = tmp_path / "run"
    assert _generate(data, chat_model, out, "--system-prompt", "Odpowiadaj krótko.") in (0, 3)
    prompt = read_jsonl(out / "prompts.jsonl")[0]
    user = prompt["messages"][0]["content"]
    expected = f"<|im_start|>system\nOdpowiadaj krótko.<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
    backend = HFGenerateBackend(chat_model, system_prompt="Odpowiadaj krótko.")
    try:
        assert backend.model_input(prompt["messages"]) == expected
        fed = backend.tokenizer.encode(expected, add_special_tokens=False)
    finally:
        backend.close()
    attempt = next(a for a in read_jsonl(out / "attempts.jsonl") if a["qid"] == prompt["qid"])
    assert attempt["usage"]["prompt_tokens"] == len(fed)
    assert read_json(out / "plan.json")["plan"]["model"]["system_prompt"] == "Odpowiadaj krótko."
    session = read_jsonl(out / "sessions.jsonl")[0]["backend"]
    assert session["system_prompt"] == "Odpowiadaj krótko." and len(session["chat_template_sha256"]) == 64


def test_without_a_chat_template_the_model_continues_the_plain_prompt(tiny_model):
    from eval.models.hf_generate import HFGenerateBackend

    messages = ({"role": "user", "content": "Pytanie:\n2 + 2 = ?\n\nA. 4\nB. 5"},)
    plain, system = HFGenerateBackend(tiny_model), HFGenerateBackend(tiny_model, system_prompt="Bądź zwięzły.")
    try:
        assert not plain.has_chat_template
        assert plain.model_input(messages) == messages[0]["content"]
        assert system.model_input(messages) == "Bądź zwięzły.\n\n" + messages[0]["content"]
        assert plain.encode(messages)[0] == plain.tokenizer.bos_token_id  # the tokenizer's own BOS, as lm-eval adds it
    finally:
        plain.close()
        system.close()


def test_a_prompt_longer_than_the_context_window_is_a_technical_failure_not_retried(tmp_path, tiny_model):
    long = dataclasses.replace(make_question(1), question="[Q01] " + "Zażółć gęślą jaźń. " * 200)
    data = write_parquet(tmp_path / "d.parquet", [long, make_question(2)])
    assert _generate(data, tiny_model, tmp_path / "run") == 2  # an answer is missing: the run stays open
    by_qid = {}
    for a in read_jsonl(tmp_path / "run" / "attempts.jsonl"):
        by_qid.setdefault(a["qid"], []).append(a)
    [failure] = by_qid[long.id]
    assert failure["status"] == "technical_failure" and failure["retryable"] is False
    assert "context window 512" in failure["error"]
    assert by_qid[make_question(2).id][0]["status"] in {s.value for s in FINAL_STATUSES}


def test_a_system_prompt_is_refused_for_a_backend_that_cannot_send_one(tmp_path, curated, capsys):
    assert run_cli("eval", "run", "--data", curated, "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                   "--protocol", "mcq", "--system-prompt", "x", "--out", tmp_path / "run", "--no-progress") == 1
    assert "system_prompt" in capsys.readouterr().err


def test_the_plan_records_the_generation_settings(tmp_path, curated, tiny_model):
    assert _generate(curated, tiny_model, tmp_path / "run", "--limit", "2", "--batch-size", "2") in (0, 3)
    model = read_json(tmp_path / "run" / "plan.json")["plan"]["model"]
    assert (model["backend"], model["max_tokens"], model["temperature"], model["batch_size"], model["concurrency"]) == \
        ("hf-generate", 4, 0.0, 2, 2)  # a whole batch in flight unless --concurrency says otherwise
    assert json.loads((tmp_path / "run" / "run.json").read_text())["state"] == "complete"
