"""Drawn text read in place is cached by what its masked image holds: the same drawn block in another
file (another sheet of the family, another sha256) takes the first file's reading without Tesseract,
and gives the lines reading it afresh gives; a different drawn block is read. The process remembers
its last readings by content too, with no cache folder: the same block is read once a process."""
from __future__ import annotations

import pytest

from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import OcrSettings, masked
from tests.fixtures import drawn_sheets as ds
from tests.pipeline.extract.ocr.builders import needs_tesseract

CELLS = [f"{n}. {'ABCD'[(n * 7) % 4]}" for n in range(1, 13)]


def _key(path, heading, cells=CELLS):
    return ds.drawn_key(path, heading, cells, text_face=ds.dejavu(), drawn_face=ds.dejavu())


def _read_lines(document) -> list[tuple[str, float, float]]:
    return [(line.text, line.x0, line.top) for page in document.pages for line in page.lines if line.ocr]


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """The pages Tesseract reads masked images of, with nothing remembered from before the test."""
    reads: list[int] = []
    real_read_page = masked.read_page

    def counted(image, settings, *, page_number):
        reads.append(page_number)
        return real_read_page(image, settings, page_number=page_number)

    monkeypatch.setattr(masked, "read_page", counted)
    masked.REMEMBERED.clear()
    yield reads
    masked.REMEMBERED.clear()


@needs_tesseract("eng")
def test_the_same_drawn_block_in_another_file_is_read_once_and_gives_the_same_lines(tmp_path, reads):
    first, second = _key(tmp_path / "a.pdf", "Answer key, form A"), _key(tmp_path / "b.pdf", "Answer key, form B")
    other = _key(tmp_path / "c.pdf", "Answer key, form A", [c.replace("A", "B") for c in CELLS])
    settings = OcrSettings(languages=("eng",))
    cached = ExtractOptions(ocr=settings, ocr_cache_dir=tmp_path / "cache")

    read_first = extract_document(first, "1" * 64, cached)
    assert len(reads) == 1 and _read_lines(read_first)
    read_second = extract_document(second, "2" * 64, cached)
    assert len(reads) == 1  # its drawn block is the first file's, pixel for pixel: no Tesseract
    masked.REMEMBERED.clear()
    fresh_second = extract_document(second, "2" * 64, ExtractOptions(ocr=settings))
    assert len(reads) == 2
    assert _read_lines(read_second) == _read_lines(fresh_second) == _read_lines(read_first)
    assert read_second.pages[0].lines[0].text == "Answer key, form B"

    extract_document(other, "3" * 64, cached)
    assert len(reads) == 3  # other cells drawn: read


@needs_tesseract("eng")
def test_without_a_cache_folder_the_same_drawn_block_is_read_once_a_process_and_gives_what_reading_it_afresh_gives(tmp_path, reads):
    first, second = _key(tmp_path / "a.pdf", "Answer key, form A"), _key(tmp_path / "b.pdf", "Answer key, form B")
    other = _key(tmp_path / "c.pdf", "Answer key, form A", [c.replace("A", "B") for c in CELLS])
    options = ExtractOptions(ocr=OcrSettings(languages=("eng",)))

    read_first = extract_document(first, "1" * 64, options)
    remembered_second = extract_document(second, "2" * 64, options)
    assert len(reads) == 1 and _read_lines(read_first)  # the second file's drawn block is the first's
    masked.REMEMBERED.clear()
    fresh_second = extract_document(second, "2" * 64, options)
    assert len(reads) == 2
    assert remembered_second.to_json() == fresh_second.to_json()
    assert remembered_second.pages[0].lines[0].text == "Answer key, form B"

    extract_document(other, "3" * 64, options)
    assert len(reads) == 3  # other cells drawn: read, not taken from a remembered reading


def test_the_process_remembers_only_its_last_readings(tmp_path):
    remembered = masked.Remembered(2)
    readings = [object() for _ in range(3)]
    for name, reading in zip("abc", readings):
        remembered.put(name, reading)  # type: ignore[arg-type]
    assert remembered.get("a") is None
    assert remembered.get("b") is readings[1] and remembered.get("c") is readings[2]
