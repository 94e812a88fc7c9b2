"""Python's `round(value, 2)` for a whole array at once, value for value the same floats.

`round(x, 2)` rounds the exact binary value of `x` to the nearest hundredth (halves to even) and returns the
float nearest that hundredth. `np.rint(x * 100) / 100` returns the float nearest `k / 100` too (an IEEE
division of an integer `k` is correctly rounded), so the two differ only where they pick another `k`: where
the product `x * 100`, itself rounded, lies so near a half that its rounding may have crossed it. Those
values, and any too large for the product to be exact to far below a half (or not finite), are rounded
by `round` itself.
"""
from __future__ import annotations

import numpy as np

# The product's rounding error is at most half an ulp: under 1e-8 for the magnitudes below `_EXACT_BELOW`
# (a page's coordinates and sizes are thousands at most); a product this near a half goes to `round`.
_NEAR_HALF = 1e-6
_EXACT_BELOW = 1e6  # |x * 100| under this: its ulp is under 1.2e-10


def round2(values: np.ndarray) -> list[float]:
    """[round(v, 2) for v in values], the same floats (signed zeros and NaN included)."""
    values = np.asarray(values, dtype=np.float64)
    scaled = values * 100.0
    rounded = np.rint(scaled) / 100.0
    with np.errstate(invalid="ignore"):
        doubtful = ~(np.abs(scaled) < _EXACT_BELOW) | (np.abs(scaled - np.floor(scaled) - 0.5) < _NEAR_HALF)
    found = rounded.tolist()
    if doubtful.any():
        plain = values.tolist()
        for at in np.flatnonzero(doubtful).tolist():
            found[at] = round(plain[at], 2)
    return found
