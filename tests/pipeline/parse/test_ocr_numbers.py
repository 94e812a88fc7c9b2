"""Question and task numbers on OCR'd pages: letter look-alikes in a number's place are read as digits."""
from __future__ import annotations

import pytest

from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.blocks import Numbering, split_blocks
from pipeline.parse.gridkeys import read_grid
from pipeline.parse.keys import read_marking_scheme
from pipeline.parse.ocrpasses import recovery_for
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import fold_ocr_digits, line_stream
from pipeline.specs import load_spec


def read_stream(document: ExtractedDocument) -> list:
    """The document's lines as parse reads them: OCR'd lines through every OCR line pass."""
    return line_stream(document, reader=Recovery.every().line_reader(None))


def _document(texts: list[str], method: PageMethod) -> ExtractedDocument:
    lines = [Line(text=t, x0=70, top=80 + 14 * i, x1=500, bottom=90 + 14 * i, font_size=10) for i, t in enumerate(texts)]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")


@pytest.mark.parametrize(
    ("read", "meant"),
    [
        ("Zadanie 3.3. (I pkt)", "Zadanie 3.3. (1 pkt)"),
        ("Zadanie 3.l. (1 pkt)", "Zadanie 3.1. (1 pkt)"),
        ("Zadanie 1O.", "Zadanie 10."),
        ("x=|", "x=1"),
        ("Zadanie 3.4. (0—1)", "Zadanie 3.4. (0–1)"),
    ],
)
def test_look_alikes_inside_numbers_become_digits(read, meant):
    assert fold_ocr_digits(read) == meant


@pytest.mark.parametrize("text", ["O čom hovorí Ola", "Il Piccolo Principe", "Część II", "ALGOL i COBOL"])
def test_words_keep_their_letters(text):
    assert fold_ocr_digits(text) == text


CKE_SHEET = [
    "Zadanie 3.2. (1 pkt)",
    "Unicode to",
    "Zadanie 3.3. (I pkt)",
    "Programowanie polegające na określeniu klas nazywamy programowaniem",
    "Zadanie 3.4. (l pkt)",
    "Ciąg deklaracji nazywamy kodem",
]


def test_ocr_page_question_headers_with_misread_points_still_open_questions():
    spec = load_spec("pl_cke_matura_informatyka")
    stream = read_stream(_document(CKE_SHEET, PageMethod.OCR))
    blocks = split_blocks(stream, spec.layout.question_start, spec.layout.context_start)
    assert [(b.number, b.points) for b in blocks] == [("3.2", 1.0), ("3.3", 1.0), ("3.4", 1.0)]


def test_text_layer_lines_are_matched_as_printed():
    spec = load_spec("pl_cke_matura_informatyka")
    stream = read_stream(_document(CKE_SHEET, PageMethod.TEXT))
    blocks = split_blocks(stream, spec.layout.question_start, spec.layout.context_start)
    assert [b.number for b in blocks] == ["3.2"]


PANHELLENIC_SCAN = [
    "ΑΙ. Όταν η συνάρτηση εφαρμόζεται σε κλειστά συστήματα, το φαινόμενο",  # Α1 read with a Greek capital iota
    "α. αναζήτηση.",
    "Α2. Όταν η επιτάχυνση αυξάνεται, το φαινόμενο",
    "α. ανάλυση.",
    "ΟΙ μαθητές να απαντήσουν σε όλα τα θέματα",  # a heading word: no mark after it, stays text
]


def test_a_part_lettered_number_read_with_look_alike_digits_opens_its_question_on_a_scan():
    # Every generated Panhellenic scan of the full-size archive lost Α1, Γ1 and Δ1 this way (reported, not silent).
    spec = load_spec("sample_el")
    stream = read_stream(_document(PANHELLENIC_SCAN, PageMethod.OCR))
    blocks = split_blocks(stream, spec.layout.question_start, spec.layout.context_start)
    assert [b.number for b in blocks if b.kind == "question"] == ["Α1", "Α2"]
    assert "ΟΙ μαθητές" in " ".join(line.text for b in blocks for line in b.lines)


