"""Drawn text read in place is cached by what its masked image holds: the same drawn block in another
file (another sheet of the family, another sha256) takes the first file's reading without Tesseract,
and gives the lines reading it afresh gives; a different drawn block is read."""
from __future__ import annotations

from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import OcrSettings, masked
from tests.fixtures import drawn_sheets as ds
from tests.pipeline.extract.ocr.builders import needs_tesseract

CELLS = [f"{n}. {'ABCD'[(n * 7) % 4]}" for n in range(1, 13)]


def _key(path, heading, cells=CELLS):
    return ds.drawn_key(path, heading, cells, text_face=ds.dejavu(), drawn_face=ds.dejavu())


def _read_lines(document) -> list[tuple[str, float, float]]:
    return [(line.text, line.x0, line.top) for page in document.pages for line in page.lines if line.ocr]


@needs_tesseract("eng")
def test_the_same_drawn_block_in_another_file_is_read_once_and_gives_the_same_lines(tmp_path, monkeypatch):
    reads: list[int] = []
    real_read_page = masked.read_page

    def counted(image, settings, *, page_number):
        reads.append(page_number)
        return real_read_page(image, settings, page_number=page_number)

    monkeypatch.setattr(masked, "read_page", counted)
    first, second = _key(tmp_path / "a.pdf", "Answer key, form A"), _key(tmp_path / "b.pdf", "Answer key, form B")
    other = _key(tmp_path / "c.pdf", "Answer key, form A", [c.replace("A", "B") for c in CELLS])
    settings = OcrSettings(languages=("eng",))
    cached = ExtractOptions(ocr=settings, ocr_cache_dir=tmp_path / "cache")

    read_first = extract_document(first, "1" * 64, cached)
    assert len(reads) == 1 and _read_lines(read_first)
    read_second = extract_document(second, "2" * 64, cached)
    assert len(reads) == 1  # its drawn block is the first file's, pixel for pixel: no Tesseract
    fresh_second = extract_document(second, "2" * 64, ExtractOptions(ocr=settings))
    assert len(reads) == 2
    assert _read_lines(read_second) == _read_lines(fresh_second) == _read_lines(read_first)
    assert read_second.pages[0].lines[0].text == "Answer key, form B"

    extract_document(other, "3" * 64, cached)
    assert len(reads) == 3  # other cells drawn: read
