"""A stream line's text is its line's text: read once when the stream line is made, and made anew by every
`replace`, whichever field it changes (parse's rules cut, join and relabel lines with `replace`)."""
from __future__ import annotations

from dataclasses import replace

from pipeline.extract import Line
from pipeline.parse.stream import StreamLine


def test_a_stream_lines_text_follows_its_line_through_every_replace():
    item = StreamLine(2, Line("A. pierwsza", 60.0, 100.0, 300.0, 112.0), ocr=True)
    assert item.text == "A. pierwsza"
    relined = replace(item, line=replace(item.line, text="B. druga", x0=200.0))
    assert relined.text == "B. druga" and relined.line.x0 == 200.0 and item.text == "A. pierwsza"
    moved = replace(relined, page=3, fold_digits=True)
    assert (moved.text, moved.page, moved.fold_digits) == ("B. druga", 3, True)


def test_stream_lines_compare_and_show_by_page_line_and_reading_alone():
    """The text read from the line adds nothing to equality or to the shown form: two stream lines are equal
    exactly when their pages, lines and readings are."""
    line = Line("1. Pytanie", 50.0, 80.0, 400.0, 92.0)
    assert StreamLine(1, line) == StreamLine(1, replace(line))
    assert StreamLine(1, line) != StreamLine(1, line, ocr=True) and StreamLine(1, line) != StreamLine(2, line)
    assert StreamLine(1, line) != StreamLine(1, replace(line, text="2. Pytanie"))
    assert repr(StreamLine(1, line)) == f"StreamLine(page=1, line={line!r}, ocr=False, fold_digits=False)"
