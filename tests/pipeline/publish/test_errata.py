"""A correction is a new release; its manifest lists what changed since the previous one, and why."""
from __future__ import annotations

from dataclasses import replace

from pipeline.publish import errata, publish_to_folder
from tests.pipeline.publish.conftest import make_split, manifest_of


def test_a_second_release_lists_changed_and_removed_ids_against_the_newest_release_beside_it(tmp_path, corpus):
    releases = tmp_path / "releases"
    publish_to_folder(make_split(tmp_path / "a", corpus), "public", releases / "v1", release_id="v1", show_progress=False)
    public = [q for q in corpus if (q.source, q.year) in {("pl_test", 2021), ("pl_test", 2022), ("el_test", 2022)}]
    fixed, reworded, dropped = public[0], public[1], public[2]
    new_answer = "B" if fixed.answer != "B" else "C"
    corrected = [q for q in corpus if q.id != dropped.id]
    corrected = [replace(q, answer=new_answer, answer_index="ABCD".index(new_answer)) if q.id == fixed.id else
                 replace(q, question=q.question + " (poprawione)") if q.id == reworded.id else
                 replace(q, pipeline_version="0.2.0") for q in corrected]  # a new pipeline alone is no erratum
    publish_to_folder(make_split(tmp_path / "b", corrected), "public", releases / "v2", release_id="v2", show_progress=False)
    manifest = manifest_of(releases / "v2")
    assert manifest["previous_release"] == "v1"
    assert {(e["id"], e["change"]) for e in manifest["errata"]} == {
        (fixed.id, "changed"), (reworded.id, "changed"), (dropped.id, "removed")}
    reasons = {e["id"]: e["reason"] for e in manifest["errata"]}
    assert f"answer {fixed.answer} → {new_answer}" in reasons[fixed.id] and "answer_index changed" in reasons[fixed.id]
    assert reasons[reworded.id] == "question changed"
    assert manifest_of(releases / "v1")["errata"] == []  # the earlier release is untouched


def test_errata_ignore_where_a_figure_crop_is_kept_but_see_a_different_figure(corpus):
    q = next(q for q in corpus if q.images)
    moved = replace(q, images=[replace(q.images[0], path="elsewhere/x.png")])
    assert errata([q], [moved]) == ([], 0)
    other = replace(q, images=[replace(q.images[0], sha256="0" * 64)])
    [erratum], added = errata([q], [other, replace(q, id="new")])
    assert erratum.reason == "images changed" and added == 1
