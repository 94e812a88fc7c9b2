"""OCR readings are cached per page by what changes them: a layout edit re-assembles lines from the
cache and never runs Tesseract; a setting that changes the words is a different key."""
from __future__ import annotations

import stat
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, rasterize_pdf
from pipeline.extract import ExtractOptions, LayoutParams, PageMethod, extract_document
from pipeline.extract.ocr import OcrSettings, PageReading, ReadingCache, reading_key, tesseract_command
from tests.pipeline.extract.ocr.builders import POLISH_STEM, build, needs_tesseract

SHA = "ab" * 32
SETTINGS = OcrSettings(languages=("pol",), dpi=200, option_labels=("A", "B", "C", "D"))
WIDE_GAP = LayoutParams(segment_gap=60.0)  # no gap splits a row: a 2×2 option grid row is one line


def _counting_tesseract(folder: Path) -> tuple[Path, Path]:
    """A wrapper around the real tesseract that appends each page-reading call to a log."""
    log = folder / "calls.log"
    script = folder / "tesseract"
    script.write_text(
        "#!/bin/sh\n"
        f'case "$1" in --*) ;; *) echo "$1" >> "{log}" ;; esac\n'
        f'exec "{tesseract_command()}" "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, log


def _reads(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def _options(cache: Path, layout: LayoutParams = LayoutParams()) -> ExtractOptions:
    return ExtractOptions(ocr=replace(SETTINGS, layout=layout), layout=layout, ocr_cache_dir=str(cache))


@needs_tesseract("pol")
def test_a_layout_change_reuses_the_cached_reading_and_never_runs_tesseract(tmp_path, monkeypatch):
    page = PageSpec(
        [
            TextBox(POLISH_STEM, 20, 30, 170, size=12),
            TextBox("A. poczta lokalna", 25, 70, 70, size=12),
            TextBox("B. poczta zdalna", 115, 70, 70, size=12),
        ]
    )
    scan = rasterize_pdf(build(tmp_path / "grid.pdf", [page]), tmp_path / "grid-scan.pdf", dpi=200)
    script, log = _counting_tesseract(tmp_path)
    monkeypatch.setenv("EXAMCORPUS_TESSERACT", str(script))
    cache = tmp_path / "cache"

    first = extract_document(scan, SHA, _options(cache))
    reads_first = _reads(log)
    assert first.pages[0].method is PageMethod.OCR and reads_first >= 1
    split_row = [line.text for line in first.pages[0].lines if "poczta" in line.text]
    assert len(split_row) == 2, split_row  # the default gap splits the grid row into two options

    wide = extract_document(scan, SHA, _options(cache, WIDE_GAP))
    assert _reads(log) == reads_first, "a layout-only change must not run Tesseract again"
    joined = [line.text for line in wide.pages[0].lines if "poczta" in line.text]
    assert len(joined) == 1 and "A." in joined[0] and "B." in joined[0], joined  # the new layout was applied

    again = extract_document(scan, SHA, _options(cache))
    assert _reads(log) == reads_first
    assert again.to_json() == first.to_json()


def test_the_key_changes_with_every_setting_that_changes_the_words_and_not_with_the_layout():
    base = reading_key(SHA, 1, SETTINGS)
    assert reading_key(SHA, 1, replace(SETTINGS, layout=WIDE_GAP)) == base
    changed = [
        reading_key("cd" * 32, 1, SETTINGS),
        reading_key(SHA, 2, SETTINGS),
        reading_key(SHA, 1, replace(SETTINGS, languages=("pol", "eng"))),
        reading_key(SHA, 1, replace(SETTINGS, dpi=300)),
        reading_key(SHA, 1, replace(SETTINGS, option_labels=("a", "b", "c", "d"))),
        reading_key(SHA, 1, replace(SETTINGS, option_labels=None)),
        reading_key(SHA, 1, replace(SETTINGS, ellipsis=True)),
    ]
    assert base not in changed and len(set(changed)) == len(changed)


def test_a_torn_or_foreign_cache_entry_is_a_miss_not_an_error(tmp_path):
    cache = ReadingCache(tmp_path)
    key = reading_key(SHA, 1, SETTINGS)
    cache.put(key, PageReading(100, 200))
    assert cache.get(key) == PageReading(100, 200)
    path = next((tmp_path / "ocr").rglob("*.json"))
    path.write_text(path.read_text()[:10])
    assert cache.get(key) is None
    assert not [p for p in (tmp_path / "ocr").rglob("*") if p.is_file() and p.suffix != ".json"]


def test_ocr_pages_refuses_a_cache_without_the_files_hash(tmp_path):
    from pipeline.extract.ocr import ocr_pages

    with pytest.raises(ValueError, match="sha256"):
        ocr_pages(tmp_path / "x.pdf", [1], SETTINGS, cache_dir=tmp_path)


def test_the_key_changes_with_the_language_and_script_data_the_passes_read(tmp_path, monkeypatch):
    import shutil

    from pipeline import languages

    data, scripts = tmp_path / "data", tmp_path / "scripts.yaml"
    shutil.copytree(languages.DATA_DIR, data)
    shutil.copyfile(languages.SCRIPTS_FILE, scripts)
    monkeypatch.setattr(languages, "DATA_DIR", data)
    monkeypatch.setattr(languages, "SCRIPTS_FILE", scripts)
    settings = OcrSettings(languages=("rus",))
    keys = []
    for edit in ("", "\n# an edit\n"):
        scripts.write_text(scripts.read_text(encoding="utf-8") + edit, encoding="utf-8")
        languages.data_sha256.cache_clear()
        keys.append(reading_key("ab" * 32, 1, settings))
    languages.data_sha256.cache_clear()
    assert keys[0] != keys[1]
