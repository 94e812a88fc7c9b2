"""What the page preparation erases: rules, found as straight dark runs (a run at least as long as asked
is kept whole, a shorter one, a letter's stroke, is not, along rows or columns, as a brute-force scan
finds them), and colour fills, saturated over their whole window unlike coloured text."""
from __future__ import annotations

import numpy as np

from pipeline.extract.ocr.engine import straight_rules, straight_runs


def _brute_force(dark: np.ndarray, length: int) -> np.ndarray:
    covered = np.zeros_like(dark)
    for row in range(dark.shape[0]):
        column = 0
        while column < dark.shape[1]:
            if not dark[row, column]:
                column += 1
                continue
            stop = column
            while stop < dark.shape[1] and dark[row, stop]:
                stop += 1
            if stop - column >= length:
                covered[row, column:stop] = True
            column = stop
    return covered


def test_a_run_as_long_as_asked_is_kept_whole_and_a_shorter_one_dropped():
    dark = np.zeros((3, 12), dtype=bool)
    dark[0, 2:7] = True   # 5 long
    dark[1, 0:4] = True   # 4 long, at the left edge
    dark[2, 8:12] = True  # 4 long, at the right edge
    kept = straight_runs(dark, 5, axis=1)
    assert kept[0].tolist() == dark[0].tolist() and not kept[1:].any()
    edges = straight_runs(dark, 4, axis=1)
    assert (edges == dark).all()


def test_columns_are_scanned_like_rows():
    dark = np.zeros((10, 4), dtype=bool)
    dark[1:9, 2] = True
    dark[0:3, 0] = True
    assert (straight_runs(dark, 8, axis=0) == (np.arange(4) == 2)[None, :] & dark).all()
    assert (straight_rules(dark, 8) == straight_runs(dark, 8, axis=0)).all()


def test_it_agrees_with_a_brute_force_scan_on_random_images():
    rng = np.random.default_rng(7)
    for _ in range(40):
        dark = rng.random(tuple(rng.integers(1, 40, 2))) < rng.uniform(0.2, 0.95)
        for length in (1, 3, 9):
            assert (straight_runs(dark, length, axis=1) == _brute_force(dark, length)).all()
            assert (straight_runs(dark, length, axis=0) == _brute_force(dark.T, length).T).all()


def test_an_image_narrower_than_the_length_has_no_runs():
    assert not straight_runs(np.ones((4, 3), dtype=bool), 5, axis=1).any()


def test_a_colour_fill_is_told_from_coloured_text_by_its_window_wherever_it_stands():
    # Measured only around the saturated pixels; the result is the whole page's window mean, edges included.
    from pipeline.extract.ocr.engine import _saturated_areas

    rng = np.random.default_rng(11)
    radius = 3
    for _ in range(30):
        saturated = np.zeros((40, 50), dtype=bool)
        top, left = rng.integers(0, 35), rng.integers(0, 45)
        saturated[top:top + 12, left:left + 15] = True  # a filled cell, perhaps cut by the page edge
        saturated[rng.integers(0, 40), :: 7] = True  # thin coloured strokes
        padded = np.pad(saturated, radius, mode="edge")
        windows = np.lib.stride_tricks.sliding_window_view(padded, (2 * radius + 1, 2 * radius + 1))
        expected = saturated & (windows.mean(axis=(2, 3)) > 0.6)
        assert (_saturated_areas(saturated, radius) == expected).all()
    assert not _saturated_areas(np.zeros((5, 5), dtype=bool), radius).any()



def test_a_rule_spread_over_two_rows_goes_whole_and_the_ink_touching_it_stays():
    # As measured on a NÚCEM frame tilted 1.5° and turned straight at 200 dpi: the rule's row is found
    # whole, the row beside it crosses the dark threshold in ~30 px pieces (read as dashes and `|`).
    dark = np.zeros((40, 400), dtype=bool)
    dark[20, 10:390] = True
    for start in range(14, 380, 36):
        dark[19, start:start + 30] = True
    dark[5:20, 100:103] = True   # a descender reaching down to the rule
    dark[8:33, 200:203] = True   # a stem crossing it
    left = dark & ~straight_rules(dark, 80)
    assert not left[18:23, :100].any() and not left[18:23, 210:].any()  # no dashes left
    assert left[5:20, 100:103].all()  # the descender whole, its tip on the rule included
    assert left[8:20, 200:203].all() and left[21:33, 200:203].all()


def test_a_rule_stepping_a_row_sooner_than_a_rule_is_long_is_found():
    # A thin rule left a little tilted steps down a row every 50 px: no single row holds a run of 80.
    dark = np.zeros((40, 400), dtype=bool)
    for step, start in enumerate(range(0, 400, 50)):
        dark[10 + step, start:start + 50] = True
    assert not straight_runs(dark, 80, axis=1).any()
    assert (straight_rules(dark, 80) == dark).all()
    assert (straight_rules(dark.T, 80) == dark.T).all()  # and a vertical one the same


def test_letters_beside_each_other_are_no_rule():
    # Strokes close together along a line of text, each short, never add up to a rule.
    dark = np.zeros((30, 400), dtype=bool)
    for start in range(5, 390, 12):
        dark[10:22, start:start + 3] = True  # stems
        dark[21, start:start + 8] = True     # their feet, apart
    assert not straight_rules(dark, 80).any()


def _rules_by_definition(dark: np.ndarray, length: int) -> np.ndarray:
    """`straight_rules` as its docstring defines it, worked out on every pixel of the page: straight runs, and
    thin pixels on a run of the ink widened by one pixel across, along rows and along columns."""
    found = np.zeros_like(dark)
    for work, back in ((dark, False), (dark.T, True)):
        before, after = np.zeros_like(work), np.zeros_like(work)
        before[1:], after[:-1] = work[:-1], work[1:]
        band, thin = work | before | after, work & ~(before & after)
        along = _brute_force(work, length) | (thin & _brute_force(band, length))
        found |= along.T if back else along
    return found


def test_rules_are_worked_out_only_on_the_lines_that_can_hold_one_and_lose_nothing_elsewhere():
    # Only the rows (columns) whose widened ink holds a whole aligned block of half the length are looked at:
    # the result is the one the definition gives on every pixel, at the page's edges too.
    rng = np.random.default_rng(31)
    for _ in range(60):
        dark = rng.random(tuple(rng.integers(1, 48, 2))) < rng.uniform(0.3, 0.97)
        for length in (1, 2, 5, 9, 24):
            assert (straight_rules(dark, length) == _rules_by_definition(dark, length)).all(), (dark.shape, length)