def test_a_part_lettered_number_on_a_text_layer_is_matched_as_printed():
    spec = load_spec("sample_el")
    stream = read_stream(_document(PANHELLENIC_SCAN, PageMethod.TEXT))
    blocks = split_blocks(stream, spec.layout.question_start, spec.layout.context_start)
    assert [b.number for b in blocks if b.kind == "question"] == ["Α2"]


def test_marking_scheme_task_numbers_read_through_look_alikes():
    spec = load_spec("pl_cke_matura_informatyka")
    key = _document(
        ["Zadanie 3.l. (0-1)", "Poprawna odpowiedź", "A", "Zadanie 3.2. (0-1)", "Poprawna odpowiedź", "C"], PageMethod.OCR
    )
    assert read_marking_scheme(key, spec.key, "Zasady.pdf").answers == {"3.1": "A", "3.2": "C"}


def test_ocr_header_with_a_speck_read_into_its_row_still_opens_the_question():
    spec = load_spec("pl_cke_matura_informatyka")
    lines = ["Zadanie 3. (0-2)", "Opis", "Zadanie 4. (0-1) F)", "Program typu keylogger służy do"]
    ocr_blocks = split_blocks(read_stream(_document(lines, PageMethod.OCR)), spec.layout.question_start, None)
    text_blocks = split_blocks(read_stream(_document(lines, PageMethod.TEXT)), spec.layout.question_start, None)
    assert [(b.number, b.points) for b in ocr_blocks] == [("3", 2.0), ("4", 1.0)]
    assert [b.number for b in text_blocks] == ["3"]


@pytest.mark.parametrize(("entry", "label"), [("Cc", "C"), ("C", "C"), ("bB", "B")])
def test_an_ocr_keys_letter_read_twice_in_both_cases_is_that_label(entry, label):
    from pipeline.parse.keying import single_label

    assert single_label(entry, ["A", "B", "C", "D"], key_read_by_ocr=True) == (label, None)


def test_a_text_keys_doubled_letter_is_not_read_as_one_label():
    from pipeline.parse.keying import single_label

    label, problem = single_label("Cc", ["A", "B", "C", "D"], key_read_by_ocr=False)
    assert label is None and "not an option label" in problem


@pytest.mark.parametrize("entry", ["AB", "Ab"])
def test_two_different_letters_are_not_one_label(entry):
    from pipeline.parse.keying import single_label

    label, problem = single_label(entry, ["A", "B", "C", "D"])
    assert label is None and "not an option label" in problem


def test_a_stray_first_label_before_the_real_options_stays_in_the_stem():
    from pipeline.parse.options import find_options
    from pipeline.parse.labels import option_start_regex

    spec = load_spec("pl_cke_matura_informatyka")
    lines = [
        "W komórce B2 wpisano formułę taką jak poniżej.",
        "A.",
        "średnia ocen nagroda",
        "Wartość formuły w komórce B2 to",
        "A. tablet.",
        "B. słuchawki.",
        "C. książka.",
        "D. brak nagrody.",
    ]
    stream = read_stream(_document(lines, PageMethod.OCR))
    block = find_options(stream, spec.layout.options.labels, option_start_regex(spec.layout.options.labels, spec.layout.options.styles))
    assert [(o.label, o.text) for o in block.options] == [
        ("A", "tablet."), ("B", "słuchawki."), ("C", "książka."), ("D", "brak nagrody.")
    ]
    assert "Wartość formuły w komórce B2 to" in [sl.text for sl in block.stem]


