"""A run folder's manifest: every file's SHA-256 written last, `eval verify`, and refusals on failure."""
from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from eval.analysis.compare import Side, compare
from eval.log.integrity import MANIFEST, IntegrityError, verify
from tests.eval.conftest import run_cli, run_standin


@pytest.fixture
def finished_run(tmp_path, curated, openai_server, standin_key):
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 0
    return out


def _editable_copy(run, where):
    shutil.copytree(run, where)
    for file in where.iterdir():
        file.chmod(0o644)
    return where


def test_a_finished_run_lists_every_file_with_its_sha256_and_verifies(finished_run, capsys):
    manifest = json.loads((finished_run / MANIFEST).read_text())
    files = {p.name for p in finished_run.iterdir()} - {MANIFEST}
    assert set(manifest["files"]) == files >= {"plan.json", "prompts.jsonl", "attempts.jsonl", "sessions.jsonl", "scores.json", "run.json"}
    assert all(len(entry["sha256"]) == 64 for entry in manifest["files"].values())
    assert run_cli("eval", "verify", finished_run) == 0
    printed = capsys.readouterr()
    assert "every file matches its manifest" in printed.err
    assert f"manifest sha256 {hashlib.sha256((finished_run / MANIFEST).read_bytes()).hexdigest()}" in printed.out


def test_an_unfinished_run_gets_a_manifest_of_what_its_session_left(tmp_path, curated, openai_server, standin_key):
    openai_server.scripts["Q04"] = ["500"]
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out, "--max-attempts", "1") == 2
    assert verify(out).ok


def test_verify_names_changed_missing_and_extra_files(finished_run, tmp_path, capsys):
    copy = _editable_copy(finished_run, tmp_path / "copy")
    with open(copy / "attempts.jsonl", "a") as fh:
        fh.write("\n")  # one byte is enough
    (copy / "sessions.jsonl").unlink()
    (copy / "notes.txt").write_text("added later")
    assert run_cli("eval", "verify", copy) == 1
    err = capsys.readouterr().err
    assert "attempts.jsonl: changed since the manifest was written" in err
    assert "sessions.jsonl: listed in the manifest but missing" in err
    assert "notes.txt: not in the manifest (added later)" in err
    assert "plan.json" not in err


def test_verify_refuses_a_folder_without_a_manifest(finished_run, tmp_path, capsys):
    copy = _editable_copy(finished_run, tmp_path / "copy")
    (copy / MANIFEST).unlink()
    assert run_cli("eval", "verify", copy) == 1
    assert "no manifest" in capsys.readouterr().err


def test_rescore_refuses_a_folder_that_fails_verification_and_writes_nothing(finished_run, tmp_path, capsys):
    copy = _editable_copy(finished_run, tmp_path / "copy")
    (copy / "prompts.jsonl").write_text((copy / "prompts.jsonl").read_text() + "\n")
    out = tmp_path / "rescored.json"
    assert run_cli("eval", "rescore", copy, "--out", out) == 1
    err = capsys.readouterr().err
    assert "fails verification; rescore refused" in err and "prompts.jsonl: changed since the manifest was written" in err
    assert "reproduced byte for byte" not in err
    assert not out.exists()


def test_compare_refuses_a_folder_that_fails_verification(finished_run, tmp_path, capsys):
    copy = _editable_copy(finished_run, tmp_path / "copy")
    (copy / "scores.json").write_text("{}\n")
    with pytest.raises(IntegrityError, match=r"fails verification, comparison refused:\n.*scores.json: changed"):
        compare(Side(finished_run), Side(copy))
    assert run_cli("eval", "compare", finished_run, copy, "--json", tmp_path / "c.json") == 1
    assert "comparison refused" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def test_an_unfinished_run_may_grow_by_appending_but_not_be_rewritten(tmp_path, curated, openai_server, standin_key, capsys):
    openai_server.scripts["Q04"] = ["500"]
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out, "--max-attempts", "1") == 2
    attempts = out / "attempts.jsonl"
    with open(attempts, "ab") as fh:
        fh.write(b'{"qid": "half-written')  # a later session killed mid-write
    assert verify(out).ok
    data = attempts.read_bytes()
    attempts.write_bytes(b" " + data[1:])  # one byte of an earlier line rewritten
    assert verify(out).changed == ["attempts.jsonl"]
    (out / "plan.json").write_text("{}")
    assert verify(out).changed == ["attempts.jsonl", "plan.json"]  # only the append-only logs may grow
