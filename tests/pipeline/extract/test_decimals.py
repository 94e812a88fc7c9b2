"""`decimals.round2` gives, value for value, the floats Python's `round(value, 2)` gives: the line boxes and
sizes layout rounds for a whole page at once must be the ones it rounded one by one."""
from __future__ import annotations

import numpy as np

from pipeline.extract.decimals import round2


def _same(values: np.ndarray) -> None:
    expected = [repr(round(value, 2)) for value in values.tolist()]
    assert [repr(value) for value in round2(values)] == expected


def test_page_coordinates_round_as_round_does():
    rng = np.random.default_rng(7)
    # Coordinates and sizes as pdfium and layout make them: arbitrary floats, and values printed to a
    # few decimals (many of them halves of a hundredth, the doubtful ones).
    _same(rng.uniform(-50, 1200, 200_000))
    _same(np.round(rng.uniform(0, 1200, 200_000), 3))
    _same(np.arange(0, 120_000) / 1000)
    _same(np.arange(-4000, 4000) / 200 + 0.005)


def test_halves_signs_and_specials():
    values = np.array([0.125, 0.375, 2.675, 1.005, 0.0, -0.0, -0.001, 0.004, -0.004, 1e7 + 0.005, 1e300,
                       np.nan, np.inf, -np.inf])
    _same(values)
    assert repr(round2(np.array([-0.004]))[0]) == "-0.0"  # the sign `round` keeps


def test_empty():
    assert round2(np.zeros(0)) == []