def test_an_ocr_number_split_from_its_row_is_joined_to_the_stem_beside_it():
    spec = load_spec("sk_maturita_sjl")
    number = Line(text="44", x0=70, top=218, x1=82, bottom=230, font_size=12)
    stem = Line(text="Slovo dodávateľ", x0=99, top=218, x1=180, bottom=231, font_size=12)
    option = Line(text="(A) vzniklo kombináciou skladania a odvodzovania.", x0=99, top=240, x1=300, bottom=252, font_size=12)
    for method, expected in ((PageMethod.OCR, ["44"]), (PageMethod.TEXT, [])):
        page = Page(number=1, width=595, height=842, method=method, lines=[number, stem, option])
        document = ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")
        blocks = split_blocks(read_stream(document), spec.layout.question_start, spec.layout.context_start)
        assert [b.number for b in blocks] == expected
        if blocks:
            assert blocks[0].header_rest == "Slovo dodávateľ"


def test_a_dotted_leader_listing_task_files_is_not_a_question_header():
    spec = load_spec("pl_cke_matura_informatyka")
    stream = read_stream(_document(["Zadanie 3.1. (0–2)", "Zadanie 8.2. ..........umuumeuaeea", "Zadanie 4. (0–1)"], PageMethod.OCR))
    blocks = split_blocks(stream, spec.layout.question_start, spec.layout.context_start)
    assert [b.number for b in blocks] == ["3.1", "4"]


def test_answer_box_circles_read_beside_true_false_labels_on_a_scan():
    from pipeline.parse.truefalse import find_statements

    spec = load_spec("pl_cke_matura_informatyka")
    rows = [("1. k/2", "P", "F"), ("2. (k+1) div 2", "P", "F"), ("3. k+1 gdy k jest liczbą nieparzystą", "Po", "OF"), ("4. (k+1)/2", "P", "F")]
    lines = []
    for i, (statement, true, false) in enumerate(rows):
        top = 100 + 30 * i
        lines += [
            Line(text=statement, x0=80, top=top, x1=300, bottom=top + 10, font_size=10),
            Line(text=true, x0=473, top=top, x1=481, bottom=top + 10, font_size=10),
            Line(text=false, x0=505, top=top, x1=513, bottom=top + 10, font_size=10),
        ]
    for method, found in ((PageMethod.OCR, ["1", "2", "3", "4"]), (PageMethod.TEXT, None)):
        page = Page(number=1, width=595, height=842, method=method, lines=lines)
        document = ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")
        block = find_statements(read_stream(document), spec.layout.true_false, force=False)
        assert (block and [s.n for s in block.statements]) == found


def test_a_number_printed_again_away_from_the_first_is_text_not_a_question():
    spec = load_spec("sk_maturita_sjl")
    lines = [
        Line(text="19 V ukážke 3 sa vyskytuje aj", x0=71, top=90, x1=300, bottom=100, font_size=10),
        Line(text="(A) frazeologický výraz.", x0=99, top=115, x1=300, bottom=125, font_size=10),
        Line(text="20 Ktoré spôsoby obohacovania slovnej zásoby sa spomínajú?", x0=71, top=216, x1=500, bottom=226, font_size=10),
        Line(text="19 VII. Odoslané", x0=422, top=356, x1=500, bottom=366, font_size=10),  # a postcard in a picture
        Line(text="19 V ukážke 3 sa vyskytuje aj", x0=71, top=500, x1=300, bottom=510, font_size=10),  # printed again
    ]
    page = Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)
    document = ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")
    blocks = split_blocks(read_stream(document), spec.layout.question_start, spec.layout.context_start)
    assert [(b.number, b.duplicate) for b in blocks if b.kind == "question"] == [("19", False), ("20", False), ("19", True)]


NUMBER_START = r"^(?P<number>\d{1,2})\.\s+(?=\S)"


