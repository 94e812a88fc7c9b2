"""Short-answer key entries (text, not option labels) read by OCR: an entry whose reading is unsure carries the
question's uncertainty, so a misread letter (`soneť` for `sonet`), a dash of the wrong kind or a small letter read as
its capital never keys a question wrongly without a word; an entry read alike by the text layer is never judged,
and a word the language's dictionary knows, a number with its unit, passes (`shortentries`)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import KeySheet
from pipeline.devkit.sample.pdfgen import TextBox, build_pdf, rasterize_pdf
from pipeline.devkit.sample.shortkeysheets import short_table
from pipeline.extract.ocr import spelled_for
from pipeline.extract import Line
from pipeline.parse import KeyTable
from pipeline.parse.shortentries import (lines_above_number, lopsided_slashes, odd_words, stray_marks, unpaired_brackets,
                                         unsure_short_entries)
from pipeline.parse.shortrepairs import mend_short_entries, slash_reading
from pipeline.parse.stream import StreamLine
from tests.pipeline.extract.ocr.builders import needs_tesseract

SLOVAK = spelled_for(("slk",))
needs_slovak_dictionary = pytest.mark.skipif(SLOVAK is None, reason="no Slovak spelling dictionary (hunspell-sk)")


@needs_slovak_dictionary
@pytest.mark.parametrize("entry, unsure", [
    ("sonet/znelka", []),
    ("soneť/znelka", ["soneť"]),  # a letter read with a mark the dictionary does not know
    ("interview/lnterview", ["lnterview"]),  # I read as l
    ("2/dva (vetné sklady)/2 (sklady)", []),
    ("12,5 cm", []),  # a number and its unit
    ("l2,5 cm", ["l2,5"]),  # a digit read as a letter
    ("-5 °C", []),
    ("ako/– ako", ["–"]),  # a dash apart: its length is what a blur loses
    ("do úradného (Štýlu)", ["Štýlu"]),  # a small letter read as its capital of the same shape
    ("Vychádzajúc/vychádzajúc", []),  # a capital opening an alternative is no misreading
    ("milýfúbostný", ["milýfúbostný"]),  # two alternatives glued, their slash read as a letter
])
def test_the_words_of_a_short_answer_entry_a_reading_is_unsure_of(entry, unsure):
    assert odd_words(entry, SLOVAK) == unsure


def test_a_slash_with_a_space_on_one_side_only_is_unsure_unless_a_line_ends_there():
    assert lopsided_slashes("5/ päť") == ["/"] and lopsided_slashes("5 /päť") == ["/"]
    assert lopsided_slashes("5 / päť") == [] and lopsided_slashes("5/päť") == []
    assert lopsided_slashes("predmet/priamy predmet/ ") == []  # the cell wraps after the slash


def test_without_a_dictionary_only_the_signs_are_judged():
    assert odd_words("soneť/znelka", None) == []
    assert odd_words("3š/tri", None) == ["3š"]


def _misprinted_key() -> KeySheet:
    """A generated Slovak short-answer table whose entries 14 and 19 are printed misspelt: read right by OCR, they
    are still words no dictionary knows, as a misreading would be."""
    sheet = short_table("sk", 0)
    return _printed_instead(sheet, {sheet.truth["19"]: "prísudoť", sheet.truth["14"]: "prívlastek"})


def _printed_instead(sheet: KeySheet, misprints: dict[str, str]) -> KeySheet:
    """`sheet` with each entry text of `misprints` printed as its value, the truth following the print."""
    pages = [replace(page, items=[replace(item, text=misprints[item.text]) if isinstance(item, TextBox) and item.text in misprints
                                  else item for item in page.items]) for page in sheet.pages]
    truth = {n: misprints.get(a, a) for n, a in sheet.truth.items()}
    return KeySheet(sheet.name, pages, truth, sheet.key, sheet.labels, sheet.languages)


@needs_slovak_dictionary
@needs_tesseract("slk")
def test_a_scanned_short_answer_table_flags_its_unsure_entries_and_only_those(tmp_path):
    sheet = _misprinted_key()
    assert sheet.truth["19"] == "prísudoť" and sheet.truth["14"] == "prívlastek"
    source = build_pdf(tmp_path / "key.pdf", sheet.pages)
    text = read_key(source, sheet)
    assert text.answers == sheet.truth
    assert unsure_short_entries(text.answers, text.sources, sheet.labels, SLOVAK, all_ocr=False) == {}  # the text layer is sure

    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=300, blur=0.4, jpeg_quality=90, noise=0.0, seed=0)
    table = read_key(scan, sheet)
    assert set(table.sources) == set(table.answers)  # every row's answer knows the lines it was read from
    unsure = unsure_short_entries(table.answers, table.sources, sheet.labels, SLOVAK, all_ocr=True)
    wrong = {n for n, a in sheet.truth.items() if n in table.answers and not same_answer(table.answers[n], a)}
    assert {"14", "19"} - wrong <= set(unsure)  # the misprints, read as printed, are unsure
    # Every entry read otherwise than printed is flagged, but one: Tesseract reads the cell `79 %` as `79` (the sign
    # dropped with its box: no word of the line is unsure of it, and a number alone is a right answer elsewhere).
    assert len(wrong - set(unsure)) <= 1, (wrong, unsure)
    assert len(unsure) <= len(sheet.truth) // 3, unsure  # the rest, words and numbers read right, are not


@needs_slovak_dictionary
@pytest.mark.parametrize("read, mended", [
    ("4lštyri", "4/štyri"),  # a slash read as `l` between a number and its word
    ("hyperbolalbalada", "hyperbola/balada"),  # between two words
    ("soneť", None),  # no stroke parts it into known words: left as read (and flagged)
    ("milýfúbostný", None),  # `ľ` lost with the slash: the second half is no word
    ("Bratislava", None),  # a word the dictionary knows is never parted
])
def test_a_slash_read_as_a_letter_of_its_shape_is_read_as_the_slash_where_the_dictionary_decides(read, mended):
    assert slash_reading(read, SLOVAK) == mended


def _line(text: str, top: float, *, ocr: bool = True) -> StreamLine:
    return StreamLine(1, Line(text, 100.0, top, 200.0, top + 10.0), ocr=ocr)


@needs_slovak_dictionary
def test_a_mended_entry_keeps_its_reading_and_stays_unsure_and_a_text_layer_entry_is_not_mended():
    table = KeyTable("key", answers={"6": "4lštyri", "7": "4lštyri"},
                     sources={"6": [_line("4lštyri", 50)], "7": [_line("4lštyri", 70, ocr=False)]})
    mend_short_entries(table, ("A", "B"), SLOVAK, all_ocr=False)
    assert table.answers == {"6": "4/štyri", "7": "4lštyri"}
    assert table.repaired == {"6": ["4lštyri"]}
    assert unsure_short_entries(table.answers, table.sources, ("A", "B"), SLOVAK, False, table.repaired) == {"6": ["4lštyri"]}


def test_a_table_entry_with_more_lines_above_its_number_than_below_rests_on_another_row():
    number = _line("39", 100)
    centred = [_line("dramatickú/", 88), _line("logickú", 100), _line("(pauza)", 112)]
    assert lines_above_number(centred, number) == []  # a cell centred on its number
    top_set = [_line("predmet/", 100), _line("priamy predmet", 112)]
    assert lines_above_number(top_set, number) == []  # a cell set from the top, level with its number
    assert lines_above_number([_line("(prestávka/pauza)", 86), _line("lyrika", 100)], number) == ["(prestávka/pauza)"]


def test_the_row_above_an_entry_that_took_a_line_of_its_cell_is_unsure_too():
    numbers = {"38": _line("38", 60), "39": _line("39", 100)}
    sources = {"38": [_line("dramatickú/významovú/", 48), _line("logická", 72)],  # centred: one line above, one below
               "39": [_line("(prestávka/pauza)", 86), _line("lyrika", 100)]}
    answers = {"38": "dramatickú/významovú/ logická", "39": "(prestávka/pauza) lyrika"}
    unsure = unsure_short_entries(answers, sources, (), None, True, None, numbers)
    assert unsure == {"39": ["'(prestávka/pauza)'"], "38": ["a line read into question 39's entry"]}


@pytest.mark.parametrize("entry, strays", [
    ("hypotézu/hypotéza:", ["hypotéza:"]),  # a speck by the last letter read as a colon
    (". 10/desať (ľudí/osôb)", ["."]),  # one before the first, read as a stop of its own
    ("a, b/c; d", []),  # marks inside an alternative part its words
    ("1:2/10:30", []),  # a ratio, a time
    (".5/0,5", []),  # a decimal point glued to its digits
    ("predmet/priamy predmet/", []),  # a cell wrapped after its slash
])
def test_a_mark_no_answer_opens_or_ends_with_is_a_speck_read_as_one(entry, strays):
    assert stray_marks(entry) == strays


def _dusty_key() -> KeySheet:
    """A generated Slovak short-answer table two of whose entries are printed as a dusty scan's specks read them: a
    colon after one's last letter, a stop of its own before the other's first: words the dictionary knows all the same."""
    sheet = short_table("sk", 0)
    numbers = sorted(sheet.truth, key=int)
    return _printed_instead(sheet, {sheet.truth[numbers[2]]: sheet.truth[numbers[2]] + ":",
                                    sheet.truth[numbers[5]]: ". " + sheet.truth[numbers[5]]})


@needs_slovak_dictionary
@needs_tesseract("slk")
def test_a_scanned_entry_with_a_mark_at_its_edge_no_answer_has_there_is_unsure(tmp_path):
    sheet = _dusty_key()
    numbers = sorted(sheet.truth, key=int)
    dusty = {numbers[2], numbers[5]}
    scan = rasterize_pdf(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", dpi=300, blur=0.4, jpeg_quality=90,
                         noise=0.0, seed=0)
    table = read_key(scan, sheet)
    read_as_printed = {n for n in dusty if same_answer(table.answers.get(n, ""), sheet.truth[n])}
    assert read_as_printed == dusty, {n: table.answers.get(n) for n in dusty}
    unsure = unsure_short_entries(table.answers, table.sources, sheet.labels, SLOVAK, all_ocr=True)
    assert dusty <= set(unsure), unsure


@pytest.mark.parametrize("entry, lone", [
    ("4 [ cztery", ["["]),  # the slash of `4 / cztery` blurred into a bracket
    ("do úradného (štýlu", ["(štýlu"]),  # the closing one lost
    ("štýlu) slohu", ["štýlu)"]),
    ("2/dva (vetné sklady)", []),
    ("[a, b)", []),  # an interval: brackets of two kinds are still a pair
    ("a) áno b) nie", []),  # an enumeration's closing brackets
])
def test_a_bracket_without_its_partner_is_a_stroke_misread(entry, lone):
    assert unpaired_brackets(entry) == lone


def _bracketed_key() -> KeySheet:
    """A generated Slovak short-answer table whose entry `4 / štyri` is printed as a blurred scan read it, `4 [ štyri`:
    a number and a numeral word with a sign between them, words the dictionary knows."""
    sheet = short_table("sk", 0)
    return _printed_instead(sheet, {"4 / štyri": "4 [ štyri"})


@needs_tesseract("slk")
def test_a_scanned_entry_with_a_lone_bracket_is_unsure(tmp_path):
    sheet = _bracketed_key()
    number = next(n for n, a in sheet.truth.items() if a == "4 [ štyri")
    scan = rasterize_pdf(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", dpi=300, blur=0.4, jpeg_quality=90,
                         noise=0.0, seed=0)
    table = read_key(scan, sheet)
    assert same_answer(table.answers.get(number, ""), "4 [ štyri"), table.answers.get(number)
    unsure = unsure_short_entries(table.answers, table.sources, sheet.labels, SLOVAK, all_ocr=True)
    assert "[" in unsure.get(number, []), unsure
