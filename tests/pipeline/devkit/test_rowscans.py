"""The row-option families (`pipeline.devkit.rowscans`): every sheet prints its options side by side (one row, or
two to a row) in its own label style, and read by its text layer every question comes out with all its options, each under its label, and its answer
(a scan's gap is measured against that); tuning and checking families differ in language or label style."""
from __future__ import annotations

from pipeline.devkit.rowscans import CHECKING, TUNING
from pipeline.devkit.scriptscans import read_records, write_sheet


def test_every_family_prints_its_options_side_by_side_in_a_marked_label_style():
    for family in (*TUNING, *CHECKING):  # all on one row, or two to a row (Cyrillic pairs whose later labels a scan loses)
        assert family.layout in ("row", "pairs") and family.style.replace("A", "") != "", family.name
    assert all(f.layout == "row" for f in CHECKING)
    assert {(f.language, f.style) for f in TUNING}.isdisjoint({(f.language, f.style) for f in CHECKING})


def test_each_row_sheet_reads_exactly_by_its_text_layer(tmp_path):
    for family in (TUNING[1], CHECKING[0]):  # Greek capitals in brackets; Portuguese `A.` with five options
        printed, sheet, key = write_sheet(tmp_path / family.name / "2031", family)
        records = read_records(sheet, key, family)
        assert [(records[q.number].choice_labels, records[q.number].choices, records[q.number].answer) for q in printed] == [
            (list(family.labels), list(q.options), q.answer) for q in printed]
