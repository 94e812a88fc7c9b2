"""What the OCR repairs put back rather than read is never silent: a number a count gave in place of what was read is
written unsure and named, question by question, in a page note (`ocr.number_inferred`); a mark put back after a label
or number that was itself read is counted in one info note a page (`ocr.marks_restored`)."""
from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from pipeline.devkit.keyscans import CHECKING, key_options, read_key, same_answer
from pipeline.devkit.sample.keysheets import shaded_blocks
from pipeline.devkit.sample.pdfgen import build_pdf, rasterize_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.diagnostics import Code, Severity
from pipeline.extract import ExtractedDocument, Page, PageMethod, extract_document
from pipeline.extract.ocr.labels import restore_label_marks, restore_question_numbers, restored_marks_note
from pipeline.extract.ocr.numbering import anchored_mends, inferred_notes
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


def test_an_anchored_mend_is_said_at_info_and_parse_does_not_key_it_by_inference():
    mended = replace(_word("11", 2, inferred_from="14"), inferred_anchored=True)
    (note,) = inferred_notes([_word("10", 1), mended, _word("12", 3)], "key table")
    assert (note.code, note.severity, note.concerns.question) == (Code.OCR_NUMBER_ANCHORED, Severity.INFO, "11")
    assert "read as '14'" in note
    page = Page(number=1, width=595.0, height=842.0, method=PageMethod.OCR, ocr_notes=[note])
    assert inferred_numbers(ExtractedDocument("0" * 64, "key.pdf", 1, [page], "extract/test")) == set()


def test_a_mend_is_anchored_only_between_two_neighbours_read_as_the_count_says():
    run = [21, 22, 23, 24, 25, 26]
    assert anchored_mends(["21", "22", "28", "24", "25", "26"], run) == {2}  # "28" between 22 and 24 read
    assert anchored_mends(["27", "22", "23", "24", "25", "29"], run) == set()  # at the run's two ends
    assert anchored_mends(["21", "22", "", "24", "25", "26"], run) == {2}  # its ink read as nothing, between read rows
    assert anchored_mends(["21", "22", None, "24", "25", "26"], run) == set()  # no cell there
    # Mends side by side between two rows read as counted: as many rows between them as numbers, each row's place is
    # geometry (the generated keys' `6:` `7:` `8:` read as nothing between `5:` and `9:`).
    assert anchored_mends(["21", "22", "28", "29", "25", "26"], run) == {2, 3}
    assert anchored_mends(["21", "22", "28", "", "25", "26"], run) == {2, 3}
    assert anchored_mends(["21", "0", "8", "9", "0", "26"], run) == set()  # a stretch longer than `MEND_MAX_PLACES`
    assert anchored_mends(["21", "22", "28", None, "25", "26"], run) == set()  # a row without its cell breaks the stretch
    assert anchored_mends(["21", "22", "23", "24", "0", "0"], run) == set()  # a stretch at the run's end
    assert anchored_mends(["21", "22", "23", "24", "25", "26"], run) == set()  # nothing mended
    # Blocks of a closed-questions key (`counted_blocks`): a mend where the count jumps is at its block's end.
    assert anchored_mends(["3", "4", "5", "6", "10", "11"], [3, 4, 5, 9, 10, 11]) == set()
    assert anchored_mends(["3", "4", "5", "9", "16", "11", "12"], [3, 4, 5, 9, 10, 11, 12]) == {4}  # inside its block
    assert anchored_mends(["01", "07", "03"], [1, 2, 3]) == {1}  # printed with a leading zero
    # Digits `int` refuses ("²".isdigit() and "②".isdigit() are true) are misreads, not a crash.
    assert anchored_mends(["1", "²", "3", "②", "5"], [1, 2, 3, 4, 5]) == {1, 3}


def test_a_question_number_mended_from_look_alikes_or_the_sequence_is_inferred_a_lost_dot_only_counted():
    words = [_word("49.", 1), _word("so", 2), _word("51.", 3), _word("52,", 4), _word("93.", 5), _word("54.", 6)]
    mended = restore_question_numbers(words)
    assert [w.text for w in mended] == ["49.", "50", "51.", "52.", "53.", "54."]
    # "so" read no digit, "93" broke the run between 52 and 54: their numbers are the count's; "52," was read.
    assert [(w.text, w.inferred_from) for w in mended if w.inferred_from is not None] == [("50", "so"), ("53.", "93.")]
    # Each between the numbers above and below read as one less and one more: anchored, said at info.
    notes = inferred_notes(mended, "question numbers")
    assert [(n.code, n.concerns.question) for n in notes] == [(Code.OCR_NUMBER_ANCHORED, "50"), (Code.OCR_NUMBER_ANCHORED, "53")]
    (marks,) = restored_marks_note(words, mended, "question number(s)")
    assert marks.code is Code.OCR_MARKS_RESTORED and marks.severity is Severity.INFO and marks.startswith("1 question number(s)")
    assert marks.endswith(": 52.")


