"""Options printed side by side on one row whose labels a scan misread (issue 27, bar 1): Greek `δ)` read as `ϐ)` or
`ὃ)`, `β)` as `B)`, `γ)` as `y)` or `}γ)`, a Turkish `C)` glued to the number before it (`1969(C)1917`). The row is
read by its label sequence: labels read right anchor it, a misread token of the labels' printed form where the row's
wide gaps put a label is mended to the label the sequence leaves there (`parse.label_restored` on the question), a
label read with a speck or glued to a word is cut off it, and a place where no label was read is no shift: the
question says which label it skips. Lines as OCR gives them (with the wide gaps the layout records), then real
scans of generated Greek and Turkish sheets."""
from __future__ import annotations

from pathlib import Path

import hashlib

import pytest

from pipeline.acquire import ManifestEntry
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.scriptscans import Family, _vocabulary, family_spec, printed_questions, sheet_pdf
from pipeline.diagnostics import Code, has_code
from pipeline.extract import ExtractedDocument, ExtractOptions, Line, Page, PageMethod, extract_document
from pipeline.parse import parse_sheet
from tests.pipeline.extract.ocr.builders import needs_tesseract

GREEK = Family("el-row-test", "el", "ell", ("α", "β", "γ", "δ"), "A)", "row", "DejaVuSans", 1)
TURKISH = Family("tr-row-test", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "row", "DejaVuSans", 2)
RUSSIAN = Family("ru-pairs-test", "ru", "rus", ("а", "б", "в", "г"), "A)", "pairs", "DejaVuSerif", 3)


def _entry(path: Path, spec_name: str) -> ManifestEntry:
    return ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=spec_name, role="sheet", facts={"year": "2031"},
                         status="local", sha256="0" * 64, path=str(path))


def _parsed(family: Family, rows: list[tuple[str, list[float]]], method: PageMethod = PageMethod.OCR):
    return {q.number: q for q in _result(family, rows, method).questions}


def _result(family: Family, rows: list[tuple[str, list[float]]], method: PageMethod = PageMethod.OCR):
    """A sheet of lines as given (text, the x where a word starts after a wide gap), stems at the left margin, option
    rows indented, every line 400 points wide from its left edge."""
    lines = []
    for i, (text, gaps) in enumerate(rows):
        x0 = 40 if text[:1].isdigit() else 74
        lines.append(Line(text=text, x0=x0, top=80 + 16 * i, x1=x0 + 6 * len(text), bottom=92 + 16 * i, font_size=10,
                          wide_gap_starts=gaps, ocr=method is PageMethod.OCR, ocr_confidence=90.0 if method is PageMethod.OCR else None))
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    document = ExtractedDocument(sha256="0" * 64, path="sheet.pdf", page_count=1, pages=[page], stage_version="test")
    the_spec = family_spec(family)
    return parse_sheet(document, _entry(Path("/tmp/2031/sheet.pdf"), the_spec.name), [], the_spec)


def _row(text: str, x0: float = 74) -> tuple[str, list[float]]:
    """A row printed with wide gaps between its cells (runs of spaces here), read with a single space there as OCR gives
    its text, and where each cell after the first starts (six points a character): the layout's wide gaps."""
    cells = [cell.strip() for cell in text.split("  ") if cell.strip()]
    joined = " ".join(cells)
    starts, at = [], 0
    for cell in cells:
        at = joined.index(cell, at)
        starts.append(x0 + 6 * at)
        at += len(cell)
    return joined, starts[1:]


def test_a_greek_row_whose_later_labels_are_misread_comes_out_as_its_options_and_says_which_it_mended():
    questions = _parsed(GREEK, [
        ("1. Ποιο από τα παρακάτω είναι σωστό;", []), _row("α) ιατρικών    β) 1903 καταγράψει    }γ) λουλουδιών    ϐ) ράτσες"),
        ("2. Ποιο από τα παρακάτω είναι σωστό;", []), _row("α) 22 θαυμάσιο    B) 81 ἐγώ    y) κρυστάλλινα    δ) λίαν 19"),
        ("3. Ποιο από τα παρακάτω είναι σωστό;", []), _row("α) τρομακτική    β) εγκατέλειψαν    γ) λεωφορειακή    ὃ) πετυχαίνει"),
    ])
    assert questions["1"].choices == ["ιατρικών", "1903 καταγράψει", "λουλουδιών", "ράτσες"]
    assert questions["2"].choices == ["22 θαυμάσιο", "81 ἐγώ", "κρυστάλλινα", "λίαν 19"]
    assert questions["3"].choices == ["τρομακτική", "εγκατέλειψαν", "λεωφορειακή", "πετυχαίνει"]
    mended = {n: [f for f in questions[n].flags if f.code is Code.LABEL_RESTORED] for n in questions}
    assert len(mended["1"]) == 1 and "δ" in mended["1"][0] and "'ϐ)'" in mended["1"][0]
    assert len(mended["2"]) == 2 and "'B)'" in mended["2"][0] and "'y)'" in mended["2"][1]
    assert len(mended["3"]) == 1 and "'ὃ)'" in mended["3"][0]


