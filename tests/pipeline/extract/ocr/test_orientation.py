"""A page scanned upside down or on its side is turned upright before it is read: it reads as the
upright scan does, on a page of the other shape when it lay sideways; an upright page never pays for
the orientation check."""
from __future__ import annotations

import pytest

from pipeline.extract.ocr import OcrSettings, lay_out_page, read_page
from pipeline.extract.ocr.orientation import (counting_numbers, may_lie_turned, numbers_read, reads_as_numbers, sparse_and_unread,
                                              sparse_turned_reading_loses, sparse_turned_reading_wins)
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

SETTINGS = OcrSettings(languages=("pol",), dpi=300)


def _text(reading, width_pt, height_pt) -> tuple[str, float, float]:
    page = lay_out_page(reading, SETTINGS, page_number=1, width_pt=width_pt, height_pt=height_pt)
    return " ".join(page.text.split()), page.width, page.height


@needs_tesseract("pol", "osd")  # osd: the orientation data Debian's tesseract-ocr installs with it
@pytest.mark.parametrize("turned_by", [180, 90])
def test_a_turned_page_reads_as_the_upright_scan_does(polish_question_scan, turned_by):
    image, width_pt, height_pt = polish_question_scan
    expected = _text(read_page(image, SETTINGS, page_number=1), width_pt, height_pt)
    # As scanned: turned counter-clockwise; a sideways page also comes with the other page shape.
    scanned = image.rotate(turned_by, expand=True)
    size = (width_pt, height_pt) if turned_by == 180 else (height_pt, width_pt)
    reading = read_page(scanned, SETTINGS, page_number=1)
    assert reading.rotation == turned_by  # degrees clockwise that set it upright again
    assert _text(reading, *size) == expected


def test_an_upright_page_or_one_with_few_words_is_not_checked():
    sure = [Word(f"słowo{i}", 91.0, 10 * i, 0, 10 * i + 8, 10, (1, 1, 1)) for i in range(30)]
    unsure = [Word(f"słowo{i}", 36.0, 10 * i, 0, 10 * i + 8, 10, (1, 1, 1)) for i in range(30)]
    assert not may_lie_turned(sure) and may_lie_turned(unsure)
    assert not may_lie_turned(unsure[:5])  # a figure's few words say nothing about the page


def _words(texts: list[str], conf: float = 73.0, *, down: bool = False) -> list[Word]:
    """Words in a row, 7 px a character and 10 px high; `down`: as Tesseract boxes words it read on their side."""
    boxes = [(7 * len(text), 10) for text in texts]
    return [Word(text, conf, 100 * i, 0, 100 * i + (h if down else w), w if down else h, (1, 1, 1))
            for i, (text, (w, h)) in enumerate(zip(texts, boxes))]


def test_a_page_of_short_junk_and_few_numbers_is_checked_a_key_table_upright_is_not():
    # What Tesseract read of a number/answer table on its side (confidently: 73), and of the same table upright.
    junk = _words(["©", "O", "U", "B", "TB", "24", "%B", "6", "o", "[e]", "—", "m", "a"] * 3)
    upright = _words([t for n in range(1, 21) for t in (str(n), "ABCD"[n % 4])])
    assert not may_lie_turned(junk) and sparse_and_unread(junk, None, 200)
    assert not sparse_and_unread(upright, None, 200)
    # The same table's numbers, read by Tesseract down the page (their boxes taller than wide): checked.
    assert sparse_and_unread(_words([t for n in range(1, 21) for t in (str(n), "ABCD"[n % 4])], 96.0, down=True), None, 200)


def test_a_turned_reading_is_kept_by_its_counting_numbers_not_by_digits_read_from_junk():
    junk = _words(["24", "6", "8", "O", "©", "2", "41", "7"])  # digits, but no run past 6, 7, 8
    assert counting_numbers([w.text for w in junk]) == 3  # 6, 7 and 8
    table = [t for n in range(11, 51) for t in (f"{n}.", "C")]
    assert sparse_turned_reading_wins(table, junk)
    assert not sparse_turned_reading_wins(table[:12], junk)  # six numbers are no table
    # Numbers already read across the page as it lay: the turned reading must read many times as many.
    across = _words([str(n) for n in range(11, 41)])
    assert not sparse_turned_reading_wins(table, across)
    assert sparse_turned_reading_wins(table, _words([str(n) for n in range(11, 41)], down=True))  # read down: turned already


