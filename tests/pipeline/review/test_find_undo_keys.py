"""The review and audit API behind the page's finding and correcting tools: search by id, sheet or
text; the item table sorted by a column; undo of the last decision (kept in the audit log and
replayed after a restart); a curator's key checked against the question's labels and type; and the
printed text of the page beside the extracted text."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.describe import read_jsonl
from pipeline.records import Region
from pipeline.review import ReviewStore
from pipeline.review.keys import KeyMismatch, checked_key
from tests.pipeline.describe.builders import write_curated
from tests.pipeline.review.builders import review_client, write_sheet

GREEK = ["α", "β", "γ", "δ"]


def ids(client, **query):
    response = client.get("/api/queue", query_string=query)
    assert response.status_code == 200, response.json
    return response.json["ids"]


def item(client, item_id):
    return client.get(f"/api/items/{item_id}").json


# ---- search

def test_search_finds_items_by_question_id_sheet_and_text(client, review_project):
    _, _, questions = review_project
    greek = questions[3]
    found = ids(client, q=greek.id)
    assert [item(client, i)["record_id"] for i in found] == [greek.id]
    assert ids(client, q=greek.id.upper()) == found  # case does not matter
    assert len(ids(client, q="pl_test")) == 6  # the sheet's source name: every Polish item
    assert len(ids(client, q="ab" * 32)) == 7  # the sheet's SHA-256
    assert [item(client, i)["number"] for i in ids(client, q="Rysunek:")] == ["3"]  # a description's text
    assert [item(client, i)["number"] for i in ids(client, q="[F05]")] == ["5", "5"]  # the question's text
    assert ids(client, q="no such words anywhere") == []
    assert ids(client, q=greek.id, status="accepted") == []  # the search narrows the filters, never widens them


# ---- the item table

def test_the_item_table_sorts_by_a_column_and_says_how_many_it_left_out(client, store):
    first = ids(client)[0]
    client.post(f"/api/items/{first}/decision", json={"version": 0, "action": "reject", "annotator": "Ala", "reason": "zły"})
    response = client.get("/api/table", query_string={"sort": "status", "dir": "asc"})
    rows = response.json["rows"]
    assert response.json["total"] == 7 and len(rows) == 7
    assert [r["status"] for r in rows] == ["blocked", "pending", "pending", "pending", "pending", "pending", "rejected"]
    assert rows[-1]["reviewed_by"] == "Ala" and rows[-1]["item_id"] == first
    by_who = client.get("/api/table", query_string={"sort": "reviewed_by", "dir": "desc"}).json["rows"]
    assert by_who[0]["reviewed_by"] == "Ala" and all(r["reviewed_by"] is None for r in by_who[1:])  # missing values last
    numbers = [r["number"] for r in client.get("/api/table", query_string={"sort": "number", "limit": "3"}).json["rows"]]
    assert numbers == ["1", "2", "3"]
    refused = client.get("/api/table", query_string={"sort": "description"})
    assert refused.status_code == 400 and refused.json["field"] == "sort"
    assert client.get("/api/table", query_string={"limit": "0"}).json["field"] == "limit"


@pytest.mark.parametrize("digits", ["²", "①", "٣x", "1²"])  # str.isdigit() says yes to "²" and "①"; int() refuses them
def test_digits_int_cannot_read_are_a_clear_refusal_not_a_server_error(client, digits):
    limited = client.get("/api/table", query_string={"limit": digits})
    assert limited.status_code == 400 and limited.json["field"] == "limit"
    dated = client.get("/api/queue", query_string={"year": digits})
    assert dated.status_code == 400 and dated.json["field"] == "year"


# ---- undo

def test_undo_puts_back_the_state_the_last_decision_replaced_and_survives_a_restart(client, review_project):
    root, curated, _ = review_project
    target = ids(client)[0]
    accepted = client.post(f"/api/items/{target}/decision",
                           json={"version": 0, "action": "accept", "annotator": "Ala", "description": "opis Ali"}).json["item"]
    rejected = client.post(f"/api/items/{target}/decision",
                           json={"version": accepted["version"], "action": "reject", "annotator": "Basia", "reason": "nie ten rysunek"})
    rejected = rejected.json["item"]
    assert rejected["status"] == "rejected" and rejected["can_undo"]

    undone = client.post(f"/api/items/{target}/undo", json={"version": rejected["version"], "annotator": "Basia"})
    assert undone.status_code == 200, undone.json
    back = undone.json["item"]
    assert (back["status"], back["description"], back["reviewed_by"], back["version"]) == ("accepted", "opis Ali", "Ala", 3)
    assert back["reviewed_at"] == accepted["reviewed_at"]

    log = read_jsonl(root / "annotations" / "reviews.jsonl")
    assert [(e["action"], e["annotator"]) for e in log] == [("accept", "Ala"), ("reject", "Basia"), ("undo", "Basia")]
    assert log[-1]["before"]["status"] == "rejected"  # the undo is in the log with what it replaced

    again = ReviewStore.open(root, [curated]).get(target)  # a restart replays the undo
    assert (again.status, again.description, again.reviewed_by, again.version) == ("accepted", "opis Ali", "Ala", 3)

    redo = client.post(f"/api/items/{target}/undo", json={"version": 3, "annotator": "Basia"}).json["item"]
    assert (redo["status"], redo["reason"]) == ("rejected", "nie ten rysunek")  # undoing the undo redoes


def test_an_undo_on_a_stale_version_or_with_nothing_to_undo_changes_nothing(client, review_project):
    root = review_project[0]
    target = ids(client)[0]
    none_yet = client.post(f"/api/items/{target}/undo", json={"version": 0, "annotator": "Ala"})
    assert none_yet.status_code == 400 and "no decision to undo" in none_yet.json["error"]
    client.post(f"/api/items/{target}/decision", json={"version": 0, "action": "accept", "annotator": "Ala"})
    client.post(f"/api/items/{target}/decision", json={"version": 1, "action": "reject", "annotator": "Basia", "reason": "x"})
    stale = client.post(f"/api/items/{target}/undo", json={"version": 1, "annotator": "Ala"})  # Ala's view predates Basia's
    assert stale.status_code == 409 and stale.json["current"]["reviewed_by"] == "Basia"
    unknown = client.post(f"/api/items/{target}/undo", json={"version": 2, "annotator": "Ala", "action": "accept"})
    assert unknown.status_code == 400 and unknown.json["field"] == "action"  # a strict schema: no extra fields
    unsigned = client.post(f"/api/items/{target}/undo", json={"version": 2, "annotator": "  "})
    assert unsigned.status_code == 400 and unsigned.json["field"] == "annotator"
    assert len(read_jsonl(root / "annotations" / "reviews.jsonl")) == 2


# ---- the key

@pytest.mark.parametrize(("question_type", "labels", "answer", "expected"), [
    ("single_choice", GREEK, "γ", "γ"),
    ("single_choice", ["A", "B", "C", "D"], "b", "B"),  # the label's own spelling is stored
    ("true_false", ["P", "F"], "F", "F"),
    ("matching", ["A", "B"], "1B 2A", "1B 2A"),  # a matching key is text
    ("open", [], "x = 4", "x = 4"),
    ("single_choice", GREEK, "  ", None),  # no key
])
def test_a_key_that_fits_its_question_is_kept(question_type, labels, answer, expected):
    assert checked_key(question_type, labels, answer) == expected


@pytest.mark.parametrize(("question_type", "labels", "answer"), [
    ("single_choice", GREEK, "Z"),
    ("single_choice", GREEK, "α,β"),  # one label, not two
    ("true_false", ["P", "F"], "PRAWDA"),
    ("single_choice", [], "A"),
])
def test_a_key_that_names_no_label_of_a_one_label_question_is_refused(question_type, labels, answer):
    with pytest.raises(KeyMismatch, match="no options|not one of"):
        checked_key(question_type, labels, answer)


def test_the_audit_refuses_a_key_outside_the_labels_and_keeps_a_broken_questions_key(review_project):
    root, curated, questions = review_project
    greek = replace(questions[3], choice_labels=GREEK, answer="β")
    write_curated(root, [*questions[:3], greek, *questions[4:]])
    client = review_client(ReviewStore.open(root, [curated]))
    body = {"version": 0, "annotator": "Celina", "question": greek.question, "choices": greek.choices, "answer": "Z"}
    refused = client.post(f"/api/audit/questions/{greek.id}", json=body)
    assert refused.status_code == 400 and refused.json["field"] == "answer"
    assert "α, β, γ, δ" in refused.json["error"]
    assert not (root / "annotations" / "overrides.jsonl").exists()  # nothing saved
    detail = client.get(f"/api/audit/questions/{greek.id}").json
    assert detail["labels"] == GREEK and detail["type_labels"]["extracted"] == GREEK and detail["language"] == "el"
    saved = client.post(f"/api/audit/questions/{greek.id}", json={**body, "answer": "Δ"})
    assert saved.status_code == 200 and saved.json["question"]["current"]["answer"] == "δ"
    broken = client.post(f"/api/audit/questions/{greek.id}", json={**body, "version": 1, "broken": True})
    assert broken.status_code == 200  # a question left out of the dataset is not checked


# ---- the printed text

def test_the_printed_text_of_the_question_region_comes_from_the_pages_text_layer(review_project):
    root, curated, questions = review_project
    sheet = write_sheet(root, pages=2)  # "Zadanie n. Oblicz." near the top of page n
    placed = replace(questions[0], source_sha256=sheet, pages=[1, 2], regions=[Region(2, (0.0, 0.0, 595.0, 80.0))])
    write_curated(root, [placed, *questions[1:]])
    client = review_client(ReviewStore.open(root, [curated]))
    urls = client.get(f"/api/audit/questions/{placed.id}").json["page_text_urls"]
    assert urls == [f"/page/{sheet}/1.txt", f"/page/{sheet}/2.txt?box=0,0,595,80"]
    whole = client.get(urls[0])
    assert whole.status_code == 200 and whole.json["text"].strip() == "Zadanie 1. Oblicz."
    assert client.get(urls[1]).json["text"].strip() == "Zadanie 2. Oblicz."
    below = client.get(f"/page/{sheet}/2.txt?box=0,400,595,800").json["text"]
    assert below.strip() == ""  # outside the region: nothing of the printed line
    assert client.get(f"/page/{sheet}/3.txt").status_code == 400
    assert client.get(f"/page/{'0' * 64}/1.txt").status_code == 400
