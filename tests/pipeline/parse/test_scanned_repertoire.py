"""Option layouts read from a scan as from the text layer: two to ten options, in one to four columns,
labelled "A)", "A." or "(A)", each option's text exact. Real Tesseract on a generated sheet rasterised
at 200 dpi with noise and blur."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.devkit.sample.pdfgen import TextBox, rasterize_pdf
from tests.pipeline.extract.ocr.builders import needs_tesseract
from tests.pipeline.parse.repertoire_sheets import LEFT, ROW, SIZE, by_number, item, pdf, question_rows, run, sheet_of, spec

pytestmark = needs_tesseract("spa")

LAYOUTS = {
    # name: (options per question, how the sheet prints them, the spec's `layout.options`)
    "two options side by side": (2, dict(style="{}) ", columns=2), dict(labels=["A", "B"], styles=["A)"], min_count=2)),
    "four options in a row": (4, dict(style="{}. ", columns=4, width=160), dict(labels=list("ABCD"), styles=["A."])),
    "five options down": (5, dict(style="{}) ", columns=1), dict(labels=list("ABCDE"), styles=["A)"])),
    "six bracketed options in three columns": (6, dict(style="({}) ", columns=3, width=150), dict(labels=list("ABCDEF"), styles=["(A)"])),
    "ten options down": (10, dict(style="{}) ", columns=1), dict(labels=list("ABCDEFGHIJ"), styles=["A)"])),
    # "I)" read as "1)" stands at the left of two label columns
    "ten options in two columns": (10, dict(style="{}) ", columns=2), dict(labels=list("ABCDEFGHIJ"), styles=["A)"])),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_every_option_of_a_scanned_sheet_is_read_as_printed(tmp_path, layout):
    count, printing, options = LAYOUTS[layout]
    questions = [item(n, options=count) for n in range(1, 4)]
    sheet = sheet_of(tmp_path / "2031" / "sheet.pdf", questions, **printing)
    scan = rasterize_pdf(sheet, tmp_path / "scan" / "2031" / "sheet.pdf", dpi=200, noise=0.02, blur=0.4, seed=1)
    for path in (sheet, scan):
        found = by_number(run(spec(options=options), path))
        assert list(found) == ["1", "2", "3"], path
        for q in questions:
            assert found[q.number].choices == list(q.options), (path.parent.parent.name, q.number)
            # A label the scan misread ("1)" for "I)") and its column restored says so; nothing else is flagged.
            flags = [f for f in found[q.number].flags if not (path == scan and "(OCR); taken as the label its column leaves" in f)]
            assert flags == ["no key entry for this question"], (path.parent.parent.name, q.number)


BANNERS = {"white on black": (20, 20, 20), "white on grey": (150, 150, 150)}


@pytest.mark.parametrize("banner", list(BANNERS))
def test_question_headers_printed_light_on_a_banner_are_read_from_a_scan(tmp_path, banner):
    """"Pregunta N" in white on a filled banner: preparing the scan erased the banner's dark runs as rules
    (or whitened its grey), and every question with it."""
    questions = [item(n) for n in range(1, 4)]
    boxes, y = [], 20.0
    for q in questions:
        boxes.append(TextBox(f"Pregunta {q.number}", LEFT, y, 32, size=SIZE, bold=True, color=(255, 255, 255), highlight=BANNERS[banner]))
        rows, y = question_rows(q, y + ROW + 3)
        boxes += [replace(rows[0], text=q.stem), *rows[1:]]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    scan = rasterize_pdf(sheet, tmp_path / "scan" / "2031" / "sheet.pdf", dpi=200, noise=0.02, blur=0.4, seed=1)
    banner_spec = spec(layout={"question_start": r"^Pregunta\s+(?P<number>\d{1,3})\s*$"})
    for path in (sheet, scan):
        found = by_number(run(banner_spec, path))
        assert list(found) == ["1", "2", "3"], path
        for q in questions:
            assert found[q.number].question == q.stem, (path.parent.parent.name, q.number)
            assert found[q.number].choices == list(q.options), (path.parent.parent.name, q.number)


def test_option_labels_printed_light_on_dark_squares_are_read_from_a_scan(tmp_path):
    """A white "B" on a black square (or disc) opens each option: Tesseract reads the square as "O" or
    "©", and without labels the question had no options."""
    questions = [item(n) for n in range(1, 4)]
    boxes, y = [], 20.0
    for q in questions:
        boxes.append(TextBox(f"{q.number}. {q.stem}", LEFT, y, 170, size=SIZE))
        y += ROW + 2
        for label, text in zip("ABCD", q.options):
            boxes.append(TextBox(label, LEFT + 1, y, 3.2, size=SIZE - 1, bold=True, color=(255, 255, 255), highlight=(10, 10, 10), align="C"))
            boxes.append(TextBox(text, LEFT + 7, y, 120, size=SIZE))
            y += ROW + 1.5
        y += 4
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    scan = rasterize_pdf(sheet, tmp_path / "scan" / "2031" / "sheet.pdf", dpi=200, noise=0.02, blur=0.4, seed=1)
    bare_labels = spec(options={"styles": ["A"]})
    for path in (sheet, scan):
        found = by_number(run(bare_labels, path))
        assert list(found) == ["1", "2", "3"], path
        for q in questions:
            assert found[q.number].choices == list(q.options), (path.parent.parent.name, q.number)
