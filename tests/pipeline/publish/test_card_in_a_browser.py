"""The release card rendered in a real browser runs nothing a sheet, a spec or a publish flag wrote into it.

The card is Markdown with raw HTML allowed (the Hub, GitHub and mkdocs each render it; only some sanitise), so
every field that carries sheet text or spec text is attacked: exam and subject names, the family id, the split
rule's description, the licence name and link, authors and URL, the example record. Each payload is rendered by
python-markdown (tables, fenced code; raw HTML kept, as a renderer that does not sanitise keeps it) into a page
opened in Chromium: no script runs, no `javascript:` link, no element carries an event handler. And the YAML front
matter survives a value holding `---` on a line of its own: huggingface_hub reads the same metadata back.

Before (`59a4e9b`), the configs and counts tables and the licence section wrote exam, subject and family names and
the licence link as they came: `<img onerror>` ran, `[x](javascript:…)` was a live link, and a `|` or a line
break in a name broke its table.
"""
from __future__ import annotations

from dataclasses import replace

import markdown
import pytest
import yaml
from huggingface_hub import DatasetCard

from pipeline.devkit.gemini_standin import HTML_PAYLOAD
from pipeline.publish import CardInfo
from pipeline.publish.card import card_text
from tests.pipeline.split.conftest import make_record

LINK = "[click me](javascript:window.__pwned=3)"
IMAGE = "![x](javascript:window.__pwned=4)"
REF_LINK = "[ref]\n\n[ref]: javascript:window.__pwned=5"
AUTOLINK = "<javascript:window.__pwned=6>"
FENCE = "x\n```\n<script>window.__pwned = 7</script>\n```"
ATTR = '" onmouseover="window.__pwned=8" x="'
PAYLOADS = [HTML_PAYLOAD, LINK, IMAGE, REF_LINK, AUTOLINK, FENCE, ATTR, "</textarea></code></pre>" + HTML_PAYLOAD,
            "a | b\n\n| c |", "\u202egnp.exe\u200b"]
RULE = {"version": 1, "config_sha256": "0" * 64, "private_years": {"pl_test": [2023]},
        "description": "years after 2022 are private"}


def card(field: str, payload: str) -> str:
    question = make_record(1)
    info = CardInfo()
    rule = RULE
    if field == "exam":
        question = replace(question, exam=payload)
    elif field == "subject":
        question = replace(question, subject=payload)
    elif field == "source":
        question = replace(question, source=payload)
    elif field == "question":
        question = replace(question, question=payload, choices=[payload, *question.choices[1:]])
    elif field == "rule":
        rule = {**RULE, "description": payload, "private_years": {payload: [2023]}}
    elif field == "licence":
        info = CardInfo(license_name=payload, license_link=payload)
    elif field == "licence link":
        info = CardInfo(license_id="cc-by-4.0", license_link="javascript:window.__pwned=9")
    elif field == "authors":
        info = CardInfo(authors=(payload, "Anna Nowak"), url=payload)
    return card_text(name="examcorpus", release_id="v1", split="public", by_config={"pl_test": [question]}, rule=rule,
                     withheld=0, repo_hint="", info=info, year=2026)


FIELDS = ["exam", "subject", "source", "question", "rule", "licence", "licence link", "authors"]


def _render(text: str) -> str:
    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
    html = markdown.markdown(body, extensions=["tables", "fenced_code"])
    return f"<!doctype html><html><head><meta charset='utf-8'></head><body>{html}</body></html>"


@pytest.mark.parametrize("field", FIELDS)
def test_a_hostile_field_renders_as_text_in_a_browser(page, tmp_path, field):
    for number, payload in enumerate(PAYLOADS):
        text = card(field, payload)
        path = tmp_path / f"{field.replace(' ', '_')}-{number}.html"
        path.write_text(_render(text), encoding="utf-8")
        page.goto(path.as_uri())
        page.mouse.move(1, 1)
        for link in page.locator("a").all():
            link.hover()
        found = page.evaluate("""() => ({
            pwned: window.__pwned ?? null,
            scripts: document.querySelectorAll('script').length,
            images: document.querySelectorAll('img').length,
            javascript: [...document.querySelectorAll('a[href], [src]')].map(e => e.getAttribute('href') || e.getAttribute('src'))
                .filter(u => /^\\s*(javascript|data|vbscript):/i.test(u)),
            handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes].map(a => a.name))
                .filter(n => n.startsWith('on')),
        })""")
        assert found == {"pwned": None, "scripts": 0, "images": 0, "javascript": [], "handlers": []}, (field, payload)


@pytest.mark.parametrize("field", ["exam", "subject"])
def test_a_name_with_a_line_break_or_a_bar_stays_one_cell_of_its_table(page, tmp_path, field):
    """Rendered, the configs table still has its seven cells a row, and the name's cell reads the name on one line."""
    path = tmp_path / "card.html"
    path.write_text(_render(card(field, "a | b\n\n| c |")), encoding="utf-8")
    page.goto(path.as_uri())
    cells = page.evaluate("() => [...document.querySelector('table tbody tr').cells].map(c => c.textContent)")
    assert len(cells) == 7 and cells[2 if field == "exam" else 3] == "a | b | c |", cells


def test_front_matter_holds_whatever_a_value_holds(tmp_path):
    """A family name with `---` on a line of its own, and a YAML document of its own after it: the card's metadata
    is read back the same, and the body starts after it."""
    hostile = "x\n---\nlicense: mit\n<script>window.__pwned = 1</script>\n---\n"
    question = replace(make_record(1), language="pl", exam=hostile, subject=hostile)
    text = card_text(name="examcorpus", release_id="v1", split="public", by_config={"pl_test": [question]},
                     rule={**RULE, "description": hostile}, withheld=0, repo_hint="", info=CardInfo(), year=2026)
    front = text.split("\n---\n", 1)[0]
    assert yaml.safe_load(front.removeprefix("---\n"))["license"] == "other"
    (tmp_path / "README.md").write_text(text, encoding="utf-8")
    assert DatasetCard.load(tmp_path / "README.md").data.license == "other"
    assert text.split("\n---\n", 1)[1].lstrip().startswith("# examcorpus: release v1")
