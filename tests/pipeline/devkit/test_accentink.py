"""The ink above a letter (`python -m pipeline.devkit.accentink`): on a real generated scan read by real Tesseract,
a letter printed with a mark above it carries ink in the band over its line's x-height and a bare letter none, and
an `í`'s acute more ink than the page's own i-dots, reaching higher."""
from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from pipeline.devkit import accentink
from pipeline.devkit.punctscans import TUNING
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import installed_languages

SPANISH = next(language for language in TUNING if language.name == "es")

pytestmark = pytest.mark.skipif("spa" not in installed_languages(), reason="Tesseract's Spanish is not installed")


def test_a_marked_letter_carries_ink_above_its_x_height_that_a_bare_letter_lacks(tmp_path: Path):
    groups = accentink.measure(tmp_path, SPANISH, ScanSetting(200, 0.6, 85))
    bare = [peak for peak, _, _ in groups["other plain"]]
    marked = [peak for peak, _, _ in groups["other marked, kept"] + groups["other marked, lost"]]
    assert len(bare) > 500 and len(marked) > 20
    assert statistics.median(bare) < 0.3 < 0.8 < statistics.median(marked)


def test_an_acute_over_an_i_is_more_ink_and_reaches_higher_than_the_pages_own_dots(tmp_path: Path):
    groups = accentink.measure(tmp_path, SPANISH, ScanSetting(150, 0.8, 70))
    dots, acutes = groups["i plain"], groups["i marked, kept"] + groups["i marked, lost"]
    assert len(dots) > 100 and len(acutes) > 5
    assert statistics.median(d[1] for d in dots) == pytest.approx(1.0)  # the figures are relative to the dots
    assert statistics.median(a[1] for a in acutes) > 1.3
    assert statistics.median(a[2] for a in acutes) > 1.1


def test_the_base_letter_and_the_side_of_a_mark_are_told_apart():
    assert accentink.base("Í") == "i" and accentink.base("ę") == "e"
    assert accentink.marked_above("í") and accentink.marked_above("ů") and accentink.marked_above("ž")
    assert not accentink.marked_above("ę") and not accentink.marked_above("ç") and not accentink.marked_above("i")
