"""The Hub client against a mirror that gzips what it likes: a body that decodes past 100 times its bytes on the wire
(and past 64 MiB) is refused as it decodes, with a clear error, and nothing already published is touched.

huggingface_hub asks `Accept-Encoding: identity` for a file, but decodes a gzip body a mirror sends anyway, through
httpx, to disk, unbounded. Before (`3fa8f0e`), a 256 KB gzip body of zeros served as main's `manifest.json` was
written out as 256 MiB before huggingface_hub's own size check failed, and `publish` ended on that `OSError` (no
`PublishError`); `verify hf://…` and `eval`'s Hub loading read the same 256 MiB. A gzip bomb answering the refs
listing (JSON) was decoded whole in memory. Each mirror here is the Hub stand-in on 127.0.0.1 with
`HubServer.encoded` set. Measured in `docs/results.md`, "Trust at the seams a ninth time".
"""
from __future__ import annotations

import gzip
import json
import zlib

import pytest

from eval.dataset.loading import DataError, load_data
from pipeline.publish import PublishError, publish_to_hub
from pipeline.publish.verify import VerifyError, verify_location
from tests.pipeline.publish.conftest import make_split

REPO = "examcorpus/bench"
MiB = 1 << 20


def zeros_gzipped(mib: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    return b"".join(packer.compress(b"\0" * MiB) for _ in range(mib)) + packer.flush()


def publish(split_dir, release_id):
    return publish_to_hub(split_dir, "public", REPO, release_id=release_id, show_progress=False)


def snapshot(hub) -> tuple:
    repo = hub.repos[REPO]
    return dict(repo.branches), dict(repo.tags), len(repo.commits)


def test_a_gzip_bomb_for_mains_manifest_refuses_the_publish_and_changes_nothing(hub, split_dir, tmp_path, corpus):
    publish(split_dir, "v1")
    before = snapshot(hub)
    hub.encoded[f"/datasets/{REPO}/resolve/main/manifest.json"] = ("gzip", zeros_gzipped(256))
    with pytest.raises(PublishError) as refused:
        publish(make_split(tmp_path / "again", corpus), "v2")
    message = str(refused.value)
    assert "reading the previous release" in message and "decompression bomb" in message, message
    assert snapshot(hub) == before  # no commit, no tag: v1 is still main and still a release
    hub.encoded.clear()
    assert verify_location(f"hf://{REPO}@v1").problems == []


def test_a_gzip_bomb_for_the_refs_listing_refuses_the_publish(hub, split_dir):
    publish(split_dir, "v1")
    before = snapshot(hub)
    hub.encoded[f"/api/datasets/{REPO}/refs"] = ("gzip, gzip", gzip.compress(zeros_gzipped(512), 9))
    with pytest.raises(PublishError) as refused:
        publish(split_dir, "v2")
    assert "reading the repo" in str(refused.value) and "decompression bomb" in str(refused.value)
    assert snapshot(hub) == before


def test_verify_and_the_eval_loader_refuse_a_release_file_sent_as_a_gzip_bomb(hub, split_dir, tmp_path):
    result = publish(split_dir, "v1")
    data_file = next(e["path"] for e in result.manifest["files"] if e["path"].endswith(".parquet"))
    hub.encoded[f"/datasets/{REPO}/resolve/{result.commit}/{data_file}"] = ("gzip", zeros_gzipped(256))
    with pytest.raises(VerifyError) as refused:
        verify_location(f"hf://{REPO}@v1")
    assert "decompression bomb" in str(refused.value)
    with pytest.raises(DataError) as refused_too:
        load_data(f"hf://{REPO}@v1", cache_dir=tmp_path / "eval-cache")
    assert "decompression bomb" in str(refused_too.value)


def test_a_mirror_that_gzips_honest_files_is_read_as_before(hub, split_dir, tmp_path, corpus):
    """No false refusal: a gzipped manifest (JSON compresses a few times over) is decoded and taken."""
    first = publish(split_dir, "v1")
    manifest = hub.repos[REPO].commits[first.commit]["manifest.json"]
    hub.encoded[f"/datasets/{REPO}/resolve/main/manifest.json"] = ("gzip", gzip.compress(manifest))
    second = publish(make_split(tmp_path / "again", corpus), "v2")
    assert second.manifest["previous_release"] == "v1" and json.loads(manifest)["release"] == "v1"
