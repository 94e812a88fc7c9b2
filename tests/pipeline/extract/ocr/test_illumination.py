"""Paper of uneven brightness (a spine's shadow, a lamp fading to one side) is evened out before the
page is read, so the words in the shadow come back; an evenly lit page is left exactly as it is, and
a dark box smaller than a shadow is not taken for one."""
from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from pipeline.extract.ocr import OcrSettings, illumination, read_page
from pipeline.extract.ocr.illumination import even_paper
from tests.pipeline.extract.ocr.builders import needs_tesseract

SETTINGS = OcrSettings(languages=("pol",), dpi=300)


@pytest.fixture(scope="module")
def grey_scan(polish_question_scan) -> np.ndarray:
    return np.asarray(polish_question_scan[0].convert("L"))


def _shadowed(grey: np.ndarray) -> np.ndarray:
    """The page darkened from 45 % brightness at its left edge to full at its right."""
    return np.clip(grey * np.linspace(0.45, 1.0, grey.shape[1])[None, :], 0, 255).astype(np.uint8)


def _words(grey: np.ndarray) -> list[str]:
    return [w.text for w in read_page(Image.fromarray(grey), SETTINGS, page_number=1).words]


def test_an_evenly_lit_page_is_left_exactly_as_it_is(grey_scan):
    assert even_paper(grey_scan, SETTINGS.dpi) is grey_scan


def test_a_dark_box_smaller_than_a_shadow_is_not_taken_for_one(grey_scan):
    boxed = grey_scan.copy()
    boxed[300:500, 300:1200] = 60  # a grey banner two thirds of an inch tall
    assert even_paper(boxed, SETTINGS.dpi) is boxed


@needs_tesseract("pol")
def test_the_words_in_a_shadow_come_back(grey_scan, monkeypatch):
    upright = _words(grey_scan)
    assert len(_words(_shadowed(grey_scan))) >= 0.95 * len(upright)
    # Without the evening, the preparation's paper threshold drowns most of them.
    monkeypatch.setattr(illumination, "EVEN_PAPER_RANGE", 10**6)
    assert len(_words(_shadowed(grey_scan))) < 0.7 * len(upright)


def _brightness_of_every_tile(grey: np.ndarray, dpi: int) -> np.ndarray:
    """`paper_brightness` as it was, the percentile taken of every tile."""
    from PIL import ImageFilter

    tile = max(8, round(illumination.TILE_INCHES * dpi))
    rows, columns = -(-grey.shape[0] // tile), -(-grey.shape[1] // tile)
    padded = np.pad(grey, ((0, rows * tile - grey.shape[0]), (0, columns * tile - grey.shape[1])), mode="edge")
    tiles = padded.reshape(rows, tile, columns, tile).transpose(0, 2, 1, 3).reshape(rows, columns, -1)
    brightness = np.percentile(tiles, illumination.PAPER_PERCENTILE, axis=2).astype(np.uint8)
    return np.asarray(Image.fromarray(brightness).filter(ImageFilter.MedianFilter(illumination.SMOOTH_TILES)))


@pytest.mark.parametrize("dpi", [150, 300])
def test_bare_paper_tiles_skipped_give_the_brightness_of_every_tile(grey_scan, dpi):
    masked = np.full_like(grey_scan, 255)  # a page read in parts: white but for one box
    masked[200:420, 150:900] = grey_scan[200:420, 150:900]
    shadowed = _shadowed(grey_scan)
    for grey in (grey_scan, masked, shadowed, np.full((300, 200), 255, dtype=np.uint8)):
        assert np.array_equal(illumination.paper_brightness(grey, dpi), _brightness_of_every_tile(grey, dpi))