def test_the_sheet_notes_the_questions_whose_labels_were_mended():
    result = _result(GREEK, [("1. Ποιο από τα παρακάτω είναι σωστό;", []), _row("α) ιατρικών    B) 1903    γ) λουλουδιών    ϐ) ράτσες"),
                             ("2. Ποιο από τα παρακάτω είναι σωστό;", []), _row("α) οδό    β) έχρισε    γ) σεξ    δ) ψυχρές")])
    notes = [n for n in result.notes if n.code is Code.LABELS_RESTORED]
    assert len(notes) == 1 and notes[0].startswith("2 option label(s)") and notes[0].endswith("questions 1")


def test_a_turkish_label_glued_to_the_number_before_it_is_cut_off_it():
    questions = _parsed(TURKISH, [
        ("1. Aşağıdakilerden hangisi doğrudur?", []),
        ("A) coloring B) durdurduktan 1969(C)1917 roketler D) trekking E) kedisi", []),
    ])
    assert questions["1"].choices == ["coloring", "durdurduktan 1969", "1917 roketler", "trekking", "kedisi"]
    assert not has_code(questions["1"].flags, Code.LABEL_RESTORED)  # every label was read; one was only glued


def test_a_row_where_no_label_was_read_at_a_place_is_a_report_line_for_its_question_and_shifts_none():
    questions = _parsed(GREEK, [("1. Ποιο από τα παρακάτω είναι σωστό;", []),
                                _row("α) ιατρικών    B) 1903 καταγράψει λουλουδιών    δ) ράτσες")])
    lost = [f for f in questions["1"].flags if f.code is Code.LOST_LABELS]
    # δ stays δ (never shifted to the γ the sequence lacks); the question says which labels it read, none lost silently.
    assert len(lost) == 1 and "['α', 'β', 'δ']" in lost[0]
    assert has_code(questions["1"].flags, Code.OCR_UNCERTAIN)
    assert "δ) ράτσες" in questions["1"].question and "γ)" not in questions["1"].question


def test_a_misread_token_where_the_row_has_no_gap_is_the_options_text():
    # "x)" inside an option's words, with no wide gap before it: not a label, whatever the sequence wants.
    questions = _parsed(GREEK, [("1. Ποιο από τα παρακάτω είναι σωστό;", []),
                                ("α) ιατρικών β) 1903 x) καταγράψει γ) λουλουδιών δ) ράτσες", [])])
    assert questions["1"].choices == ["ιατρικών", "1903 x) καταγράψει", "λουλουδιών", "ράτσες"]
    assert not has_code(questions["1"].flags, Code.LABEL_RESTORED)


def test_a_label_read_as_the_look_alike_its_languages_data_names_is_that_label_even_where_no_gap_shows_and_is_flagged():
    # `6)` for `б)` and a Latin `B)` for `в)` (ru.yaml's `label_shapes.marked_lookalikes`), on rows whose gaps OCR lost.
    questions = _parsed(RUSSIAN, [("1. Что из перечисленного верно?", []),
                                  ("а) пастельные 6) 22 метаданных", []), ("в) гению г) закалялась", []),
                                  ("2. Что из перечисленного верно?", []),
                                  ("а) розвитку научился б) начинаниям B) женить г) зримо", [])])
    assert questions["1"].choices == ["пастельные", "22 метаданных", "гению", "закалялась"]
    assert questions["2"].choices == ["розвитку научился", "начинаниям", "женить", "зримо"]
    mended = {n: [f for f in questions[n].flags if f.code is Code.LABEL_RESTORED] for n in questions}
    assert len(mended["1"]) == 1 and "'6)'" in mended["1"][0] and "look-alike" in mended["1"][0]
    assert len(mended["2"]) == 1 and "'B)'" in mended["2"][0]


