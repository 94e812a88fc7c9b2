"""Figures travel in the release: `load_dataset` of every config yields each question's figures as
images whose PNG bytes are the curator's crops, the manifest lists each with its SHA-256 and reviewed
description, a swapped figure fails verification, and a missing one stops the release."""
from __future__ import annotations

import hashlib
import io
import json

import datasets
import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard

from pipeline.publish import PublishError, publish_to_folder, verify_release
from pipeline.publish.verify import sums_text
from pipeline.split import read_split
from tests.pipeline.publish.conftest import make_figure, make_split, manifest_of
from tests.pipeline.split.conftest import make_record


@pytest.fixture
def release(tmp_path, split_dir):
    publish_to_folder(split_dir, "public", tmp_path / "releases" / "v1", release_id="v1", show_progress=False)
    return tmp_path / "releases" / "v1"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_load_dataset_yields_every_figure_as_an_image_with_the_curated_png_bytes(release, split_dir, project):
    public = {q.id: q for q in read_split(split_dir).questions("public")}
    assert sum(len(q.images) for q in public.values()) == 3  # the fixture's figures are all public years
    seen = 0
    for config in [c["config_name"] for c in DatasetCard.load(release / "README.md").data.configs]:
        ds = datasets.load_dataset(str(release), config, split="test")
        assert ds.features["figures"] == datasets.List(datasets.Image())
        for row in ds:
            q = public[row["id"]]
            assert len(row["figures"]) == len(q.images)
            for image, ref in zip(row["figures"], q.images):
                assert image.format == "PNG" and image.size[1] == 16  # a decoded PIL image
                curated = (project / ref.path).read_bytes()
                assert sha(curated) == ref.sha256
                # the undecoded cell holds the very bytes of the crop
                raw = ds.cast_column("figures", datasets.List(datasets.Image(decode=False)))
                cell = raw[[r for r in raw["id"]].index(q.id)]["figures"][q.images.index(ref)]
                assert sha(cell["bytes"]) == ref.sha256
                buffer = io.BytesIO()
                image.save(buffer, format="PNG")  # and the decoded pixels are the crop's pixels
                from PIL import Image
                decoded, crop = Image.open(io.BytesIO(buffer.getvalue())), Image.open(project / ref.path)
                assert (decoded.mode, decoded.size, decoded.tobytes()) == (crop.mode, crop.size, crop.tobytes())
                seen += 1
    assert seen == 3


def test_the_manifest_lists_each_figure_with_its_sha256_and_the_reviewed_description_beside_it(release, split_dir):
    figures = {(f["question"], f["index"]): f for f in manifest_of(release)["figures"]}
    public = {q.id: q for q in read_split(split_dir).questions("public")}
    expected = {(q.id, i): ref.sha256 for q in public.values() for i, ref in enumerate(q.images)}
    assert {k: f["sha256"] for k, f in figures.items()} == expected
    two = next(q for q in public.values() if len(q.images) == 2)
    assert [figures[(two.id, i)]["description"] for i in (0, 1)] == ["Πίνακας τιμών.", "Διάγραμμα ροής."]
    one = next(q for q in public.values() if len(q.images) == 1)
    assert figures[(one.id, 0)]["description"] == "Schemat obwodu z dwoma opornikami."
    assert figures[(one.id, 0)]["reviewed_by"] == "anna" and figures[(one.id, 0)]["config"] == "pl_test"
    assert manifest_of(release)["counts"]["figures"] == 3


def test_a_figure_swapped_inside_the_parquet_fails_verification_even_with_the_file_hashes_rewritten(release, project):
    """The forger rewrites the Parquet with another picture and fixes manifest.json and SHA256SUMS to
    match the new file: the figure's own SHA-256 (record and manifest) still catches it."""
    path = release / "data" / "pl_test" / "public.parquet"
    table = pq.read_table(path)
    rows = table.to_pylist()
    victim = next(r for r in rows if r["figures"])
    victim["figures"][0]["bytes"] = (project / "raw" / "figures" / f"{make_figure(project, 9)[:8]}.png").read_bytes()
    pq.write_table(type(table).from_pylist(rows, schema=table.schema), path)
    manifest = manifest_of(release)
    entry = next(e for e in manifest["files"] if e["path"] == "data/pl_test/public.parquet")
    entry["sha256"], entry["bytes"] = sha(path.read_bytes()), path.stat().st_size
    (release / "manifest.json").write_text(json.dumps(manifest))
    paths = [p.relative_to(release).as_posix() for p in release.rglob("*") if p.is_file() and p.name != "SHA256SUMS"]
    (release / "SHA256SUMS").write_text(sums_text(release, paths))
    problems = verify_release(release)
    assert len(problems) == 1 and f"{victim['id']} figure 1: SHA-256" in problems[0], problems


def test_a_missing_or_changed_figure_stops_the_release_naming_it(tmp_path, project, split_dir):
    public = read_split(split_dir).questions("public")
    ref = next(q for q in public if q.images).images[0]
    (project / ref.path).unlink()
    with pytest.raises(PublishError, match=rf"figure\(s\) cannot go into the release: .*{ref.path}.* not found.*--images-root"):
        publish_to_folder(split_dir, "public", tmp_path / "r1", release_id="v1", show_progress=False)
    (project / ref.path).write_bytes(b"\x89PNG not the crop")
    with pytest.raises(PublishError, match="is not the one the record names"):
        publish_to_folder(split_dir, "public", tmp_path / "r1", release_id="v1", show_progress=False)
    assert not (tmp_path / "r1").exists()


def test_figures_are_read_from_the_images_root_given(tmp_path, project):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    split_dir = make_split(tmp_path / "w", [make_record(i, year=y, images=(make_figure(elsewhere, y),) if i == 1 else ())
                                            for y in (2021, 2022, 2023) for i in (1, 2)])
    publish_to_folder(split_dir, "public", tmp_path / "rel", release_id="v1", images_root=elsewhere, show_progress=False)
    ds = datasets.load_dataset(str(tmp_path / "rel"), "pl_test", split="test")
    assert sum(len(f) for f in ds["figures"]) == len([q for q in read_split(split_dir).questions("public") if q.images])
    assert verify_release(tmp_path / "rel") == []
