"""The review page's JSON API and its store: queue and filters, decisions and their audit log,
conflicts between two tabs, and what survives a restart."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.describe import read_jsonl
from pipeline.review import ReviewInputError, ReviewStore
from tests.pipeline.describe.builders import write_curated
from tests.pipeline.review.builders import review_client


def queue(client, **filters):
    response = client.get("/api/queue", query_string=filters)
    assert response.status_code == 200, response.json
    return response.json


def first_pending(client):
    item_id = queue(client, status="pending")["ids"][0]
    return client.get(f"/api/items/{item_id}").json


def decide(client, item, **decision):
    return client.post(f"/api/items/{item['item_id']}/decision", json={"version": item["version"], **decision})


def audit_log(review_project):
    return read_jsonl(review_project[0] / "annotations" / "reviews.jsonl")


def test_the_queue_holds_every_generated_description_with_progress_and_facets(client):
    everything = queue(client)
    assert len(everything["ids"]) == 7
    assert everything["progress"] == {"reviewed": 0, "total": 7, "by_status": {"pending": 6, "blocked": 1}}
    assert everything["facets"]["exams"] == ["matura", "panellinies"]
    assert everything["facets"]["years"] == [2022, 2023] and everything["facets"]["languages"] == ["el", "pl"]
    assert len(queue(client, status="pending")["ids"]) == 6


def test_filters_by_exam_year_and_language(client):
    assert len(queue(client, exam="panellinies")["ids"]) == 1
    assert len(queue(client, year="2022")["ids"]) == 1
    assert len(queue(client, language="el", status="pending")["ids"]) == 1
    assert queue(client, language="el", status="accepted")["ids"] == []
    assert client.get("/api/queue?year=last").status_code == 400


def test_accepting_as_generated_is_logged_with_who_when_before_and_after(client, review_project):
    item = first_pending(client)
    response = decide(client, item, action="accept", annotator="Ala", description=item["description"], transcription=item["transcription"])
    assert response.status_code == 200
    assert response.json["item"]["status"] == "accepted" and response.json["item"]["version"] == 1
    assert response.json["progress"]["reviewed"] == 1
    [entry] = audit_log(review_project)
    assert entry["annotator"] == "Ala" and entry["action"] == "accept" and entry["edited"] is False and entry["at"]
    assert entry["before"]["status"] == "pending" and entry["after"]["status"] == "accepted"
    assert entry["after"]["description"] == item["description"]


def test_an_edit_is_an_accept_with_the_new_text(client, review_project):
    item = first_pending(client)
    decide(client, item, action="accept", annotator="Ala", description="  Trójkąt ABC, kąt prosty przy C.  ", transcription="A\nB\nC")
    [entry] = audit_log(review_project)
    assert entry["edited"] is True
    assert entry["before"]["description"] == item["description"]
    assert entry["after"] == {"status": "accepted", "description": "Trójkąt ABC, kąt prosty przy C.", "transcription": "A\nB\nC", "reason": None}


def test_a_rejection_needs_a_reason_and_every_decision_a_name(client, review_project):
    item = first_pending(client)
    assert decide(client, item, action="reject", annotator="Ala", reason=" ").json["error"] == "a rejection needs a reason"
    assert "annotator's name is required" in decide(client, item, action="accept", annotator="").json["error"]
    assert decide(client, item, action="approve", annotator="Ala").status_code == 400
    assert client.post(f"/api/items/{item['item_id']}/decision", json={"action": "accept", "annotator": "Ala"}).status_code == 400
    assert audit_log(review_project) == []

    response = decide(client, item, action="reject", annotator="Ala", reason="mislabels the right angle")
    assert response.json["item"]["status"] == "rejected" and response.json["item"]["reason"] == "mislabels the right angle"


def test_a_decision_on_a_stale_version_is_a_conflict_and_overwrites_nothing(client, review_project):
    item = first_pending(client)  # both tabs loaded version 0
    assert decide(client, item, action="accept", annotator="Ala").status_code == 200
    response = decide(client, item, action="accept", annotator="Basia", description="Basia's text")
    assert response.status_code == 409
    assert response.json["current"]["reviewed_by"] == "Ala" and response.json["current"]["version"] == 1
    assert len(audit_log(review_project)) == 1
    assert client.get(f"/api/items/{item['item_id']}").json["description"] == item["description"]


def test_a_blocked_figure_can_only_be_accepted_with_a_hand_written_description(client):
    item = client.get(f"/api/items/{queue(client, status='blocked')['ids'][0]}").json
    assert item["generated"]["status"] == "blocked" and item["description"] is None
    assert decide(client, item, action="accept", annotator="Ala").json["error"] == "an accepted figure needs a description"
    assert decide(client, item, action="accept", annotator="Ala", description="Schemat obwodu.").json["item"]["status"] == "accepted"


def test_decisions_survive_a_restart(client, review_project):
    item = first_pending(client)
    decide(client, item, action="accept", annotator="Ala", description="Nowy opis")
    root, curated, _ = review_project
    reopened = ReviewStore.open(root, [curated]).get(item["item_id"])
    assert (reopened.status, reopened.description, reopened.version, reopened.reviewed_by) == ("accepted", "Nowy opis", 1, "Ala")


def test_the_figure_is_served_with_a_strict_content_security_policy(client, review_project):
    root, _, questions = review_project
    item = first_pending(client)
    response = client.get(item["figure"]["url"])
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert item["year"] == 2022  # the queue is ordered by exam, then year
    assert response.data == (root / questions[1].images[0].path).read_bytes()
    assert "script-src 'self'" in client.get("/").headers["Content-Security-Policy"]
    assert client.get("/api/items/nope").status_code == 404


def test_annotations_whose_figure_changed_are_left_out_and_counted(review_project):
    root, curated, questions = review_project
    assert ReviewStore.open(root, [curated]).orphans == 0
    first = questions[0]
    re_extracted = replace(first, images=[replace(first.images[0], sha256="0" * 64)])  # a new crop of the figure
    write_curated(root, [re_extracted, *questions[1:]])
    store = ReviewStore.open(root, [curated])
    assert store.orphans == 1 and len(store.items) == 6


def test_figures_are_served_through_a_symlinked_raw_store_but_never_outside_the_root(review_project, tmp_path):
    root, curated, _ = review_project
    shared = tmp_path / "shared_raw"
    (root / "raw").rename(shared)
    (root / "raw").symlink_to(shared)  # raw/ kept elsewhere, as a shared store
    store = ReviewStore.open(root, [curated])
    client = review_client(store)
    item_id = store.order[0]
    assert client.get(f"/figure/{item_id}").data.startswith(b"\x89PNG")

    item = store.items[item_id]
    store.items[item_id] = replace(item, annotation=replace(item.annotation, image_path="../../etc/passwd"))
    assert client.get(f"/figure/{item_id}").status_code == 400


def test_a_damaged_decision_log_is_named_with_the_record(review_project):
    root, curated, _ = review_project
    store = ReviewStore.open(root, [curated])
    (root / "annotations" / "reviews.jsonl").write_text(f'{{"item_id": "{store.order[0]}", "version": 1}}\n', encoding="utf-8")
    with pytest.raises(ReviewInputError, match=r"reviews.jsonl: record 1 is not a review decision"):
        ReviewStore.open(root, [curated])
