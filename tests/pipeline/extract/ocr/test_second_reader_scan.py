"""The second recogniser reads the page as scanned (`pipeline.extract.ocr.secondread`): the page prepared
for Tesseract is smoothed and its light greys whitened, and on those pixels RapidOCR made Tesseract's own
errors (`ri` read `n`, an accent or a comma's tail lost) and then agreed with them. Real generated sheets in
small type, rasterised soft (150 dpi, blur 0.8, JPEG 70), read by the whole page path with real Tesseract,
RapidOCR and hunspell."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.extract.ocr import OcrSettings, read_page, secondread
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_readers, require_second_reader, scanned_line

SPANISH = "Órganos superiores. Ministerio de la Presidencia. Retribuciones diferidas. El 13,33 % aprobó."
POLISH = "Źródłem danych jest plik; należy wyznaczyć największą gęstość zaludnienia i różnicę 12,5."
DPI, BLUR, JPEG = 150, 0.8, 70


def _read(image, language: str, disabled: tuple[str, ...] = ()) -> list[str]:
    # `accent-lines` reads lost accents back from the page not whitened (`róznicę` → `różnicę`): off, so that what
    # is compared is Tesseract's reading with and without the second reader alone.
    settings = OcrSettings(languages=(language,), dpi=DPI, disabled_passes=("accent-lines", *disabled))
    reading = read_page(image, settings, page_number=1)
    return [w.text.strip(".,;:") for w in reading.words]


@needs_readers
@pytest.mark.parametrize(("language", "text", "size", "mended"), [
    ("spa", SPANISH, 7, ["Órganos", "superiores", "aprobó"]),
    ("pol", POLISH, 8, ["różnicę"]),
])
def test_words_tesseract_misreads_on_a_soft_scan_are_read_again_from_the_scan(tmp_path, monkeypatch, language: str, text: str,
                                                                               size: int, mended: list[str]) -> None:
    require_second_reader(language)
    image = scanned_line(tmp_path, text, size=size, dpi=DPI, blur=BLUR, jpeg=JPEG)
    # Tesseract alone misreads them (`supenores`, `Organos`, `róznicę`): the sheet holds real misreadings.
    alone = _read(image, language, disabled=("second-reader",))
    assert any(word not in alone for word in mended), alone
    # The second reader, cutting its windows from the scan, reads them as printed.
    read = _read(image, language)
    assert all(word in read for word in mended), read
    # Cut from the page as prepared for Tesseract (every window's paper taken for dark), it does not.
    monkeypatch.setattr(secondread, "LIGHT_PAPER_FROM", 256)
    from_prepared = _read(image, language)
    assert any(word not in from_prepared for word in mended), from_prepared


def test_a_window_on_a_dark_panel_is_cut_from_the_prepared_page() -> None:
    prepared = np.full((100, 300), 255, dtype=np.uint8)
    scanned = np.full((100, 300), 235, dtype=np.uint8)
    scanned[50:100] = 40  # a heading banner: light letters on dark, which the preparation inverted
    prepared[50:100] = 250
    on_paper = [Word("superiores", 90.0, 20, 10, 200, 40, (1, 1, 1))]
    on_banner = [Word("Questão", 90.0, 20, 66, 200, 96, (1, 1, 2))]
    crop, left = secondread._crop(prepared, on_paper, scanned)
    assert left == 11 and np.all(crop == 235)  # from the scan
    crop, _ = secondread._crop(prepared, on_banner, scanned)
    assert np.all(crop == 250)  # from the prepared page
    crop, _ = secondread._crop(prepared, on_paper, None)
    assert np.all(crop == 255)  # no scan given: the prepared page
