"""A list key's answer is read twice: its cell alone against the labels (`list-cells`) and in its line by the page's
reading. Where both name a label, each sure enough, and they differ, the answer stands unsure whichever is taken: a
blurred `C` read `A` surely by one reading is no sure answer while the other reads `C` (`listcells._two_readings`)."""
from __future__ import annotations

import pytest

from pipeline.extract.ocr.listcells import DISAGREED_CONF, _two_readings
from pipeline.extract.ocr.words import Word

LABELS = ("A", "B", "C", "D", "E")
ANSWER = (100, 50, 112, 64)  # the answer's box on the page


def _page(text: str | None, conf: float) -> list[Word]:
    """The page reading at the answer's place: `text` read there at `conf`, alone (nothing where None)."""
    return [] if text is None else [Word(text, conf, 99, 49, 113, 65, (1, 1, 1))]


@pytest.mark.parametrize(
    ("cell", "page", "taken"),
    [
        (("C", 70.0), ("A", 88.0), ("A", DISAGREED_CONF)),  # the page's sure label taken, the cell read another: unsure
        (("C", 95.0), ("A", 60.0), ("C", DISAGREED_CONF)),  # the cell's sure label taken, the page read another: unsure
        (("C", 95.0), ("C", 88.0), ("C", 88.0)),  # both alike: as sure as the page reading
        (("C", 96.0), (None, 0.0), ("C", 96.0)),  # one reading only: as read
        (("C", 40.0), ("A", 88.0), ("A", 88.0)),  # a cell read too unsurely to contradict the page
        (("C", 95.0), ("A", 30.0), ("C", 95.0)),  # a page word too unsure to contradict the cell
        (("C", 70.0), ("A", 60.0), None),  # neither sure, and they differ: left unread (reported), as before
    ],
)
def test_two_readings_of_one_answer_that_differ_leave_it_unsure(cell, page, taken):
    assert _two_readings(cell, _page(*page), ANSWER, LABELS) == taken
