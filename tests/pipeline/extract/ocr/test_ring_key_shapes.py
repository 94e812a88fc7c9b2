"""Ringed answers (①–⑤) of a scanned list key read by the ring found by its shape, and a sheet's last question's rings
read as labels however many prose regions the page reads again.

- `list-cells` cuts an entry's answer from the prepared page, where a thin ring at 165 dpi was whitened: its box is
  the digit's ink, and its crop with a margin may cut the ring (a ⑤ boxed 15 px wide in a ring of 45). The ring is
  looked for by its shape on the page before its light greys were whitened, around the box where the crop holds no
  whole ring (`labelrings.read_ring_cells`), and its inside is read as option labels are. At `b171a30` two `②` of
  this key were left unread (`?`).
- `label-rings` reads a page's ring insides stacked; at 300 dpi, blur 0.8, Tesseract dropped this key's clear `5`
  between two lines it read at 97, and the page kept Tesseract's `(5)`, no answer. An inside the stack left unread
  is read again alone at two sizes, and taken only where both read the same glyph.
- the words `table-cells` and `list-cells` write are told from the others by their line numbers (`held_apart`); the
  prose regions read again are numbered 10 000 apart, so a page's sixth region (ko-column's question 6 at 165 dpi)
  was taken for key cells and its rings were never made labels.

The keys and the sheet are `scriptscans`' own (Noto Sans CJK, Hangul words), scanned as `scriptscans` scans them."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.devkit import scriptscans
from pipeline.devkit.keyscans import same_answer
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr.segment import REGION_LINE_OFFSET
from pipeline.extract.ocr.tablecells import held_apart
from pipeline.extract.ocr.words import Word
from pipeline.parse import read_list
from tests.pipeline.extract.ocr.builders import needs_tesseract


def _family(name: str) -> scriptscans.Family:
    return next(f for f in scriptscans.TUNING if f.name == name)


def _scanned(folder: Path, family: scriptscans.Family, setting: ScanSetting, which: str) -> tuple[list, Path]:
    questions, sheet, key = scriptscans.write_sheet(folder, family)
    clean = key if which == "key" else sheet
    return questions, setting.rasterise(clean, folder / f"scan-{which}.pdf", seed=family.seed)


@needs_tesseract("kor")
@pytest.mark.parametrize("setting", ["165/0.7/76", "300/0.8/88"])
def test_every_ringed_answer_of_a_scanned_list_key_is_read_by_its_ring(tmp_path, setting):
    # b171a30: at 165/0.7/76 entries 5 and 6 (`②`) read `?`; at 300/0.8/88 entry 9 (`⑤`) read `(5)`.
    family = _family("ko-row")
    questions, key = _scanned(tmp_path, family, ScanSetting.parse(setting), "key")
    spec = scriptscans.family_spec(family)
    document = extract_document(key, hashlib.sha256(key.read_bytes()).hexdigest(), ExtractOptions.from_spec(spec))
    read = read_list(document, spec.key, key.name).answers
    wrong = {q.number: (read.get(q.number), q.answer) for q in questions if not same_answer(read.get(q.number, ""), q.answer)}
    assert wrong == {}


@needs_tesseract("kor")
def test_a_sheets_sixth_prose_region_keeps_its_rings_as_labels(tmp_path):
    # b171a30: question 6, the last of page 1, read `1`, `2 김광수 접속`, `'4 31 포항시 루수`: no option found.
    family = _family("ko-column")
    questions, sheet = _scanned(tmp_path, family, ScanSetting.parse("165/0.7/76"), "sheet")
    spec = scriptscans.family_spec(family)
    document = extract_document(sheet, hashlib.sha256(sheet.read_bytes()).hexdigest(), ExtractOptions.from_spec(spec))
    lines = [line.text for line in document.pages[0].lines]
    sixth = next(q for q in questions if q.number == "6")
    for label, option in zip(family.labels, sixth.options):
        assert any(text.startswith(f"{label} ") and option.split()[-1] in text for text in lines), (label, option, lines)


def test_words_of_prose_regions_read_again_are_never_held_apart_as_key_cells():
    regions = [Word("쇼", 90.0, 0, 0, 10, 10, (REGION_LINE_OFFSET * (index + 1) + 1, 1, 1)) for index in range(12)]
    held, others = held_apart(regions)
    assert held == [] and others == regions
