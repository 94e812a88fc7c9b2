"""OCR of scanned exam pages with the real Tesseract: text, order, coordinates, highlights, failures."""
from __future__ import annotations

import pytest

from pipeline.extract import PageMethod
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract import LayoutParams
from pipeline.extract.ocr import OcrError, OcrSettings, OcrUnavailable, normalize_ocr_line, normalize_ocr_lines, ocr_pages, require_languages
from pipeline.devkit.sample.pdfgen import PT_PER_MM, PageSpec, rasterize_pdf
from tests.pipeline.extract.ocr.builders import (
    COLUMN_RIGHT_X,
    GREEK_OPTIONS,
    GREEK_PASSAGE,
    GREEK_STEM,
    POLISH_OPTIONS,
    POLISH_PASSAGE,
    POLISH_STEM,
    build,
    char_accuracy,
    colour_scan,
    expected_text,
    needs_tesseract,
    normalised,
    question_page,
    two_column_page,
)

LEFT_COLUMN = [
    "Pierwsza kolumna opisuje algorytm sortowania przez wstawianie, który przegląda kolejne elementy tablicy.",
    "Każdy element jest wstawiany na właściwe miejsce w już uporządkowanej części, przesuwając większe w prawo.",
    "W najgorszym przypadku liczba porównań rośnie kwadratowo wraz z liczbą elementów tablicy.",
]
RIGHT_COLUMN = [
    "Druga kolumna omawia wyszukiwanie binarne, które wymaga posortowanych danych i dzieli przedział na pół.",
    "Po każdym porównaniu odrzucana jest połowa pozostałych elementów, dlatego liczba kroków rośnie wolno.",
    "Złożoność wyszukiwania binarnego jest logarytmiczna, co czyni je szybkim nawet dla dużych zbiorów.",
]

tesseract = needs_tesseract("pol", "ell")


@pytest.fixture(scope="module")
def polish_scan(tmp_path_factory) -> dict:
    """A grey, noisy 200-dpi scan: a Polish question page and a blank page, OCR'd once for the module."""
    folder = tmp_path_factory.mktemp("polish")
    source = build(folder / "sheet.pdf", [question_page(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS), PageSpec([])])
    scan = rasterize_pdf(source, folder / "scan.pdf", dpi=200, noise=0.04, blur=0.6, seed=3)
    return {"path": scan, "pages": ocr_pages(scan, [1, 2], OcrSettings(languages=("pol",)), workers=2)}


@pytest.fixture(scope="module")
def colour_scan_pages(tmp_path_factory) -> dict:
    """A colour scan: a two-column text page, and a question page whose option B is marked in yellow."""
    folder = tmp_path_factory.mktemp("colour")
    source = build(
        folder / "sheet.pdf",
        [
            two_column_page(LEFT_COLUMN, RIGHT_COLUMN),
            question_page(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS, highlight=1),
        ],
    )
    scan = colour_scan(source, folder / "scan.pdf", dpi=200)
    return {"path": scan, "pages": ocr_pages(scan, [1, 2], OcrSettings(languages=("pol",)), workers=2)}


@tesseract
def test_scanned_polish_page_is_read_with_diacritics(polish_scan):
    page = polish_scan["pages"][1]
    expected = expected_text(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS)
    accuracy = char_accuracy(expected, page.text)
    assert accuracy >= 0.97, f"character accuracy {accuracy:.3f}:\n{page.text}"
    assert page.method is PageMethod.OCR
    assert "gęstość" in page.text and "Źródłem" in page.text


@tesseract
def test_ocr_page_has_confidence_and_page_size_in_points(polish_scan):
    page = polish_scan["pages"][1]
    assert page.ocr_confidence is not None and 70 <= page.ocr_confidence <= 100
    assert page.width == pytest.approx(210 * PT_PER_MM, abs=1)
    assert page.height == pytest.approx(297 * PT_PER_MM, abs=1)


@tesseract
def test_ocr_lines_sit_where_the_text_was_printed(polish_scan):
    page = polish_scan["pages"][1]
    first = page.lines[0]
    # question_page prints the stem at x=20 mm, y=30 mm (top of the text box) with 12 pt type
    assert first.text.startswith("Zadanie 3.")
    assert first.x0 == pytest.approx(20 * PT_PER_MM, abs=4)
    assert first.top == pytest.approx(30 * PT_PER_MM, abs=6)
    assert first.font_size == pytest.approx(12, rel=0.25)
    option_d = next(line for line in page.lines if line.text.startswith("D."))
    assert option_d.x0 == pytest.approx(25 * PT_PER_MM, abs=4)
    assert option_d.top == pytest.approx((85 + 3 * 11) * PT_PER_MM, abs=6)
    for line in page.lines:
        assert 0 <= line.x0 < line.x1 <= page.width and 0 <= line.top < line.bottom <= page.height