def test_the_next_number_whose_dot_ocr_lost_still_opens_its_question_on_ocr_pages_only():
    sheet = ["1. ¿Qué se afirma en el texto?", "A) Que es", "2 ¿Por qué se plantea?", "A) Porque", "4 Lo dijo en 1940", "3 ¿A cuál?"]
    blocks = split_blocks(read_stream(_document(sheet, PageMethod.OCR)), NUMBER_START, None)
    # "4" is not the next number: text of question 2; "3" is, once 2 has been taken.
    assert [(b.number, b.header_rest) for b in blocks] == [("1", "¿Qué se afirma en el texto?"), ("2", "¿Por qué se plantea?"), ("3", "¿A cuál?")]
    assert "4 Lo dijo en 1940" in [sl.text for sl in blocks[1].lines]
    printed = split_blocks(read_stream(_document(sheet, PageMethod.TEXT)), NUMBER_START, None)
    assert [b.number for b in printed] == ["1"]


def test_options_labelled_with_bare_digits_under_a_header_stay_options_not_lost_dot_numbers():
    # Options labelled 1–5 printed on dark squares, read bare, stand within the headers' reach of their left
    # edge; each counts on from the line above it, so the column is the options', not question numbers.
    lines = [Line(text="1. ¿Qué se afirma?", x0=57, top=80, x1=500, bottom=90, font_size=10)]
    lines += [Line(text=f"{n} opción {n}", x0=74, top=80 + 14 * n, x1=500, bottom=90 + 14 * n, font_size=10) for n in range(1, 6)]
    lines += [Line(text="2 ¿Por qué?", x0=57, top=164, x1=500, bottom=174, font_size=10)]
    page = Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)
    document = ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")
    blocks = split_blocks(read_stream(document), NUMBER_START, None)
    assert [(b.number, b.header_rest) for b in blocks] == [("1", "¿Qué se afirma?"), ("2", "¿Por qué?")]
    assert [sl.text for sl in blocks[0].lines][-5:] == [f"{n} opción {n}" for n in range(1, 6)]


def test_a_number_out_of_the_run_is_taken_as_the_one_missing_or_as_text():
    sheet = ["51. Primera", "92. Segunda", "53. Tercera", "54. Cuarta", "80. En 1980 ocurrió", "55. Quinta"]
    blocks = split_blocks(read_stream(_document(sheet, PageMethod.OCR)), NUMBER_START, None)
    assert [b.number for b in blocks] == ["51", "52", "53", "54", "55"]
    assert blocks[1].flags == ["question number read as 92, taken as 52: the only number the numbering allows there"]
    assert all(b.flags == [] for b in blocks if b.number != "52")
    assert "80. En 1980 ocurrió" in [sl.text for sl in blocks[3].lines]


@pytest.mark.parametrize(
    ("sheet", "read_as"),
    [
        (["47. Sétima", "49. Oitava", "49. Nona", "50. Décima"], "49"),  # as Revalida's "QUESTÃO 98" read as 99
        (["47. Sétima", "47. Oitava", "49. Nona", "50. Décima"], "47"),
    ],
)
def test_a_scanned_number_read_as_its_neighbour_beside_a_gap_of_one_is_the_missing_number(sheet, read_as):
    blocks = split_blocks(read_stream(_document(sheet, PageMethod.OCR)), NUMBER_START, None)
    assert [(b.number, b.duplicate) for b in blocks] == [("47", False), ("48", False), ("49", False), ("50", False)]
    assert blocks[1].flags == [f"question number read as {read_as}, taken as 48: the only number the numbering allows there"]
    # a text layer prints what it prints: the repeat stays a duplicate
    printed = split_blocks(read_stream(_document(sheet, PageMethod.TEXT)), NUMBER_START, None)
    assert "48" not in [b.number for b in printed]
    # so does a scan whose spec disables the pass that reads it (`twin-numbers`)
    without = split_blocks(read_stream(_document(sheet, PageMethod.OCR)), NUMBER_START, None, recovery=recovery_for(["twin-numbers"]))
    assert "48" not in [b.number for b in without]


