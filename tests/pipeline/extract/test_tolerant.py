"""Drop rules written against the text layer still find their pages and lines on OCR'd pages, where
Tesseract misreads a character or two, and never match more loosely on text-layer pages."""
from __future__ import annotations

import pytest

from pipeline.extract import ExtractOptions, Line, Page, PageMethod
from pipeline.extract.stage import clean_pages
from pipeline.extract.tolerant import allowed_errors, search_rule

RULE = "(?m)^INSTRUCCIONES GENERALES"


def _page(texts: list[str], method: PageMethod, number: int = 1) -> Page:
    lines = [Line(text=t, x0=70, top=100 + 14 * i, x1=500, bottom=110 + 14 * i, font_size=10) for i, t in enumerate(texts)]
    return Page(number=number, width=595, height=842, method=method, lines=lines)


@pytest.mark.parametrize(
    ("pattern", "errors"),
    [("INSTRUCCIONES GENERALES", 2), (RULE, 2), (r"^Strona \d+ z \d+$", 1), (r"^Strona \d+", 0), ("BRUDNOPIS", 1), ("(?i)hoja de respuestas", 2)],
)
def test_a_rule_may_need_one_edit_per_eight_literal_characters(pattern, errors):
    assert allowed_errors(pattern) == errors


def test_a_misread_heading_matches_on_ocr_text_only():
    assert search_rule(RULE, "INSTRUCCI0NES GENERA1ES\n1. Lee", ocr=True) == (True, 2)
    assert search_rule(RULE, "INSTRUCCI0NES GENERA1ES\n1. Lee", ocr=False) == (False, 0)
    assert search_rule(RULE, "INSTRUCCIONES GENERALES", ocr=False) == (True, 0)


def test_three_misread_characters_or_another_heading_do_not_match():
    assert search_rule(RULE, "INSTRUCC10NES GENERA1ES", ocr=True) == (False, 0)
    assert search_rule("(?i)hoja de respuestas", "Hoja de preguntas", ocr=True) == (False, 0)
    # A short rule is matched as written: one error would take any "Strona 3" look-alike.
    assert search_rule(r"^Strona \d+", "Strcna 3", ocr=True) == (False, 0)


def test_an_ocr_instruction_page_is_dropped_with_the_misreadings_named_and_questions_kept():
    pages = [
        _page(["INSTRUCCI0NES GENERA1ES", "1. Marque una sola respuesta."], PageMethod.OCR, 1),
        _page(["1. ¿Cuál es la capital?", "A) Lima", "INSTRUCCI0NES GENERA1ES (continúa)"], PageMethod.TEXT, 2),
    ]
    clean_pages(pages, ExtractOptions(drop_pages=(RULE,), drop_lines=("^Página de instrucciones",)))
    assert pages[0].dropped_reason == f"matches layout.drop_pages rule {RULE!r} (allowing 2 OCR misreading(s))"
    assert pages[1].dropped_reason is None and len(pages[1].lines) == 3


def test_a_drop_lines_rule_removes_its_misread_line_on_ocr_pages():
    rule = "^Página de instrucciones"
    ocr = _page(["Pagina de lnstrucciones", "1. ¿Cuál es la capital?"], PageMethod.OCR)
    text = _page(["Pagina de lnstrucciones", "1. ¿Cuál es la capital?"], PageMethod.TEXT, 2)
    clean_pages([ocr, text], ExtractOptions(drop_lines=(rule,)))
    assert [line.text for line in ocr.lines] == ["1. ¿Cuál es la capital?"]
    assert [line.text for line in text.lines] == ["Pagina de lnstrucciones", "1. ¿Cuál es la capital?"]


def _head_and_body(head: str, body: list[str], number: int, method: PageMethod = PageMethod.OCR) -> Page:
    """A page with `head` as its running head (in the top margin) above the body lines."""
    page = _page(body, method, number)
    page.lines.insert(0, Line(text=head, x0=70, top=19.2 + 0.4 * (number % 2), x1=400, bottom=34.6, font_size=10))
    return page


def test_a_running_head_read_differently_on_each_scanned_page_is_still_dropped():
    heads = ["Maturita 2023 | mzrcový i2rimín", "Maturita 2023 | mizrcový i2rimín", "Maturita 2023 | m2zrcový i2rimín",
             "Maturita 2023 | mizrcový i2rimín", "Maturita 2023 | marcový termín"]
    pages = [_head_and_body(head, [f"{40 + n}", "Uznať aj vypísané názvy konkrétnych miest"], n + 1) for n, head in enumerate(heads)]
    clean_pages(pages, ExtractOptions())
    assert all(not p.lines[0].text.startswith("Maturita") for p in pages)
    assert [p.lines[0].text for p in pages] == ["40", "41", "42", "43", "44"]
    # in the body, or on text-layer pages, likeness is not enough: those lines stay
    assert all(p.lines[1].text == "Uznať aj vypísané názvy konkrétnych miest" for p in pages)
    text_pages = [_head_and_body(head, ["47"], n + 1, PageMethod.TEXT) for n, head in enumerate(heads)]
    clean_pages(text_pages, ExtractOptions())
    assert all(p.lines[0].text.startswith("Maturita") for p in text_pages)


def test_short_margin_lines_alike_by_chance_are_not_a_running_head():
    rows = ["41 B D", "42 B C", "43 B D", "44 A D", "45 B D"]
    pages = [_head_and_body(row, ["Kľúč správnych odpovedí k úlohám"], n + 1) for n, row in enumerate(rows)]
    clean_pages(pages, ExtractOptions())
    assert [p.lines[0].text for p in pages] == rows


def test_question_headers_with_formulaic_stems_at_the_top_of_scanned_pages_are_not_a_running_head():
    # A Panhellenic scan of the full-size archive lost Β1, Γ2, Γ3, Γ4 and Δ3 this way: each opened its page
    # with "Θεωρούμε ότι η … εξαρτάται από την αρχική κατάσταση", alike enough to pass for a misread head.
    tops = ["Β1. Θεωρούμε ότι η διαδικασία εξαρτάται από την αρχική κατάσταση.",
            "Γ2. Θεωρούμε ότι η πίεση εξαρτάται από την αρχική κατάσταση.",
            "Γ3. Θεωρούμε ότι η αντίδραση εξαρτάται από την αρχική κατάσταση.",
            "Γ4. Θεωρούμε ότι η αντίδραση εξαρτάται από την αρχική κατάσταση.",
            "Δ3. Θεωρούμε ότι η μέθοδος εξαρτάται από την αρχική κατάσταση."]
    def scanned() -> list[Page]:
        return [_head_and_body(top, ["Να εξηγήσετε την απάντησή σας."], n + 1) for n, top in enumerate(tops)]

    unguarded = scanned()
    clean_pages(unguarded, ExtractOptions())
    assert not any(p.lines[0].text in tops for p in unguarded)  # alike on most pages: taken for a running head
    guarded = scanned()
    clean_pages(guarded, ExtractOptions(question_start=(r"^(?P<number>[ΑΒΓΔ]\d{1,2})\.(?=\s|$)",)))
    assert [p.lines[0].text for p in guarded] == tops
