"""`noise`'s pictogram test on a blurred scan: an option label's bracket reaches from above the capitals to below the
baseline, so `b)` beside a line of words with no descender (`A los dos años.`) is boxed 1.3 times their height, as
tall as a pictogram Tesseract reads as a letter and a bracket. The label is judged by the ink between its brackets and
stays; a pictogram, one blob of ink as tall as its box, is still dropped. Lines are drawn in Liberation Sans (Arial's
metrics) at a 205 dpi scan's size, blurred, stored as JPEG and read at 300 dpi; the words' boxes are their ink's, as
Tesseract gives them."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.extract.ocr.noise import without_icons
from pipeline.extract.ocr.words import Word

from tests.pipeline.extract.ocr.test_glued_words_on_scans import scanned_line

# (scan dpi, blur px, JPEG quality): settings no tuning used
SCANS = [(205, 0.6, 77)]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
@pytest.mark.parametrize("printed", [["b)", "A", "los", "dos", "años."], ["c)", "A", "los", "seis", "meses."]], ids=lambda p: p[0])
def test_an_option_label_taller_than_its_line_by_its_bracket_is_kept(scan, printed):
    ink, words = scanned_line(printed, *scan, points=10)
    words = [replace(w, conf=70.0) for w in words]  # read unsurely, as the labels were (50-76)
    label, others = words[0], words[1:]
    assert label.bottom - label.top > 1.3 * sorted(w.bottom - w.top for w in others)[len(others) // 2]  # the bracket's reach
    assert [w.text for w in without_icons(words, ink)] == printed


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}-{s[1]}-{s[2]}")
def test_a_pictogram_read_as_a_letter_and_a_bracket_is_still_dropped(scan):
    ink, words = scanned_line(["A", "los", "dos", "años."], *scan, points=10)
    height = sorted(w.bottom - w.top for w in words)[len(words) // 2]
    ink = ink.copy()
    top = words[0].top - round(0.2 * height)
    ink[top : top + round(1.4 * height), 2:2 + height] = True  # a filled square before the line, 1.4 times its words
    icon = Word("F)", 40.0, 2, top, 2 + height, top + round(1.4 * height), words[0].line)
    assert [w.text for w in without_icons([icon, *words], ink)] == ["A", "los", "dos", "años."]
