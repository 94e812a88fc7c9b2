"""The paragraph leading is measured from the lines themselves: wrapped lines continue a paragraph, a
blank line or a step left of the label starts another, whatever the line spacing."""
from __future__ import annotations

import pytest

from pipeline.extract import Line
from pipeline.parse.geometry import continues, measure_pitch
from pipeline.parse.stream import StreamLine

HEIGHT = 12.8  # an 11 pt line box


def _line(top: float, x0: float = 62.0, page: int = 1) -> StreamLine:
    return StreamLine(page, Line(text="tekst", x0=x0, top=top, x1=x0 + 200, bottom=top + HEIGHT, font_size=11.1))


def _paragraphs(pitch: float, break_after: int, count: int) -> list[StreamLine]:
    """`count` lines `pitch` apart, with a blank line after line `break_after`."""
    tops = [i * pitch + (pitch if i > break_after else 0.0) for i in range(count)]
    return [_line(100 + top) for top in tops]


@pytest.mark.parametrize("spacing", [1.0, 1.15, 1.5, 2.0])
def test_wrapped_lines_continue_and_a_blank_line_breaks_at_any_spacing(spacing):
    pitch = 13.75 * spacing
    lines = _paragraphs(pitch, break_after=3, count=7)
    measured = measure_pitch(lines)
    assert measured is not None and measured.pitch == pytest.approx(pitch)
    joined = [continues(a, b, measured) for a, b in zip(lines, lines[1:])]
    assert joined == [True, True, True, False, True, True]


def test_a_line_left_of_the_label_is_not_a_continuation():
    lines = [_line(100.0), _line(113.75)]
    pitch = measure_pitch(lines)
    assert continues(lines[0], _line(113.75, x0=62.0 + 2.0), pitch, left_edge=62.0)
    assert not continues(lines[0], _line(113.75, x0=56.7), pitch, left_edge=62.0)


def test_lines_of_another_column_or_page_tell_nothing_about_the_pitch():
    beside = [_line(100.0), _line(100.0, x0=320.0), _line(300.0, page=2)]
    assert measure_pitch(beside) is None
    assert not continues(beside[0], _line(113.75, page=2), None)
