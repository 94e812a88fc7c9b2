"""Every run says which questions it scored (public split, private split, or all of curated/ with
the private questions), and `make eval` by default scores the public split, made from curated/ first."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.split.config import load_split_config
from pipeline.split.store import run_split
from tests.eval.conftest import make_question, run_cli

REPO = Path(__file__).resolve().parents[2]
SUBJECTS = ["bajt", "rejestr", "kompilator", "protokół", "sortowanie", "rekurencja", "kolejka", "stos", "graf", "drzewo"]


@pytest.fixture
def questions():
    """Two years of one exam family, every question about something else (no near-duplicates for the
    leakage guard): with the default rule, 2021 is private and 2020 public."""
    out = []
    for i, subject in enumerate(SUBJECTS, 1):
        q = make_question(i, year=2020 + i % 2)
        out.append(dataclasses.replace(q, question=f"[Q{i:02d}] Co opisuje pojęcie „{subject}” w informatyce, numer {i * 37}?",
                                       choices=[f"{subject} {label} {i * 13 + k}" for k, label in enumerate("ABCD")]))
    return out


def standin_run(data, server, out, capsys) -> tuple[dict, str]:
    assert run_cli("eval", "run", "--data", data, "--model", "openai:standin", "--base-url", server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress") == 0
    return json.loads((out / "scores.json").read_text()), capsys.readouterr().out


def test_a_run_says_in_its_header_and_scores_which_split_it_scored(tmp_path, curated, questions, openai_server, standin_key,
                                                                    capsys):
    split_dir = tmp_path / "split"
    run_split(curated.parent, split_dir, load_split_config(None))
    public = split_dir / "public.parquet"

    scores, header = standin_run(public, openai_server, tmp_path / "public-run", capsys)
    assert scores["split"] == "public" and scores["groups"][0]["n_questions"] == 5
    assert f"data: {scores['dataset_id']}, split public\n" in header

    scores, header = standin_run(curated.parent, openai_server, tmp_path / "curated-run", capsys)
    assert scores["split"] == "all" and scores["groups"][0]["n_questions"] == 10
    assert "split all (every question, private ones included: not a public result)" in header

    plan = json.loads((tmp_path / "curated-run" / "plan.json").read_text())
    assert plan["plan"]["data_pin"]["split"] == "all"


def test_make_eval_by_default_makes_the_split_and_scores_its_public_side(tmp_path, curated):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    project = tmp_path / "project"
    shutil.copytree(curated.parent, project / "curated")
    shutil.copy(REPO / "Makefile", project / "Makefile")
    recorded = tmp_path / "eval-args.txt"
    # The real CLI for every stage; `eval run` itself only records its arguments (no model to load).
    cli = project / "examcorpus"
    cli.write_text(f"#!/bin/sh\nif [ \"$1\" = eval ]; then echo \"$@\" > {recorded}; exit 0; fi\n"
                   f"exec {sys.executable} -m pipeline.cli \"$@\"\n")
    cli.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    make = ["make", "--no-print-directory", "-o", "setup", f"EXAMCORPUS={cli}", "eval"]
    result = subprocess.run(make, cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    args = recorded.read_text().split()
    assert args[args.index("--data") + 1] == "build/split/public.parquet"
    split = json.loads((project / "build/split/split.json").read_text())
    assert split["status"] == "ok" and (project / "build/split/public.parquet").is_file()

    # curated/ newer than the split: the split is made again before the next run
    made = (project / "build/split/split.json").stat().st_mtime_ns
    os.utime(project / "curated" / curated.name, ns=(made + 10**9, made + 10**9))
    assert subprocess.run(make, cwd=project, env=env, capture_output=True, text=True, timeout=300).returncode == 0
    assert (project / "build/split/split.json").stat().st_mtime_ns > made


def test_a_release_scores_the_split_its_manifest_names(tmp_path, questions):
    from eval.dataset.loading import load_data
    from tests.eval.test_data import _release

    release = _release(tmp_path / "release", {"data/pl_test/test.parquet": questions[:4]})
    assert load_data(release).split == "unknown"  # a manifest that does not say is not taken for public
    manifest = json.loads((release / "manifest.json").read_text())
    (release / "manifest.json").write_text(json.dumps({**manifest, "split": "public"}))
    data = load_data(release)
    assert data.split == "public" and data.pin()["split"] == "public"
