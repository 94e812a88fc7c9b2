"""What Tesseract read on one page, and the word repairs after it, cached under the project's raw/cache.

OCR is by far the slowest step of a season run (6–8 s a page here), and most spec edits do not change
what it reads: a layout rule (segment gap, columns), `drop_lines`/`drop_pages` or a key rule only
change how the words are assembled into lines and what is kept. So a page's reading — its repaired
words with their boxes, sizes, bold and highlight flags — is cached per page under a key of exactly
what produces it:

- the file's SHA-256 and the page number (the rendered image);
- languages, dpi, option labels and `ellipsis` (every setting the reading and the repairs use), and
  the segmentation: `reread_prose`, `reread_below` and `segment.SEGMENTATION_VERSION`;
- `READING_VERSION` (bump it when the reading or a repair changes), Tesseract's `--version` and
  $TESSDATA_PREFIX (other models read other words).

The layout (`OcrSettings.layout`) is deliberately not part of the key: assembly into lines is redone
from the cached words on every extraction (`page.lay_out_page`, milliseconds). Entries are written
atomically (pipeline.infra.StageCache), so a run killed mid-write leaves no torn entry.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pipeline.infra import StageCache, fingerprint
from pipeline.extract.document import ScannedFigure
from pipeline.extract.ocr.engine import tesseract_command, tesseract_version
from pipeline.extract.ocr.segment import SEGMENTATION_VERSION
from pipeline.extract.ocr.settings import OcrSettings

# 1: the first cached reading (words after every repair, before line assembly).
# 2: prose regions read again with psm 6 (`segment`); the key gained the segmentation settings.
# 13: glued words with a part of one or two letters split where the white is a space ("Enlas").
# 14: a number parted from its sign or unit where the print shows a word space ("64,15 %").
# 15: the ink of an unsure word spanning several lines is read again line by line (a key's number column);
#     a line of small letters without ascenders is sized by its x-height.
# 16: a page that reads as if it lay turned is read again upright (`orientation`).
# 17: paper of uneven brightness evened out before reading (`illumination`).
# 18: an answer cell whose one stroke is a flat dash reads "-" (an annulled question) in grid keys.
# 19-20: the block pass reads around lone cells (a key page whole); a known word splits at a full word
# space; a lone label letter in running text keeps its case.
# 21: figures found on the scan (`scanfigures`), the unsure words read in them set aside.
# 22: light text on dark panels (heading banners, filled number rows) inverted before reading (`panels`).
# 23-28: option labels printed light on dark discs read as labels (`labeldiscs`); a letter just after a
# marked label keeps its text; 28: a same-shape capital no taller than the small letters mid-sentence is small;
# 29: a number glued to a word splits where the image shows a space ("QUESTÃO77"); 30: label discs whose
# letter opens them to one side ("C") are found whole. 31: a bare letter opening a line at a plain word
# space is a word (the article "A"), not a label whose mark was lost. 32: a panel's blurred edge becomes
# paper, not a grey rule under its letters. 33: bold dark type on a shaded bar is no panel (its letters
# must be as light as the paper). 34: unread label discs take the labels their column's sequence pins down.
# 35: a word read across a label disc and past it keeps only its part past the disc ("OA" → disc, "A").
# 36: each word keeps its Tesseract line, so a justified line's wide spaces do not cut it into pieces.
# 37: a run of unread discs at a column's end or start is filled only in a column that reads a sequence.
# 38: an accented vowel read again bare after itself loses the bare one ("Colposcopíia"); a reading
#     carries notes of what its repairs inferred (label discs filled from their column's sequence).
# 39: a grid key's answer band keeps only its own row of glyphs (a note printed under the last row); a
#     box the page pass read as a number of two or more digits is no label disc (a key's bold "49").
# 40: in a band too tall for a text line (a formula's exponents, a figure beside its label), a
#     label-sized patch of a text line's height is read again for its label ("A)" of "A) 9^(k+k²)").
READING_VERSION = "ocr-reading/40"
CACHE_STAGE = "ocr"


@dataclass(frozen=True)
class ReadWord:
    """One word as read and repaired, in image pixels; `size` is its line's ink size in pixels."""

    text: str
    left: int
    top: int
    right: int
    bottom: int
    size: float
    highlighted: bool = False
    bold: bool = False
    # Tesseract's (block, paragraph, line) of the pass that read it: the words of one Tesseract line
    # stay one line across the wide word spaces of justified text (`layout.split_segments`).
    line: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class PageReading:
    """A page's words before assembly; no words: Tesseract found nothing legible (an empty page)."""

    image_width: int
    image_height: int
    words: tuple[ReadWord, ...] = field(default_factory=tuple)
    confidence: float | None = None
    rotation: int = 0  # degrees the scan was turned clockwise before reading (`orientation`); words are upright
    # Figures found on the scan (`scanfigures`), their boxes in image pixels, each with the unsure words
    # read inside it, which are left out of `words`.
    figures: tuple[ScannedFigure, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = ()  # what the repairs inferred rather than read, for the report

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> PageReading:
        data = json.loads(text)
        words = tuple(ReadWord(**{**w, "line": tuple(w["line"]) if w.get("line") is not None else None}) for w in data["words"])
        figures = tuple(ScannedFigure(tuple(f["bbox"]), tuple(f["words"])) for f in data.get("figures", ()))
        return cls(data["image_width"], data["image_height"], words, data["confidence"], data.get("rotation", 0), figures,
                   tuple(data.get("notes", ())))


def reading_key(sha256: str, page_number: int, settings: OcrSettings) -> str:
    """The cache key of one page's reading: everything that changes the words, and nothing else."""
    command = tesseract_command()
    return fingerprint(
        READING_VERSION,
        tesseract_version(command),
        os.environ.get("TESSDATA_PREFIX"),
        sha256,
        page_number,
        list(settings.languages),
        settings.dpi,
        list(settings.option_labels) if settings.option_labels is not None else None,
        settings.ellipsis,
        SEGMENTATION_VERSION if settings.reread_prose else None,
        settings.reread_below if settings.reread_prose else None,
        settings.deskew,
    )


class ReadingCache:
    """Page readings under `<cache dir>/ocr/`; a torn or unreadable entry counts as a miss."""

    def __init__(self, cache_dir: Path | str):
        self._store = StageCache(Path(cache_dir), CACHE_STAGE)

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
