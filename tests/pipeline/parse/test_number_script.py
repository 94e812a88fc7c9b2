"""A question number's letters are in its page's script: `Α1` on a Greek sheet, `А1` on a Russian one, whether the
text layer typed the Latin twin or OCR read it (Tesseract's Greek model reads `Al.` for `Α1.`). The record's number,
and so its id, is the sheet's, and the sheet's notes say which numbers were written so."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.diagnostics import Code
from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.languages import in_script
from pipeline.parse.blocks import Numbering, split_blocks
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import line_stream
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family

GREEK_STEMS = ["Η εντολή που επιτρέπει την επιλογή ανάμεσα σε δύο δρόμους ονομάζεται",
               "Ποια από τις παρακάτω είναι δομή επανάληψης;",
               "Ο αλγόριθμος πρέπει να τερματίζει μετά από πεπερασμένο αριθμό βημάτων;",
               "Ποιο είναι το αποτέλεσμα της πράξης 17 DIV 5;"]
GREEK_OPTIONS = ["εκχώρησης", "επανάληψης", "επιλογής", "εξόδου"]
RUSSIAN_STEMS = ["Какое из перечисленных слов является существительным?", "Укажите предложение, в котором нет ошибки.",
                 "Какое слово пишется с двумя буквами н?", "В каком слове ударение падает на второй слог?"]
RUSSIAN_OPTIONS = ["дорога", "красивый", "бежать", "быстро"]
GREEK, CYRILLIC = "\u0391", "\u0410"  # the capital alpha of each script, printed like Latin A


def _sheet(path: Path, letter: str, stems: list[str], labels: str, options: list[str]) -> Path:
    items, y = [], 20.0
    for n, stem in enumerate(stems, 1):
        items.append(TextBox(f"{letter}{n}. {stem}", 20, y, 170, size=11))
        y += 14
        for label, option in zip(labels, options):
            items.append(TextBox(f"{label}. {option} {n}", 30, y, 120, size=11))
            y += 7
        y += 8
    return build_pdf(path, [PageSpec(tuple(items))])


def _greek_spec(languages: list[str]):
    spec = load_spec("sample_el")  # question_start takes Latin A and B too: OCR reads the Greek capitals so
    return spec.model_copy(update={"ocr": spec.ocr.model_copy(update={"languages": languages})})


def _russian_spec(languages: list[str]):
    spec = _greek_spec(languages)
    options = spec.layout.options.model_copy(update={"labels": ["а", "б", "в", "г"]})
    layout = spec.layout.model_copy(update={"question_start": r"^(?P<number>[АБВAB]\d{1,2})\.(?=\s|$)", "options": options,
                                            "true_false": None, "type_rules": [], "drop_lines": [], "stop_at": []})
    return spec.model_copy(update={"layout": layout, "metadata": spec.metadata.model_copy(update={"language": "ru"})})


def _numbers(result) -> list[str]:
    return [q.number for q in result.questions]


def test_a_letter_is_written_as_its_twin_of_the_same_shape_in_the_script_asked_for():
    assert in_script("A1", "Greek") == "Α1" and in_script("B12", "Cyrillic") == "В12"
    assert in_script("А1", "Latin") == "A1" and in_script("Α1", "Cyrillic") == "А1"  # Greek to Cyrillic through Latin
    assert in_script("Σ2", "Latin") == "Σ2" and in_script("Q3", "Greek") == "Q3"  # no twin: as it was


@pytest.mark.parametrize(("spec", "letter", "stems", "labels", "options", "own"), [
    (_greek_spec(["ell"]), "A", GREEK_STEMS, "αβγδ", GREEK_OPTIONS, GREEK),
    (_russian_spec(["rus"]), "A", RUSSIAN_STEMS, "абвг", RUSSIAN_OPTIONS, CYRILLIC),
], ids=["greek", "russian"])
def test_a_text_layer_typing_the_latin_twin_gives_numbers_in_the_sheets_script(tmp_path, spec, letter, stems, labels,
                                                                               options, own):
    result = run_family(spec, _sheet(tmp_path / "s.pdf", letter, stems, labels, options), [], {"year": "2031"})
    assert _numbers(result) == [f"{own}{n}" for n in range(1, 5)]
    assert all(q.id.endswith(f":{own}{n}") for n, q in enumerate(result.questions, 1))
    notes = [n.message for n in result.notes if n.code is Code.NUMBER_SCRIPT]
    assert notes == ["4 question number(s) read with letters of another script than their page's, written in the page's: "
                     + ", ".join(f"A{n} → {own}{n}" for n in range(1, 5))]


@pytest.mark.parametrize(("spec", "own", "stems", "labels", "options"), [
    (_greek_spec(["ell", "eng"]), GREEK, GREEK_STEMS, "αβγδ", GREEK_OPTIONS),
    (_russian_spec(["rus", "eng"]), CYRILLIC, RUSSIAN_STEMS, "абвг", RUSSIAN_OPTIONS),
], ids=["greek", "russian"])
def test_numbers_ocr_reads_with_latin_capitals_on_a_scan_are_in_the_sheets_script(tmp_path, spec, own, stems, labels, options):
    """Printed in the sheet's own script; at 200 dpi with English loaded beside it, Tesseract reads some capitals Latin."""
    sheet = _sheet(tmp_path / "s.pdf", own, stems, labels, options)
    scan = rasterize_pdf(sheet, tmp_path / "scan" / "2031" / "s.pdf", dpi=200, noise=0.02, blur=0.4, seed=1)
    result = run_family(spec, scan, [], {"year": "2031"})
    assert _numbers(result) == [f"{own}{n}" for n in range(1, 5)]
    assert [n.code for n in result.notes].count(Code.NUMBER_SCRIPT) == 1  # some were read Latin, and it is said


def _document(texts: list[str]) -> ExtractedDocument:
    lines = [Line(text=t, x0=70, top=80 + 14 * i, x1=500, bottom=90 + 14 * i, font_size=10) for i, t in enumerate(texts)]
    page = Page(number=1, width=595, height=842, method=PageMethod.TEXT, lines=lines)
    return ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")


def test_a_latin_page_writes_a_cyrillic_twin_latin_and_a_page_of_two_scripts_keeps_numbers_as_read():
    start = r"^(?P<number>[AАBВ]\d)\.\s"
    latin = _document([f"{CYRILLIC}1. Which of these words is a noun?", "A2. Which sentence has no mistake?"])
    assert [b.number for b in split_blocks(line_stream(latin, reader=Recovery.every().line_reader(None)), start, None, Numbering())] == ["A1", "A2"]
    # Nearly as many Greek letters as Latin ones: no script is the page's, and a number stays as it was read.
    mixed = _document(["A1. Which word means αλγόριθμος?", f"{GREEK}2. Ποια λέξη σημαίνει algorithm?"])
    blocks = split_blocks(line_stream(mixed, reader=Recovery.every().line_reader(None)), r"^(?P<number>[AΑ]\d)\.\s", None, Numbering())
    assert [b.number for b in blocks] == ["A1", f"{GREEK}2"]
