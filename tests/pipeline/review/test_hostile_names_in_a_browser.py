"""The review and audit pages in Chromium with anyone's text in every field they show: an annotator's name, a
rejection reason, a family and exam name, a question, its options, a figure description, a page's text layer.

Markup (`<script>`, `<img onerror>`, an attribute breakout, a `javascript:` link) is shown as text and runs
nothing. Characters that reorder or hide text are shown as their escapes (`\\u202e`) where the page only shows
text, kept as they are in a form field (to be corrected and saved) with a note naming each; a name holding one
cannot sign a decision (the server refuses it). A word of thousands of letters wraps instead of pushing the page's
buttons out of sight. Before (`d753c64`): a right-to-left override in an exam name or a question printed the rest
of its line backwards, a name `Ala\\u202e` or `Ala\\u200b` signed decisions as a second, identical-looking
"Ala", and a family name of 300 letters widened the review page past its window (measured in `docs/results.md`,
"Trust at the seams an eighth time").
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from pipeline.devkit.gemini_standin import HTML_PAYLOAD
from pipeline.review import ReviewStore, serve_review
from tests.pipeline.describe.builders import write_curated
from tests.pipeline.review.builders import review_client

BREAKOUT = '"><img src=x onerror="window.__pwned=4">'
JS_LINK = "javascript:window.__pwned=5"
RLO, PDF, ZWSP = "\u202e", "\u202c", "\u200b"
SPOOFED = f"Zadanie {RLO}fdp.exe{PDF} koniec"  # shows as "Zadanie exe.pdf koniec" when the override is obeyed
INJECTED = "script:not([src]), b, a[href^='javascript'], img:not(#figure):not(.page), [onerror]"


def hostile_project(review_project):
    """The review project with question 1's exam, text and options, and its description, hostile."""
    root, curated, questions = review_project
    first = replace(questions[0], exam=f"{BREAKOUT}{RLO}arutam", question=f"{HTML_PAYLOAD} {JS_LINK} {SPOOFED}",
                    choices=[BREAKOUT, f"B{ZWSP}B", "W" * 3000, JS_LINK])
    write_curated(root, [first, *questions[1:]])
    descriptions = root / "annotations" / "descriptions.jsonl"
    lines = [json.loads(line) for line in descriptions.read_text().splitlines()]
    for line in lines:
        if line["record_id"] == first.id:
            line["description"] = f"Rysunek {SPOOFED} {HTML_PAYLOAD}"
    descriptions.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return root, curated, first


def old_log_decision(root, store: ReviewStore, item_id: str, annotator: str, reason: str) -> None:
    """A rejection signed `annotator`, as a log written before names were checked (or edited by hand) holds it."""
    item = store.get(item_id)
    record = {"item_id": item_id, "record_id": item.annotation.record_id, "image_sha256": item.annotation.image_sha256,
              "model": item.annotation.model, "prompt_version": item.annotation.prompt_version, "action": "reject",
              "edited": False, "annotator": annotator, "at": "2026-12-01T10:00:00.000+00:00", "version": 1,
              "before": item.snapshot(),
              "after": {"status": "rejected", "description": item.description, "transcription": item.transcription,
                        "reason": reason}}
    with open(root / "annotations" / "reviews.jsonl", "a", encoding="utf-8") as log:
        log.write(json.dumps(record, ensure_ascii=False) + "\n")


