"""An interrupted run continues where it stopped: nothing lost, nothing sent twice, nothing rewritten."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path


from eval.log.runfolder import read_jsonl
from tests.eval.conftest import SECRET, run_cli

ROOT = Path(__file__).resolve().parents[2]


def _args(curated, server, out):
    return ["eval", "run", "--data", str(curated), "--model", "openai:standin", "--base-url", server.base_url,
            "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--repeats", "3", "--concurrency", "2",
            "--out", str(out), "--no-progress", "--retry-base-delay", "0.01"]


def _check_complete(out: Path, questions: int, repeats: int) -> list[dict]:
    attempts = read_jsonl(out / "attempts.jsonl")
    finals = Counter((a["qid"], a["repeat"]) for a in attempts if a["status"] != "technical_failure")
    assert len(finals) == questions * repeats
    assert set(finals.values()) == {1}, "an answer was recorded twice"
    for key in finals:
        numbers = sorted(a["attempt"] for a in attempts if (a["qid"], a["repeat"]) == key)
        assert numbers == list(range(1, len(numbers) + 1))
    return attempts


def test_a_killed_run_resumes_without_duplicate_or_lost_attempts(tmp_path, curated, openai_server, monkeypatch):
    openai_server.default_action = "slow"
    openai_server.slow_s = 0.15
    out = tmp_path / "run"
    env = dict(os.environ, STANDIN_KEY=SECRET, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "eval.cli", *_args(curated, openai_server, out)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    attempts_file = out / "attempts.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if attempts_file.exists() and attempts_file.read_bytes().count(b"\n") >= 6:
            break
        assert proc.poll() is None, proc.stderr.read().decode()
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    before = attempts_file.read_bytes()
    done_before = before.count(b"\n")
    assert 6 <= done_before < 24, "the run must be interrupted mid-way"
    assert not (out / "run.json").exists()
    sent_before = len(openai_server.requests)

    monkeypatch.setenv("STANDIN_KEY", SECRET)
    openai_server.slow_s = 0.0
    assert run_cli(*_args(curated, openai_server, out)) == 0
    after = attempts_file.read_bytes()
    assert after.startswith(before[: before.rfind(b"\n") + 1]), "earlier attempts were rewritten"
    _check_complete(out, questions=8, repeats=3)
    # only what was missing was sent again (requests in flight at the kill are re-sent: at most concurrency x 2)
    resent = len(openai_server.requests) - sent_before
    assert resent == 24 - done_before
    sessions = read_jsonl(out / "sessions.jsonl")
    assert len(sessions) == 2


def test_a_partial_last_line_from_a_crash_is_cut_before_resuming(tmp_path, curated, openai_server, monkeypatch):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    out = tmp_path / "run"
    openai_server.scripts["Q03"] = ["500"]  # keeps failing: the run stays open with a missing answer
    assert run_cli(*_args(curated, openai_server, out), "--max-attempts", "2") == 2
    state = json.loads((out / "run.json").read_text())
    assert state["state"] == "incomplete" and "missing" in state["reasons"][0]
    with open(out / "attempts.jsonl", "ab") as fh:
        fh.write(b'{"qid": "half-written')
    assert run_cli("eval", "rescore", out) == 2  # scores shown, but there is nothing final to reproduce yet
    openai_server.scripts["Q03"] = ["correct"]
    openai_server.default_action = "slow"
    # resume from the folder's own plan, changing only an operational setting: one request in flight
    assert run_cli("eval", "run", "--out", out, "--no-progress", "--concurrency", "1") == 0
    assert openai_server.max_in_flight <= 2 and sessions_concurrency(out) == [2, 1]
    attempts = _check_complete(out, questions=8, repeats=3)
    q3 = [a for a in attempts if a["status"] == "technical_failure"]
    assert len(q3) == 3 * 2  # both tries of each of Q03's three repeats kept
    sessions = read_jsonl(out / "sessions.jsonl")
    assert sessions[-1]["repaired_partial_line_bytes"] == len(b'{"qid": "half-written')


def sessions_concurrency(out) -> list[int]:
    return [s["operational"]["concurrency"] for s in read_jsonl(out / "sessions.jsonl")]


def test_a_finished_run_is_immutable(tmp_path, curated, openai_server, monkeypatch, capsys):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    out = tmp_path / "run"
    assert run_cli(*_args(curated, openai_server, out)) == 0
    sent = len(openai_server.requests)
    assert run_cli(*_args(curated, openai_server, out)) == 1
    assert "finished and immutable" in capsys.readouterr().err
    assert len(openai_server.requests) == sent
    for file in out.iterdir():
        assert not os.access(file, os.W_OK) or os.geteuid() == 0
        assert file.stat().st_mode & 0o222 == 0


def test_resuming_with_different_settings_is_refused(tmp_path, curated, openai_server, monkeypatch, capsys):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    out = tmp_path / "run"
    openai_server.scripts["Q01"] = ["500"]
    assert run_cli(*_args(curated, openai_server, out), "--max-attempts", "1") == 2
    code = run_cli(*_args(curated, openai_server, out), "--temperature", "0.7")
    assert code == 1
    assert "model.temperature: run has 0.0, given 0.7" in capsys.readouterr().err


def test_changed_data_is_refused_before_anything_is_sent(tmp_path, curated, openai_server, monkeypatch, capsys, questions):
    from tests.eval.conftest import write_parquet

    monkeypatch.setenv("STANDIN_KEY", SECRET)
    out = tmp_path / "run"
    openai_server.scripts["Q01"] = ["500"]
    assert run_cli(*_args(curated, openai_server, out), "--max-attempts", "1") == 2
    write_parquet(curated, questions[:-1])
    sent = len(openai_server.requests)
    assert run_cli("eval", "run", "--out", out, "--no-progress") == 1
    err = capsys.readouterr().err
    assert "differs from the pinned data" in err and "pl_test.parquet" in err
    assert len(openai_server.requests) == sent


def _damage_pages(path: Path) -> None:
    """Garbage over the column pages, the footer left intact: the file still opens, reading it fails."""
    import struct

    raw = bytearray(path.read_bytes())
    footer_start = len(raw) - 8 - struct.unpack("<I", raw[-8:-4])[0]
    raw[4:footer_start] = b"\xff" * (footer_start - 4)
    path.write_bytes(bytes(raw))


def test_a_damaged_data_file_on_resume_is_named_by_its_hash_before_it_is_parsed(tmp_path, curated, openai_server, monkeypatch, capsys):
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    out = tmp_path / "run"
    openai_server.scripts["Q01"] = ["500"]
    assert run_cli(*_args(curated, openai_server, out), "--max-attempts", "1") == 2
    pinned = json.loads((out / "plan.json").read_text())["plan"]["data_pin"]["files"][0]["sha256"]
    _damage_pages(curated)
    capsys.readouterr()
    sent = len(openai_server.requests)
    assert run_cli("eval", "run", "--out", out, "--no-progress") == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert "differs from the pinned data" in err and f"{curated.name}: plan pins {pinned}, data has " in err
    assert len(openai_server.requests) == sent


def test_a_damaged_data_file_in_a_new_run_is_a_clear_error(tmp_path, curated, capsys):
    _damage_pages(curated)
    assert run_cli("eval", "run", "--data", curated, "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                   "--protocol", "mcq", "--out", tmp_path / "run", "--no-progress") == 1
    err = capsys.readouterr().err
    assert f"{curated}: not a readable Parquet file" in err and not (tmp_path / "run").exists()