@tesseract
def test_blank_scanned_page_comes_back_empty(polish_scan):
    page = polish_scan["pages"][2]
    assert page.method is PageMethod.EMPTY
    assert page.lines == [] and page.ocr_confidence is None


@tesseract
def test_option_labels_are_upper_case_after_normalising(polish_scan):
    lines = normalize_ocr_lines(polish_scan["pages"][1].lines, ["A", "B", "C", "D"])
    labels = [line.text.split()[0] for line in lines if line.text[:1] in "ABCDabcd" and line.text[1:2] in ".)"]
    assert labels == ["A.", "B.", "C.", "D."]


@tesseract
def test_two_columns_come_out_as_separate_lines_in_the_text_paths_order(colour_scan_pages, tmp_path):
    """OCR words go through the same layout assembly as the text layer, so both paths agree on order."""
    page = colour_scan_pages["pages"][1]
    text = normalised(page.text)
    for paragraph in LEFT_COLUMN + RIGHT_COLUMN:
        start = " ".join(paragraph.split()[:4])
        assert start in text, f"{start!r} not in OCR text:\n{page.text}"
    gutter = (100 * PT_PER_MM, COLUMN_RIGHT_X * PT_PER_MM)
    assert not [line.text for line in page.lines if line.x0 < gutter[0] and line.x1 > gutter[1]], "a line spans both columns"
    # within each column, paragraphs keep their order
    for column in (LEFT_COLUMN, RIGHT_COLUMN):
        positions = [text.index(" ".join(p.split()[:4])) for p in column]
        assert positions == sorted(positions)

    source = build(tmp_path / "two.pdf", [two_column_page(LEFT_COLUMN, RIGHT_COLUMN)])
    text_page = extract_document(source, "0" * 64, ExtractOptions(remove_repeated_lines=False)).pages[0]

    # The text layer cuts a justified line at its wide spaces ("W" "najgorszym" "przypadku" "liczba");
    # OCR keeps the words Tesseract read as one line together. Rows of a column are compared whole.
    ocr_rows, text_rows = _column_rows(page.lines), _column_rows(text_page.lines)

    def nearest(row) -> int:
        distances = [abs(t[0] - row[0]) + abs(t[1] - row[1]) for t in text_rows]
        return distances.index(min(distances))

    matched = [nearest(row) for row in ocr_rows]
    assert len(ocr_rows) == len(text_rows)
    assert matched == list(range(len(text_rows))), [(row[3], i) for row, i in zip(ocr_rows, matched)]


def _column_rows(lines) -> list[tuple[float, float, float, str]]:
    """(x0, top, x1, text) of each row of a column: lines on one row joined where the gap between them
    is narrower than a column gutter (the page's gutter is 10 mm, about 28 points)."""
    rows: list[tuple[float, float, float, str]] = []
    for line in lines:
        if rows and abs(rows[-1][1] - line.top) < 4 and 0 <= line.x0 - rows[-1][2] < 25:
            x0, top, _, text = rows[-1]
            rows[-1] = (x0, top, line.x1, f"{text} {line.text}")
        else:
            rows.append((line.x0, line.top, line.x1, line.text))
    return rows


@tesseract
def test_yellow_marked_option_is_highlighted(colour_scan_pages):
    page = colour_scan_pages["pages"][2]
    marked = [line.text for line in page.lines if line.highlighted]
    assert marked == ["B. SMTP"], [(line.text, line.highlighted) for line in page.lines]


@tesseract
def test_greek_scan_is_read(tmp_path):
    source = build(tmp_path / "el.pdf", [question_page(GREEK_STEM, GREEK_PASSAGE, GREEK_OPTIONS)])
    scan = rasterize_pdf(source, tmp_path / "el_scan.pdf", dpi=200, noise=0.03, blur=0.5, seed=5)
    page = ocr_pages(scan, [1], OcrSettings(languages=("ell",)), workers=1)[1]
    accuracy = char_accuracy(expected_text(GREEK_STEM, GREEK_PASSAGE, GREEK_OPTIONS), page.text)
    assert accuracy >= 0.95, f"character accuracy {accuracy:.3f}:\n{page.text}"
    labels = [normalize_ocr_line(line.text, ["α", "β", "γ", "δ"]).split()[0] for line in page.lines[-4:]]
    assert labels == ["α.", "β.", "γ.", "δ."]


