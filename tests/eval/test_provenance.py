"""What produced a run: the code's git commit, and whole-file hashes cached by path, size and mtime."""
from __future__ import annotations

import json
import os
import subprocess

import eval.run.provenance as provenance
from eval.run.provenance import code_revision, hash_cache_path, sha256_cached
from tests.eval.conftest import run_standin


def test_each_session_records_the_code_commit_it_ran(tmp_path, curated, openai_server, standin_key):
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 0
    session = json.loads((out / "sessions.jsonl").read_text().splitlines()[0])
    head = subprocess.run(["git", "-C", os.path.dirname(provenance.__file__), "rev-parse", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert session["environment"]["code"]["commit"] == head
    assert session["environment"]["code"]["reason"] is None
    assert isinstance(session["environment"]["code"]["dirty"], bool)


def test_outside_a_git_checkout_the_commit_is_none_with_the_reason(tmp_path, monkeypatch):
    outside = code_revision(tmp_path)
    assert outside["commit"] is None and "not in a git checkout" in outside["reason"]
    monkeypatch.setattr(provenance.shutil, "which", lambda name: None)
    assert code_revision()["reason"] == "git is not installed, so the code's commit is unknown"


def test_a_file_is_hashed_whole_once_then_served_from_the_cache_until_it_changes(tmp_path, monkeypatch):
    import hashlib

    file = tmp_path / "weights.bin"
    file.write_bytes(b"\0" * (3 << 20))
    reads = []
    real = provenance.sha256_file
    monkeypatch.setattr(provenance, "sha256_file", lambda path: reads.append(path) or real(path))
    assert sha256_cached(file) == hashlib.sha256(file.read_bytes()).hexdigest()
    assert sha256_cached(file) == hashlib.sha256(file.read_bytes()).hexdigest()
    assert len(reads) == 1
    with open(file, "r+b") as fh:  # same size, one byte in the middle
        fh.seek(3 << 19)
        fh.write(b"\1")
    os.utime(file, ns=(file.stat().st_atime_ns, file.stat().st_mtime_ns + 1_000_000))
    assert sha256_cached(file) == hashlib.sha256(file.read_bytes()).hexdigest()
    assert len(reads) == 2
    entries = [k for k in json.loads(hash_cache_path().read_text()) if k.startswith(f"{file.resolve()}\0")]
    assert len(entries) == 1  # the stale entry was replaced


def test_a_damaged_cache_is_ignored_not_trusted(tmp_path):
    file = tmp_path / "f"
    file.write_bytes(b"abc")
    hash_cache_path().parent.mkdir(parents=True, exist_ok=True)
    hash_cache_path().write_text("{not json")
    assert sha256_cached(file) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
