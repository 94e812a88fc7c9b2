"""A question whose reading holds a confusion of glyphs no confidence shows is flagged `ocr.uncertain`, and a clean
question is not (issue 27, bar 2).

Real sheets: a Spanish sheet of three questions, scanned (`sample.raster`: 200 dpi, blur 0.5, JPEG 85) and read
through real Tesseract, the real lexicon and the real spelling dictionaries, parsed with a spec written as a
curator writes one. One question's option carries a word as blur leaves it when it joins `r` and `i` into an `n`
(`Ministeno` for `Ministerio`: what INAP 2024 read at 150 dpi gave), another's stem a capital whose small letter has
its shape, inside a sentence (`O` for `o`, as the OAB 2016 scans read it). Tesseract reads both confidently, as it
did there; the clean sheet, which prints the same questions as they should read, flags none."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample.raster import rasterize_pdf
from pipeline.diagnostics import Code
from pipeline.extract.ocr import CertaintyPolicy
from pipeline.extract.ocr.certainty import DEFAULT_POLICY
from tests.pipeline.parse.repertoire_sheets import LEFT, Item, by_number, lines_at, pdf, run, sheet_of, spec

CLEAN = [
    Item("1", "¿Qué órgano del Estado aprueba los presupuestos generales?",
         ("Las Cortes Generales.", "El Gobierno de la Nación.", "El Tribunal de Cuentas.", "El Consejo de Estado.")),
    Item("2", "¿De qué órgano depende el Consejo de Participación?",
         ("Ministerio de Hacienda.", "Ministerio de Igualdad.", "Ministerio de Justicia.", "Ministerio de Cultura.")),
    Item("3", "Según la Constitución, el Rey sanciona o promulga las leyes en el plazo de:",
         ("Quince días.", "Un mes.", "Dos meses.", "Diez días.")),
]
MISREAD = [
    CLEAN[0],
    Item("2", CLEAN[1].stem, ("Ministerio de Hacienda.", "Ministerio de Igualdad.", "Ministeno de Justicia.", "Ministerio de Cultura.")),
    Item("3", "Según la Constitución, el Rey sanciona O promulga las leyes en el plazo de:", CLEAN[2].options),
]


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("confusions")
    found = {"key": pdf(root / "key" / "2031" / "key.pdf", lines_at(["1. A", "2. B", "3. A"], LEFT, 20))}
    for name, questions in (("clean", CLEAN), ("misread", MISREAD)):
        text = sheet_of(root / "text" / name / "sheet.pdf", questions, width=150)
        found[name] = rasterize_pdf(text, root / name / "2031" / "sheet.pdf", dpi=200, blur=0.5, jpeg_quality=85, seed=3)
    return found


def _flags(sheets, which: str) -> dict[str, list[str]]:
    records = by_number(run(spec(), sheets[which], sheets["key"]))
    return {n: [f.message for f in q.flags if f.code is Code.OCR_UNCERTAIN] for n, q in records.items()}


def test_a_word_as_blur_joins_its_letters_and_a_capital_of_the_same_shape_are_flagged_and_the_clean_question_is_not(sheets):
    flags = _flags(sheets, "misread")
    assert set(flags) == {"1", "2", "3"}
    assert flags["1"] == []
    # The sheet prints the misreading itself: the `confused-letters` pass reads it as the one known word it makes
    # (`Ministerio`), and the second reader, which read what is printed, keeps the word unsure.
    assert len(flags["2"]) == 1 and "option C" in flags["2"][0] and "'Ministerio'" in flags["2"][0]
    assert len(flags["3"]) == 1 and "stem" in flags["3"][0] and "a capital 'O' inside a sentence" in flags["3"][0]


def test_the_same_questions_printed_as_they_should_read_flag_none(sheets):
    assert _flags(sheets, "clean") == {"1": [], "2": [], "3": []}


def test_the_rules_are_switched_and_set_in_one_place_the_certainty_policy():
    """Thresholds and switches live in `CertaintyPolicy` (its version is in the extract stage's cache key); the
    page layout and the measurement (`pipeline.devkit.ocrcertainty`) take the same default."""
    from pipeline.extract.ocr import OcrSettings

    assert OcrSettings(languages=["spa"]).certainty == DEFAULT_POLICY == CertaintyPolicy()
    assert DEFAULT_POLICY.misread_letters and not DEFAULT_POLICY.lost_marks
    assert CertaintyPolicy(misread_letters=False).version == DEFAULT_POLICY.version
