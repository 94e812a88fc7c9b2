"""Rescore recomputes every status from the attempt's evidence; an edited status cannot move a score.

The tamperer here is careful: they edit attempts.jsonl and then rewrite the manifest, so the folder
verifies. Only recomputing from the responses and the key catches them.
"""
from __future__ import annotations

import json
import shutil

import pytest

from eval.scorers.answers import get_rule
from eval.log.integrity import write_manifest
from eval.log.recompute import recompute
from tests.eval.conftest import run_cli, run_standin


def _tamper(run, where, edit):
    """A copy of `run` with attempts.jsonl lines edited by `edit(record) -> bool` and a fresh manifest."""
    shutil.copytree(run, where)
    for file in where.iterdir():
        file.chmod(0o644)
    path = where / "attempts.jsonl"
    lines, edited = [], []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        record = json.loads(line)
        if edit(record):
            edited.append((number, record["qid"]))
        lines.append(json.dumps(record, ensure_ascii=False, sort_keys=True))
    path.write_text("\n".join(lines) + "\n")
    write_manifest(where)
    return edited


@pytest.fixture
def run_with_a_wrong_answer(tmp_path, curated, openai_server, standin_key):
    openai_server.scripts.update({"Q03": ["wrong"], "Q05": ["noletter"], "Q06": ["500", "correct"]})
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 0
    return out


def test_a_wrong_attempt_marked_correct_does_not_change_accuracy_and_is_named(run_with_a_wrong_answer, tmp_path, capsys):
    original = json.loads((run_with_a_wrong_answer / "scores.json").read_text())
    assert original["groups"][0]["accuracy_pct"] == pytest.approx(75.0)  # Q03 wrong, Q05 unextractable

    def mark_q03_correct(record):
        if record["qid"].endswith(":3") and record["status"] == "wrong":
            record["status"] = "correct"
            return True
        return False

    copy = tmp_path / "tampered"
    edited = _tamper(run_with_a_wrong_answer, copy, mark_q03_correct)
    assert len(edited) == 1
    line, qid = edited[0]
    assert run_cli("eval", "verify", copy) == 0  # the manifest was rewritten too
    out = tmp_path / "rescored.json"
    assert run_cli("eval", "rescore", copy, "--out", out) == 1
    err = capsys.readouterr().err
    assert f"attempts.jsonl:{line}: {qid} repeat 0 attempt 1: stored status 'correct', recomputed 'wrong'" in err
    assert "1 attempt(s) whose stored status or label differs" in err
    assert "87.50% as stored, 75.00% recomputed" in err
    rescored = json.loads(out.read_text())
    assert rescored["groups"][0]["accuracy_pct"] == original["groups"][0]["accuracy_pct"]
    assert rescored == original  # the stored scores.json is still the honest one: reproduced


def test_every_kind_of_edited_status_is_reported(run_with_a_wrong_answer, tmp_path, capsys):
    def edit(record):
        if record["status"] in ("technical_failure", "extraction_failure"):
            record["status"] = "correct"  # a failed request and an unextractable answer both "correct"
            return True
        if record["status"] == "correct" and record["qid"].endswith(":1"):
            record["extracted"] = "D"  # a label that the response does not give
            return True
        return False

    copy = tmp_path / "tampered"
    edited = _tamper(run_with_a_wrong_answer, copy, edit)
    assert len(edited) == 3
    assert run_cli("eval", "rescore", copy) == 1
    err = capsys.readouterr().err
    for line, qid in edited:
        assert f"attempts.jsonl:{line}: {qid}" in err
    assert "recomputed 'technical_failure'" in err and "recomputed 'extraction_failure'" in err
    assert "stored extracted label 'D', recomputed 'B'" in err


def test_rescored_scores_also_give_publishability_from_recomputed_statuses(tmp_path, curated, openai_server, standin_key, capsys):
    openai_server.scripts["Q06"] = ["length"]
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 3  # truncated: not publishable

    def hide_truncation(record):
        if record["status"] == "truncated":
            record["status"] = "wrong"
            return True
        return False

    copy = tmp_path / "tampered"
    _tamper(out, copy, hide_truncation)
    state = json.loads((copy / "run.json").read_text())
    state["publishable"], state["reasons"] = True, []
    (copy / "run.json").write_text(json.dumps(state))
    write_manifest(copy)
    assert run_cli("eval", "rescore", copy) == 1
    err = capsys.readouterr().err
    assert "stored status 'wrong', recomputed 'truncated'" in err
    assert "run.json: says publishable=True, but the recomputed statuses give publishable=False" in err


def test_log_likelihood_statuses_come_from_the_log_probabilities():
    prompt = {"labels": ["A", "B", "C"], "answer": "B", "language": "pl"}
    rule = get_rule("letter-v1")
    assert recompute({"logprobs": [-3.0, -1.0, -2.0], "status": "wrong"}, prompt, rule, "loglikelihood").status == "correct"
    assert recompute({"logprobs": [-1.0, -1.0, -2.0], "status": "correct"}, prompt, rule, "loglikelihood").status == "wrong"  # ties: first
    assert recompute({"logprobs": [-1.0], "status": "correct"}, prompt, rule, "loglikelihood").status == "extraction_failure"
