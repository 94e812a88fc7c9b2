"""Local steps of the page preparation worked out tile by tile around the ink (`inktiles`) give the pixels
the whole page gives: the grain blur (`engine.smoothed`) and the search for mid-grey fills in key tables
(`shading.shaded_fills`, `table_ink`), on a generated key page rendered whole and masked down to a few
boxes as drawn text is read in place, at a dpi whose fill square has an even side too, with ink at the
page's edges; and the tiles themselves hold every ink pixel once, apart by more than twice their margin."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageFilter

from pipeline.devkit.sample.pdfgen import Line, PageSpec, Rect, TextBox, build_pdf
from pipeline.extract.ocr import shading
from pipeline.extract.ocr.engine import smoothed
from pipeline.extract.ocr.inktiles import ink_tiles, tiled_area

RULE_INK_BELOW = 170  # the table readers' ink threshold (`tablecells`)


@pytest.fixture(scope="module")
def key_page(tmp_path_factory):
    """A page with two shaded key columns far apart, a dark number bar, a title and a footer."""
    pdf = tmp_path_factory.mktemp("tiles") / "key.pdf"
    build_pdf(pdf, [PageSpec(items=[
        TextBox("KĽÚČ SPRÁVNYCH ODPOVEDÍ", 20, 12, 170),
        Rect(20, 40, 30, 60, fill=(162, 162, 162)),  # a shaded column, its letters and rules on it
        TextBox("1  A\n2  C\n3  B\n4  D", 22, 42, 26),
        Line(20, 55, 80, 55), Line(20, 70, 80, 70), Line(35, 40, 35, 100),
        Rect(140, 200, 40, 50, fill=(150, 150, 150)),  # another, far from the first
        TextBox("5  B\n6  A", 142, 205, 36),
        Rect(20, 150, 60, 10, fill=(20, 20, 20)),  # a dark bar: all ink
        TextBox("Strona 2 z 15", 95, 280, 40, size=8),
    ])])
    document = pdfium.PdfDocument(str(pdf))
    yield document
    document.close()


def _grey(document, dpi: int) -> np.ndarray:
    return np.asarray(document[0].render(scale=dpi / 72).to_pil().convert("L")).copy()


def _masked(grey: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
    """White but for `boxes` (left, top, right, bottom in pixels), as a page read in parts is."""
    out = np.full_like(grey, 255)
    for left, top, right, bottom in boxes:
        out[top:bottom, left:right] = grey[top:bottom, left:right]
    return out


def _key_boxes(dpi: int) -> list[tuple[int, int, int, int]]:
    scale = dpi / 25.4  # mm to px
    return [tuple(int(v * scale) for v in box) for box in ((15, 35, 85, 105), (135, 195, 185, 255), (90, 275, 140, 290))]


def _whole_fills(grey: np.ndarray, dark: np.ndarray, dpi: int) -> list:
    """The fills searched over the whole page at once, as before the search went tile by tile."""
    side = max(3, round(shading.FILL_MIN_INCHES * dpi))
    edge = max(1, round(shading.FILL_EDGE_INCHES * dpi))
    return shading._fills_in(grey, dark, side, edge)


def _comparable(fills: list) -> list:
    return sorted(((r.start, r.stop, c.start, c.stop), inside.tobytes(), level, darkest) for (r, c), inside, level, darkest in fills)


def test_every_ink_pixel_lies_in_one_tile_and_the_tiles_ink_stands_apart():
    rng = np.random.default_rng(5)
    mask = np.zeros((700, 500), dtype=bool)
    for _ in range(12):
        top, left = rng.integers(0, 690), rng.integers(0, 490)
        mask[top:top + rng.integers(1, 10), left:left + rng.integers(1, 10)] = True
    margin = 9
    tiles = ink_tiles(mask, margin)
    covered = np.zeros(mask.shape, dtype=int)
    for rows, columns in tiles:
        covered[rows, columns] += 1
    assert covered.max() == 1  # no two tiles overlap
    assert (covered[mask] == 1).all()  # every ink pixel in one
    inks = []
    for rows, columns in tiles:
        r, c = np.nonzero(mask[rows, columns])
        assert r.size  # a tile holds ink
        inks.append((r.min() + rows.start, r.max() + rows.start, c.min() + columns.start, c.max() + columns.start))
    for i, a in enumerate(inks):
        for b in inks[i + 1:]:
            rows_apart = max(b[0] - a[1], a[0] - b[1]) > 2 * margin
            columns_apart = max(b[2] - a[3], a[2] - b[3]) > 2 * margin
            assert rows_apart or columns_apart
    assert ink_tiles(np.zeros((40, 30), dtype=bool), margin) == []


def test_a_page_read_in_parts_is_tiled_over_its_boxes_only(key_page):
    masked = _masked(_grey(key_page, 300), _key_boxes(300))
    tiles = ink_tiles(masked < 255, 30)
    assert len(tiles) == 3
    assert tiled_area(tiles) < 0.2 * masked.size


@pytest.mark.parametrize("radius", [0.8, 1.6, 3.0])
def test_the_blur_tile_by_tile_gives_the_whole_page_blur(key_page, radius):
    grey = _grey(key_page, 200)
    masked = _masked(grey, _key_boxes(200))
    masked[0:5, 0:8] = 40  # ink in a corner, and a mark at the right edge
    masked[300:304, -3:] = 90
    assert len(ink_tiles(masked < 255, 20)) > 2
    whole = np.asarray(Image.fromarray(masked, mode="L").filter(ImageFilter.GaussianBlur(radius)))
    assert np.array_equal(smoothed(masked.copy(), radius), whole)
    assert (smoothed(masked, radius) < 255).sum() > (masked < 255).sum()  # the blur did spread the ink


@pytest.mark.parametrize("dpi", [200, 300])  # a fill square of 10 px (even) and of 15 px
@pytest.mark.parametrize("part", ["masked", "whole"])
def test_the_fills_found_tile_by_tile_are_the_whole_pages(key_page, dpi, part):
    grey = _grey(key_page, dpi)
    if part == "masked":
        grey = _masked(grey, _key_boxes(dpi))
    dark = grey < RULE_INK_BELOW
    found = shading.shaded_fills(grey, dark, dpi)
    assert len(found) == 2  # the two shaded columns; the dark bar is no fill
    assert _comparable(found) == _comparable(_whole_fills(grey, dark, dpi))
    ink = shading.table_ink(grey, RULE_INK_BELOW, dpi)
    assert (ink != dark).sum() > 1000  # the fills' paper is no ink there


@pytest.mark.parametrize("corner", [(0, 0), (-40, -40)])
def test_a_fill_at_the_page_edge_is_found_as_on_the_whole_page(corner):
    grey = np.full((400, 300), 255, dtype=np.uint8)
    y, x = corner
    rows = slice(0, 40) if y == 0 else slice(y, None)
    columns = slice(0, 50) if x == 0 else slice(x, None)
    grey[rows, columns] = 160
    grey[200:204, 100:180] = 0  # a rule far from it
    dark = grey < RULE_INK_BELOW
    found = shading.shaded_fills(grey, dark, 300)
    assert len(found) == 1
    assert _comparable(found) == _comparable(_whole_fills(grey, dark, 300))


def test_two_fills_whose_blurred_edges_meet_are_one_fill_as_on_the_whole_page():
    grey = np.full((300, 400), 255, dtype=np.uint8)
    grey[100:160, 100:160] = 160
    grey[100:160, 165:225] = 165
    grey[100:160, 160:165] = 240  # five pixels of a light tint between them, which their grown edges meet across
    grey[120, 110:150] = 0  # a rule on the first
    dark = grey < RULE_INK_BELOW
    found = shading.shaded_fills(grey, dark, 300)
    assert len(found) == 1
    assert _comparable(found) == _comparable(_whole_fills(grey, dark, 300))
