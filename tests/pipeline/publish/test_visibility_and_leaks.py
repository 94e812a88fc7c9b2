"""Public data only to public targets, private only to private ones; no private question text in any
public artefact; a hand-edited split cannot smuggle one in."""
from __future__ import annotations

import io

import pyarrow.parquet as pq
import pytest

from pipeline.publish import PublishError, publish_to_folder
from pipeline.publish.layout import features_yaml
from pipeline.records import QUESTION_SCHEMA, questions_to_table
from pipeline.split import normalise_text, read_split
from tests.pipeline.publish.conftest import manifest_of


def test_the_private_split_is_refused_for_a_public_target_whatever_else_is_asked(tmp_path, split_dir):
    with pytest.raises(PublishError, match="refusing to publish the private split to a public target"):
        publish_to_folder(split_dir, "private", tmp_path / "out", release_id="v1", show_progress=False)
    with pytest.raises(PublishError, match="the public split goes to a public target"):
        publish_to_folder(split_dir, "public", tmp_path / "out", release_id="v1", private_target=True, show_progress=False)
    assert not (tmp_path / "out").exists()


def test_the_private_split_goes_to_a_private_target(tmp_path, split_dir):
    target = tmp_path / "private" / "v1"
    publish_to_folder(split_dir, "private", target, release_id="v1", private_target=True, show_progress=False)
    manifest = manifest_of(target)
    assert (manifest["split"], manifest["visibility"]) == ("private", "private")
    assert sorted(p.name for p in (target / "data").rglob("*.parquet")) == ["private.parquet", "private.parquet"]


def _artefact_texts(release) -> list[tuple[str, str]]:
    """Every piece of text a public release carries: each Parquet string value, each other file whole."""
    texts = []
    for path in sorted(p for p in release.rglob("*") if p.is_file()):
        if path.suffix == ".parquet":
            for row in pq.read_table(io.BytesIO(path.read_bytes())).to_pylist():
                texts += [(str(path), str(v)) for v in _strings(row)]
        else:
            texts.append((str(path), path.read_text(encoding="utf-8")))
    return texts


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_no_private_question_text_appears_in_any_public_artefact(tmp_path, split_dir):
    publish_to_folder(split_dir, "public", tmp_path / "v1", release_id="v1", show_progress=False)
    private = read_split(split_dir).questions("private")
    assert private
    texts = _artefact_texts(tmp_path / "v1")
    assert any(p.endswith(".parquet") for p, _ in texts) and any(p.endswith(".jsonl") for p, _ in texts)
    normalised = [(p, normalise_text(t)) for p, t in texts]
    for q in private:
        for needle in [q.question, *q.choices]:
            hits = [p for p, t in texts if needle in t]
            assert not hits, f"private text of {q.id} in {hits}"
        stem = normalise_text(q.question)
        assert not [p for p, t in normalised if stem in t], q.id
        assert q.id not in "".join(t for _, t in texts)


def test_the_check_above_would_see_a_leak(tmp_path, split_dir):
    """The scan is not vacuous: the public release's own questions are found by it."""
    publish_to_folder(split_dir, "public", tmp_path / "v1", release_id="v1", show_progress=False)
    texts = _artefact_texts(tmp_path / "v1")
    for q in read_split(split_dir).questions("public")[:5]:
        assert [p for p, t in texts if q.question in t]


def test_a_private_question_copied_into_the_public_split_by_hand_is_refused(tmp_path, split_dir):
    folder = read_split(split_dir)
    public, private = folder.questions("public"), folder.questions("private")
    pq.write_table(questions_to_table(public + private[:1]), split_dir / "public.parquet")
    with pytest.raises(PublishError, match=r"public.parquet: SHA-256 .* the file changed after the split and its leakage guard"):
        publish_to_folder(split_dir, "public", tmp_path / "v1", release_id="v1", show_progress=False)
    assert not (tmp_path / "v1").exists()


def test_the_card_features_are_what_datasets_derives_from_the_record_schema_plus_figures_as_images():
    import datasets

    expected = datasets.Features({**datasets.Features.from_arrow_schema(QUESTION_SCHEMA),
                                  "figures": datasets.List(datasets.Image())})
    assert datasets.Features._from_yaml_list(features_yaml()) == expected
