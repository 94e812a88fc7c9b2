"""The extraction audit puts the questions read by OCR unsurely (`ocr.uncertain`) first, the least sure
reading first, before the other flagged questions, so a curator fixes the few instead of rereading the
many; the question's reading confidence comes with its detail and shows on the page, which opens on the
least sure one."""
from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import expect

from pipeline.diagnostics import Code, diagnose
from pipeline.review import ReviewStore, create_app, serve_review
from tests.pipeline.describe.builders import write_curated


def _project(review_project):
    """An ordinarily flagged question, two unsure OCR readings (confidence 71 and 38), the rest clean; the
    unsure ones are written last, so only the queue's order can put them first."""
    root, curated, questions = review_project
    no_entry = diagnose(Code.NO_KEY_ENTRY, what="question")
    unsure_b = diagnose(Code.OCR_UNCERTAIN, parts="option B", words="'opcíón'")
    unsure_stem = diagnose(Code.OCR_UNCERTAIN, parts="stem, key entry", words="'Enunc1ado'")
    ordinary = replace(questions[0], flags=[no_entry], reading_confidence=90.0)
    fairly_sure = replace(questions[-1], flags=[unsure_b], reading_confidence=71.0)
    least_sure = replace(questions[-2], flags=[unsure_stem], reading_confidence=38.0)
    write_curated(root, [ordinary, *questions[1:-2], least_sure, fairly_sure])
    return root, curated, ordinary, fairly_sure, least_sure


def test_the_audit_queue_lists_unsure_ocr_readings_first_least_sure_first(review_project):
    root, curated, ordinary, fairly_sure, least_sure = _project(review_project)
    client = create_app(ReviewStore.open(root, [curated])).test_client()
    queue = client.get("/api/audit/queue").json
    assert queue["ids"] == [least_sure.id, fairly_sure.id, ordinary.id]
    assert queue["codes"]["ocr.uncertain"] == 2
    assert client.get("/api/audit/queue?code=ocr.uncertain").json["ids"] == [least_sure.id, fairly_sure.id]
    everything = client.get("/api/audit/queue?all=1").json["ids"]
    assert everything[:3] == [least_sure.id, fairly_sure.id, ordinary.id] and len(everything) > 3
    detail = client.get(f"/api/audit/questions/{least_sure.id}").json
    assert detail["reading_confidence"] == 38.0
    assert detail["flag_codes"] == ["ocr.uncertain"]
    assert detail["flags"] == ["read by OCR unsurely: stem, key entry (resting on 'Enunc1ado')"]


def test_the_audit_page_opens_on_the_least_sure_reading(page, review_project):
    root, curated, _, fairly_sure, least_sure = _project(review_project)
    with serve_review(ReviewStore.open(root, [curated])) as url:
        page.goto(f"{url}/audit")
        expect(page.locator("#position")).to_have_text("1 of 3")
        expect(page.locator("#flags")).to_contain_text("read by OCR unsurely: stem, key entry")
        expect(page.locator("#meta")).to_contain_text(least_sure.id)
        expect(page.locator("#meta")).to_contain_text("OCR confidence 38")
        page.click("#next")
        expect(page.locator("#flags")).to_contain_text("read by OCR unsurely: option B")
        expect(page.locator("#meta")).to_contain_text(fairly_sure.id)
    assert page.js_errors == []
