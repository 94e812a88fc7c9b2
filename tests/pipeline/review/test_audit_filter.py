"""The extraction audit filters curated questions by flag code: the server keeps only the questions
with a flag of the code asked for (a code not in the registry is a 400), offers the codes the curated
questions carry with their counts, and the page's filter control shows one code's questions alone."""
from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import expect

from pipeline.diagnostics import Code, diagnose
from pipeline.review import ReviewStore, create_app, serve_review
from tests.pipeline.describe.builders import write_curated


def _flagged_project(review_project):
    """Two questions without a key entry, one with text lost after its options, the rest clean."""
    root, curated, questions = review_project
    no_entry = diagnose(Code.NO_KEY_ENTRY, what="question")
    trailing = diagnose(Code.TRAILING_TEXT, text="Strona 3 z 20 · Informatyka")
    flagged = [replace(questions[0], flags=[no_entry]), replace(questions[1], flags=[no_entry, trailing]),
               replace(questions[2], flags=[trailing])]
    write_curated(root, [*flagged, *questions[3:]])
    return root, curated, flagged


def test_the_audit_queue_keeps_only_the_questions_with_a_flag_of_the_code_asked_for(review_project):
    root, curated, flagged = _flagged_project(review_project)
    client = create_app(ReviewStore.open(root, [curated])).test_client()
    everything = client.get("/api/audit/queue").json
    assert sorted(everything["ids"]) == sorted(q.id for q in flagged)
    assert everything["codes"] == {"key.no_entry": 2, "parse.trailing_text": 2}

    only = client.get("/api/audit/queue?code=key.no_entry").json["ids"]
    assert sorted(only) == sorted(q.id for q in flagged[:2])
    with_all = client.get("/api/audit/queue?code=parse.trailing_text&all=1").json["ids"]
    assert sorted(with_all) == sorted(q.id for q in flagged[1:])  # "all" widens nothing a code narrows
    assert client.get("/api/audit/queue?code=key.several_highlights").json["ids"] == []  # registered, carried by none

    unknown = client.get("/api/audit/queue?code=no_key_entry")
    assert unknown.status_code == 400 and "no flag code 'no_key_entry'" in unknown.json["error"]
    detail = client.get(f"/api/audit/questions/{flagged[1].id}").json
    assert detail["flag_codes"] == ["key.no_entry", "parse.trailing_text"]
    assert detail["flags"][0] == "no key entry for this question"


def test_a_curator_filters_the_audit_by_flag_code_in_the_browser(page, review_project):
    root, curated, flagged = _flagged_project(review_project)
    with serve_review(ReviewStore.open(root, [curated])) as url:
        page.goto(f"{url}/audit")
        expect(page.locator("#position")).to_have_text("1 of 3")
        expect(page.locator("#code option")).to_have_text(["any flag", "key.no_entry (2)", "parse.trailing_text (2)"])

        page.select_option("#code", "parse.trailing_text")
        expect(page.locator("#position")).to_have_text("1 of 2")
        seen = set()
        for position in (1, 2):
            expect(page.locator("#position")).to_have_text(f"{position} of 2")
            expect(page.locator("#flags")).to_contain_text("text after the options was not kept")
            seen.add(page.locator("#meta").inner_text().split(" · ")[0])
            page.click("#next")
        assert seen == {q.id for q in flagged[1:]}

        page.select_option("#code", "")  # back to every flagged question
        expect(page.locator("#position")).to_have_text("1 of 3")
    assert page.js_errors == []
