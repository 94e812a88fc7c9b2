"""The review and audit pages as an annotator at a laptop uses them (Chromium through Playwright,
1366×768): empty queues that look finished rather than broken, a key that does not fit its question
refused, search, the item table, undo, zoom, the shortcut help, shortcuts that stay out of text
fields, each item's language on its text, and the controls within a real window's height."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from pipeline.describe import read_jsonl
from pipeline.records import Region
from pipeline.review import OVERRIDES_FILE, ReviewStore, serve_review
from tests.pipeline.describe.builders import write_curated
from tests.pipeline.review.builders import write_sheet

# A maximised Chromium window on a 1366×768 laptop screen leaves about 657 pixels for the page
# (tabs, address bar and the desktop's panel take the rest): what "above the fold" means there.
LAPTOP_SCREEN = {"width": 1366, "height": 768}
LAPTOP_WINDOW = {"width": 1366, "height": 657}
GREEK = ["α", "β", "γ", "δ"]


@pytest.fixture
def laptop(browser):
    context = browser.new_context(viewport=LAPTOP_WINDOW, screen=LAPTOP_SCREEN)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.js_errors = errors
    yield tab
    context.close()


def sign_in(page, name="Ala"):
    page.fill("#annotator", name)
    page.locator("#annotator").press("Enter")  # commits the name and gives the keys back to the shortcuts


def visible_controls(page, root="body"):
    return [el for el in page.locator(f"{root} button, {root} textarea, {root} input:not(#annotator):not(#search):not(#all), "
                                       f"{root} img").all() if el.is_visible()]


def decisions(store):
    return read_jsonl(store.log.path)


# ---- 1. empty queues

def test_a_fully_reviewed_queue_shows_only_its_message_and_no_live_controls(laptop, store):
    for item_id in store.query(status="pending"):
        store.decide(item_id, action="accept", annotator="Ala", version=0)
    with serve_review(store) as url:
        laptop.goto(f"{url}/?status=pending")
        empty = laptop.locator("#empty")
        expect(empty).to_contain_text("Every figure is reviewed")
        box = empty.bounding_box()
        assert box["y"] + box["height"] <= LAPTOP_WINDOW["height"]  # in view, not below the fold
        assert not laptop.locator("#workspace").is_visible()
        for selector in ("#figure", "#accept", "#reject", "#skip", "#description"):
            assert not laptop.locator(selector).is_visible(), selector
        assert [el.get_attribute("id") for el in visible_controls(laptop, "main")] == []
        sign_in(laptop)
        for key in ("a", "r", "s", "u", "ArrowLeft"):
            laptop.keyboard.press(key)
        laptop.locator("#annotator").press("Control+Enter")
        expect(laptop.locator("#progress-text")).to_have_text("6 / 7 reviewed")
        laptop.select_option("#f-exam", "panellinies")
        laptop.select_option("#f-status", "blocked")
        expect(empty).to_contain_text("Nothing matches these filters")
    assert len(decisions(store)) == 6  # the keys pressed on the empty queue decided nothing
    assert laptop.js_errors == []


def test_the_audit_with_nothing_flagged_shows_only_its_message_and_ctrl_enter_does_nothing(laptop, review_project):
    root, curated, _ = review_project  # no question carries a flag
    with serve_review(ReviewStore.open(root, [curated])) as url:
        laptop.goto(f"{url}/audit")
        expect(laptop.locator("#empty")).to_contain_text("No question is flagged")
        assert laptop.locator("#empty").bounding_box()["y"] < LAPTOP_WINDOW["height"] / 2
        for selector in ("#save", "#next", "#question", "#answer", "#pages"):
            assert not laptop.locator(selector).is_visible(), selector
        laptop.fill("#annotator", "Celina")
        laptop.keyboard.press("Control+Enter")
        laptop.locator("body").press("Control+Enter")
        laptop.check("#all")  # every question: the form comes back
        expect(laptop.locator("#question")).to_be_visible()
        expect(laptop.locator("#empty")).to_be_hidden()
    assert not (root / OVERRIDES_FILE).exists()
    assert laptop.js_errors == []  # main's page threw "Cannot read properties of null (reading 'version')"


# ---- 2. the audit saves only a key that fits, with labels and the printed text in view

@pytest.fixture
def greek_flagged(review_project):
    root, curated, questions = review_project
    sheet = write_sheet(root, pages=1)
    greek = replace(questions[3], choice_labels=GREEK, answer="β", flags=["key_label_not_in_options"], source_sha256=sheet,
                    pages=[1], regions=[Region(1, (0.0, 0.0, 595.0, 80.0))])
    write_curated(root, [*questions[:3], greek, *questions[4:]])
    return root, curated, greek


def test_an_audit_key_outside_the_labels_is_refused_with_a_message(laptop, greek_flagged):
    root, curated, greek = greek_flagged
    with serve_review(ReviewStore.open(root, [curated])) as url:
        laptop.goto(f"{url}/audit")
        expect(laptop.locator("#options .label")).to_have_text(GREEK)  # each option beside its label
        assert laptop.locator("#options input").nth(2).input_value() == greek.choices[2]
        expect(laptop.locator("#printed")).to_have_text(re.compile(r"^Zadanie 1\. Oblicz\."))  # the page's own text
        laptop.fill("#annotator", "Celina")
        laptop.fill("#answer", "Z")
        laptop.locator("#answer").press("Control+Enter")
        expect(laptop.locator("#banner")).to_contain_text("Not saved")
        assert "α, β, γ, δ" in laptop.locator("#banner").text_content()
        expect(laptop.locator("#answer")).to_have_attribute("aria-invalid", "true")
        assert not (root / OVERRIDES_FILE).exists()
        laptop.fill("#answer", "γ")
        laptop.locator("#answer").press("Control+Enter")
        expect(laptop.locator("#state")).to_contain_text("corrected by Celina")
        laptop.click("#add-option")
        # A fifth option: the question's own four labels no longer fit, and the page shows the labels it will be saved with.
        expect(laptop.locator("#options .label")).to_have_text(["A", "B", "C", "D", "E"])
    assert laptop.js_errors == []


# ---- 3. find, browse, undo, zoom, help; keys stay out of text fields

def test_search_by_question_id_finds_the_item(laptop, live_url, review_project):
    greek = review_project[2][3]
    laptop.goto(f"{live_url}/")
    expect(laptop.locator("#meta")).to_contain_text("1 of 6")
    laptop.keyboard.press("/")
    assert laptop.evaluate("document.activeElement.id") == "search"
    laptop.keyboard.type(greek.id)  # typed into the search box: no shortcut fires
    expect(laptop.locator("#meta")).to_contain_text("1 of 1 in this queue")
    expect(laptop.locator("#meta")).to_contain_text("question 4 · el")
    assert f"q={greek.id}".replace(":", "%3A") in laptop.url  # a link to the search
    laptop.fill("#search", "zzz no such text")
    expect(laptop.locator("#empty")).to_contain_text("the search “zzz no such text”")
    assert laptop.js_errors == []


def test_undo_restores_the_previous_decision(laptop, live_url, store):
    laptop.goto(f"{live_url}/?status=pending")
    expect(laptop.locator("#meta")).to_contain_text("1 of 6")
    sign_in(laptop)
    first = laptop.locator("#meta").text_content()
    laptop.fill("#description", "opis poprawiony")
    laptop.locator("#description").press("Control+Enter")
    expect(laptop.locator("#progress-text")).to_have_text("1 / 7 reviewed")
    expect(laptop.locator("#meta")).to_contain_text("1 of 5")
    laptop.keyboard.press("u")
    expect(laptop.locator("#progress-text")).to_have_text("0 / 7 reviewed")
    expect(laptop.locator("#banner")).to_contain_text("is pending again")
    expect(laptop.locator("#meta")).to_have_text(first)  # back on the undone figure
    assert laptop.locator("#description").input_value() != "opis poprawiony"  # the generated text again
    assert [(e["action"], e["after"]["status"]) for e in decisions(store)] == [("accept", "accepted"), ("undo", "pending")]
    laptop.click("#undo")  # again: redo
    expect(laptop.locator("#progress-text")).to_have_text("1 / 7 reviewed")
    assert laptop.js_errors == []


def test_the_item_table_sorts_by_keyboard_and_opens_an_item(laptop, live_url, store):
    first = store.query()[0]
    store.decide(first, action="reject", annotator="Basia", version=0, reason="zły opis")
    laptop.goto(f"{live_url}/?status=")
    expect(laptop.locator("#meta")).to_contain_text("1 of 7")
    laptop.keyboard.press("t")
    rows = laptop.locator("#items tbody tr")
    expect(rows).to_have_count(7)
    status_header = laptop.locator("#items th[data-sort=status]")
    status_header.locator("button").focus()
    laptop.keyboard.press("Enter")
    expect(status_header).to_have_attribute("aria-sort", "ascending")
    expect(rows.first.locator("td").nth(4)).to_have_text("blocked")
    laptop.keyboard.press("Enter")
    expect(status_header).to_have_attribute("aria-sort", "descending")
    expect(rows.first.locator("td").nth(4)).to_have_text("rejected")
    assert rows.first.locator("td").nth(5).text_content() == "Basia"
    rows.nth(1).locator("button").click()
    expect(laptop.locator("#browse")).to_be_hidden()
    expect(laptop.locator("#state")).to_contain_text("status: pending")
    assert laptop.js_errors == []


def test_zoom_help_and_keys_that_stay_out_of_text_fields(laptop, live_url, store):
    laptop.goto(f"{live_url}/")
    expect(laptop.locator("#figure")).to_have_js_property("complete", True)
    laptop.fill("#annotator", "Ala")
    laptop.locator("#annotator").press("a")  # typing a name: the "a" is a letter of it, not an accept
    assert laptop.locator("#annotator").input_value() == "Alaa" and decisions(store) == []
    laptop.locator("#annotator").press("Backspace")
    laptop.locator("#annotator").press("Enter")  # the name is in: the keys are shortcuts again
    assert laptop.evaluate("document.activeElement === document.body")

    laptop.keyboard.press("z")
    expect(laptop.locator("#figure-box")).to_have_class(re.compile("zoomed"))
    assert laptop.locator("#figure").bounding_box()["width"] == 360  # three times the 120-pixel crop
    laptop.keyboard.press("Escape")
    expect(laptop.locator("#figure-box")).not_to_have_class(re.compile("zoomed"))

    laptop.keyboard.press("?")
    help_box = laptop.locator("#help")
    expect(help_box).to_be_visible()
    assert "undo your last decision" in help_box.text_content()
    laptop.keyboard.press("a")  # the help is open: no decision
    laptop.keyboard.press("Escape")
    expect(help_box).to_be_hidden()
    assert decisions(store) == []
    laptop.keyboard.press("a")
    expect(laptop.locator("#progress-text")).to_have_text("1 / 7 reviewed")
    assert [e["annotator"] for e in decisions(store)] == ["Ala"]
    assert laptop.js_errors == []


# ---- 4. laptop screens and accessibility

def test_every_items_text_carries_its_language(laptop, live_url, store):
    laptop.goto(f"{live_url}/?status=")
    expect(laptop.locator("html")).to_have_attribute("lang", "en")  # the page's own words are English
    seen = set()
    for position in range(1, len(store.order) + 1):
        expect(laptop.locator("#meta")).to_contain_text(f"{position} of 7")
        language = store.get(store.order[position - 1]).question.language
        for selector in ("#question", "#context", "#choices li", "#description", "#transcription", "#figure"):
            for element in laptop.locator(selector).all():
                assert element.evaluate("e => e.closest('[lang]').lang") == language, (selector, position)
        seen.add(language)
        laptop.keyboard.press("s")
    assert seen == {"pl", "el"}
    assert laptop.js_errors == []


def test_the_audit_text_carries_the_questions_language(laptop, greek_flagged):
    root, curated, _ = greek_flagged
    with serve_review(ReviewStore.open(root, [curated])) as url:
        laptop.goto(f"{url}/audit")
        expect(laptop.locator("#options .label")).to_have_count(4)
        for selector in ("#question", "#options input", "#answer", "#printed"):
            for element in laptop.locator(selector).all():
                assert element.evaluate("e => e.closest('[lang]').lang") == "el", selector
    assert laptop.js_errors == []


def test_the_controls_fit_a_laptop_window_and_the_progress_bar_has_a_name(laptop, live_url):
    laptop.goto(f"{live_url}/")
    # An <img> with no src yet is "complete" too, and the workspace stays hidden until the first item is drawn:
    # wait for the item's own figure to have loaded before measuring anything.
    expect(laptop.locator("#workspace")).to_be_visible()
    expect(laptop.locator("#figure")).to_have_attribute("src", re.compile(r"\S"))
    expect(laptop.locator("#figure")).to_have_js_property("complete", True)
    for selector in ("#accept", "#reject", "#skip", "#prev", "#undo", "#description", "#figure"):
        box = laptop.locator(selector).bounding_box()
        assert box["y"] + box["height"] <= LAPTOP_WINDOW["height"], f"{selector} is below the fold: {box}"
    assert laptop.evaluate("document.documentElement.scrollWidth") <= LAPTOP_WINDOW["width"]  # no sideways scrolling
    expect(laptop.get_by_role("progressbar", name="figures reviewed")).to_have_count(1)
    assert laptop.js_errors == []
