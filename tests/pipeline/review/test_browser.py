"""The review page in a real browser (Chromium through Playwright): the accept / edit / reject flow by
keyboard and mouse, an HTML payload shown as text, two tabs deciding the same figure, and the layout
of a screenshot (figure visible, panes side by side, nothing overlapping)."""
from __future__ import annotations

import re
from dataclasses import replace

from playwright.sync_api import expect

from pipeline.describe import read_jsonl
from pipeline.records import Region
from pipeline.review import ReviewStore, serve_review
from pipeline.review.overrides import OVERRIDES_FILE, load_overrides
from tests.pipeline.describe.builders import write_curated
from tests.pipeline.review.builders import write_sheet
from pipeline.devkit.gemini_standin import HTML_PAYLOAD


def open_queue(page, url, query="status=pending", name="Ala"):
    page.goto(f"{url}/?{query}")
    page.wait_for_selector("#question:not(:empty)")
    if name:
        page.fill("#annotator", name)
        page.dispatch_event("#annotator", "change")
        page.locator("#annotator").blur()


# Waits go through expect(): the page's Content-Security-Policy forbids the eval that
# page.wait_for_function polls with.
def wait_meta(page, text):
    expect(page.locator("#meta")).to_contain_text(text)


def wait_progress(page, text):
    expect(page.locator("#progress-text")).to_have_text(text)


def audit(store):
    return read_jsonl(store.log.path)


