"""`examcorpus verify` on a release whose listings were tampered with: every such release FAILS with a line naming
what is wrong, never a traceback.

The manifest is the release's own word, and a tampered release is exactly what `verify` is for: an entry without its
digest, size or path, a path that is no string, a `files` that is no list, a figure entry without its question, a manifest
that is no object. Before, each raised (KeyError, TypeError, AttributeError) out of `verify` with a Python traceback,
naming no file. Measured in `docs/results.md`, "Trust at the seams a twelfth time".
"""
from __future__ import annotations

import json

import pytest

from pipeline.cli import main
from pipeline.publish import publish_to_folder


@pytest.fixture
def release(tmp_path, split_dir):
    publish_to_folder(split_dir, "public", tmp_path / "releases" / "v1", release_id="v1", show_progress=False)
    return tmp_path / "releases" / "v1"


def tampered(release, change) -> None:
    path = release / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps(change(manifest)), encoding="utf-8")


def _first_file(manifest: dict, drop: str | None = None, **values) -> dict:
    entry = manifest["files"][0]
    if drop:
        entry.pop(drop)
    entry.update(values)
    return manifest


@pytest.mark.parametrize("change, named", [
    (lambda m: _first_file(m, drop="sha256"), "sha256"),
    (lambda m: _first_file(m, drop="bytes"), "bytes"),
    (lambda m: _first_file(m, drop="path"), "path"),
    (lambda m: _first_file(m, path=["data", "x.parquet"]), "path"),
    (lambda m: {**m, "files": {"data": "x"}}, "files"),
    (lambda m: {**m, "files": ["data/x.parquet"]}, "files"),
    (lambda m: {**m, "figures": [{"index": 0, "sha256": "0" * 64}]}, "figures"),
    (lambda m: {**m, "figures": "all of them"}, "figures"),
])
def test_a_manifest_entry_of_the_wrong_shape_fails_verification_with_a_line_naming_it(release, capsys, change, named):
    tampered(release, change)
    assert main(["verify", str(release)]) == 1
    err = capsys.readouterr().err
    assert "FAILED verification" in err and "manifest.json" in err and named in err, err


def test_a_manifest_that_is_no_object_is_not_a_release(release, capsys):
    (release / "manifest.json").write_text("[1, 2, 3]", encoding="utf-8")
    assert main(["verify", str(release)]) == 2
    assert "not a release" in capsys.readouterr().err


def test_a_parquet_whose_bytes_are_not_the_manifests_is_not_opened(release, capsys):
    """A data file replaced (the manifest left as published) fails by its digest alone: it is not handed to the
    Parquet reader, whose decoding a crafted file could make costly. Before, it was opened for its figures too."""
    path = next((release / "data").rglob("*.parquet"))
    path.write_bytes(b"PAR1" + b"\x15\x04" * 5000 + b"PAR1")
    assert main(["verify", str(release)]) == 1
    err = capsys.readouterr().err
    assert f"{path}: SHA-256/size differ from the manifest; not read further" in err
    assert "not a readable Parquet file" not in err and "in no Parquet file" not in err, err
