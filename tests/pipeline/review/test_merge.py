"""Only accepted descriptions reach curated records, and merging twice changes nothing."""
from __future__ import annotations

import pyarrow.parquet as pq

from pipeline.review import DESCRIPTION_FIELDS, accepted_figures, merge_curated_file, merge_descriptions


def item_of(store, question, image_index=0):
    return next(i for i in store.items.values() if i.question.id == question.id and i.image_index == image_index)


def decide(store, question, action, image_index=0, **kw):
    item = item_of(store, question, image_index)
    return store.decide(item.item_id, action=action, annotator=kw.pop("annotator", "Ala"), version=item.version, **kw)


def rows_by_id(questions):
    return {q.id: q.to_row() for q in questions}


def test_only_accepted_descriptions_are_merged(store, review_project):
    _, _, questions = review_project
    decide(store, questions[0], "accept", description="Opis pierwszy")
    decide(store, questions[1], "reject", reason="zły opis")
    decide(store, questions[4], "accept", image_index=0)  # one of its two figures

    merged, report = merge_descriptions([q.to_row() for q in questions], accepted_figures(store))
    by_id = {r["id"]: r for r in merged}
    first = by_id[questions[0].id]
    assert first["image_description"] == "Opis pierwszy" and first["image_transcription"] == "A B C\n3 cm 4 cm"
    assert first["description_model"] == "gemini-2.5-pro" and first["reviewed_by"] == "Ala" and first["reviewed_at"]
    for question in (questions[1], questions[2], questions[4]):
        assert all(by_id[question.id][name] is None for name in DESCRIPTION_FIELDS), question.id
    assert report[0] == "merged accepted descriptions into 1 records"
    assert report[1] == f"{questions[4].id}: 1 of 2 figures accepted; left without descriptions"


def test_a_question_with_two_accepted_figures_gets_both_numbered(store, review_project):
    _, _, questions = review_project
    decide(store, questions[4], "accept", image_index=0, description="Lewy rysunek", annotator="Ala")
    decide(store, questions[4], "accept", image_index=1, description="Prawy rysunek", annotator="Basia")
    [row], _ = merge_descriptions([questions[4].to_row()], accepted_figures(store))
    assert row["image_description"] == "[1] Lewy rysunek\n\n[2] Prawy rysunek"
    assert row["reviewed_by"] == "Ala, Basia"


def test_merging_is_idempotent_and_a_later_rejection_takes_the_description_out(store, review_project):
    _, _, questions = review_project
    decide(store, questions[0], "accept")
    once, _ = merge_descriptions([q.to_row() for q in questions], accepted_figures(store))
    twice, _ = merge_descriptions(once, accepted_figures(store))
    assert once == twice

    decide(store, questions[0], "reject", reason="on second look: wrong lengths")
    again, _ = merge_descriptions(twice, accepted_figures(store))
    assert all(r["image_description"] is None for r in again)


def test_the_file_merge_writes_accepted_descriptions_into_the_parquet(store, review_project):
    _, curated, questions = review_project
    decide(store, questions[0], "accept", description="Opis pierwszy")
    merge_curated_file(curated, store)
    rows = {r["id"]: r for r in pq.read_table(curated).to_pylist()}
    assert rows[questions[0].id]["image_description"] == "Opis pierwszy"
    assert rows[questions[1].id]["image_description"] is None
    first = pq.read_table(curated).to_pylist()
    merge_curated_file(curated, store)
    assert pq.read_table(curated).to_pylist() == first
