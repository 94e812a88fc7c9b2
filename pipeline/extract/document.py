"""What the extract stage hands to the parse stage: pages of positioned lines.

Coordinates are PDF points with the origin at the top-left of the page (pdfplumber's convention);
OCR'd pages are scaled back to points so both paths look the same to the parser.
"""
from __future__ import annotations

import dataclasses
import json
import operator
from dataclasses import dataclass, field
from enum import Enum

from pipeline.diagnostics import Code, from_records, to_records


# What the OCR path writes for a table cell it found but could not read (a grid key's answer box), so
# the cells after it keep their places and the parse stage reports that one cell.
UNREAD_CELL = "?"


class PageMethod(str, Enum):
    TEXT = "text"  # the PDF's own text layer
    OCR = "ocr"  # Tesseract on the rendered page
    EMPTY = "empty"  # nothing on the page (blank or image without text)


@dataclass
class Line:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    # True when the line sits on a filled highlight (e.g. the key marked in yellow inside the sheet)
    highlighted: bool = False
    font_size: float | None = None
    bold: bool = False
    # Where a word starts after a gap wider than a word space inside the line (`layout.WIDE_GAP`), left to
    # right: the cells of a row kept as one line (options printed side by side) stand there.
    wide_gap_starts: list[float] = field(default_factory=list)
    # Read by OCR on a text page (drawn text, glyphs without a Unicode map), wholly or in part: a line of
    # an OCR'd page is not marked, its page's method says it.
    ocr: bool = False
    # OCR'd lines only (None and empty on the text layer): the lowest Tesseract confidence of the line's
    # words (0–100), and the words the reading is unsure of (`extract.ocr.certainty`), which parse
    # turns into an `ocr.uncertain` flag on the question part they land in.
    ocr_confidence: float | None = None
    unsure_words: list[str] = field(default_factory=list)
    # Of `unsure_words`, those unsure by nothing but their closing or decimal mark, whose ink was unclear (`commas`):
    # parse lets the option's siblings settle a mark that ends an option (`certainty.settled_by_siblings`).
    unclear_marks: list[str] = field(default_factory=list)
    # Of `unsure_words`, those beside ink in their line that no word read covers (`extract.ocr.looseink`): a stop,
    # a raised mark or a short word Tesseract left out; parse says so in the flag.
    unaccounted_ink: list[str] = field(default_factory=list)


@dataclass
class Figure:
    page: int
    bbox: tuple[float, float, float, float]
    path: str  # PNG path relative to the project root
    sha256: str


@dataclass(frozen=True)
class ScannedFigure:
    """A figure the OCR path found on a scanned page: its box (image pixels in an OCR reading, PDF points
    on a `Page`) and the words Tesseract read inside it unsurely, set aside from the text."""

    bbox: tuple[float, float, float, float]
    words: tuple[str, ...] = ()


@dataclass
class Page:
    number: int  # 1-based
    width: float
    height: float
    method: PageMethod
    lines: list[Line] = field(default_factory=list)  # in reading order, headers/footers removed
    figures: list[Figure] = field(default_factory=list)
    dropped_reason: str | None = None  # e.g. "scratch page (BRUDNOPIS)": page kept for provenance, not parsed
    ocr_confidence: float | None = None
    # Figures found on an OCR'd page's image (PDF points, top-left origin), cropped like a text page's
    # figures; the unsure words read inside each are left out of `lines`.
    scanned_figures: list[ScannedFigure] = field(default_factory=list)
    # What the OCR repairs inferred rather than read on this page (labels taken from their column's
    # sequence, …): each becomes a line of the document's warnings.
    ocr_notes: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


@dataclass
class ExtractedDocument:
    sha256: str
    path: str
    page_count: int
    pages: list[Page]
    stage_version: str
    warnings: list[str] = field(default_factory=list)

    @property
    def ocr_pages(self) -> int:
        return sum(1 for p in self.pages if p.method is PageMethod.OCR)

    def to_json(self) -> str:
        data = _plain(self)  # each line's record without its fields at their defaults (`_line_record`)
        # Diagnostics with their codes and concerns (a str subclass would be written as its message alone).
        data["warnings"] = to_records(self.warnings, Code.EXTRACT_NOTE)
        for page_data, page in zip(data["pages"], self.pages):
            page_data["ocr_notes"] = to_records(page.ocr_notes, Code.EXTRACT_NOTE)
        return json.dumps(data, ensure_ascii=False, default=_enum_value)

    @classmethod
    def from_json(cls, text: str) -> "ExtractedDocument":
        data = json.loads(text)
        pages = []
        for p in data.pop("pages"):
            p["method"] = PageMethod(p["method"])
            p["lines"] = [Line(**line) for line in p["lines"]]
            p["figures"] = [Figure(**dict(f, bbox=tuple(f["bbox"]))) for f in p["figures"]]
            p["scanned_figures"] = [ScannedFigure(tuple(f["bbox"]), tuple(f["words"])) for f in p.get("scanned_figures", ())]
            p["ocr_notes"] = from_records(p.get("ocr_notes", ()), Code.EXTRACT_NOTE)
            pages.append(Page(**p))
        data["warnings"] = from_records(data.get("warnings", ()), Code.EXTRACT_NOTE)
        return cls(pages=pages, **data)


_LEAVES = frozenset({str, float, int, bool, type(None)})  # exactly these types: a str subclass may be a dataclass
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _plain(value):
    """`dataclasses.asdict` without its deep copy of every value (most of the time of writing a document):
    the same dicts and lists, sharing the leaves, which JSON only reads. Plain values return at once and
    each class's field names are looked up once, not once an object (thousands of lines a document); a
    line is `_line_record`'s."""
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is Line:
        return _line_record(value)
    names = _FIELD_NAMES.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


# A line's fields, and those of them left out of its record where they hold their defaults (most lines: read
# back as the default). The defaults' fields come last, so a line without them is its leading fields alone.
_LINE_FIELDS = tuple(f.name for f in dataclasses.fields(Line))
_LINE_OPTIONAL = ("wide_gap_starts", "ocr", "ocr_confidence", "unsure_words", "unclear_marks", "unaccounted_ink")
_LINE_LEADING = _LINE_FIELDS[: len(_LINE_FIELDS) - len(_LINE_OPTIONAL)]
assert _LINE_FIELDS[len(_LINE_LEADING):] == _LINE_OPTIONAL, "a line's optional fields must come last"
_LINE_VALUES = operator.attrgetter(*_LINE_FIELDS)
_AT_DEFAULTS = ([], False, None, [], [], [])  # `_LINE_OPTIONAL`'s values on most lines


def _line_record(line: Line) -> dict:
    """`_plain(line)` less the optional fields at their defaults (None, False or empty), as `to_json` writes
    it: the values taken by one C call and zipped with the names, without `_plain`'s call a field. The
    leading fields are leaves by their types (JSON writes a tuple or a dict there as `_plain`'s copy of it),
    and a line with an optional field set goes field by field through `_plain`, as before."""
    values = _LINE_VALUES(line)
    optional = values[len(_LINE_LEADING):]
    if optional == _AT_DEFAULTS and optional[1] is False:  # `ocr` 0 equals False, and is written
        return dict(zip(_LINE_LEADING, values))
    record = {}
    for name, value in zip(_LINE_FIELDS, values):
        value = _plain(value)
        if name in _LINE_OPTIONAL and (value is None or value is False or value == []):
            continue
        record[name] = value
    return record


def _enum_value(obj):
    if isinstance(obj, Enum):
        return obj.value
    raise TypeError(f"not JSON serialisable: {obj!r}")
