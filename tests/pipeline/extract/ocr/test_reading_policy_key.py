"""A page's cached reading is keyed by the policy the second reader picks its words by, not only the passes' versions.

`second-reader` reads again the words `READING_POLICY` (the shipped `CertaintyPolicy`, its word-of-capitals swap on)
judges unsure, and `lone-rereads` the short words under its `unsure_below`: a flipped switch changes which words are
read again and so the reading (a run with quantities spared read RapidOCR's `95%` where the shipped policy's cache held
`9596`). Before, the key held neither pass's policy: a run under other switches read the readings cached under the
shipped ones. The key holds the policy's digest whatever it is: a new policy version reads those pages again.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.extract.ocr import OcrSettings, ReadingCache, ocr_pages, reading_key, wordpasses

SHA = "ab" * 32


@pytest.mark.parametrize("switch", [{"spare_quantities": True}, {"unsure_below": 55.0}, {"misread_letters": False},
                                    {"version": "999"}])
def test_a_flipped_switch_changes_the_page_s_key(monkeypatch, switch):
    shipped = reading_key(SHA, 1, OcrSettings(languages=("pol",)))
    monkeypatch.setattr(wordpasses, "READING_POLICY", replace(wordpasses.READING_POLICY, **switch))
    assert reading_key(SHA, 1, OcrSettings(languages=("pol",))) != shipped


def test_the_key_holds_the_policy_though_the_second_reader_is_disabled(monkeypatch):
    """`lone-rereads` picks its words by the policy's `unsure_below` too."""
    settings = OcrSettings(languages=("pol",), disabled_passes=("second-reader",))
    shipped = reading_key(SHA, 1, settings)
    monkeypatch.setattr(wordpasses, "READING_POLICY", replace(wordpasses.READING_POLICY, unsure_below=55.0))
    assert reading_key(SHA, 1, settings) != shipped


def test_a_run_under_other_switches_reads_the_page_again_and_the_shipped_one_finds_its_own(tmp_path, monkeypatch):
    """The attack: a page read under the shipped policy, then read with quantities spared (as a measuring run flips
    it). The cached reading must not be served to the switched run; back under the shipped switches, the first reading
    is found again."""
    from tests.pipeline.extract.ocr.builders import POLISH_OPTIONS, POLISH_PASSAGE, POLISH_STEM, build, colour_scan, question_page

    scan = colour_scan(build(tmp_path / "sheet.pdf", [question_page(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS)]),
                       tmp_path / "scan.pdf", dpi=150)
    settings, cache = OcrSettings(languages=("pol",), dpi=150), tmp_path / "cache"
    shipped = wordpasses.READING_POLICY

    def entries_after_reading() -> int:
        ocr_pages(scan, [1], settings, workers=1, cache_dir=cache, sha256=SHA)
        assert ReadingCache(cache).get(reading_key(SHA, 1, settings)) is not None
        return len(list(ReadingCache(cache).folder.rglob("*.json")))

    assert entries_after_reading() == 1
    monkeypatch.setattr(wordpasses, "READING_POLICY", replace(shipped, spare_quantities=True, unsure_below=55.0))
    assert entries_after_reading() == 2  # read again, stored under its own key
    monkeypatch.setattr(wordpasses, "READING_POLICY", shipped)
    assert entries_after_reading() == 2  # the shipped policy's reading found, not read a third time
