"""A key header's word split by a scan: a serif `ТИП А` over a grid block came back `ТИ П А` at 195 dpi (a wide gap
between two letters read as a word space), the spec's `ТИП\\s*(?P<variant>\\w)` found no booklet type in it, and every
answer of the sheet's booklet was lost (`no table for variant 'А'`). On an OCR row that names fewer types as read, the
header pattern is matched with the row's word spaces taken out, where a match begins and ends at the row's word
edges."""
from __future__ import annotations

import re

from pipeline.extract import Line
from pipeline.parse.stream import StreamLine, variant_names
from tests.pipeline.extract.ocr.builders import needs_tesseract

HEADER = re.compile(r"ТИП\s*(?P<variant>\w)")


def _row(text: str, ocr: bool = True) -> list[StreamLine]:
    return [StreamLine(1, Line(text, 40.0, 100.0, 300.0, 112.0), ocr=ocr)]


def test_a_header_word_split_by_a_scan_still_names_its_booklet_type():
    assert variant_names(HEADER, _row("ТИ П А")) == ["А"]
    assert variant_names(HEADER, _row("Т И П В")) == ["В"]
    # A row of booklet columns ("Typ A Typ B …") with one header split names all four, in order.
    assert variant_names(re.compile(r"Typ\s*(?P<variant>\w)"), _row("Nr T yp A Typ B Typ C Typ D")) == ["A", "B", "C", "D"]
    # Words the row never printed together name no booklet type. A match must begin and end at the row's word edges:
    # "СТИ П А" holds no word ТИП, however its letters run.
    assert variant_names(HEADER, _row("СТИ П А")) == []
    assert variant_names(HEADER, _row("ТИ П АБ")) == []
    # A text layer prints what it prints: its words are never joined.
    assert variant_names(HEADER, _row("ТИ П А", ocr=False)) == []
    # A row that names its types as read keeps them.
    assert variant_names(re.compile(r"TIPO\s*(?P<variant>\w+)"), _row("TIPO 1 VERDE")) == ["1"]


@needs_tesseract("rus")
def test_a_serif_russian_booklet_key_at_195_dpi_reads_its_booklets_block(tmp_path):
    from pipeline.devkit.keyscans import measure
    from pipeline.devkit.sample.keysheets import serif_cyrillic_booklets
    from pipeline.devkit.sample.scansetting import ScanSetting

    result, table, _ = measure(serif_cyrillic_booklets(0), tmp_path, ScanSetting.parse("195/0.7/73/0.4"), seed=0)
    assert result.right == result.total == 40, table.problems
