"""A public release names no private question, not even by id.

The leakage check (`leakscan`) looks in every file of a staged release for private *text*; a private question's id
(`pl_test-2023-…`) is no text it looks for. The split's rule travels in the release's `manifest.json`
(`split_rule`), and with it the reviewed `allowed_pairs` of the leakage guard: pairs of a private and a public id the
curators let stand. Before, a public release listed each such private id in its manifest. Now a public release keeps
the pairs' public ids and their count, the private side left out (the rule stays pinned by its `config_sha256`, taken
over the whole config by the split); a private release keeps them whole.
"""
from __future__ import annotations

from dataclasses import replace

from pipeline.publish import publish_to_folder, verify_release
from pipeline.publish.manifest import PRIVATE_ID_WITHHELD
from pipeline.split import load_split_config, read_split, run_split
from tests.pipeline.publish.conftest import manifest_of
from tests.pipeline.split.conftest import write_curated


def _split_with_an_allowed_pair(root, corpus):
    config = load_split_config()
    first = run_split(write_curated(root / "probe" / "curated", corpus), root / "probe" / "split", config)
    assert first.private and first.public
    private_id, public_id = first.private[0].id, first.public[0].id
    allowed = replace(config, leakage=replace(config.leakage, allowed_pairs=((private_id, public_id),)))
    run_split(write_curated(root / "curated", corpus), root / "split", allowed)
    return root / "split", private_id, public_id


def _files_holding(release, needle: str) -> list[str]:
    return sorted(p.relative_to(release).as_posix() for p in release.rglob("*")
                  if p.is_file() and needle.encode() in p.read_bytes())


def test_no_file_of_a_public_release_holds_a_private_question_s_id(tmp_path, corpus):
    split_dir, private_id, public_id = _split_with_an_allowed_pair(tmp_path / "work", corpus)
    assert private_id in (split_dir / "split.json").read_text(encoding="utf-8")  # the split folder keeps it
    release = tmp_path / "releases" / "v1"
    publish_to_folder(split_dir, "public", release, release_id="v1", show_progress=False)
    private = [q.id for q in read_split(split_dir).questions("private")]
    assert [(pid, _files_holding(release, pid)) for pid in private if _files_holding(release, pid)] == []
    rule = manifest_of(release)["split_rule"]
    assert rule["config"]["leakage"]["allowed_pairs"] == [[PRIVATE_ID_WITHHELD, public_id]]
    assert rule["config_sha256"] == read_split(split_dir).rule["config_sha256"]  # still pinned to the whole rule
    assert verify_release(release) == []


def test_a_private_release_keeps_the_pairs_whole(tmp_path, corpus):
    split_dir, private_id, public_id = _split_with_an_allowed_pair(tmp_path / "work", corpus)
    release = tmp_path / "releases" / "v1-private"
    publish_to_folder(split_dir, "private", release, release_id="v1", private_target=True, show_progress=False)
    assert manifest_of(release)["split_rule"] == read_split(split_dir).rule
    assert manifest_of(release)["split_rule"]["config"]["leakage"]["allowed_pairs"] == [[private_id, public_id]]
