"""Errata are made against what the previous release held, never against a file of it changed since.

A release's errata (`manifest.json` `errata`, the card's Errata) compare its questions with the previous release's,
read from that release's folder. A data file of the previous release changed in place, or its manifest rewritten to
match where the publisher signs: the new release would list errata for changes no release ever made (and sign them).
"""
from __future__ import annotations

import json

import pytest

from pipeline.publish import PublishError, publish_to_folder
from pipeline.publish.layout import MANIFEST_NAME
from tests.pipeline.publish.conftest import change_an_answer, manifest_of


def test_a_previous_release_whose_data_file_was_changed_since_gives_no_errata_and_says_so(tmp_path, split_dir):
    releases = tmp_path / "releases"
    publish_to_folder(split_dir, "public", releases / "v1", release_id="v1", show_progress=False)
    change_an_answer(releases / "v1")  # v1's file no longer the one v1 published
    with pytest.raises(PublishError, match=r"not the file previous release 'v1' lists .*errata are not made against"):
        publish_to_folder(split_dir, "public", releases / "v2", release_id="v2", show_progress=False)
    assert not (releases / "v2").exists()
    # An intact previous release named instead: v2 holds exactly v1's questions, so no erratum at all.
    publish_to_folder(split_dir, "public", tmp_path / "clean" / "v1", release_id="v1", show_progress=False)
    publish_to_folder(split_dir, "public", releases / "v2", release_id="v2", previous=tmp_path / "clean" / "v1",
                      show_progress=False)
    assert manifest_of(releases / "v2")["errata"] == []


def test_a_previous_release_rewritten_after_its_publisher_signed_it_gives_no_signed_errata(tmp_path, split_dir):
    from pipeline.publish.signing import SigningKey, write_key_pair
    from tests.pipeline.publish.test_release_signature import rewrite_listings

    private, _ = write_key_pair(tmp_path / "keys" / "publisher")
    key = SigningKey(private)
    releases = tmp_path / "releases"
    publish_to_folder(split_dir, "public", releases / "v1", release_id="v1", show_progress=False, signing_key=key)
    change_an_answer(releases / "v1")
    rewrite_listings(releases / "v1")  # the manifest and SHA256SUMS made to match: only the signature tells
    with pytest.raises(PublishError, match=r"names this publisher's key .* is not its signature of manifest\.json"):
        publish_to_folder(split_dir, "public", releases / "v2", release_id="v2", show_progress=False, signing_key=key)
    assert not (releases / "v2").exists()
    assert json.loads((releases / "v1" / MANIFEST_NAME).read_text(encoding="utf-8"))["release"] == "v1"
