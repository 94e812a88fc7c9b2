"""`--model hf:PATH` dispatches to the log-likelihood backend (E2's HFBackend) through the registry."""
from __future__ import annotations


import pytest

from eval.log.runfolder import read_jsonl
from tests.eval.conftest import make_question, run_cli, write_parquet

pytest.importorskip("torch")
pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from tests.eval.backends.tiny_model import build_tiny_llama

    return build_tiny_llama(tmp_path_factory.mktemp("tiny") / "model")


def test_an_hf_model_is_scored_by_log_likelihood_and_every_attempt_kept(tmp_path, tiny_model, capsys):
    # two per language: 1-shot needs another question of the same config and language
    questions = [make_question(i, language=lang) for i, lang in zip(range(1, 7), ["pl", "el", "es", "pl", "el", "es"])]
    data = write_parquet(tmp_path / "d.parquet", questions)
    out = tmp_path / "run"
    assert run_cli("eval", "run", "--data", data, "--model", f"hf:{tiny_model}", "--protocol", "mcq", "--shots", "1",
                   "--batch-size", "2", "--out", out, "--no-progress") == 0
    prompts = {p["qid"]: p for p in read_jsonl(out / "prompts.jsonl")}
    attempts = read_jsonl(out / "attempts.jsonl")
    assert len(attempts) == 6
    for a in attempts:
        prompt = prompts[a["qid"]]
        assert len(a["logprobs"]) == 4 and all(lp < 0 for lp in a["logprobs"])
        chosen = max(range(4), key=lambda i: (a["logprobs"][i], -i))  # argmax, first on ties
        assert a["response"] == prompt["labels"][chosen]
        assert a["status"] == ("correct" if a["response"] == prompt["answer"] else "wrong")
    session = read_jsonl(out / "sessions.jsonl")[0]
    assert session["backend"]["backend"] == "hf"
    assert run_cli("eval", "rescore", out) == 0


def test_repeats_are_refused_for_a_deterministic_log_likelihood_model(tmp_path, tiny_model, capsys):
    data = write_parquet(tmp_path / "d.parquet", [make_question(1)])
    assert run_cli("eval", "run", "--data", data, "--model", f"hf:{tiny_model}", "--protocol", "mcq", "--repeats", "3",
                   "--out", tmp_path / "run", "--no-progress") == 1
    assert "--repeats must be 1" in capsys.readouterr().err