def test_on_a_two_column_page_the_missing_number_may_stand_at_the_other_columns_edge():
    """Revalida p. 26: "QUESTÃO 99" (for 98) opens the left column, after 97 in the right column of the
    page before; it is aligned with the run's headers, those of the left column."""
    rows = [("47. Sétima", 348), ("49. Oitava", 70), ("49. Nona", 348), ("50. Décima", 70)]
    lines = [Line(text=t, x0=x, top=80 + 14 * i, x1=x + 200, bottom=90 + 14 * i, font_size=10) for i, (t, x) in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)
    document = ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")
    blocks = split_blocks(read_stream(document), NUMBER_START, None)
    assert [b.number for b in blocks] == ["47", "48", "49", "50"]


def _placed(rows: list[tuple[float, str]], method: PageMethod = PageMethod.OCR) -> ExtractedDocument:
    """One line per row; a header number ("N." or "N" alone) shares its row with the text after it."""
    lines, top = [], 80.0
    for x, text in rows:
        top += 0 if lines and lines[-1].text.rstrip(".").isdigit() else 20
        lines.append(Line(text=text, x0=x, top=top, x1=x + 7 * len(text), bottom=top + 12, font_size=11))
    page = Page(number=3, width=595, height=842, method=method, lines=lines)
    return ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=3, pages=[page], stage_version="test")


def test_the_first_number_whose_dot_ocr_lost_opens_the_first_question():
    # DEMRE M1 1: the header "1." read as "1", the last line at the headers' edge before "2." (its
    # stem and options stand at the text indent).
    sheet = [(65, "1"), (100, "Por el arriendo de un juego inflable se cobra una cuota fija."), (100, "A) 4"), (100, "B) 8"),
             (64, "2."), (100, "Considera el número p distinto de cero."), (100, "A) Que hubo dos aumentos.")]
    blocks = split_blocks(read_stream(_placed(sheet)), NUMBER_START, None)
    assert [b.number for b in blocks] == ["1", "2"]
    assert [sl.text for sl in blocks[0].lines][-2:] == ["A) 4", "B) 8"]
    assert [b.number for b in split_blocks(read_stream(_placed(sheet, PageMethod.TEXT)), NUMBER_START, None)] == ["2"]


def test_a_bare_number_is_no_first_header_with_other_lines_at_the_headers_edge_after_it():
    # "1" is the last line of an instruction list; an unindented line stands between it and "2.".
    sheet = [(65, "1"), (65, "Lee con atención."), (64, "2."), (100, "Considera el número p."), (100, "A) Que hubo dos aumentos.")]
    assert [b.number for b in split_blocks(read_stream(_placed(sheet)), NUMBER_START, None)] == ["2"]
    # nor is a number that is not the one before the first header
    sheet = [(65, "7"), (100, "Por el arriendo."), (64, "2."), (100, "Considera el número p.")]
    assert [b.number for b in split_blocks(read_stream(_placed(sheet)), NUMBER_START, None)] == ["2"]


@pytest.mark.parametrize(("read", "rest"), [("2|. Segunda", "Segunda"), ("|2. Segunda", "Segunda")])
def test_a_scanned_number_read_with_its_boxs_edge_as_a_bar_is_the_missing_number(read, rest):
    """A number printed in a box or banner: the box's edge beside it is read as a bar, which folds to 1 ("2|" as
    21). In a gap of exactly one, at the headers' edge, it is the number the run leaves there, flagged."""
    sheet = ["1. Primera", read, "3. Tercera", "4. Cuarta"]
    blocks = split_blocks(read_stream(_document(sheet, PageMethod.OCR)), NUMBER_START, None)
    assert [(b.number, b.header_rest) for b in blocks] == [("1", "Primera"), ("2", rest), ("3", "Tercera"), ("4", "Cuarta")]
    as_read = read.split(".")[0].replace("|", "1")
    assert blocks[1].flags == [f"question number read as {as_read}, taken as 2: the only number the numbering allows there"]
    # where the gap is wider, or the line is no scan's, the number stays text
    wider = split_blocks(read_stream(_document(["1. Primera", read, "4. Cuarta", "5. Quinta"], PageMethod.OCR)), NUMBER_START, None)
    assert [b.number for b in wider] == ["1", "4", "5"]
    printed = split_blocks(read_stream(_document(sheet, PageMethod.TEXT)), NUMBER_START, None)
    assert [b.number for b in printed] == ["1", "3", "4"]
    without = split_blocks(read_stream(_document(sheet, PageMethod.OCR)), NUMBER_START, None, recovery=recovery_for(["edge-strokes"]))
    assert [b.number for b in without] == ["1", "3", "4"]


