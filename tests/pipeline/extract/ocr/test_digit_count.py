"""A number whose box does not fit the digits read in it (`certainty.digit_count_misfits`, `CertaintyPolicy.digit_count`):
a digit read twice or a mark read as a digit (`1978?` read `19787?`), or a digit lost, makes the number unsure; numbers
read as printed, at any resolution, do not. Real sheets written with fpdf2 and rasterised, read by real Tesseract
through every page pass; a reading whose number's text has a digit more or less, its box kept, stands for the misread."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.extract.ocr.certainty import CertaintyPolicy, digit_count_misfits
from tests.pipeline.extract.ocr.builders import needs_tesseract, read_as, read_scanned_lines, unsure_words

LINES = (
    "La Constitución de 1978 fue aprobada por 325 diputados y 226 senadores en 1979.",
    "En 2014 se publicaron 87 resoluciones y 1500 anuncios en 365 días de trabajo.",
    "¿Cuántos miembros propone el Senado desde 1985?",
    "Un plazo de 30 días hábiles desde el 12 de mayo de 2024, a las 10.30 horas.",
)
NUMBERS = ("1978", "325", "226", "1979.", "2014", "87", "1500", "365", "1985?", "30", "12")


@needs_tesseract("spa")
@pytest.mark.parametrize(("dpi", "blur", "jpeg"), [(150, 0.6, 80), (300, 0.4, 90)])
def test_a_number_read_with_a_digit_more_or_less_than_its_box_holds_is_unsure_and_numbers_read_as_printed_are_not(
        tmp_path, dpi, blur, jpeg):
    reading, settings, width, height = read_scanned_lines(tmp_path, LINES, dpi=dpi, blur=blur, jpeg=jpeg)
    read = [w.text for w in reading.words]
    assert set(NUMBERS) <= set(read), read  # the sheet's numbers read as printed
    clean = unsure_words(reading, settings, width, height)
    assert not set(NUMBERS) & set(clean)
    # A mark read as a digit too (`1985?` read `19857?`), a digit read twice, a digit lost: each makes its number unsure.
    for printed, misread in (("1985?", "19857?"), ("2014", "20014"), ("1500", "150")):
        assert misread in unsure_words(read_as(reading, printed, misread), settings, width, height), (printed, misread)
    # The sign is the policy's to switch off.
    quiet = replace(settings, certainty=CertaintyPolicy(digit_count=0.0))
    assert "19857?" not in unsure_words(read_as(reading, "1985?", "19857?"), quiet, width, height)


# The widths and heights (pixels) of numbers on a page of INAP 2024 rasterised at 150 dpi, where `1978?` was read
# `19787?` (`CORPUS_SHEETS`' es-inap-2024-150).
INAP_NUMBERS = [("10.", 48, 29), ("27", 40, 28), ("75", 40, 28), ("10", 39, 29), ("2024", 81, 28), ("14", 36, 27)]


def test_the_digit_width_is_measured_on_the_pages_numbers_of_the_same_height():
    tolerance = CertaintyPolicy().digit_count
    assert digit_count_misfits([*INAP_NUMBERS, ("19787?", 103, 29)], tolerance)[-1]
    assert not digit_count_misfits([*INAP_NUMBERS, ("1978?", 103, 29)], tolerance)[-1]
    # Twice the size, the same face: the digits are as wide to their height.
    assert not digit_count_misfits([*INAP_NUMBERS, ("1978?", 206, 58)], tolerance)[-1]
    # No number of about its height on the page (a title's), or too few numbers: not judged.
    assert not any(digit_count_misfits([("2024", 81, 28), ("19787?", 206, 58), ("14", 36, 27), ("10", 39, 29)], tolerance))
    assert not any(digit_count_misfits([("27", 40, 28), ("19787?", 103, 29)], tolerance))
    # A box taller than the page's words holds more than its digits (a Korean column scan's `1958`, 78 by 84 pixels,
    # beside words 35 tall): not judged, nor a measure.
    words = [("급식실", 110, 40), ("되새겨", 112, 36), ("약해", 75, 35), ("66", 45, 34), ("31", 43, 33), ("2024", 88, 34)]
    assert digit_count_misfits([*words, ("19587", 88, 34)], tolerance)[-1]
    assert not digit_count_misfits([*words, ("1958", 78, 84)], tolerance)[-1]
    # Two digits or fewer are no measure of a digit against a mark; a comma or a bracket makes the box no digit's height.
    assert not digit_count_misfits([*INAP_NUMBERS, ("10?", 41, 29)], tolerance)[-1]
    assert not digit_count_misfits([*INAP_NUMBERS, ("(19787),", 103, 36)], tolerance)[-1]
    assert not any(digit_count_misfits([*INAP_NUMBERS, ("19787?", 103, 29)], 0.0))  # off
