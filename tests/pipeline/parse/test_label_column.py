"""On OCR'd pages a misread option label is known by where it stands: at the block's label column, a
token that is no word takes the one label the sequence leaves there; words and text pages stay."""
from __future__ import annotations

from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.labels import option_start_regex
from pipeline.parse.options import find_options
from pipeline.parse.stream import line_stream

LABELS = ["A", "B", "C", "D"]
OPTION_RE = option_start_regex(LABELS, ["A)"])


def _lines(rows: list[tuple[float, str]], method: PageMethod = PageMethod.OCR):
    lines = [Line(text=t, x0=x, top=80 + 14 * i, x1=500, bottom=90 + 14 * i, font_size=10) for i, (x, t) in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return line_stream(ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test"))


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