def no_horizontal_overflow(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide in a {page.viewport_size['width']} px window"


# --------------------------------------------------------------------------- names that sign decisions


@pytest.mark.parametrize("name", [f"Ala{RLO}", f"Ala{ZWSP}", "Al\u00ada", "Ala\u2066", "Ala\nBasia", "Ala\x1b[31m",
                                  "Ala\u200e", "\ufeffAla", "Al\u2028a"])
def test_a_name_that_hides_or_reorders_text_cannot_sign_a_decision_or_a_correction(store, name):
    client = review_client(store)
    item = client.get(f"/api/items/{client.get('/api/queue').json['ids'][0]}").json
    refused = client.post(f"/api/items/{item['item_id']}/decision",
                          json={"version": item["version"], "action": "reject", "annotator": name, "reason": "zły opis"})
    assert refused.status_code == 400 and refused.json["field"] == "annotator", refused.json
    assert "U+" in refused.json["error"]
    question_id = client.get("/api/audit/queue?all=1").json["ids"][0]
    current = client.get(f"/api/audit/questions/{question_id}").json
    corrected = client.post(f"/api/audit/questions/{question_id}", json={
        "annotator": name, "version": current["version"], "question": current["current"]["question"],
        "choices": current["current"]["choices"], "answer": current["current"]["answer"]})
    assert corrected.status_code == 400 and corrected.json["field"] == "annotator", corrected.json
    assert not (store.root / "annotations" / "reviews.jsonl").exists()
    assert not (store.root / "annotations" / "overrides.jsonl").exists()


def test_names_that_look_the_same_sign_as_one_and_joiners_stay(store):
    """`Zo\\u0301fia` (o and a combining acute) is stored as `Zófia`; a Persian name keeps its zero-width non-joiner."""
    client = review_client(store)
    ids = client.get("/api/queue").json["ids"]
    for item_id, name in ((ids[0], "Zo\u0301fia"), (ids[1], "سارا\u200cمحمدی")):
        item = client.get(f"/api/items/{item_id}").json
        done = client.post(f"/api/items/{item_id}/decision",
                           json={"version": item["version"], "action": "reject", "annotator": name, "reason": "zły opis"})
        assert done.status_code == 200, done.json
    assert [client.get(f"/api/items/{i}").json["reviewed_by"] for i in ids[:2]] == ["Zófia", "سارا\u200cمحمدی"]


# --------------------------------------------------------------------------- the review page


def test_markup_and_direction_controls_on_the_review_page_are_shown_as_text(page, review_project):
    root, curated, first = hostile_project(review_project)
    store = ReviewStore.open(root, [curated])
    item_id = next(i for i in store.order if store.get(i).question.id == first.id)
    old_log_decision(root, store, item_id, f"{BREAKOUT[:30]}{RLO}", f"{SPOOFED} {HTML_PAYLOAD}")
    with serve_review(ReviewStore.open(root, [curated])) as url:
        page.goto(f"{url}/?status=rejected")
        expect(page.locator("#question")).to_contain_text("Zadanie \\u202efdp.exe\\u202c koniec")
        assert RLO not in page.locator("#question").text_content()
        assert HTML_PAYLOAD in page.locator("#question").text_content() and JS_LINK in page.locator("#question").text_content()
        meta = page.locator("#meta").text_content()
        assert f"{BREAKOUT}\\u202earutam" in meta and RLO not in meta
        assert [li.text_content() for li in page.locator("#choices li").all()][:2] == [f"A. {BREAKOUT}", "B. B\\u200bB"]
        state = page.locator("#state").text_content()
        assert f"{BREAKOUT[:30]}\\u202e" in state and "reason: Zadanie \\u202efdp.exe\\u202c koniec" in state
        assert RLO not in state
        # The form keeps the text as it is (saved as written), and says what it holds.
        assert page.locator("#description").input_value() == f"Rysunek {SPOOFED} {HTML_PAYLOAD}"
        expect(page.locator("#hidden-controls")).to_be_visible()
        note = page.locator("#hidden-controls").text_content()
        assert "description: U+202E at character 17, U+202C at character 25" in note and "reason: U+202E" in note
        page.locator("#browse-toggle").click()
        row = page.locator("#items tbody tr").filter(has_text="rejected")
        expect(row).to_contain_text(f"{BREAKOUT[:30]}\\u202e")
        assert page.locator("#f-exam option").filter(has_text="\\u202earutam").count() == 1
        assert page.evaluate("window.__pwned") is None
        assert page.locator(INJECTED).count() == 0
        no_horizontal_overflow(page)
    assert page.js_errors == []


def test_a_family_name_of_hundreds_of_letters_keeps_the_review_page_within_its_window(page, review_project):
    root, curated, questions = review_project
    long_exam = "Egzamin" * 60  # one word of 420 letters
    write_curated(root, [replace(q, exam=long_exam, question="W" * 5000) for q in questions])
    with serve_review(ReviewStore.open(root, [curated])) as url:
        page.goto(f"{url}/?status=pending")
        expect(page.locator("#meta")).to_contain_text(long_exam)
        no_horizontal_overflow(page)
        accept = page.locator("#accept").bounding_box()
        assert accept["x"] + accept["width"] <= page.viewport_size["width"]
        page.locator("#browse-toggle").click()
        expect(page.locator("#items tbody tr").first).to_contain_text(long_exam)
        no_horizontal_overflow(page)
    assert page.js_errors == []


# --------------------------------------------------------------------------- the audit page


def test_markup_and_direction_controls_on_the_audit_page_are_shown_as_text(page, review_project):
    root, curated, questions = review_project
    hostile = replace(questions[0], question=SPOOFED, choices=[f"{RLO}A{PDF}", BREAKOUT, *questions[0].choices[2:]],
                      flags=[f"ocr_uncertain {BREAKOUT} {RLO}x"])
    write_curated(root, [hostile, *questions[1:]])
    overrides = root / "annotations" / "overrides.jsonl"
    overrides.parent.mkdir(parents=True, exist_ok=True)
    before = {"question": hostile.question, "choices": hostile.choices, "answer": hostile.answer, "broken": False}
    overrides.write_text(json.dumps({  # a correction an old log holds, signed before names were checked
        "question_id": hostile.id, "sheet_sha256": hostile.source_sha256, "question": SPOOFED, "choices": hostile.choices,
        "answer": "C", "broken": False, "annotator": f"Celina{RLO} {HTML_PAYLOAD[:40]}", "at": "2026-12-01T10:00:00.000+00:00",
        "version": 1, "note": "", "before": before}, ensure_ascii=False) + "\n")
    with serve_review(ReviewStore.open(root, [curated])) as url:
        page.goto(f"{url}/audit")
        expect(page.locator("#meta")).to_contain_text(hostile.id)
        flags = page.locator("#flags").text_content()
        assert f"{BREAKOUT} \\u202ex" in flags and RLO not in flags
        state = page.locator("#state").text_content()
        assert f"corrected by Celina\\u202e {HTML_PAYLOAD[:40]}" in state and RLO not in state
        assert page.locator("#question").input_value() == SPOOFED
        assert page.locator("#options input").first.input_value() == f"{RLO}A{PDF}"
        note = page.locator("#hidden-controls").text_content()
        assert "question: U+202E at character 9" in note and "option A: U+202E at character 1, U+202C" in note
        assert page.evaluate("window.__pwned") is None
        assert page.locator(INJECTED).count() == 0
        no_horizontal_overflow(page)
    assert page.js_errors == []


def test_a_plain_question_shows_no_note_on_either_page(page, live_url):
    page.goto(f"{live_url}/?status=pending")
    expect(page.locator("#meta")).to_contain_text("1 of 6 in this queue")
    assert page.locator("#hidden-controls").is_hidden()
    page.goto(f"{live_url}/audit")
    page.locator("#all").check()
    expect(page.locator("#meta")).not_to_be_empty()
    assert page.locator("#hidden-controls").is_hidden()
    assert page.js_errors == []