@tesseract
def test_layout_params_reach_the_assembly(polish_scan):
    # A huge segment gap keeps every row whole; a tiny one splits rows at each word gap.
    path = polish_scan["path"]
    whole = ocr_pages(path, [1], OcrSettings(languages=("pol",), layout=LayoutParams(segment_gap=50)))[1]
    split = ocr_pages(path, [1], OcrSettings(languages=("pol",), layout=LayoutParams(segment_gap=0.05)))[1]
    assert len(split.lines) > 2 * len(whole.lines)


# --------------------------------------------------------------------------- failures


@tesseract
def test_missing_language_names_the_apt_package():
    with pytest.raises(OcrUnavailable, match=r"xqz.*tesseract-ocr-xqz"):
        require_languages(["pol", "xqz"])


@tesseract
def test_ocr_pages_checks_languages_before_reading_the_pdf(tmp_path):
    with pytest.raises(OcrUnavailable, match="tesseract-ocr-klingon"):
        ocr_pages(tmp_path / "does-not-exist.pdf", [1], OcrSettings(languages=("klingon",)))


def test_missing_tesseract_binary_says_what_to_install(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("EXAMCORPUS_TESSERACT", raising=False)
    with pytest.raises(OcrUnavailable, match="tesseract-ocr"):
        require_languages(["pol"])


def test_configured_tesseract_must_exist(monkeypatch, tmp_path):
    monkeypatch.setenv("EXAMCORPUS_TESSERACT", str(tmp_path / "no-tesseract"))
    with pytest.raises(OcrUnavailable, match="EXAMCORPUS_TESSERACT"):
        require_languages(["pol"])


@tesseract
def test_page_out_of_range_names_the_file(polish_scan):
    with pytest.raises(OcrError, match=r"scan\.pdf.*page\(s\) \[7\]"):
        ocr_pages(polish_scan["path"], [7], OcrSettings(languages=("pol",)))


@tesseract
def test_not_a_pdf_names_the_file(tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"this is not a pdf")
    with pytest.raises(OcrError, match="broken.pdf"):
        ocr_pages(bad, [1], OcrSettings(languages=("pol",)))


# --------------------------------------------------------------------------- normaliser (no Tesseract needed)


@pytest.mark.parametrize(
    ("raw", "labels", "fixed"),
    [
        ("c. trzecia odpowiedź", "ABCD", "C. trzecia odpowiedź"),
        ("c) trzecia", "ABCD", "C) trzecia"),
        ("(c) trzecia", "ABCD", "(C) trzecia"),
        ("© trzecia", "ABCD", "(C) trzecia"),
        ("©) trzecia", "ABCD", "©) trzecia"),  # a ring and a bracket: which label, only its column says
        ("{B) druga", "ABCD", "(B) druga"),
        ("[D] czwarta", "ABCD", "(D) czwarta"),
        ("B} druga", "ABCD", "B) druga"),
        ("A . pierwsza", "ABCD", "A. pierwsza"),
        ("€. trzecia", "ABCD", "C. trzecia"),
        ("C) tretia", "abcd", "c) tretia"),
        ("(C) tretia", "abcd", "(c) tretia"),
        ("a. μηδέν", ["α", "β", "γ", "δ"], "α. μηδέν"),
        ("Υ. αυξανόμενη", ["α", "β", "γ", "δ"], "γ. αυξανόμενη"),
        ("Α. opcia", "ABCD", "A. opcia"),  # Greek capital alpha in a Latin-labelled sheet
        ("Υγ. αυξανόμενη", ["α", "β", "γ", "δ"], "γ. αυξανόμενη"),  # seen on a 200-dpi scan
        ("E.20", "ABCDE", "E. 20"),  # short answers lose the space (CONAREME scan)
        ("E:5", "ABCDE", "E. 5"),
        ("A: Metformina", "ABCDE", "A. Metformina"),
        ("B.Metformina", "ABCDE", "B. Metformina"),
    ],
)
def test_normaliser_fixes_label_misreadings(raw, labels, fixed):
    assert normalize_ocr_line(raw, list(labels)) == fixed


@pytest.mark.parametrize(
    ("raw", "labels"),
    [
        ("a) pierwsza część zadania", "ABCD"),  # a and A differ in shape: a real small label
        ("cała prawda o protokołach", "ABCD"),
        ("c.d. z poprzedniej strony", "ABCD"),
        ("Cel: wyznaczyć medianę", "ABCD"),
        ("F. nie ma takiej opcji", "ABCD"),
        ("C. already fine", "ABCD"),
        ("Ab. skrót na początku", "ABCD"),
        ("a.2 pierwszy podpunkt", "ABCD"),
        ("", "ABCD"),
    ],
)
def test_normaliser_leaves_other_lines_alone(raw, labels):
    assert normalize_ocr_line(raw, list(labels)) == raw



def test_key_table_cells_take_the_block_readings():
    """A first pass that reads a cell column as one "line" of misread letters gets the psm-6 readings."""
    from pipeline.extract.ocr.keycells import merge_table_pass
    from pipeline.extract.ocr.noise import is_noise
    from pipeline.extract.ocr.words import isolated_short_words
    from pipeline.extract.ocr.words import Word

    column = (9, 1, 1)
    first = [
        Word(">", 61, 999, 606, 1029, 640, column),
        Word("U", 91, 1001, 676, 1029, 704, column),
        Word("01", 96, 532, 602, 578, 639, (7, 1, 1)),
        Word("Kľúč", 95, 300, 200, 420, 240, (1, 1, 1)),
    ]
    block = [
        Word("A", 96, 998, 606, 1030, 641, (1, 1, 7)),
        Word("D", 93, 999, 674, 1030, 711, (1, 1, 8)),
        Word("C", 89, 1681, 744, 1710, 778, (1, 1, 9)),  # a cell the first pass missed (coloured column)
        Word("Ni", 19, 1359, 795, 1391, 859, (1, 1, 10)),  # not confident enough to add
    ]
    assert {w.text for w in isolated_short_words(first)} == {">", "U", "01"}
    merged = merge_table_pass(first, block)
    assert [w.text for w in merged] == ["A", "D", "01", "Kľúč", "C"]
    assert (merged[0].left, merged[0].bottom) == (998, 641)  # the block reading's box comes along
    assert merged[-1].line not in {w.line for w in first}
    tall_junk = Word("GOVOOODVODD", 0, 1653, 880, 1722, 1426, column)
    assert is_noise(tall_junk, typical_height=37) and not is_noise(merged[0], typical_height=37)


def test_tesseract_output_that_is_not_tsv_is_an_error_naming_the_missing_config():
    from pipeline.extract.ocr.engine import OcrError, parse_tsv

    with pytest.raises(OcrError, match=r"did not print TSV .*configs/tsv"):
        parse_tsv("Zadanie 3. Który z wymienionych\nprotokołów służy")
    assert parse_tsv("") == []


def test_the_block_pass_reads_around_the_isolated_cells_not_the_whole_page():
    """A key's columns of cells become one area each; a cell alone (an instruction number in the
    margin) gets a small area of its own row; an area takes in whole a word it cuts; a page with
    few isolated cells gets no block pass."""
    from pipeline.extract.ocr.keycells import CELL_CONTEXT_ACROSS, table_areas
    from pipeline.extract.ocr.segment import Region
    from pipeline.extract.ocr.words import Word, isolated_short_words

    def _areas(words: list[Word]) -> list[Region]:
        return table_areas(words, isolated_short_words(words), 40.0, 2481, 3509)

    def cell(text: str, left: int, top: int, line: int) -> Word:
        return Word(text, 90.0, left, top, left + 20 * len(text), top + 40, (line, 1, 1))

    key = [cell(f"{n:02d}", 530, 400 + 65 * n, n) for n in range(1, 11)]
    key += [cell("ABCD"[n % 4], 1000, 400 + 65 * n, 100 + n) for n in range(1, 11)]
    heading = Word("Kľúč správnych odpovedí", 95.0, 300, 405, 1200, 445, (200, 1, 1))  # just above row 1
    margin_numbers = [cell(f"{n}.", 260, 1500 + 200 * n, 300 + n) for n in range(1, 10)]
    # the words of the page's text, far from the cells
    prose = [Word(f"odpoveď{i}", 95.0, 1500, 100 + 50 * i, 1700, 140 + 50 * i, (400 + i, 1, 1)) for i in range(60)]
    areas = _areas(key + [heading] + margin_numbers + prose)
    key_areas = [a for a in areas if a.top < 1500]
    assert len(key_areas) == 1  # both columns reach the heading, which joins them
    assert (key_areas[0].left, key_areas[0].top, key_areas[0].right) == (300, 405, 1200)
    assert key_areas[0].bottom == 400 + 65 * 10 + 40 + 40
    margin_areas = [a for a in areas if a.top >= 1500]
    assert len(margin_areas) == 9
    assert all(a.right - a.left == 40 + 2 * CELL_CONTEXT_ACROSS * 40 and a.bottom - a.top == 3 * 40 for a in margin_areas)
    without_heading = _areas(key + prose)
    assert [(a.left, a.right) for a in without_heading] == [(530 - 120, 570 + 120), (1000 - 120, 1020 + 120)]
    assert _areas(margin_numbers[:7] + prose) == []
    # a page of little but numbers and letters is a key: psm 6 reads it whole, rows giving cells context
    assert _areas(key + prose[:4]) == [Region(0, 0, 2481, 3509)]


def test_bare_label_letter_gets_the_mark_the_other_labels_carry():
    from pipeline.extract.ocr.labels import restore_label_marks
    from pipeline.extract.ocr.words import Word

    def line(n: int, *texts: str) -> list[Word]:
        return [Word(t, 90, 100 + 40 * i, 40 * n, 130 + 40 * i, 40 * n + 30, (1, n, 1)) for i, t in enumerate(texts)]

    words = line(1, "A.", "odpowiedzialny") + line(2, "B", "jest") + line(3, "C.", "jest") + line(4, "D")
    restored = [w.text for w in restore_label_marks(words, ["A", "B", "C", "D"])]
    # "B" opened a line of text and lost its dot; the lone "D" (a table cell) stays as it is
    assert restored == ["A.", "odpowiedzialny", "B.", "jest", "C.", "jest", "D"]
    assert [w.text for w in restore_label_marks(line(1, "B", "jest"), ["A", "B"])] == ["B", "jest"]  # no evidence


def test_a_label_in_a_line_of_its_own_with_its_text_beside_it_gets_the_mark():
    from pipeline.extract.ocr.labels import restore_label_marks
    from pipeline.extract.ocr.words import Word

    def word(text: str, left: int, top: int, line: tuple[int, int, int]) -> Word:
        return Word(text, 90, left, top, left + 30 * len(text), top + 35, line)

    words = [
        word("C.", 380, 700, (1, 1, 1)), word("źródłowym.", 530, 700, (1, 1, 1)),
        word("D", 385, 795, (2, 1, 1)), word("maszynowym.", 530, 800, (3, 1, 1)),  # Tesseract split the row
        word("B", 385, 900, (4, 1, 1)), word("A", 700, 900, (5, 1, 1)),  # key cells: a letter beside a letter
    ]
    restored = [w.text for w in restore_label_marks(words, ["A", "B", "C", "D"])]
    assert restored == ["C.", "źródłowym.", "D.", "maszynowym.", "B", "A"]


def test_a_letter_just_after_a_marked_label_opens_the_options_text_and_is_no_label():
    from pipeline.extract.ocr.labels import restore_label_marks
    from pipeline.extract.ocr.words import Word

    def word(text: str, left: int, top: int, line: tuple[int, int, int]) -> Word:
        return Word(text, 90, left, top, left + 30 * len(text), top + 35, line)

    words = [
        word("C)", 380, 700, (1, 1, 1)), word("Ana", 460, 700, (1, 1, 1)),
        # Tesseract put the label in a line of its own: the option's text opens with the article "A"
        word("D)", 380, 800, (2, 1, 1)), word("A", 460, 800, (3, 1, 1)), word("despeito", 500, 800, (3, 1, 1)),
        word("B", 380, 900, (4, 1, 1)), word("Bruno,", 460, 900, (4, 1, 1)),  # a bare label, mark lost
    ]
    restored = [w.text for w in restore_label_marks(words, ["A", "B", "C", "D"])]
    assert restored == ["C)", "Ana", "D)", "A", "despeito", "B)", "Bruno,"]


def test_an_article_opening_a_sentence_at_a_plain_word_space_is_no_label():
    from pipeline.extract.ocr.labels import restore_label_marks
    from pipeline.extract.ocr.words import Word

    def line(n: int, *spaced: tuple[str, int]) -> list[Word]:
        words, left = [], 200
        for text, space in spaced:
            words.append(Word(text, 90, left, 100 * n, left + 25 * len(text), 100 * n + 27, (1, n, 1)))
            left += 25 * len(text) + space
        return words

    # "A Agência Nacional do Petróleo…" opens a stem (OAB): the white after "A" is the line's word space
    article = line(1, ("A", 13), ("Agência", 16), ("Nacional", 15), ("do", 17), ("Petróleo", 16), ("–", 0))
    # "B  jest protokołem…": the unread dot still stands in the white after the label
    label = line(2, ("B", 34), ("jest", 15), ("protokołem", 16), ("sieci", 15), ("lokalnej.", 0))
    marked = line(3, ("C.", 15), ("jest", 15), ("protokołem", 0))
    restored = [w.text for w in restore_label_marks(article + label + marked, ["A", "B", "C", "D"])]
    assert restored[0] == "A" and restored[6] == "B."
