"""What Tesseract read on one page, and the word repairs after it, cached under the project's raw/cache.

OCR is by far the slowest step of a season run (6–8 s a page here), and most spec edits do not change
what it reads: a layout rule (segment gap, columns), `drop_lines`/`drop_pages` or a key rule only
change how the words are assembled into lines and what is kept. So a page's reading — its repaired
words with their boxes, sizes, bold and highlight flags — is cached per page under a key of exactly
what produces it:

- the file's SHA-256 and the page number (the rendered image);
- languages, dpi, option labels and `ellipsis` (every setting the reading and the passes use), and
  the segmentation: `reread_prose`, `reread_below`;
- the name and version of every page pass these settings enable (`pagepasses.pass_versions`: a pass
  disabled by the spec, or a new version of one, changes the key; the `reread-prose` pass's version
  holds `segment.SEGMENTATION_VERSION`), `READING_FORMAT`, Tesseract's `--version` and
  $TESSDATA_PREFIX (other models read other words);
- the language and script data (`languages.data_sha256`): the passes read units, look-alikes and marks from it.

The layout (`OcrSettings.layout`) is deliberately not part of the key: assembly into lines is redone
from the cached words on every extraction (`page.lay_out_page`, milliseconds). Entries are written
atomically (pipeline.infra.StageCache), so a run killed mid-write leaves no torn entry.
"""
from __future__ import annotations

import os
from pathlib import Path

from pipeline.infra import StageCache, fingerprint
from pipeline.languages import data_sha256
from pipeline.extract.ocr.companions import reading_languages
from pipeline.extract.ocr.engine import tesseract_command, tesseract_version
from pipeline.extract.ocr.pagepasses import PAGE_PASSES, pass_versions
from pipeline.extract.ocr.reading import PageReading, ReadWord
from pipeline.extract.ocr.settings import OcrSettings

# The format of a cached reading and of its key. Until 40 one version stood for every repair; since 41
# each page pass has its own version (`pagepasses.PAGE_PASSES`) and the key lists the enabled ones, so
# a pass's change reads again only the pages of settings that run it. Bump this only when `PageReading`'s
# shape or the key's make-up changes. 42: each word keeps Tesseract's confidence (`ReadWord.conf`).
# 43: and what the second recogniser read at its place (`ReadWord.second`).
READING_FORMAT = "ocr-reading/43"
CACHE_STAGE = "ocr"


def reading_key(sha256: str, page_number: int, settings: OcrSettings) -> str:
    """The cache key of one page's reading: everything that changes the words, and nothing else."""
    command = tesseract_command()
    return fingerprint(
        READING_FORMAT,
        pass_versions(settings),
        tesseract_version(command),
        os.environ.get("TESSDATA_PREFIX"),
        sha256,
        page_number,
        list(reading_languages(settings.languages)),  # a companion script read beside them changes the words
        settings.dpi,
        list(settings.option_labels) if settings.option_labels is not None else None,
        settings.ellipsis,
        settings.reread_below if settings.reread_prose else None,
        settings.deskew,
        data_sha256(),  # the language and script data the passes read (units, look-alikes, marks, dictionaries' names)
    )


class ReadingCache:
    """Page readings under `<cache dir>/ocr/`; a torn or unreadable entry counts as a miss."""

    def __init__(self, cache_dir: Path | str):
        self._store = StageCache(Path(cache_dir), CACHE_STAGE)

    @property
    def folder(self) -> Path:
        """Where the readings lie: `<cache dir>/ocr/`."""
        return self._store.dir

    def get(self, key: str) -> PageReading | None:
        text = self._store.get(key)
        if text is None:
            return None
        try:
            return PageReading.from_json(text)
        except (ValueError, KeyError, TypeError):
            return None  # written by another version's layout: read the page again

    def put(self, key: str, reading: PageReading) -> None:
        self._store.put(key, reading.to_json())


def _all_passes_version() -> str:
    return READING_FORMAT + "+" + fingerprint([(p.name, p.version) for p in PAGE_PASSES])[:12]


# Every registered pass's version in one string, for stages whose own cache key must change with any
# of them (the extract stage's version); the per-page key above holds only the enabled passes.
READING_VERSION = _all_passes_version()
__all__ = ["CACHE_STAGE", "READING_FORMAT", "READING_VERSION", "PageReading", "ReadWord", "ReadingCache", "reading_key"]