def test_a_question_number_mended_at_the_columns_end_or_beside_another_mend_is_flagged():
    # "so" opens the column; "93" stands beside it (its neighbour above mended too): neither anchored.
    words = [_word("so", 1), _word("51.", 2), _word("52.", 3), _word("93.", 4), _word("54.", 5)]
    mended = restore_question_numbers(words)
    assert [w.text for w in mended] == ["50", "51.", "52.", "53.", "54."]
    assert [(n.code, n.concerns.question) for n in inferred_notes(mended, "question numbers")] == [
        (Code.OCR_NUMBER_INFERRED, "50"), (Code.OCR_NUMBER_ANCHORED, "53")]
    beside = restore_question_numbers([_word("49.", 1), _word("so", 2), _word("s1.", 3), _word("52.", 4)])
    assert [(w.text, w.inferred_anchored) for w in beside if w.inferred_from is not None] == [("50", False), ("51.", False)]


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
def test_a_key_number_misread_on_a_scan_between_neighbours_read_is_named_at_info_and_its_entry_keyed_as_read(tmp_path: Path):
    # At 150 dpi, blur 0.8 the number cell of 11 reads "14" between 10 and 12, read as printed: the column's count gives
    # 11 and the mend is anchored (`numbering.anchored_mends`): said, at info, with the reading's confidence; no flag.
    sheet = shaded_blocks(0, variants=("1403", "9777"), chosen=1)
    scan = rasterize_pdf(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70,
                         noise=0.01, seed=0)
    cache = tmp_path / "ocr-cache"  # the page is read once; `read_key` below reads it from the cache
    document = extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), key_options(sheet, ocr_cache=cache))
    said = [n for page in document.pages for n in page.ocr_notes if n.code in (Code.OCR_NUMBER_INFERRED, Code.OCR_NUMBER_ANCHORED)]
    assert [(n.code, n.concerns.question, "read as '14'" in n) for n in said] == [(Code.OCR_NUMBER_ANCHORED, "11", True)]
    assert [line.unsure_words for page in document.pages for line in page.lines if line.text == "11"] == [[]]
    assert any("question 11's number" in w for w in document.warnings)  # the report's line on it
    assert inferred_numbers(ExtractedDocument.from_json(document.to_json())) == set()  # the note keeps its code
    table = read_key(scan, sheet, ocr_cache=cache)
    assert table.inferred == set() and same_answer(table.answers["11"], sheet.truth["11"])


@needs_tesseract("pol")
def test_on_a_scanned_list_key_mends_side_by_side_are_flagged_and_lone_ones_only_said(tmp_path: Path):
    # The five-column tabbed list key (`keyscans` checking family list-tab-five) at 200 dpi, blur 0.6, JPEG 80: a run of
    # numbers misread together (54–58 read "34 99 96 7 38") are each put in from the count but stay in doubt; a single
    # misread digit (7 read "1") or a number cell read as nothing (5), between two numbers read as printed, is anchored.
    sheet = CHECKING["list-tab-five"](0)
    setting = ScanSetting(200, 0.6, 80, 0.0)
    scan = setting.rasterise(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", seed=0)
    cache = tmp_path / "ocr-cache"
    document = extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), key_options(sheet, ocr_cache=cache))
    notes = [n for page in document.pages for n in page.ocr_notes if n.code in (Code.OCR_NUMBER_INFERRED, Code.OCR_NUMBER_ANCHORED)]
    inferred = {int(n.concerns.question) for n in notes if n.code is Code.OCR_NUMBER_INFERRED}
    anchored = {int(n.concerns.question) for n in notes if n.code is Code.OCR_NUMBER_ANCHORED}
    assert {54, 55, 56, 57, 58} <= inferred and {5, 7} <= anchored
    # The rule holds on the page: an anchored number's neighbours were read as printed (no note on either).
    assert not any(q - 1 in inferred | anchored or q + 1 in inferred | anchored for q in anchored)
    unsure = {w.rstrip(".):") for page in document.pages for line in page.lines for w in line.unsure_words}
    assert {str(q) for q in inferred} <= unsure and not {str(q) for q in anchored} & unsure  # at 0 / at the reading's
    table = read_key(scan, sheet, ocr_cache=cache)
    assert table.inferred == {str(q) for q in inferred} & set(table.answers) and not table.inferred & {str(q) for q in anchored}
    assert all(same_answer(table.answers[str(q)], sheet.truth[str(q)]) for q in anchored | inferred if str(q) in table.answers)
