"""Two column and run walks of the drawn-text check and the marks' passes, written as whole-array passes for speed,
give what the Python loops they replaced gave: `inked._runs` (the check's cuts into rows, pieces and blobs) and
`commas.lowest_ink_rows` (each letter column's lowest ink, the baseline `comma-tails` and `unread-marks` measure by)."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.extract import inked
from pipeline.extract.ocr.commas import lowest_ink_rows


def _runs_by_loop(ink: np.ndarray, min_gap: int) -> list[tuple[int, int]]:
    """The runs of True, each joined to the one before where fewer than `min_gap` False part them (the loop the
    check used)."""
    runs: list[tuple[int, int]] = []
    start = None
    for at, value in enumerate([*ink.tolist(), False]):
        if value and start is None:
            start = at
        elif not value and start is not None:
            if runs and start - runs[-1][1] < min_gap:
                runs[-1] = (runs[-1][0], at)
            else:
                runs.append((start, at))
            start = None
    return runs


def test_runs_parted_by_less_than_the_gap_are_one_run():
    ink = np.array([0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0], dtype=bool)
    assert inked._runs(ink, 1) == [(1, 3), (4, 5), (8, 10)]
    assert inked._runs(ink, 2) == [(1, 5), (8, 10)]  # one white column between 2 and 4: joined
    assert inked._runs(ink, 4) == [(1, 10)]  # three white columns between 4 and 8: joined
    assert inked._runs(np.zeros(5, dtype=bool), 3) == []
    assert inked._runs(np.ones(4, dtype=bool), 1) == [(0, 4)]


@pytest.mark.parametrize("seed", range(6))
def test_runs_are_the_loops_on_any_row_of_ink(seed: int):
    rng = np.random.default_rng(seed)
    for size in (0, 1, 2, 7, 60, 400):
        for density in (0.0, 0.05, 0.4, 0.9, 1.0):
            ink = rng.random(size) < density
            for gap in (1, 2, 3, 9, 30):
                assert inked._runs(ink, gap) == _runs_by_loop(ink, gap)


def test_lowest_ink_rows_are_each_inked_columns_lowest_row_left_to_right():
    mask = np.zeros((5, 6), dtype=bool)
    mask[0, 0] = mask[3, 0] = True  # column 0: rows 0 and 3, the lowest 3
    mask[4, 2] = True  # column 2: the last row
    mask[1:3, 5] = True  # column 5: rows 1-2
    found = lowest_ink_rows(mask)
    assert found.dtype == np.int64 and found.tolist() == [3, 4, 2]  # columns 1, 3 and 4 hold no ink: left out
    assert lowest_ink_rows(np.zeros((0, 4), dtype=bool)).tolist() == []
    assert lowest_ink_rows(np.zeros((3, 0), dtype=bool)).tolist() == []


@pytest.mark.parametrize("seed", range(4))
def test_lowest_ink_rows_are_the_column_loops(seed: int):
    rng = np.random.default_rng(seed)
    for height, width in ((1, 9), (7, 1), (20, 33), (61, 200)):
        for density in (0.0, 0.02, 0.3, 0.95):
            mask = rng.random((height, width)) < density
            by_loop = [int(np.flatnonzero(column)[-1]) for column in mask.T if column.any()]
            assert lowest_ink_rows(mask).tolist() == by_loop
            assert lowest_ink_rows(mask[::2, ::3]).tolist() == [int(np.flatnonzero(c)[-1]) for c in mask[::2, ::3].T if c.any()]
