"""The review page's JSON API and its store: queue and filters, decisions and their audit log,
conflicts between two tabs, and what survives a restart."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from pipeline.describe import read_jsonl
from pipeline.review import OVERRIDES_FILE, ReviewInputError, ReviewStore, load_overrides
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
    assert decide(client, item, action="reject", annotator="Ala", reason=" ").json == {"error": "a rejection needs a reason", "field": "reason"}
    nameless = decide(client, item, action="accept", annotator="  ").json
    assert "annotator's name is required" in nameless["error"] and nameless["field"] == "annotator"
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


def test_every_log_is_written_as_readable_utf8_and_old_escaped_logs_still_read(client, review_project):
    root, curated, questions = review_project
    item = first_pending(client)
    description, transcription = "Τρίγωνο ΑΒΓ, kąt prosty przy wierzchołku Ż.", "α = 30°\nźdźbło"
    assert decide(client, item, action="accept", annotator="Żaneta Ωmega", description=description, transcription=transcription).status_code == 200
    greek = questions[3]
    correction = {"annotator": "Żaneta", "version": 0, "question": "Ποιο είναι το εμβαδόν;", "choices": ["α", "β"], "answer": "A",
                  "broken": False, "note": "zła treść"}
    assert client.post(f"/api/audit/questions/{greek.id}", json=correction).status_code == 200
    for name in ("descriptions.jsonl", "reviews.jsonl", "overrides.jsonl"):
        text = (root / "annotations" / name).read_text(encoding="utf-8")
        assert "\\u" not in text, f"{name} escapes non-ASCII letters"
    reviews = (root / "annotations" / "reviews.jsonl").read_text(encoding="utf-8")
    assert description in reviews and "źdźbło" in reviews and "Żaneta Ωmega" in reviews
    assert "Ποιο είναι το εμβαδόν;" in (root / "annotations" / "overrides.jsonl").read_text(encoding="utf-8")
    assert "Trójkąt prostokątny" in (root / "annotations" / "descriptions.jsonl").read_text(encoding="utf-8")

    # Logs written before, with every non-ASCII letter escaped, read the same.
    for name in ("descriptions.jsonl", "reviews.jsonl", "overrides.jsonl"):
        path = root / "annotations" / name
        escaped = [json.dumps(record) for record in read_jsonl(path)]
        assert all("\\u" in line for line in escaped if name != "descriptions.jsonl")
        path.write_text("".join(line + "\n" for line in escaped), encoding="ascii")
    reopened = ReviewStore.open(root, [curated])
    assert (reopened.get(item["item_id"]).description, reopened.get(item["item_id"]).reviewed_by) == (description, "Żaneta Ωmega")
    assert load_overrides(root / OVERRIDES_FILE)[greek.id].question == "Ποιο είναι το εμβαδόν;"
