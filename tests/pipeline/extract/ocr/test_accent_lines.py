"""Marks the page preparation whitened away, read back from the lines that hold them (`accent-lines`): a word whose
reading has a twin with more marks in the dictionaries takes the mark the page not whitened shows, and only that."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.accentlines import (
    bare, candidates, lines_to_read, marked_forms, mend_lost_marks, only_marks_added, page_spelling, twins,
)
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.hunspell import SpellingUnavailable, spelling_for
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

SPANISH_ALPHABET = frozenset("abcdefghijklmnñopqrstuvwxyzáéíóúü")


def _spanish():
    try:
        return spelling_for(("spa",))
    except SpellingUnavailable as exc:
        pytest.skip(f"no Spanish dictionary: {exc}")


def test_marks_are_taken_off_to_compare_and_letters_that_do_not_decompose_stay():
    assert bare("Física") == "Fisica"
    assert bare("ñandú") == "nandu"
    assert bare("łódź") == "łodz"


def test_each_bare_letter_has_the_marked_letters_of_its_alphabet():
    forms = marked_forms(SPANISH_ALPHABET)
    assert forms["i"] == ("í",)
    assert set(forms["u"]) == {"ú", "ü"}
    assert "b" not in forms


def test_a_twin_puts_one_mark_on_one_bare_letter_and_keeps_the_case():
    forms = marked_forms(SPANISH_ALPHABET)
    assert "física" in twins("fisica", forms)
    assert "Física" in twins("Fisica", forms)
    assert "fisíca" in twins("fisica", forms)  # every place: the dictionary tells which is a word
    assert all(tw.count("í") + tw.count("á") <= 1 for tw in twins("fisica", forms))
    assert twins("txt", forms) == []


def test_only_marks_added_is_the_one_change_taken():
    assert only_marks_added("fisica", "física")
    assert only_marks_added("Sindrome", "Síndrome")
    assert not only_marks_added("física", "fisica")  # a mark taken off
    assert not only_marks_added("título", "titúlo")  # a mark moved
    assert not only_marks_added("fisica", "físico")  # a letter changed
    assert not only_marks_added("fisica", "fisica")


def test_candidates_are_words_with_a_known_twin_and_the_unknown_ones_come_first():
    spelling = _spanish()
    words = [Word(text, 90.0, 10 * i, 0, 10 * i + 8, 10, (1, 1, line)) for i, (text, line) in enumerate(
        [("La", 1), ("fisica", 1), ("esta", 2), ("aqui.", 3), ("perro", 3), ("FISICA", 4)])]
    found = {c.word.text: c.unknown for c in candidates(words, spelling)}
    assert found == {"fisica": True, "esta": False, "aqui.": True}  # `perro` has no twin; capitals are another pass's
    assert lines_to_read(words, candidates(words, spelling)) == [(1, 1, 1), (1, 1, 3)]  # line 2: `esta` alone, known
    assert lines_to_read(words, candidates(words, spelling), max_lines=1) == [(1, 1, 1)]


def test_a_reading_is_taken_only_where_it_adds_a_known_mark():
    spelling = _spanish()
    from PIL import Image
    line = (1, 1, 1)
    words = [Word("fisica", 90.0, 10, 20, 90, 40, line), Word("esta", 90.0, 100, 20, 150, 40, line),
             Word("dias", 90.0, 160, 20, 210, 40, line)]

    def read(stack: Image.Image) -> list[Word]:
        # The line's crop starts SIDE word heights left of the first word and sits GAP heights into the stack: the
        # second reading's boxes are found back at the same places on the page.
        top = 12 + 20 - 10  # gap (0.6 × 20) + the word's top − the crop's top (ABOVE × 20 above it)
        left = 12 + 10 - 12  # gap + the word's left − the crop's left (SIDE × 20)
        return [Word("física", 91.0, left, top, left + 80, top + 20, line), Word("estä", 91.0, left + 90, top, left + 140, top + 20, line),
                Word("diaz", 91.0, left + 150, top, left + 200, top + 20, line)]

    mended = mend_lost_marks(words, Image.new("L", (300, 80), 255), spelling, read)
    # `estä` adds a mark but is no word of the dictionary; `diaz` changes a letter.
    assert [w.text for w in mended.words] == ["física", "esta", "dias"]
    assert mended.changes == [("fisica", "física")]


def test_the_pass_is_registered_after_the_word_repairs_with_a_version_a_cost_and_a_condition():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("accent-lines") > names.index("accents-read-twice") > names.index("second-reader")
    accent_lines = PAGE_PASSES[names.index("accent-lines")]
    assert accent_lines.version and accent_lines.condition and accent_lines.cost.name == "REGIONS"


UNMARKED = ("La fisica y la quimica del periodo estudian los dias de la sintesis; segun el indice publico, esta aqui la "
            "musica del numero y el metodo util de la pagina. A ultima hora el tecnico leyo el analisis del medico.")


def _read(scan: Path, index: int, languages: tuple[str, ...], disabled: tuple[str, ...] = ()) -> list[str]:
    document = pdfium.PdfDocument(str(scan))
    try:
        image, _, _ = render_page(document, index, 300)
    finally:
        document.close()
    reading = read_page(image, OcrSettings(languages=languages, dpi=300, disabled_passes=disabled), page_number=index + 1)
    return [w.text for w in reading.words]


@needs_tesseract("spa")
def test_words_printed_without_their_marks_stay_without_them_on_a_soft_scan(tmp_path):
    """Spanish typed without accents, scanned at 150 dpi, blur 0.8, JPEG 70: every word has a twin with a mark in
    the dictionary, and the page not whitened shows no mark over any of them."""
    if page_spelling(("spa",)) is None:
        pytest.skip("no Spanish dictionary")
    pdf = build_pdf(tmp_path / "page.pdf", [PageSpec([TextBox(UNMARKED, 20, 30, 170, size=11)])])
    scan = rasterize_pdf(pdf, tmp_path / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70, seed=3)
    read = _read(scan, 0, ("spa",))
    assert read == _read(scan, 0, ("spa",), ("accent-lines",))
    assert not [word for word in read if bare(word) != word]


@pytest.mark.corpus
@needs_tesseract("spa")
def test_accents_a_soft_scan_loses_on_the_prepared_page_are_read_back(tmp_path):
    """INAP 2024's library questions (1.50–1.54) scanned as `ocrcertainty`'s poor scan (150 dpi, blur 0.8, JPEG 70):
    the prepared page reads `fisica`, `estanterias`, `titulos`; the lines read again from the page not whitened give
    the printed marks back, and no mark the print lacks."""
    from pipeline.devkit.ocrcertainty import CORPUS, CORPUS_SHEETS

    sheet = next(s for s in CORPUS_SHEETS if s.name == "es-inap-2024-150")
    source = CORPUS / sheet.folder / sheet.sheet
    if not source.is_file() or page_spelling(("spa",)) is None:
        pytest.skip(f"{source} is not in the development corpus, or no Spanish dictionary")
    trimmed = tmp_path / "page.pdf"
    with pdfium.PdfDocument(str(source)) as document, pdfium.PdfDocument.new() as out:
        printed = document[LIBRARY_PAGE - 1].get_textpage().get_text_range()
        out.import_pages(document, pages=[LIBRARY_PAGE - 1])
        out.save(str(trimmed))
    scan = sheet.scan.rasterise(trimmed, tmp_path / "scan.pdf", seed=sheet.seed)
    words = set(printed.replace("\r", " ").replace("\n", " ").split())
    before, after = _read(scan, 0, ("spa",), ("accent-lines",)), _read(scan, 0, ("spa",))
    changed = [(b, a) for b, a in zip(before, after) if a != b]
    assert len(before) == len(after) and len(changed) >= 3
    assert all(only_marks_added(b, a) and a in words and b not in words for b, a in changed)


LIBRARY_PAGE = 6  # of the sheet
