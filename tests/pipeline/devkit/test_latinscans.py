"""The measurement of Latin-script sheets in other layouts (`devkit.latinscans`): the generated sheets print what
their families say (no line overprints another), options run on in the stem's paragraph read whole from the text
layer, and such a sheet scanned reads within reach of its text layer, end to end through extract and parse."""
from __future__ import annotations

import re


from pipeline.devkit import latinscans
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.scriptscans import _vocabulary
from tests.pipeline.devkit.test_scriptscans import assert_no_line_overprints
from tests.pipeline.extract.ocr.builders import needs_tesseract


def _figures(line: str) -> tuple[float, float, float]:
    match = re.search(r"recall\s+([\d.]+)\s+options\s+([\d.]+)\s+answers\s+([\d.]+)", line)
    assert match, line
    recall, options, answers = (float(v) for v in match.groups())
    return recall, options, answers


def _family(name: str) -> latinscans.LatinFamily:
    return next(f for f in latinscans.TUNING + latinscans.CHECKING if f.name == name)


@needs_tesseract("ces", "spa", "tur", "pol", "eng", "vie", "slk", "por")
def test_no_printed_line_of_a_generated_sheet_overprints_another(tmp_path):
    for family in latinscans.TUNING + latinscans.CHECKING:
        vocabulary = _vocabulary(family)
        questions = latinscans.printed_questions(family, vocabulary)
        assert_no_line_overprints(latinscans.sheet_pdf(tmp_path / f"{family.name}.pdf", family, questions, vocabulary), family.name)


@needs_tesseract("spa", "por")
def test_options_run_on_in_the_stems_paragraph_read_whole_from_the_text_layer(tmp_path):
    # Before options printed as running text were cut at their labels, neither family had one option (0 %).
    for name in ("es-inline", "pt-inline-long"):
        [text] = latinscans.measure(tmp_path, _family(name), [])
        assert _figures(text) == (100.0, 100.0, 100.0), text


@needs_tesseract("spa", "eng")
def test_a_scanned_sheet_with_options_in_the_stems_paragraph_reads_as_its_text_layer(tmp_path):
    text, scanned = latinscans.measure(tmp_path, _family("es-inline"), [ScanSetting(200, 0.6, 80)])
    assert _figures(text) == (100.0, 100.0, 100.0)
    recall, options, answers = _figures(scanned)
    assert recall == 100.0 and answers >= 97.0 and options >= 97.0