def test_an_upright_table_read_upside_down_repeats_a_few_numbers_and_is_not_taken_for_the_page():
    # What Tesseract read of an upright ruled pairs table (Hangul headers, 230 dpi) turned by 180°, as its orientation
    # detection said (3.36): digits, the same few row after row, 16 of them neighbours by chance; the page as it lay
    # read two counting numbers (its rules glued to the cells).
    counts = {0: 3, 1: 2, 4: 1, 6: 6, 7: 2, 8: 1, 9: 3, 10: 1, 11: 1, 12: 13, 13: 12, 16: 6, 17: 7, 21: 1, 26: 3, 28: 1, 34: 1,
              36: 1, 60: 1, 61: 1, 66: 1, 76: 1, 80: 1, 81: 1, 86: 1, 91: 2, 96: 2, 122: 1, 143: 1, 404: 1}
    junk = [str(n) for n, times in counts.items() for _ in range(times)]
    as_it_lay = _words(["정답", "가", "2", "3", "=", "02202", "0000"])
    assert counting_numbers(junk) == 16 and counting_numbers(junk) >= 3 * counting_numbers([w.text for w in as_it_lay])
    assert not sparse_turned_reading_wins(junk, as_it_lay)
    # A table truly turned reads each number about once: kept, with a page number and a year beside it.
    table = [t for n in range(1, 41) for t in (str(n), "가나다라"[n % 4])] + ["2024", "3"]
    assert sparse_turned_reading_wins(table, as_it_lay)
    # The junk was read more confidently than the page as it lay: a reading mostly of numbers is judged by them alone.
    assert reads_as_numbers(junk + ["수이", "9<", "ㄷ"]) and not reads_as_numbers(["Rysunek", "2", "przedstawia", "wykres", "3"])


def test_a_sparse_pages_turned_reading_that_loses_the_tables_counting_numbers_is_not_the_page():
    # What the booklets key (Polish, columns of booklet types) read upright at 165/0.85/79/-0.2, and upside down as
    # Tesseract's detection said (180 at 1.1): junk letters, more confident, a known word as many as upright.
    as_it_lay = _words(["Odpowiedzi", "©", "U", "4", "0", "<<", "[2]", "20", "21", "22", "<4AUDOOO-COO", "|", "23", "24"])
    junk = ["ETA", "ve", "oz", "izparmodpo", "a", "a", "Q", "Q", "J", "a", "J", "60", "Q", "a", "8", "a", "9z", "Q", "a"]
    assert sparse_turned_reading_loses(junk, as_it_lay)
    # A table truly turned reads its numbers: not lost, however few the page read as it lay.
    table = [t for n in range(1, 31) for t in (str(n), "ABCD"[n % 4])]
    assert not sparse_turned_reading_loses(table, as_it_lay)
    # A page that read no counting numbers as it lay loses none: confidence and known words judge it, as before.
    assert not sparse_turned_reading_loses(junk, _words(["©", "U", "<<", "|"]))
    # Numbers read down the page as it lay were read turned already: they do not count for it.
    assert not sparse_turned_reading_loses(junk, _words([str(n) for n in range(11, 21)], down=True))


@needs_tesseract("pol", "osd")
def test_an_upright_key_of_booklet_columns_at_165_dpi_is_not_turned_upside_down(tmp_path):
    # Tesseract's detection said 180 (1.1) for the upright scan; its junk, turned, lost every question's number.
    from pipeline.devkit.keyscans import measure
    from pipeline.devkit.sample.keysheets import booklet_table
    from pipeline.devkit.sample.scansetting import ScanSetting

    sheet = booklet_table(0)
    result, _, _ = measure(sheet, tmp_path, ScanSetting.parse("165/0.85/79/-0.2"), seed=0)
    assert result.right == result.total == 30


def test_superscripts_and_other_digits_int_refuses_are_no_numbers_and_no_crash():
    read = ["m²", "²", "³", "10²", "(2)", "3."]  # "²".isdigit() is true, int("²") raises
    assert numbers_read(read) == 2
    assert counting_numbers(read) == 2  # 2 and 3


@needs_tesseract("pol", "osd")
def test_a_key_table_on_its_side_is_read_upright(tmp_path):
    from pipeline.devkit.sample.layoutkeysheets import turned_pairs
    from pipeline.devkit.sample.pdfgen import build_pdf
    import pypdfium2 as pdfium

    from pipeline.devkit.sample.scansetting import ScanSetting

    sheet = turned_pairs(0)  # a landscape table of 80 number/answer pairs, printed on its side
    scan = ScanSetting.parse("200/0.6/80").rasterise(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf")
    image = pdfium.PdfDocument(str(scan))[0].render(scale=200 / 72).to_pil().convert("L")
    reading = read_page(image, OcrSettings(languages=("pol",), dpi=200, option_labels=sheet.labels), page_number=1)
    assert reading.rotation == 90
    assert counting_numbers([w.text for w in reading.words]) >= 60  # of the 80 question numbers


@needs_tesseract("ces", "osd")
def test_a_grid_key_on_its_side_read_as_junk_words_at_150_dpi_is_turned_by_its_numbers(tmp_path):
    # At 150 dpi the turned grid reads as 10+ low-confidence junk words (the low-confidence test sends it), and
    # Tesseract's detection is a guess (0.60): followed, the turned reading's counting numbers keep it.
    from pipeline.devkit.keyscans import read_key, score
    from pipeline.devkit.sample.layoutkeysheets import turned_grid
    from pipeline.devkit.sample.pdfgen import build_pdf
    from pipeline.devkit.sample.scansetting import ScanSetting

    sheet = turned_grid(0)  # two grid blocks of 30 questions on a landscape page, printed on its side
    scan = ScanSetting.parse("150/0.6/80").rasterise(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", seed=0)
    result = score(sheet, read_key(scan, sheet), "150", 0.0)
    assert result.right >= 0.8 * result.total and result.wrong <= 0.1 * result.total
