"""What one page reads as, after every pass: its words with their boxes, sizes, bold and highlight
flags, before assembly into lines (the value `read_page` returns and the OCR cache stores)."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from pipeline.diagnostics import Code, from_records, to_records
from pipeline.extract.document import ScannedFigure


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
    # Tesseract's confidence in the word (0–100; None: none given, or a reading cached before it was kept):
    # what `certainty` judges the word unsure by when the page is laid out.
    conf: float | None = None
    # What the second recogniser read at the word's place (None: it did not read it again; `agreement`):
    # `certainty` judges the word sure where the two agree and unsure where they do not.
    second: str | None = None
    # A punctuation mark whose ink left it unclear (`commas`): the word is unsure however it was read. Readings
    # cached before it was kept read False.
    unsure_mark: bool = False


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
    second_reading: str | None = None  # what the second recogniser did, or why it did not run (`secondread`)
    # Glyph- and mark-sized pieces of ink no word covers (`looseink`: left, top, right, bottom, ink pixels), judged
    # against the lines when the page is laid out. Readings cached before it was kept hold none.
    loose_ink: tuple[tuple[int, int, int, int, int], ...] = ()

    def to_json(self) -> str:
        data = asdict(self)
        data["notes"] = to_records(self.notes, Code.EXTRACT_NOTE)  # with their codes and what they concern (a question)
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> PageReading:
        data = json.loads(text)
        words = tuple(ReadWord(**{**w, "line": tuple(w["line"]) if w.get("line") is not None else None}) for w in data["words"])
        figures = tuple(ScannedFigure(tuple(f["bbox"]), tuple(f["words"])) for f in data.get("figures", ()))
        return cls(data["image_width"], data["image_height"], words, data["confidence"], data.get("rotation", 0), figures,
                   tuple(from_records(data.get("notes", ()), Code.EXTRACT_NOTE)), data.get("second_reading"),
                   tuple((int(a), int(b), int(c), int(d), int(e)) for a, b, c, d, e in data.get("loose_ink", ())))
