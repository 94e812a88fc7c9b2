"""On OCR'd pages a misread option label is known by where it stands: at the block's label column, a
token that is no word takes the one label the sequence leaves there; words and text pages stay."""
from __future__ import annotations

from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.labels import option_start_regex
from pipeline.parse.options import find_options
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import line_stream

LABELS = ["A", "B", "C", "D"]
OPTION_RE = option_start_regex(LABELS, ["A)"])


def _lines(rows: list[tuple[float, str]], method: PageMethod = PageMethod.OCR):
    lines = [Line(text=t, x0=x, top=80 + 14 * i, x1=500, bottom=90 + 14 * i, font_size=10) for i, (x, t) in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return line_stream(ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test"), labels=LABELS,
                       reader=Recovery.every().line_reader(LABELS))


def _options(rows, method=PageMethod.OCR) -> dict[str, str]:
    found = find_options(_lines(rows, method), LABELS, OPTION_RE)
    return {o.label: " ".join(o.parts) for o in found.options}


BLOCK = [(100, "¿Por qué se plantea un enfoque intersectorial?"), (99, "A) Porque la lucha"), (100, "B) Porque el entorno"),
         (101, "0 Porque la disponibilidad"), (100, "D) Porque el descubrimiento")]


def test_a_label_read_as_a_digit_at_the_label_column_is_the_label_the_sequence_leaves():
    assert _options(BLOCK) == {"A": "Porque la lucha", "B": "Porque el entorno", "C": "Porque la disponibilidad", "D": "Porque el descubrimiento"}


def test_a_mark_glued_to_a_letter_and_the_last_label_are_restored_too():
    rows = [*BLOCK[:4], (100, "©) Porque el descubrimiento")]
    rows[3] = (100, "C) Porque la disponibilidad")
    assert _options(rows)["D"] == "Porque el descubrimiento"


def test_words_at_the_label_column_and_misreads_off_it_are_left_alone():
    # "En" is a word (a stem of the next question); "8" sits at the text indent, not at the labels.
    rows = [*BLOCK[:4], (100, "En el texto se dice")]
    rows[3] = (121, "8 Porque la disponibilidad")
    assert _options(rows) == {"A": "Porque la lucha", "B": "Porque el entorno 8 Porque la disponibilidad En el texto se dice"}


def test_a_label_already_read_is_never_given_twice_and_text_pages_are_matched_as_printed():
    # C is read further down: the "0" line is not a second C.
    rows = [*BLOCK[:4], (100, "C) Porque el descubrimiento")]
    assert _options(rows) == {"A": "Porque la lucha", "B": "Porque el entorno 0 Porque la disponibilidad", "C": "Porque el descubrimiento"}
    assert _options(BLOCK, PageMethod.TEXT) == {
        "A": "Porque la lucha", "B": "Porque el entorno 0 Porque la disponibilidad", "D": "Porque el descubrimiento"
    }


def test_in_an_option_grid_each_column_of_labels_is_a_label_column():
    # Ten options in two columns (A B / C D / … / I J); "I)" read as "1)" stands at the left column,
    # which holds only half the labels: no single column of all labels exists.
    labels = list("ABCDEFGHIJ")
    rows = [(100 + 200 * (k % 2), f"{label}) opción {label.lower()}") for k, label in enumerate(labels)]
    rows[8] = (100, "1) opción i")
    found = find_options(_lines([(100, "¿Cuál es la opción?"), *rows]), labels, option_start_regex(labels, ["A)"]))
    assert {o.label: " ".join(o.parts) for o in found.options} == {label: f"opción {label.lower()}" for label in labels}


def test_a_rows_last_label_misread_stands_where_the_rows_tab_stops_put_it():
    # Four options on one row, evenly spaced: "δ)" read as "ϐ)" (a serif δ) stood at a column no label was
    # read at, and the question lost its options. The row's pitch puts a fourth tab stop there.
    labels = ["α", "β", "γ", "δ"]
    row = [(100 + 110 * k, f"{label}) λέξη{k}") for k, label in enumerate(labels)]
    row[3] = (430, "ϐ) λέξη3")
    found = find_options(_lines([(100, "Ποια είναι η σωστή;"), *row]), labels, option_start_regex(labels, ["A)"]))
    assert {o.label: " ".join(o.parts) for o in found.options} == {label: f"λέξη{k}" for k, label in enumerate(labels)}
    # Off the row's stops (half a pitch past the last), the token is left as read.
    row[3] = (375, "ϐ) λέξη3")
    found = find_options(_lines([(100, "Ποια είναι η σωστή;"), *row]), labels, option_start_regex(labels, ["A)"]))
    assert "δ" not in {o.label for o in found.options}


def _placed(rows: list[tuple[float, float, str]], method: PageMethod = PageMethod.OCR):
    """Lines at (x, top): a fraction's numerator and denominator stand above and below its label's row."""
    lines = [Line(text=t, x0=x, top=top, x1=x + 8 * len(t), bottom=top + 12, font_size=11) for x, top, t in rows]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return line_stream(ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test"), labels=LABELS,
                       reader=Recovery.every().line_reader(LABELS))


def _fraction_options(labels: list[str], method: PageMethod = PageMethod.OCR) -> dict[str, str]:
    """DEMRE M1 65 on a scan: each label's ")" lost, so each label is a lone letter at the label column,
    between its fraction's numerator and denominator at the text indent."""
    rows = [(65, 80, "65. Si se lanzan tres monedas, ¿cuál es la probabilidad de obtener"), (100, 96, "sello?")]
    for k, (label, (numerator, denominator)) in enumerate(zip(labels, [("1", "3"), ("7", "8"), ("1", "8"), ("1", "2")])):
        top = 132 + 40 * k
        rows += [(131, top, numerator), (100, top + 7, label), (131, top + 17, denominator)]
    found = find_options(_placed(rows, method), LABELS, OPTION_RE)
    return {o.label: o.text for o in found.options}


def test_lone_letters_down_the_label_column_are_the_labels_in_their_order():
    assert _fraction_options(["A", "B", "C", "D"]) == {"A": "1 3", "B": "7 8", "C": "1 8", "D": "1 2"}
    # one of them misread ("a" for "B"): three read as printed still make the column
    assert _fraction_options(["A", "a", "C", "D"]) == {"A": "1 3", "B": "7 8", "C": "1 8", "D": "1 2"}


def test_lone_letters_that_do_not_make_a_label_column_stay_text():
    assert _fraction_options(["A", "a", "e", "D"]) == {}  # only two read as the letters expected there
    assert _fraction_options(["B", "C", "D", "E"]) == {}  # the column does not start with the first label
    assert _fraction_options(["A", "B", "C", "D"], PageMethod.TEXT) == {}  # a text layer is read as printed
    # a line at the label column that does not open with a lone letter ends the column
    rows = [(100, 80, "¿Cuál es la letra?"), (100, 100, "A"), (131, 100, "uno"), (100, 120, "Bien dicho"), (100, 140, "C"), (100, 160, "D")]
    assert find_options(_placed(rows), LABELS, OPTION_RE).options == []


def test_a_lone_letter_that_is_the_only_line_at_the_column_in_its_gap_is_the_label_left_there():
    # DEMRE M1 16: "A)" read as "a" with its text, "D)" as a lone "D"; the options' own lines are indented.
    rows = [(65, 84, "16. ¿Cuál es el valor de"), (100, 129, "a -2"), (141, 148, "27"), (100, 162, "B)"), (136, 162, "-1"),
            (100, 188, "C)"), (142, 193, "2"), (143, 206, "3"), (100, 221, "D"), (143, 231, "2")]
    found = find_options(_placed(rows), LABELS, OPTION_RE)
    assert [o.label for o in found.options] == ["A", "B", "C", "D"]
    assert found.options[0].parts[0] == "-2" and found.options[3].parts == ["", "2"]


def test_a_lone_letter_beside_another_line_at_the_column_is_left_as_read():
    # "a" opens a line of the stem, and another stem line stands at the column in the same gap.
    rows = [(100, 80, "¿Qué número sigue"), (100, 100, "a la serie?"), (100, 120, "B) dos"), (100, 140, "C) tres"), (100, 160, "D) cuatro")]
    found = find_options(_placed(rows), LABELS, OPTION_RE)
    assert [o.label for o in found.options] == [] and [sl.text for sl in found.stem][:2] == ["¿Qué número sigue", "a la serie?"]
    rows = [(100, 80, "¿Qué número sigue?"), (100, 100, "A) uno"), (100, 120, "B) dos"), (100, 140, "C) tres"), (100, 160, "D"), (100, 180, "En total")]
    assert [o.label for o in find_options(_placed(rows), LABELS, OPTION_RE).options] == ["A", "B", "C"]


def test_every_label_given_from_its_place_is_a_flag():
    assert find_options(_lines(BLOCK), LABELS, OPTION_RE).flags == [
        "option C: its label was read as '0' (OCR); taken as the label its column leaves there"]
    rows = [(65, 80, "65. ¿Cuál es la probabilidad?")] + [(100, 100 + 20 * k, f"{label}") for k, label in enumerate("ABCD")]
    rows += [(131, 102 + 20 * k, f"1/{k + 2}") for k in range(4)]
    assert find_options(_placed(sorted(rows, key=lambda r: r[1])), LABELS, OPTION_RE).flags == [
        "option labels ['A', 'B', 'C', 'D']: read without their marks (OCR); taken from the column they stand in"]


def _ringed(rows: list[tuple[float, str]], labels: list[str]):
    """OCR'd lines as the stream reads them for a spec whose labels are rings (kept as printed)."""
    lines = [Line(text=t, x0=x, top=80 + 14 * i, x1=500, bottom=90 + 14 * i, font_size=10) for i, (x, t) in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)
    return line_stream(ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test"),
                       labels=labels, reader=Recovery.every().line_reader(labels))


def test_a_ring_read_as_a_symbol_glued_to_its_options_first_word_is_the_label_and_the_word_is_kept():
    # Issue 27: options printed glued to their rings ("②propagując"), a ring not read as one: "©propagując".
    labels = ["①", "②", "③", "④"]
    rows = [(100, "1. Listewki zjadł stolic palono dalmierzem mowić wulkanem?"), (110, "① ytych scots kiczu"),
            (110, "©propagując marianna"), (110, "@piks prospekt"), (110, "④ zielonej wyrażeniu")]
    found = find_options(_ringed(rows, labels), labels, option_start_regex(labels, []))
    assert {o.label: " ".join(o.parts) for o in found.options} == {
        "①": "ytych scots kiczu", "②": "propagując marianna", "③": "piks prospekt", "④": "zielonej wyrażeniu"}
    # Quotes and inverted marks open text: "¿Qué…" at the column stays a line of text.
    rows[3] = (110, "«piks» prospekt")
    found = find_options(_ringed(rows, labels), labels, option_start_regex(labels, []))
    assert "③" not in {o.label for o in found.options}


def test_a_labels_bracket_left_glued_to_the_first_word_when_ocr_lost_its_digit_is_that_label():
    # "1)rotativa" read ")rotativa": the closing bracket is what is left of the label the column leaves there.
    labels = ["1", "2", "3", "4"]
    rows = [(100, "8. Dígame manejen reflexivo emp tarotistas geral lennon."), (110, ")rotativa"),
            (110, "2)derecha 61 boxeadores"), (110, "3)polvora quimera"), (110, "4)fue 1986 toka")]
    found = find_options(_lines(rows), labels, option_start_regex(labels, ["A)"]))
    assert {o.label: " ".join(o.parts) for o in found.options} == {
        "1": "rotativa", "2": "derecha 61 boxeadores", "3": "polvora quimera", "4": "fue 1986 toka"}


def _grid_block(d_line: str, e_line: str) -> list[tuple[float, str]]:
    """CONAREME's five options in two columns (A B C under each other at the left, D E at the right), as OCR's
    stream gives them: across the rows, A D B E C."""
    return [(60, "¿Qué calificación le corresponde en la Escala de Glasgow?"), (60, "A. 13"), (320, d_line), (61, "B. 9"),
            (320, e_line), (61, "C. 12")]


GRID_LABELS = ["A", "B", "C", "D", "E"]


def _grid_options(rows: list[tuple[float, str]]) -> dict[str, str]:
    lines = [Line(text=t, x0=x, top=80 + 14 * i, x1=x + 200, bottom=90 + 14 * i, font_size=10)
             for i, (x, t) in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)
    stream = line_stream(ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test"),
                         labels=GRID_LABELS, reader=Recovery.every().line_reader(GRID_LABELS))
    found = find_options(stream, GRID_LABELS, option_start_regex(GRID_LABELS, ["A.", "A)"]))
    return {o.label: " ".join(o.parts) for o in found.options}


def test_in_a_grid_read_across_its_rows_a_lone_letter_is_the_label_it_is_where_the_block_lacks_it():
    # Issue 27: CONAREME 2022 at 150 dpi, the answer's label under its highlight read without its ".": "E 10"
    # ran on into D's text ("8 E 10": four options, the answer D), "D Cohorte" kept its "D".
    full = {"A": "13", "B": "9", "C": "12", "D": "8", "E": "10"}
    assert _grid_options(_grid_block("D. 8", "E 10")) == full
    assert _grid_options(_grid_block("D 8", "E. 10")) == full
    # a token that is no word is the one label the block lacks
    assert _grid_options(_grid_block("D. 8", "0 10")) == full


def test_in_a_grid_a_lone_letter_already_read_or_out_of_its_columns_order_stays_text():
    # "D" read twice: the second is no label
    assert _grid_options(_grid_block("D. 8", "D 10")) == {"A": "13", "B": "9", "C": "12", "D": "8 D 10"}
    # "C" at the right column below D: C is read at the left column, and the right column's labels run D, E
    assert "10" in _grid_options(_grid_block("D. 8", "C 10"))["D"]
    # before the first label (a stem's line at the column) a lone letter stays text
    rows = [(60, "¿Qué calificación le corresponde"), (60, "E la escala?"), (60, "A. 13"), (320, "D. 8"), (61, "B. 9"), (61, "C. 12")]
    assert "E" not in _grid_options(rows)
