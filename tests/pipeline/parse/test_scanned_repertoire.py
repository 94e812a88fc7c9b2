"""Option layouts read from a scan as from the text layer: two to ten options, in one to four columns,
labelled "A)", "A." or "(A)", each option's text exact. Real Tesseract on a generated sheet rasterised
at 200 dpi with noise and blur."""
from __future__ import annotations

import pytest

from pipeline.devkit.sample.pdfgen import rasterize_pdf
from tests.pipeline.extract.ocr.builders import needs_tesseract
from tests.pipeline.parse.repertoire_sheets import by_number, item, run, sheet_of, spec

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
            assert found[q.number].flags == ["no key entry for this question"], (path.parent.parent.name, q.number)
