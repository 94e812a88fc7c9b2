"""The extraction audit shows a sheet's text as text: a stem, options, an answer and a flag's quoted words holding
`<script>`, an `<img onerror>` and a closing `</textarea>` (what a hostile or broken PDF's text layer can hold) are
shown in their fields as written and run nothing in the curator's browser."""
from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import expect

from pipeline.devkit.gemini_standin import HTML_PAYLOAD
from pipeline.diagnostics import Code, diagnose
from pipeline.review import ReviewStore, serve_review
from tests.pipeline.describe.builders import write_curated

CLOSING = f"</textarea>{HTML_PAYLOAD}"


def test_markup_in_a_questions_text_is_shown_as_text_on_the_audit_page(page, review_project):
    root, curated, questions = review_project
    flag = diagnose(Code.OCR_UNCERTAIN, parts="stem", words=repr(HTML_PAYLOAD))
    hostile = replace(questions[0], question=f"Enunciado {CLOSING}", choices=[HTML_PAYLOAD, *questions[0].choices[1:]],
                      flags=[flag], reading_confidence=40.0)
    write_curated(root, [hostile, *questions[1:]])
    with serve_review(ReviewStore.open(root, [curated])) as url:
        page.goto(f"{url}/audit")
        expect(page.locator("#meta")).to_contain_text(hostile.id)
        expect(page.locator("#question")).to_have_value(f"Enunciado {CLOSING}")
        expect(page.locator("#options input").first).to_have_value(HTML_PAYLOAD)
        expect(page.locator("#flags")).to_contain_text(HTML_PAYLOAD)
        assert page.evaluate("window.__pwned") is None
        assert page.locator("script:not([src]), b, #flags *, #options img").count() == 0
    assert page.js_errors == []
