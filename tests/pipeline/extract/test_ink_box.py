"""The drawn-text check takes fills and rules out of the page's leftover ink inside the ink's box
(`inked._ink_box`), not over the whole page: what it leaves is what the whole page's searches leave,
pixel for pixel, wherever the ink lies (on or off the searches' block grid, at the page's edges)."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.extract import inked
from pipeline.extract.ocr import straight_rules


def _whole_page(ink: np.ndarray, images: list) -> np.ndarray:
    """The searches over the whole page, as the check made them before it looked only at the ink's box."""
    if not ink.any():
        return ink
    dark = ink & ~inked._fills(ink, inked.FILL_BLOCK)
    dark &= ~straight_rules(dark, inked.RULE_MIN_PT)
    if images and dark.any():
        dark &= ~inked._covered(dark.shape, images)
    return dark


def _page(seed: int, height: int, width: int) -> np.ndarray:
    """Ink of a 72 dpi page: rules (some drifting by a row, some just under the rule length), filled
    bars, glyph-sized blobs and specks, placed anywhere, edges included."""
    rng = np.random.default_rng(seed)
    ink = np.zeros((height, width), dtype=bool)
    top, left = rng.integers(0, height // 2), rng.integers(0, width // 2)
    bottom, right = rng.integers(top + 1, height + 1), rng.integers(left + 1, width + 1)
    for _ in range(rng.integers(1, 12)):
        y, x = rng.integers(top, bottom), rng.integers(left, right)
        length = int(rng.choice([inked.RULE_MIN_PT - 1, inked.RULE_MIN_PT, inked.RULE_MIN_PT + 7, 3 * inked.RULE_MIN_PT]))
        if rng.random() < 0.5:
            ink[y:y + 1, x:x + length] = True
            if rng.random() < 0.3:
                ink[y + 1:y + 2, x + length // 2:x + length] = True  # the rule drifts a row
        else:
            ink[y:y + length, x:x + 1] = True
    for _ in range(rng.integers(0, 4)):
        y, x = rng.integers(top, bottom), rng.integers(left, right)
        ink[y:y + rng.integers(3, 30), x:x + rng.integers(3, 80)] = True  # a bar, a shaded cell
    for _ in range(rng.integers(0, 60)):
        y, x = rng.integers(top, bottom), rng.integers(left, right)
        blob = rng.random((rng.integers(2, 14), rng.integers(2, 10))) < 0.55
        ink[y:y + blob.shape[0], x:x + blob.shape[1]] = blob[: height - y, : width - x]
    return ink


@pytest.mark.parametrize("seed", range(40))
def test_the_leftover_ink_found_in_the_inks_box_is_the_whole_pages(seed):
    height, width = [(842, 595), (792, 612), (595, 842), (101, 77)][seed % 4]
    ink = _page(seed, height, width)
    images = [(10.5, 20.2, 140.0, 90.7)] if seed % 3 == 0 else []
    assert np.array_equal(inked._leftover_ink(ink, images), _whole_page(ink, images))


def test_ink_touching_every_edge_and_a_page_without_ink():
    ink = np.zeros((842, 595), dtype=bool)
    assert inked._ink_box(ink) is None and not inked._leftover_ink(ink, []).any()
    ink[0, :] = ink[-1, 100:200] = ink[:, 0] = ink[300:400, -1] = True  # rules along the page's edges
    ink[-7:, -9:] = True  # a block in the corner, off the grid
    ink[420:423, 590:595] = True  # glyph-sized ink against the right edge
    assert np.array_equal(inked._leftover_ink(ink, []), _whole_page(ink, []))
    assert inked._leftover_ink(ink, [])[420:423, 590:595].all()  # what is not a rule or a fill stays


def test_fills_are_every_wholly_dark_block_grown_by_a_block_as_a_block_by_block_scan_finds_them():
    from pipeline.extract.inked import _fills

    def by_blocks(ink: np.ndarray, block: int) -> np.ndarray:
        rows, columns = ink.shape[0] // block, ink.shape[1] // block
        solid = np.array([[ink[r * block:(r + 1) * block, c * block:(c + 1) * block].all() for c in range(columns)]
                          for r in range(rows)], dtype=bool).reshape(rows, columns)
        fills = np.zeros_like(ink)
        for r, c in zip(*np.nonzero(solid)):
            fills[max(0, r - 1) * block:(r + 2) * block, max(0, c - 1) * block:(c + 2) * block] = True
        fills[rows * block:], fills[:, columns * block:] = False, False  # the part past the last whole block
        return fills

    rng = np.random.default_rng(5)
    for _ in range(80):
        ink = rng.random(tuple(rng.integers(1, 50, 2))) < rng.uniform(0.5, 0.99)
        for block in (1, 2, 4):
            assert (_fills(ink, block) == by_blocks(ink, block)).all(), (ink.shape, block)
