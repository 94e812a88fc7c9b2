"""Possible answer-key errors: several models doubting the key the same way, from real run folders."""
from __future__ import annotations

import csv

import pytest

from eval.log.runfolder import read_jsonl
from tests.eval.conftest import LABELS, SECRET, TOKEN, make_question, run_cli, write_parquet


def _read(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_generative_runs_that_agree_on_another_option_flag_the_key(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    questions = [make_question(i, number=str(i - 10)) for i in range(11, 17)]
    for q in questions:
        openai_server.answers[TOKEN.search(q.question).group(1)] = q.answer
    data = write_parquet(tmp_path / "d.parquet", questions)
    wrong = {"m1": {"Q13": "wrong", "Q12": "wrong", "Q15": "noletter"},
             "m2": {"Q13": "wrong", "Q12": "wrong", "Q15": "wrong"},
             "m3": {"Q13": "wrong", "Q14": "wrong"}}
    for model, script in wrong.items():
        openai_server.scripts.clear()
        openai_server.scripts.update({t: [a] for t, a in script.items()})
        run_cli("eval", "run", "--data", data, "--model", f"openai:{model}", "--base-url", openai_server.base_url,
                "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", tmp_path / "runs" / model, "--no-progress")
    out = tmp_path / "keys"
    assert run_cli("eval", "key-errors", tmp_path / "runs", "--out", out, "--audit-url", "http://127.0.0.1:5000/audit#{qid}") == 0
    rows = _read(out / "key_errors.csv")
    by_token = {TOKEN.search(q.question).group(1): q for q in questions}
    q13, q12 = by_token["Q13"], by_token["Q12"]
    assert [r["qid"] for r in rows] == [q13.id, q12.id]  # Q14 (one model) and Q15 (one answer) are not enough
    first = rows[0]
    # the stand-in's wrong answer is the first label that is not the key: every model picks the same one
    assert first["key"] == q13.answer and first["suggested"] == next(l for l in LABELS if l != q13.answer)
    assert (first["agreeing"], first["models"], first["low_probability"], first["mean_p_key"]) == ("3", "3", "0", "")
    assert first["question"] == q13.question and first["audit_url"] == f"http://127.0.0.1:5000/audit#{q13.id}"
    assert rows[1]["agreeing"] == "2" and "m3=" + q12.answer in rows[1]["votes"]
    md = (out / "key_errors.md").read_text()
    assert f"## 1. {q13.id}" in md and f"- {q13.answer}. {q13.choices[LABELS.index(q13.answer)]} **(key)**" in md
    assert f"[open in the extraction audit](http://127.0.0.1:5000/audit#{q13.id})" in md


@pytest.fixture(scope="module")
def tiny_models(tmp_path_factory):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.eval.backends.tiny_model import build_tiny_llama

    root = tmp_path_factory.mktemp("tiny")
    return [build_tiny_llama(root / f"seed{seed}", seed=seed) for seed in (1234, 77)]


def test_log_likelihood_runs_flag_keys_given_low_probability(tmp_path, tiny_models):
    from scipy.special import softmax

    data = write_parquet(tmp_path / "d.parquet", [make_question(i) for i in range(1, 13)])
    runs = []
    for k, model in enumerate(tiny_models):
        runs.append(tmp_path / "runs" / f"tiny{k}")
        assert run_cli("eval", "run", "--data", data, "--model", f"hf:{model}", "--protocol", "mcq", "--out", runs[-1],
                       "--no-progress") == 0
    low = 0.25  # random tiny models spread probability near 1/4, so this splits the questions
    out = tmp_path / "keys"
    assert run_cli("eval", "key-errors", *runs, "--out", out, "--low-prob", str(low)) == 0
    # The expected list, from the attempts alone: scipy's softmax over each model's option log-likelihoods.
    prompts = {p["qid"]: p for p in read_jsonl(runs[0] / "prompts.jsonl")}
    p_key, picks = {}, {}
    for run in runs:
        for a in read_jsonl(run / "attempts.jsonl"):
            labels = prompts[a["qid"]]["labels"]
            p_key.setdefault(a["qid"], []).append(softmax(a["logprobs"])[labels.index(prompts[a["qid"]]["answer"])])
            picks.setdefault(a["qid"], []).append(a["extracted"])
    expected = {q for q, ps in p_key.items()
                if sum(p < low for p in ps) >= 2 or (picks[q][0] == picks[q][1] != prompts[q]["answer"])}
    rows = _read(out / "key_errors.csv")
    assert expected and {r["qid"] for r in rows} == expected
    for r in rows:
        assert float(r["mean_p_key"]) == pytest.approx(sum(p_key[r["qid"]]) / 2, abs=1e-6)
        assert int(r["low_probability"]) == sum(p < low for p in p_key[r["qid"]])
    strengths = [max(int(r["agreeing"]), int(r["low_probability"])) for r in rows]
    assert strengths == sorted(strengths, reverse=True)


def test_bad_settings_and_empty_folders_are_refused(tmp_path, capsys):
    assert run_cli("eval", "key-errors", tmp_path, "--out", tmp_path / "o", "--low-prob", "1.5") == 1
    assert "--low-prob must be in (0, 1) and --min-models at least 1, got 1.5 and 2" in capsys.readouterr().err
    assert run_cli("eval", "key-errors", tmp_path, "--out", tmp_path / "o") == 1
    assert f"{tmp_path}: no run folders (folders with plan.json) here" in capsys.readouterr().err