def test_a_look_alike_of_a_label_the_sequence_has_passed_is_the_options_text():
    # After `б)`, a `6)` is б's look-alike, not the next label's: inside the option's words, no gap before it, it stays text.
    questions = _parsed(RUSSIAN, [("1. Что из перечисленного верно?", []),
                                  ("а) пастельные б) 22 6) риффов", []), ("в) гению г) закалялась", [])])
    assert questions["1"].choices == ["пастельные", "22 6) риффов", "гению", "закалялась"]
    assert not has_code(questions["1"].flags, Code.LABEL_RESTORED)


def test_a_labels_mark_read_doubled_or_with_a_speck_after_it_is_cut_with_the_label():
    questions = _parsed(GREEK, [("1. Ποιο από τα παρακάτω είναι σωστό;", []),
                                _row("α)) ιατρικών    β), 1903 καταγράψει    γ) λουλουδιών    δ)) ράτσες")])
    assert questions["1"].choices == ["ιατρικών", "1903 καταγράψει", "λουλουδιών", "ράτσες"]
    assert not has_code(questions["1"].flags, Code.LABEL_RESTORED)  # every label was read; only a mark more


def test_more_misread_labels_than_labels_read_right_are_no_row_to_mend():
    questions = _parsed(GREEK, [("1. Ποιο από τα παρακάτω είναι σωστό;", []),
                                _row("α) ιατρικών    B) 1903    y) λουλουδιών    ϐ) ράτσες")])
    assert not has_code(questions["1"].flags, Code.LABEL_RESTORED)
    assert len(questions["1"].choices) < 4


def test_the_text_layer_is_read_as_printed():
    questions = _parsed(GREEK, [("1. Ποιο από τα παρακάτω είναι σωστό;", []),
                                _row("α) ιατρικών    β) 1903    y) λουλουδιών    δ) ράτσες")], PageMethod.TEXT)
    assert not has_code(questions["1"].flags, Code.LABEL_RESTORED)
    assert "γ" not in questions["1"].choice_labels


# --------------------------------------------------------------------------- scanned sheets

# Sheets whose scans misread labels in a row (`pipeline.devkit.rowscans`' tuning families): on the Greek one `(Γ)`
# comes out as `(5)` or `(1)`, on the Turkish one `(D)` as `oO(D)` glued to the option before it; read before the
# row-labels pass, those questions lost every option.
SCANNED = [
    (Family("el-row-caps", "el", "ell", ("Α", "Β", "Γ", "Δ"), "(A)", "row", "DejaVuSerif", 302, questions=12), ScanSetting(200, 0.7, 75)),
    (Family("tr-row-paren", "tr", "tur", ("A", "B", "C", "D", "E"), "(A)", "row", "DejaVuSerif", 303, questions=12),
     ScanSetting(150, 0.6, 80)),
]


@pytest.mark.parametrize("family,scan", [pytest.param(f, s, id=f.name, marks=needs_tesseract(f.tesseract)) for f, s in SCANNED])
def test_a_scanned_row_of_options_comes_out_with_every_label(tmp_path, family, scan):
    printed = printed_questions(family, _vocabulary(family))
    clean = sheet_pdf(tmp_path / "text" / "sheet.pdf", family, printed)
    scanned = scan.rasterise(clean, tmp_path / "2031" / "sheet.pdf", seed=family.seed)
    the_spec = family_spec(family)
    document = extract_document(scanned, hashlib.sha256(scanned.read_bytes()).hexdigest(), ExtractOptions.from_spec(the_spec))
    read = {q.number: q for q in parse_sheet(document, _entry(scanned, the_spec.name), [], the_spec).questions}
    assert sorted(read, key=int) == [q.number for q in printed]
    for question in printed:
        assert read[question.number].choice_labels == list(family.labels), question.number
    # The options' texts, bar a letter OCR misread inside a word, are the printed ones, each under its own label.
    exact = sum(a == b for q in printed for a, b in zip(read[q.number].choices, q.options))
    assert exact >= sum(len(q.options) for q in printed) - 3
