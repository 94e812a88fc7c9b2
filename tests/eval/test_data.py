"""Loading and pinning data: curated Parquet, a release folder with its manifest, refusal of drift."""
from __future__ import annotations

import json

import pytest

from eval.dataset.loading import DataError, check_pin, load_data, sha256_file
from tests.eval.conftest import make_question, write_parquet


def _release(root, files: dict[str, list], *, version="1.0.0"):
    entries = []
    for rel, questions in files.items():
        path = write_parquet(root / rel, questions)
        entries.append({"path": rel, "sha256": sha256_file(path), "config": rel.split("/")[1]})
    (root / "manifest.json").write_text(json.dumps({"name": "examcorpus-test", "version": version, "files": entries}))
    return root


def test_curated_parquet_is_pinned_by_the_hash_of_every_file(tmp_path):
    folder = tmp_path / "curated"
    write_parquet(folder / "a.parquet", [make_question(i) for i in range(1, 4)])
    write_parquet(folder / "b.parquet", [make_question(i, source="other") for i in range(1, 3)])
    data = load_data(folder)
    assert data.kind == "parquet" and len(data.questions) == 5
    assert [f.path for f in data.files] == ["a.parquet", "b.parquet"]
    assert data.files[0].sha256 == sha256_file(folder / "a.parquet") and data.files[0].rows == 3
    assert {data.config_of(q) for q in data.questions} == {"pl_test", "other"}
    assert load_data(folder).dataset_id == data.dataset_id
    write_parquet(folder / "b.parquet", [make_question(1, source="other")])
    changed = load_data(folder)
    assert changed.dataset_id != data.dataset_id
    with pytest.raises(DataError, match=r"b.parquet: plan pins [0-9a-f]{64}, data has [0-9a-f]{64}"):
        check_pin(changed, data.pin())


def test_a_release_folder_is_checked_against_its_manifest(tmp_path):
    root = _release(tmp_path / "rel", {"data/cke_informatyka/test.parquet": [make_question(i) for i in range(1, 5)]})
    data = load_data(root)
    assert data.kind == "release" and data.dataset_id == "examcorpus-test@1.0.0"
    assert {data.config_of(q) for q in data.questions} == {"cke_informatyka"}  # the manifest's config wins


def test_a_release_file_that_differs_from_its_manifest_is_refused(tmp_path):
    root = _release(tmp_path / "rel", {"data/x/test.parquet": [make_question(i) for i in range(1, 5)]})
    write_parquet(root / "data/x/test.parquet", [make_question(i) for i in range(1, 4)])
    with pytest.raises(DataError, match=r"test.parquet: SHA-256 [0-9a-f]+ differs from the manifest's"):
        load_data(root)


def test_a_parquet_file_the_manifest_does_not_list_is_refused(tmp_path):
    root = _release(tmp_path / "rel", {"data/x/test.parquet": [make_question(1)]})
    write_parquet(root / "data/x/extra.parquet", [make_question(2)])
    with pytest.raises(DataError, match="not in manifest.json: data/x/extra.parquet"):
        load_data(root)


def test_bad_input_names_the_file_and_the_problem(tmp_path):
    with pytest.raises(DataError, match="data not found"):
        load_data(tmp_path / "nope")
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 not really")
    with pytest.raises(DataError, match="broken.parquet: not a readable Parquet file"):
        load_data(broken)
    dup = tmp_path / "dup"
    write_parquet(dup / "a.parquet", [make_question(1)])
    write_parquet(dup / "b.parquet", [make_question(1)])
    with pytest.raises(DataError, match="question id pl_test:2020:maj:T_1:1 also in a.parquet"):
        load_data(dup)
    with pytest.raises(DataError, match="pinned to a tag"):
        load_data("hf://owner/name")


def test_a_hub_release_is_downloaded_at_its_tag_and_pinned_to_the_commit(tmp_path, hub_server, monkeypatch, openai_server, capsys):
    from tests.eval.conftest import SECRET, release_files, run_cli

    v1 = _release(tmp_path / "v1", {"data/cke/test.parquet": [make_question(i) for i in range(1, 5)]})
    v2 = _release(tmp_path / "v2", {"data/cke/test.parquet": [make_question(i) for i in range(1, 6)]}, version="1.1.0")
    hub_server.files = {"1" * 40: release_files(v1), "2" * 40: release_files(v2)}
    hub_server.tags = {"v1.0.0": "1" * 40}
    monkeypatch.setenv("HF_ENDPOINT", hub_server.endpoint)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub-cache"))
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.setenv("STANDIN_KEY", SECRET)
    location = f"hf://{hub_server.repo}@v1.0.0"
    data = load_data(location)
    assert data.kind == "hub" and data.revision == "1" * 40 and data.dataset_id == "examcorpus-test@1.0.0"
    assert len(data.questions) == 4
    assert f"GET /api/datasets/{hub_server.repo}/revision/v1.0.0" in hub_server.log

    out = tmp_path / "run"
    openai_server.scripts["Q02"] = ["500"]  # leaves the run open, to resume after the tag moves
    args = ["eval", "run", "--data", location, "--model", "openai:m", "--base-url", openai_server.base_url,
            "--api-key-env", "STANDIN_KEY", "--protocol", "mcq", "--out", out, "--no-progress", "--max-attempts", "1"]
    assert run_cli(*args) == 2
    plan = json.loads((out / "plan.json").read_text())
    assert plan["plan"]["data_pin"]["revision"] == "1" * 40
    hub_server.tags["v1.0.0"] = "2" * 40  # someone moved the tag
    sent = len(openai_server.requests)
    assert run_cli("eval", "run", "--out", out, "--no-progress") == 1
    err = capsys.readouterr().err
    assert "differs from the pinned data" in err and f"revision: plan pins '{'1' * 40}'" in err
    assert len(openai_server.requests) == sent


def test_a_missing_hub_tag_is_a_clear_error(tmp_path, hub_server, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", hub_server.endpoint)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub-cache"))
    with pytest.raises(DataError, match=r"hf://examcorpus/test-release@v9: cannot download the dataset at v9"):
        load_data("hf://examcorpus/test-release@v9")
