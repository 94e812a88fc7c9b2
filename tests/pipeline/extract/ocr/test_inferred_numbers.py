"""What the OCR repairs put back rather than read is never silent: a number a count gave in place of what was read is
written unsure and named, question by question, in a page note (`ocr.number_inferred`); a mark put back after a label
or number that was itself read is counted in one info note a page (`ocr.marks_restored`)."""
from __future__ import annotations

import hashlib
from pathlib import Path

from pipeline.devkit.keyscans import key_options, read_key, same_answer
from pipeline.devkit.sample.keysheets import shaded_blocks
from pipeline.devkit.sample.pdfgen import build_pdf, rasterize_pdf
from pipeline.diagnostics import Code, Severity
from pipeline.extract import ExtractedDocument, extract_document
from pipeline.extract.ocr.labels import restore_label_marks, restore_question_numbers, restored_marks_note
from pipeline.extract.ocr.numbering import inferred_notes
from pipeline.extract.ocr.reading import PageReading
from pipeline.extract.ocr.words import Word
from pipeline.parse import inferred_numbers
from tests.pipeline.extract.ocr.builders import needs_tesseract


def _word(text: str, row: int, left: int = 100, inferred_from: str | None = None) -> Word:
    return Word(text, 90.0, left, 40 * row, left + 20 * len(text), 40 * row + 30, (1, row, 1), inferred_from=inferred_from)


def test_each_number_a_count_gave_is_a_note_naming_its_question_and_what_was_read():
    words = [_word("10", 1), _word("11", 2, inferred_from="14"), _word("12", 3, inferred_from=""), _word("13", 4)]
    notes = inferred_notes(words, "key table")
    assert [(n.code, n.concerns.question) for n in notes] == [(Code.OCR_NUMBER_INFERRED, "11"), (Code.OCR_NUMBER_INFERRED, "12")]
    assert "read as '14'" in notes[0] and "nothing read" in notes[1] and all(n.severity is Severity.WARNING for n in notes)
    assert inferred_notes([_word("10", 1), _word("11.", 2)], "key list") == ()


def test_a_question_number_mended_from_look_alikes_or_the_sequence_is_inferred_a_lost_dot_only_counted():
    words = [_word("49.", 1), _word("so", 2), _word("51.", 3), _word("52,", 4), _word("93.", 5), _word("54.", 6)]
    mended = restore_question_numbers(words)
    assert [w.text for w in mended] == ["49.", "50", "51.", "52.", "53.", "54."]
    # "so" read no digit, "93" broke the run between 52 and 54: their numbers are the count's; "52," was read.
    assert [(w.text, w.inferred_from) for w in mended if w.inferred_from is not None] == [("50", "so"), ("53.", "93.")]
    assert [n.concerns.question for n in inferred_notes(mended, "question numbers")] == ["50", "53"]
    (marks,) = restored_marks_note(words, mended, "question number(s)")
    assert marks.code is Code.OCR_MARKS_RESTORED and marks.severity is Severity.INFO and marks.startswith("1 question number(s)")
    assert marks.endswith(": 52.")


def test_a_label_given_its_lost_mark_is_counted_in_one_info_note():
    words = [_word("A.", 1), _word("jest", 1, 160), _word("B", 2), _word("jest", 2, 160), _word("C.", 3), _word("jest", 3, 160)]
    restored = restore_label_marks(words, ["A", "B", "C"])
    (note,) = restored_marks_note(words, restored, "option label(s)")
    assert note.severity is Severity.INFO and note == "1 option label(s) read without the mark the page's others carry, given it: B."
    assert restored_marks_note(words, words, "option label(s)") == ()


def test_a_page_readings_notes_keep_the_question_they_name_through_the_cache():
    (note,) = inferred_notes([_word("7", 1, inferred_from="1")], "key table")
    again = PageReading.from_json(PageReading(100, 100, notes=(note,)).to_json())
    assert [(n.code, n.concerns.question) for n in again.notes] == [(Code.OCR_NUMBER_INFERRED, "7")]


@needs_tesseract("slk")
def test_a_key_number_misread_on_a_scan_is_read_unsure_named_and_its_entry_keyed_by_inference(tmp_path: Path):
    # At 150 dpi, blur 0.8 the number cell of 11 reads "14" above "12 13": the column's count gives 11 (`numbering`).
    sheet = shaded_blocks(0, variants=("1403", "9777"), chosen=1)
    scan = rasterize_pdf(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70,
                         noise=0.01, seed=0)
    cache = tmp_path / "ocr-cache"  # the page is read once; `read_key` below reads it from the cache
    document = extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), key_options(sheet, ocr_cache=cache))
    inferred = [n for page in document.pages for n in page.ocr_notes if n.code is Code.OCR_NUMBER_INFERRED]
    assert [(n.concerns.question, "read as '14'" in n) for n in inferred] == [("11", True)]
    assert [line.unsure_words for page in document.pages for line in page.lines if line.text == "11"] == [["11"]]
    assert inferred_numbers(ExtractedDocument.from_json(document.to_json())) == {"11"}  # the note keeps its question
    table = read_key(scan, sheet, ocr_cache=cache)
    assert table.inferred == {"11"} and same_answer(table.answers["11"], sheet.truth["11"])
