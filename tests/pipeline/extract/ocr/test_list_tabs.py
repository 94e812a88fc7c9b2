"""List keys whose answer stands at a tab stop ("1.      a"), past a dotted leader ("7. ........ в"), in blocks whose
numbers start again under a heading, or in columns set half a row apart (`listcells`): each entry is found from the
key's own geometry, every answer lands on its own question or is reported for it, never on a neighbour's."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import tab_list, tab_list_leaders
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.listcells import Entry, _at_tab_stop, _like_their_label, _lines, _places, list_entries
from tests.pipeline.extract.ocr.builders import needs_tesseract


def _scan(source: Path, folder: Path, dpi: int, tilt: float = 0.0, blur: float = 0.8) -> Path:
    return rasterize_pdf(source, folder / f"{source.stem}-{dpi}-{tilt}-{blur}.pdf", dpi=dpi, blur=blur, jpeg_quality=70, noise=0.01,
                         seed=0, rotate_deg=tilt)


def _right_wrong(sheet, table) -> tuple[int, list[str]]:
    right = sum(same_answer(table.answers.get(n, ""), a) for n, a in sheet.truth.items())
    wrong = [n for n, a in sheet.truth.items() if n in table.answers and not same_answer(table.answers[n], a)]
    return right, wrong


def _prepared(pdf: Path):
    image, _, _ = render_page(pdfium.PdfDocument(str(pdf)), 0, 300)
    return prepare_for_tesseract(image, 300)


@needs_tesseract("spa")
def test_answers_at_a_tab_stop_are_read_entry_by_entry_straight_and_tilted(tmp_path):
    # Before: at 150 dpi, blur 0.8, JPEG 70 the number and its answer, two row heights apart, were two groups and no
    # entry; the page reading kept 12 of 60 (25 at +2°) and gave 1–4 answers to the wrong question.
    sheet = tab_list(0)
    source = build_pdf(tmp_path / "tab.pdf", sheet.pages)
    for tilt in (0.0, -2.0):
        table = read_key(_scan(source, tmp_path, 150, tilt), sheet)
        right, wrong = _right_wrong(sheet, table)
        missing = [n for n in sheet.truth if n not in table.answers]
        assert wrong == [] and right >= len(sheet.truth) - 2, (tilt, right, wrong, table.problems)
        assert all(n in table.unread or any(n in p for p in table.problems) for n in missing), (missing, table.problems)


@needs_tesseract("rus")
def test_a_dotted_leader_is_no_part_of_the_number_or_the_answer(tmp_path):
    # Three columns of "n. ...... б": the dots, some run together by the blur, made every number too wide and the
    # first column's dots a group of their own; the page reading kept 16 of 60. On a sharp 300 dpi scan the dots
    # run into one rule, once taken for a dash ("1. - б", which the key's pattern refuses): 21 of 60.
    sheet = tab_list_leaders(0)
    source = build_pdf(tmp_path / "leaders.pdf", sheet.pages)
    for dpi, blur in ((150, 0.8), (300, 0.4)):
        scan = _scan(source, tmp_path, dpi, blur=blur)
        columns = list_entries(_prepared(scan), [], 300)
        assert sorted(len(c) for c in columns) == [20, 20, 20], dpi
        # Each number ends with its mark, well before its answer: the leader between is neither's, nor a dash.
        assert all(e.answer[0] - e.number[2] > 3 * e.height and e.dash is None for c in columns for e in c), dpi
        table = read_key(scan, sheet)
        right, wrong = _right_wrong(sheet, table)
        assert wrong == [] and right >= len(sheet.truth) - 2, (dpi, right, wrong, table.problems)


def test_numbers_that_start_again_under_a_heading_are_a_block_of_their_own(tmp_path):
    # A key's part and its reserve questions down one column: 1.–12., a heading, 1.–4. Counted as one run, the
    # reserve entries would take the numbers 15–18 (their places under 12); as a block of their own they keep 1–4.
    items = [TextBox(f"{n}.", 20, 20 + 4.4 * n, 8, size=10) for n in range(1, 13)]
    items += [TextBox("abcd"[n % 4], 29, 20 + 4.4 * n, 6, size=10) for n in range(1, 13)]
    items.append(TextBox("Preguntas de reserva", 20, 20 + 4.4 * 14, 80, size=10, bold=True))
    items += [TextBox(f"{n}.", 20, 20 + 4.4 * (15 + n), 8, size=10) for n in range(1, 5)]
    items += [TextBox("abcd"[n % 4], 29, 20 + 4.4 * (15 + n), 6, size=10) for n in range(1, 5)]
    scan = _scan(build_pdf(tmp_path / "reserve.pdf", [PageSpec(items)]), tmp_path, 200)
    blocks = sorted(list_entries(_prepared(scan), [], 300), key=lambda b: b[0].number[1])
    assert [len(b) for b in blocks] == [12, 4]
    assert all(e.tab for e in blocks[0][:9] + blocks[1])  # "1." to "9.": two row heights from their answers


def _entry(top: int, number: tuple[int, int], answer: int, *, tab: bool = True, after: int | None = None) -> Entry:
    return Entry((number[0], top, number[1], top + 25), (answer, top + 6, answer + 16, top + 25), None, 25, top, tab=tab,
                 after=(after, top + 6, after + 16, top + 25) if after is not None else None)


def test_the_pitch_of_rows_set_42_and_44_px_apart_is_fitted_not_taken_from_the_median_step():
    # 50 rows 43 px apart on average, rounded to whole pixels: the median step (44) put the last rows a place off
    # and the whole column of a 150 dpi key was refused; fitted, every row has its place, and a row lost stays a hole.
    tops = [round(300 + 43.2 * i) for i in range(50) if i != 20]
    places = _places([_entry(top, (120, 160), 208) for top in tops])
    assert places == [i for i in range(50) if i != 20]


def test_an_entry_is_set_to_the_tab_stop_its_column_shares():
    column = [_entry(300 + 43 * i, (120, 160), 208) for i in range(7) if i != 3]
    # "31." parted into "3" and "1.": taken first as the number 3 and the answer "1.", with the glyph at the stop after it.
    column.insert(3, _entry(429, (121, 136), 146, tab=False, after=208))
    # The next column's "6." taken for this row's lost answer: off the stop, no entry (its place stays a hole).
    column.append(_entry(300 + 43 * 7, (120, 137), 1318))
    kept = _at_tab_stop(column)
    assert len(kept) == 7 and all(e.answer[0] == 208 for e in kept)
    split = next(e for e in kept if e.number[1] == 429)
    assert split.number == (121, 429, 162, 454) and split.tab


def test_two_columns_half_a_row_apart_keep_their_own_lines():
    # INAP's right column stands ~10 px (0.4 of a row) lower than the left one: one band of ink, two lines.
    left = [(121, 2690, 159, 2715), (208, 2691, 225, 2715)]
    right = [(1318, 2680, 1334, 2706), (1406, 2686, 1422, 2705)]
    assert _lines(left + right) == [left, right]
    # A descender below the digits (γ) and a small letter inside their height stay on the line.
    assert _lines([(100, 0, 130, 25), (200, 8, 214, 32), (300, 0, 330, 25), (400, 7, 414, 25)]) == [
        [(100, 0, 130, 25), (200, 8, 214, 32), (300, 0, 330, 25), (400, 7, 414, 25)]]


def _lone_letter(row: int, reach: tuple[int, int]) -> Entry:
    """An entry "12. x" on a row whose digits stand from `row` to `row + 26`; the answer's ink from `row + reach[0]`
    to `row + reach[1]`."""
    return Entry((100, row, 140, row + 26), (200, row + reach[0], 214, row + reach[1]), None, 26, row)


def test_an_unsure_answer_whose_ink_reaches_like_another_label_is_left_unread():
    # Small Greek letters at 150 dpi, all read against the labels at confidence 0: α stays inside the x-height
    # (8–26 of the digits' 0–26), β reaches above and below (−2–33). A β read "α" is off every α and like the β's.
    alpha, beta = (8, 26), (-2, 33)
    entries = [_lone_letter(50 * i, reach) for i, reach in enumerate([alpha, alpha, alpha, beta, beta, beta, beta, alpha])]
    readings: list[tuple[str, float] | None] = [("α", 0.0)] * 3 + [("β", 0.0)] * 3 + [("α", 0.0), ("α", 0.0)]
    kept = _like_their_label(entries, readings, [False] * len(entries))
    assert kept == readings[:6] + [None, ("α", 0.0)]
    # Read surely, or settled by the page reading at its place, the same reading stands.
    assert _like_their_label(entries, readings[:6] + [("α", 93.0), readings[7]], [False] * 8)[6] == ("α", 93.0)
    assert _like_their_label(entries, readings, [False] * 6 + [True, False])[6] == ("α", 0.0)
    # Capitals share one reach: nothing to tell them by, nothing refused.
    capitals = [_lone_letter(50 * i, (0, 26)) for i in range(12)]
    letters: list[tuple[str, float] | None] = [(label, 0.0) for label in "ABCDABCDABCD"]
    assert _like_their_label(capitals, letters, [False] * 12) == letters