def test_a_scanned_header_with_its_boxs_edge_read_as_a_bracket_still_opens_its_question():
    """OAB's "Questão 2" in a black banner, its right edge read as "]" glued to the number."""
    spec = load_spec("br_fgv_oab")
    lines = ["Questão 1", "Primeira", "Questão 2]", "Segunda", "Questão 3", "Terceira"]
    scanned = split_blocks(read_stream(_document(lines, PageMethod.OCR)), spec.layout.question_start, None)
    assert [b.number for b in scanned] == ["1", "2", "3"]
    printed = split_blocks(read_stream(_document(lines, PageMethod.TEXT)), spec.layout.question_start, None)
    assert [b.number for b in printed] == ["1", "3"]


def _rows(rows: list[str], method: PageMethod) -> ExtractedDocument:
    lines = [Line(text=t, x0=70, top=80 + 20 * i, x1=70 + 9 * len(t), bottom=92 + 20 * i, font_size=10) for i, t in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return ExtractedDocument(sha256="0" * 64, path="key.pdf", page_count=1, pages=[page], stage_version="test")


@pytest.mark.parametrize("header", ["EXAME UNIFICADO – TIPO l – BRANCO", "EXAME UNIFICADO – TIPO I – BRANCO"])
def test_a_scanned_keys_booklet_type_header_read_with_a_look_alike_still_opens_its_block(header):
    """OAB's key prints one grid block per booklet type under "… – TIPO 1 – BRANCO"; on a scan the type's digit
    may come back as "l" or "I". Unread, the sheet's block was not found and no answer was keyed."""
    key = load_spec("br_fgv_oab").key
    rows = [header, "1 2 3 4 5", "D B C A D", "EXAME UNIFICADO – TIPO 2 – VERDE", "1 2 3 4 5", "A A B B C"]
    scanned = read_grid(_rows(rows, PageMethod.OCR), key, "key.pdf", labels=["A", "B", "C", "D"])
    assert sorted(scanned) == ["1", "2"]
    assert [scanned["1"].answers[str(n)] for n in range(1, 6)] == list("DBCAD")
    printed = read_grid(_rows(rows, PageMethod.TEXT), key, "key.pdf", labels=["A", "B", "C", "D"])
    assert sorted(printed) == ["2"]  # a text layer prints what it prints
    without = read_grid(_rows(rows, PageMethod.OCR), key, "key.pdf", labels=["A", "B", "C", "D"], recovery=recovery_for(["number-lookalikes"]))
    assert sorted(without) == ["2"]


def test_question_numbers_given_their_lost_mark_are_counted_for_the_sheets_info_note_not_flagged():
    # "1" before "2." and "3" after it lost their dots; the numbers were read, so no question carries a flag: the
    # sheet's notes count them (`parse.marks_restored`, info).
    sheet = [(65, "1"), (100, "Por el arriendo se cobra una cuota fija."), (100, "A) 4"), (64, "2. Considera p."),
             (100, "A) Que hubo."), (64, "3 ¿A cuál?"), (100, "A) Porque")]
    numbering = Numbering()
    blocks = split_blocks(read_stream(_placed(sheet)), NUMBER_START, None, numbering)
    assert [b.number for b in blocks] == ["1", "2", "3"] and not any(b.flags for b in blocks)
    assert numbering.marks_restored == ["1.", "3."]
    printed = Numbering()
    split_blocks(read_stream(_placed(sheet, PageMethod.TEXT)), NUMBER_START, None, printed)
    assert printed.marks_restored == []
