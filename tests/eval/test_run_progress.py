"""`eval run` says what it is doing: a line before and after the model loads, then progress per answer
(per batch for a local log-likelihood model), as plain lines when stderr is a file or a pipe rather
than a bar that vanishes there. `--no-progress` keeps all of it back."""
from __future__ import annotations

import re

import pytest

from pipeline.infra.progress import EVERY_S_VARIABLE
from tests.eval.conftest import make_question, run_cli, write_parquet


def _run(data, server, out, *extra) -> int:
    return run_cli("eval", "run", "--data", data, "--model", "openai:standin", "--base-url", server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--concurrency", "1", *extra)


def test_a_redirected_run_prints_loading_then_a_plain_line_per_answer(tmp_path, curated, openai_server, standin_key,
                                                                     monkeypatch, capsys):
    monkeypatch.setenv(EVERY_S_VARIABLE, "0")  # a line at every answer (the default is one every 30 s)
    openai_server.scripts["Q03"] = ["wrong"]
    assert _run(curated, openai_server, tmp_path / "run", "--name", "Stand-in") == 0
    err = capsys.readouterr().err  # stderr here is not a terminal, as in `eval run ... 2> log`
    lines = err.splitlines()
    assert lines[0] == "eval: starting Stand-in (openai) ..."
    assert re.fullmatch(r"eval: Stand-in \(openai\) ready in \d+\.\d s", lines[1])
    counts = [int(m.group(1)) for m in (re.match(r"eval: (\d+)/8 answers \(\d+ %\)", line) for line in lines) if m]
    assert counts == list(range(1, 9))
    assert "correct=7" in lines[2 + 7] and "wrong=1" in lines[2 + 7]
    assert "\r" not in err and "%|" not in err


def test_no_progress_keeps_every_progress_line_back(tmp_path, curated, openai_server, standin_key, monkeypatch, capsys):
    monkeypatch.setenv(EVERY_S_VARIABLE, "0")
    assert _run(curated, openai_server, tmp_path / "run", "--no-progress") == 0
    err = capsys.readouterr().err
    assert "starting" not in err and "answers (" not in err and "run complete" in err


def test_a_local_log_likelihood_model_reports_each_batch_not_every_fourth(tmp_path, monkeypatch, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.eval.backends.tiny_model import build_tiny_llama

    model = build_tiny_llama(tmp_path / "model")
    monkeypatch.setenv(EVERY_S_VARIABLE, "0")
    data = write_parquet(tmp_path / "d.parquet", [make_question(i) for i in range(1, 9)])
    assert run_cli("eval", "run", "--data", data, "--model", f"hf:{model}", "--protocol", "mcq", "--batch-size", "2",
                   "--out", tmp_path / "run") == 0
    err = capsys.readouterr().err
    assert "eval: starting model (hf) ..." in err  # a local folder is called by its name, not its path
    done = [int(m.group(1)) for m in re.finditer(r"eval \(log-likelihood\): (\d+)/8 q", err)]
    assert done == [2, 4, 6, 8]
