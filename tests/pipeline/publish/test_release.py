"""A local release: Parquet per config and split that `datasets` loads for every config in its card,
a manifest whose SHA-256s hold, and immutability."""
from __future__ import annotations

import datasets
import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard

from eval.dataset.loading import load_data
from pipeline.publish import COMPRESSION, ROW_GROUP_ROWS, PublishError, publish_to_folder, verify_release
from pipeline.records import QUESTION_SCHEMA
from pipeline.split import read_split
from tests.pipeline.publish.conftest import manifest_of


@pytest.fixture
def release(tmp_path, split_dir):
    publish_to_folder(split_dir, "public", tmp_path / "releases" / "v1", release_id="v1", show_progress=False)
    return tmp_path / "releases" / "v1"


def test_the_release_holds_parquet_per_config_a_card_exports_and_a_manifest(release, split_dir):
    files = sorted(p.relative_to(release).as_posix() for p in release.rglob("*") if p.is_file())
    assert files == [
        "LICENSE.md", "README.md", "SHA256SUMS", "data/el_test/public.parquet", "data/pl_test/public.parquet",
        "exports/figures_left_out.jsonl", "exports/inspect/samples.jsonl", "exports/inspect/task.py",
        "exports/llmzszl/pl_test.jsonl",
        "exports/lm_eval/examcorpus_public.yaml",
        "exports/lm_eval/examcorpus_public_el_test.yaml", "exports/lm_eval/examcorpus_public_pl_test.yaml",
        "exports/lm_eval/utils.py", "manifest.json",
    ]
    manifest = manifest_of(release)
    assert (manifest["release"], manifest["split"], manifest["visibility"]) == ("v1", "public", "public")
    assert manifest["split_rule"] == read_split(split_dir).rule
    assert manifest["pipeline_version"] and manifest["previous_release"] is None and manifest["errata"] == []
    public = read_split(split_dir).questions("public")
    assert sum(s["questions"] for s in manifest["sources"]) == len(public)
    assert {(s["url"], s["sha256"]) for s in manifest["sources"]} == {(q.source_url, q.source_sha256) for q in public}
    assert verify_release(release) == []


def test_the_manifest_sha256s_catch_a_changed_or_extra_file(release):
    (release / "data" / "pl_test" / "public.parquet").write_bytes(b"tampered")
    (release / "extra.txt").write_text("x")
    problems = verify_release(release)
    assert any("pl_test/public.parquet: SHA-256/size differ" in p for p in problems)
    assert any("extra.txt: not listed" in p for p in problems)


def test_datasets_loads_every_config_of_the_card_with_the_record_schema(release, split_dir):
    card = DatasetCard.load(release / "README.md")
    configs = [c["config_name"] for c in card.data.configs]
    assert configs == ["el_test", "pl_test"]
    assert card.data.license == "other" and card.data.language == ["el", "pl"]
    assert card.data.size_categories == ["n<1K"] and "multiple-choice" in card.data.task_categories
    public = {q.id: q for q in read_split(split_dir).questions("public")}
    record_features = datasets.Features.from_arrow_schema(QUESTION_SCHEMA)
    loaded = {}
    for config in configs:
        ds = datasets.load_dataset(str(release), config, split="test")
        assert ds.features == datasets.Features({**record_features, "figures": datasets.List(datasets.Image())})
        loaded.update({row["id"]: (config, row) for row in ds})
    assert set(loaded) == set(public)
    for qid, (config, row) in loaded.items():
        assert config == public[qid].source and row["answer"] == public[qid].answer
        assert row["images"] == [dict(i, bbox=list(i["bbox"])) for i in public[qid].to_row()["images"]]


def test_examcorpus_eval_reads_the_release_through_its_manifest(release):
    data = load_data(release)
    assert data.dataset_id == "examcorpus@v1"
    assert {data.config_of(q) for q in data.questions} == {"el_test", "pl_test"}


def test_parquet_is_zstd_with_bounded_row_groups_and_rows_in_id_order(release):
    meta = pq.ParquetFile(release / "data" / "pl_test" / "public.parquet").metadata
    assert meta.row_group(0).column(0).compression == COMPRESSION.upper()
    assert all(meta.row_group(i).num_rows <= ROW_GROUP_ROWS for i in range(meta.num_row_groups))
    ids = pq.read_table(release / "data" / "pl_test" / "public.parquet", columns=["id"]).column(0).to_pylist()
    assert ids == sorted(ids)


def test_a_release_is_never_overwritten(tmp_path, release, split_dir):
    before = {p: p.read_bytes() for p in release.rglob("*") if p.is_file()}
    with pytest.raises(PublishError, match=r"already holds release v1; releases are immutable"):
        publish_to_folder(split_dir, "public", release, release_id="v2", show_progress=False)
    with pytest.raises(PublishError, match=r"release v1 already exists at .*v1; a correction is a new release id"):
        publish_to_folder(split_dir, "public", release.parent / "v1-again", release_id="v1", show_progress=False)
    assert {p: p.read_bytes() for p in release.rglob("*") if p.is_file()} == before
    assert not (release.parent / "v1-again").exists()


def test_a_failure_while_building_leaves_no_folder_and_a_retry_completes(tmp_path, split_dir, monkeypatch):
    import pipeline.publish.release as release_module

    def broken_card(**kwargs):
        raise OSError("disk full")

    target = tmp_path / "releases" / "v1"
    with monkeypatch.context() as patch:
        patch.setattr(release_module, "card_text", broken_card)
        with pytest.raises(OSError, match="disk full"):
            publish_to_folder(split_dir, "public", target, release_id="v1", show_progress=False)
    assert not target.exists() and list((tmp_path / "releases").iterdir()) == []
    publish_to_folder(split_dir, "public", target, release_id="v1", show_progress=False)
    assert verify_release(target) == []


def test_a_family_in_two_languages_gets_a_config_per_language(tmp_path):
    from tests.pipeline.publish.conftest import make_split
    from tests.pipeline.split.conftest import make_record

    records = [make_record(i, source="mixed", year=y, language=lang) for y in (2022, 2023) for i, lang in
               [(1, "pl"), (2, "pl"), (3, "el"), (4, "el")]]
    split_dir = make_split(tmp_path, records)
    publish_to_folder(split_dir, "public", tmp_path / "rel", release_id="v1", show_progress=False)
    configs = [c["config_name"] for c in DatasetCard.load(tmp_path / "rel" / "README.md").data.configs]
    assert configs == ["mixed_el", "mixed_pl"]
    assert datasets.load_dataset(str(tmp_path / "rel"), "mixed_el", split="test").unique("language") == ["el"]


@pytest.mark.parametrize("bad", ["", "-v1", "v1..2", "v 1", "v1/2", "x" * 65])
def test_a_release_id_must_be_a_safe_tag_name(tmp_path, split_dir, bad):
    with pytest.raises(PublishError, match="release id"):
        publish_to_folder(split_dir, "public", tmp_path / "r", release_id=bad, show_progress=False)