def boxes_overlap(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def test_layout_of_the_screenshot(page, live_url, tmp_path):
    open_queue(page, live_url)
    expect(page.locator("#figure")).to_have_js_property("complete", True)
    assert page.locator("#figure").evaluate("img => img.naturalWidth") == 120
    shot = page.screenshot(path=str(tmp_path / "review.png"), full_page=True)
    assert shot.startswith(b"\x89PNG")
    viewport = page.viewport_size
    figure = page.locator("#figure").bounding_box()
    assert figure["width"] >= 100 and figure["height"] >= 150  # small crops are scaled up to be legible
    assert figure["y"] + figure["height"] <= viewport["height"]  # visible without scrolling
    left, right = page.locator("#left").bounding_box(), page.locator("#right").bounding_box()
    assert not boxes_overlap(left, right) and left["x"] < right["x"]  # side by side
    assert abs(left["y"] - right["y"]) < 1
    inside = ["#figure", "#question", "#choices"]
    for selector in inside:
        box = page.locator(selector).bounding_box()
        assert box["x"] >= left["x"] and box["x"] + box["width"] <= left["x"] + left["width"] + 0.5, selector
    buttons = [page.locator(f"#{b}").bounding_box() for b in ("accept", "reject", "skip", "prev")]
    for i, a in enumerate(buttons):
        assert all(not boxes_overlap(a, b) for b in buttons[i + 1:])
    assert not boxes_overlap(page.locator("#description").bounding_box(), page.locator("#transcription").bounding_box())
    assert page.evaluate("getComputedStyle(document.querySelector('#question')).fontSize") in ("15px", "16px")
    assert page.js_errors == []


def test_accept_edit_and_reject_with_the_keyboard(page, live_url, store):
    open_queue(page, live_url)
    assert page.locator("#progress-text").text_content() == "0 / 7 reviewed"
    wait_meta(page, "1 of 6")
    page.keyboard.press("a")  # accept as generated
    wait_progress(page, "1 / 7 reviewed")
    wait_meta(page, "1 of 5")  # the accepted one left the pending queue

    page.fill("#description", "Trójkąt ABC z kątem prostym przy wierzchołku C.")
    page.locator("#description").press("Control+Enter")  # edit, then accept
    wait_progress(page, "2 / 7 reviewed")

    page.keyboard.press("s")  # skip
    wait_meta(page, "2 of 4")
    page.keyboard.press("r")  # reject without a reason: the page asks for it, in the reason field
    expect(page.locator("#banner")).to_have_text(re.compile("^Why reject it"))
    assert page.locator("#banner").get_attribute("class") == "info"
    assert page.evaluate("document.activeElement.id") == "reason"
    page.fill("#reason", "opis myli boki")
    page.keyboard.press("Enter")
    wait_progress(page, "3 / 7 reviewed")

    entries = audit(store)
    assert [(e["action"], e["edited"], e["annotator"]) for e in entries] == [("accept", False, "Ala"), ("accept", True, "Ala"), ("reject", False, "Ala")]
    assert entries[1]["after"]["description"] == "Trójkąt ABC z kątem prostym przy wierzchołku C."
    assert entries[2]["after"]["reason"] == "opis myli boki"
    assert page.js_errors == []


def test_html_in_a_question_or_description_is_shown_as_text(page, live_url):
    open_queue(page, live_url)
    page.keyboard.press("s")
    page.keyboard.press("s")
    wait_meta(page, "question 3")
    assert HTML_PAYLOAD in page.locator("#question").text_content()
    assert page.locator("#description").input_value() == f"Rysunek: {HTML_PAYLOAD}"
    assert HTML_PAYLOAD in page.locator("#choices li").first.text_content()
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#left b, #left script, #left img:not(#figure)").count() == 0
    assert page.js_errors == []


def test_two_tabs_deciding_the_same_figure_see_the_conflict(page, live_url, store):
    other = page.context.new_page()
    open_queue(page, live_url, name="Ala")
    open_queue(other, live_url, name="Basia")
    wait_meta(page, "question 2")
    wait_meta(other, "question 2")

    page.click("#accept")
    wait_progress(page, "1 / 7 reviewed")
    other.fill("#description", "Basia: inny opis")
    other.click("#accept")
    expect(other.locator("#banner")).to_have_text(re.compile("^Conflict"))
    banner = other.locator("#banner").text_content()
    assert "accepted by Ala" in banner and "NOT saved" in banner
    wait_progress(other, "1 / 7 reviewed")  # the other tab's progress catches up too
    assert other.locator("#description").input_value() == "Basia: inny opis"  # her text is kept
    assert len(audit(store)) == 1

    other.click("#accept")  # having seen it, she replaces it deliberately
    expect(other.locator("#banner")).to_have_text(re.compile("^accepted"))
    entries = audit(store)
    assert [(e["annotator"], e["version"]) for e in entries] == [("Ala", 1), ("Basia", 2)]
    assert entries[1]["before"]["description"] == entries[0]["after"]["description"]


def test_a_curator_corrects_a_flagged_question_beside_its_page(page, review_project):
    root, curated, questions = review_project
    flagged = replace(
        questions[0], flags=["key_label_not_in_options"], source_sha256=write_sheet(root, pages=1),
        pages=[1], regions=[Region(1, (50.0, 60.0, 400.0, 200.0))],
    )
    write_curated(root, [flagged, *questions[1:]])
    with serve_review(ReviewStore.open(root, [curated])) as url:
        page.goto(f"{url}/audit")
        expect(page.locator("#flags")).to_have_text("flags: key_label_not_in_options")
        expect(page.locator("#pages img")).to_have_js_property("complete", True)
        # The page comes with the question's region outlined on it.
        expect(page.locator("#pages img")).to_have_attribute("src", re.compile(r"/1\.png\?box=50,60,400,200$"))
        sheet = page.locator("#pages img").bounding_box()
        assert sheet["width"] > 300 and not boxes_overlap(sheet, page.locator("#right").bounding_box())
        page.fill("#annotator", "Celina")
        page.fill("#answer", "D")
        page.fill("#note", "key misread")
        page.locator("#note").press("Control+Enter")
        expect(page.locator("#banner")).to_contain_text("saved")
        expect(page.locator("#state")).to_contain_text("corrected by Celina")
    override = load_overrides(root / OVERRIDES_FILE)[flagged.id]
    assert (override.answer, override.before["answer"], override.note) == ("D", "C", "key misread")
    assert page.js_errors == []
