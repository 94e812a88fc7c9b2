"""Extract stage: a PDF becomes pages of positioned lines in reading order, cleaned of page furniture.

Text-layer pages are read with pypdfium2 glyph boxes and assembled by pipeline.extract.layout (geometry, not
content-stream order). Pages without a usable text layer go to OCR (pipeline.extract.ocr) when it is available.
Headers, footers, page numbers and examiner boxes are removed by the spec's `layout.drop_lines` rules
plus lines repeated at the same place on most pages; scratch pages matching `layout.drop_pages` are kept
for provenance with `dropped_reason` set, and the parser skips them.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

from pipeline import PIPELINE_VERSION
from pipeline.diagnostics import Code, Diagnostic, as_diagnostics, diagnose
from pipeline.extract.document import ExtractedDocument, Line, Page, PageMethod
from pipeline.extract import bombs, figures, pagechars
from pipeline.extract.glyphs import page_glyphs
from pipeline.extract import patches as text_patches
from pipeline.extract import quality
from pipeline.extract.layout import Glyph, GlyphArrays, LayoutParams, assemble
from pipeline.extract.tolerant import repeated_despite_misreadings, search_rule
from pipeline.languages import all_languages
from pipeline.extract.ocr import LABEL_TOKEN, READING_VERSION, OcrError, OcrSettings, OcrUnavailable, ocr_pages
from pipeline.patterns import AnyPattern
from pipeline.infra import per_file, timed

# +14: a page that needs OCR when OCR cannot run is a StageUnavailable failure, no longer an empty page;
# bumped so empty extractions cached by earlier runs without Tesseract are never reused.
# +26: OCR readings 13-18 (glued short words, numbers and their units split, stacked tokens read,
# turned pages read upright, uneven paper evened, dashes in grid cells). The OCR reading's own version is part of it, so a changed reading is
# never served from an extraction cached before. +27: the document's warnings name the pages read by OCR
# in one line and the OCR'd pages of doubtful confidence. +28: running heads OCR misreads page by page
# are furniture. +29: figures found on scans are cropped and named in the warnings. +30: a stray mark
# beside a column head no longer hides the page's two columns (`layout`). +31: an option label set apart
# from its text by a tab is no margin note, however small its scan measures. +32: a justified line stays
# one line across its wide spaces on the text layer too (`layout.WordSpaces`). +33: what the OCR repairs
# inferred rather than read (label discs filled from their column) is a line of the warnings.
# +34: lines record where words start after a wide gap (`Line.wide_gap_starts`). +35: drawn text and
# glyphs without a Unicode map on text pages are read by OCR in place (`patches`), lines marked `ocr`.
# +37: a copyright sign with a mark after it ("©)") is no "(C)" (it read "(C) )"): its column names the label.
# +38: an OCR'd word of marks alone flatter than its line (a blank's `_`) is laid out at its line's height
# (`page.laid_out_rows`): it stays in its line instead of opening one of its own. +39: a short line a body
# line's paragraph runs on into is no margin note, however small its ink measures (`_ends_a_paragraph`).
# +40: a text layer's raised and lowered small glyphs stay in their row (`smallrows`: `10¹²/L` reads
# `1012/L`, not `10 /L` under a line `12`), and the margin notes dropped are a line of the warnings.
STAGE_VERSION = f"extract/{PIPELINE_VERSION}+40/{READING_VERSION}"
# Mean word confidence of an OCR'd page under which the report asks for a look: development scans read
# at 72-96 a page, a page lying turned at about 36.
OCR_DOUBTFUL_BELOW = 60.0



def _alternation(words: set[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


def _builtin_margin_patterns() -> tuple[str, ...]:
    """Page furniture every exam family has ("Strona 3 z 12", "3 / 12", "- 3 -"), in every language
    file's words, whatever the sheet's language (sheets print English footers too); specs add their
    own rules on top of these."""
    languages = all_languages().values()
    page = _alternation({w for lang in languages for w in lang.page_furniture.page_words})
    of = _alternation({w for lang in languages for w in lang.page_furniture.of_words} | {"/"})
    return (
        rf"^\s*(?:{page})\s*\d{{1,3}}\s*(?:(?:{of})\s*\d{{1,3}})?\s*$",
        rf"^\s*\d{{1,3}}\s*(?:{of})\s*\d{{1,3}}\s*$",
        r"^\s*[-–—]?\s*(?P<page>\d{1,3})\s*[-–—]?\s*$",  # a bare number: only the page's own number
    )


def language_words_sha256() -> str:
    """Digest of the language words extract reads: page furniture and the text-layer check's letters."""
    return hashlib.sha256("\n".join((*_builtin_margin_patterns(), *quality.split_letter_sets())).encode()).hexdigest()


BUILTIN_MARGIN_PATTERNS = _builtin_margin_patterns()
# Part of the stage version, so an edited language file is never served from an extraction cached
# with the old words.
STAGE_VERSION += f"/words-{language_words_sha256()[:12]}"
MARGIN_ZONE = 0.09  # share of the page height at the top and bottom where running heads live


class ExtractError(Exception):
    """A file that cannot be read as an exam sheet; the message names the file and the problem."""

    def __init__(self, path: Path | str, message: str):
        self.path = str(path)
        self.message = message
        super().__init__(f"{path}: {message}")


class StageUnavailable(Exception):
    """The stage could not do its work on this file (Tesseract or an OCR language missing, Tesseract
    failing): the file is not at fault, so the result must not be cached or the file quarantined."""

    def __init__(self, path: Path | str, message: str):
        self.path = str(path)
        self.message = message
        super().__init__(f"{path}: {message}")


@dataclass(frozen=True)
class ExtractOptions:
    """Everything extract needs from a spec; frozen and picklable for worker processes."""

    drop_lines: tuple[str, ...] = ()
    drop_pages: tuple[str, ...] = ()
    remove_repeated_lines: bool = True
    # Question headers (the spec's `layout.question_start`): an OCR'd line that opens a question is no running
    # head read a little differently, however like the top lines of other pages it reads (formulaic stems).
    question_start: tuple[str, ...] = ()
    drop_margin_notes: bool = True
    detect_highlights: bool = False
    ocr: OcrSettings = field(default_factory=OcrSettings)
    ocr_workers: int = 2
    max_pages: int = 2000
    figures_dir: str | None = None  # where figure PNGs go; None: no figure crops
    figures_root: str | None = None  # ImageRef paths are relative to this (the project root)
    layout: LayoutParams = field(default_factory=LayoutParams)
    # Where OCR readings are cached per page (pipeline.extract.ocr.cache); None: no OCR cache. Not
    # part of what the output depends on: the season run leaves it out of the extract cache key.
    ocr_cache_dir: str | None = None

    @classmethod
    def from_spec(
        cls, spec, figures_dir: Path | str | None = None, figures_root: Path | str | None = None, **overrides
    ) -> ExtractOptions:
        layout = spec.layout
        ocr = OcrSettings.from_spec(spec)
        values = {
            "drop_lines": tuple(layout.drop_lines),
            "drop_pages": tuple(layout.drop_pages),
            "remove_repeated_lines": layout.remove_repeated_lines,
            "question_start": (layout.question_start,),
            "drop_margin_notes": layout.drop_margin_notes,
            "detect_highlights": spec.key.kind == "highlight",
            "ocr": ocr,
            "figures_dir": str(figures_dir) if figures_dir is not None else None,
            "figures_root": str(figures_root) if figures_root is not None else _default_root(figures_dir),
            "layout": ocr.layout,  # the text path lays lines out as OCR does
        }
        values.update(overrides)
        return cls(**values)


def _default_root(figures_dir: Path | str | None) -> str | None:
    """<root>/raw/figures -> <root>: image paths in records are relative to the project root."""
    if figures_dir is None:
        return None
    folder = Path(figures_dir)
    return str(folder.parent.parent) if folder.parent.name == "raw" else None


# --------------------------------------------------------------------------- opening


def _open(path: Path, options: ExtractOptions) -> pdfium.PdfDocument:
    try:
        with open(path, "rb") as handle:
            head = handle.read(65536)
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 65536))
            tail = handle.read()
    except OSError as exc:
        raise ExtractError(path, f"cannot read the file ({exc.strerror or exc})") from None
    if size == 0:
        raise ExtractError(path, "empty file (0 bytes)")
    if b"%PDF-" not in head[:1024]:
        raise ExtractError(path, "not a PDF (no %PDF- header in the first 1024 bytes)")
    if b"%%EOF" not in tail[-4096:]:
        raise ExtractError(path, "truncated PDF (no %%EOF marker at the end; the download may be incomplete)")
    bomb = bombs.file_bomb(path)
    if bomb is not None:
        raise ExtractError(path, bomb)
    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        # pdfium's error code is process-global and can be stale, so the trailer decides "encrypted".
        if b"/Encrypt" in tail or b"/Encrypt" in head:
            raise ExtractError(path, "encrypted PDF: it needs a password to open") from None
        raise ExtractError(path, f"corrupt PDF: pdfium cannot load it ({exc})") from None
    pages = len(document)
    if pages == 0:
        document.close()
        raise ExtractError(path, "the PDF has zero pages")
    if pages > options.max_pages:
        document.close()
        raise ExtractError(path, f"{pages} pages is over the limit of {options.max_pages} (ExtractOptions.max_pages)")
    return document


# --------------------------------------------------------------------------- text layer


def _text_lines(glyphs: list[Glyph] | GlyphArrays, width: float, height: float, params: LayoutParams) -> list[Line]:
    lines = []
    for seg in assemble(glyphs, width, params, page_height=height, shared_descent=True):
        text = unicodedata.normalize("NFC", seg.text).strip()
        if text:
            lines.append(seg.to_line(text, highlighted=seg.highlighted, font_size=seg.size, bold=seg.bold))
            lines[-1].ocr = seg.read_by_ocr  # words OCR read in place (`patches`)
    return lines


# --------------------------------------------------------------------------- OCR seam


def _layer_verdict(lines: list[Line], page: pdfium.PdfPage) -> tuple[bool, str | None]:
    """(usable, why not): pipeline.extract.quality decides; the page-object walks it can use (image
    coverage, curved paths) run only for pages with almost no text, where a scan or outlines may hide."""
    verdict = quality.assess_page("\n".join(line.text for line in lines), page)
    return verdict.usable, verdict.reason


def _run_ocr(path: Path, sha256: str, pages: list[Page], numbers: list[int], options: ExtractOptions) -> None:
    if not numbers:
        return
    cache = {"cache_dir": options.ocr_cache_dir, "sha256": sha256} if options.ocr_cache_dir else {}
    try:
        results = ocr_pages(path, numbers, options.ocr, workers=options.ocr_workers, **cache)
    except (OcrUnavailable, OcrError) as exc:
        # Pages without text would parse to nothing and replace the sheet's curated records.
        raise StageUnavailable(path, f"page(s) {numbers} need OCR, which could not run: {exc}") from None
    for number, ocr_page in results.items():
        page = pages[number - 1]
        page.lines = list(ocr_page.lines)
        page.method = ocr_page.method
        page.ocr_confidence = ocr_page.ocr_confidence
        page.scanned_figures = list(ocr_page.scanned_figures)
        page.ocr_notes = list(ocr_page.ocr_notes)
        page.width, page.height = ocr_page.width, ocr_page.height  # the other way round if read turned on its side


def _read_in_place(
    path: Path, sha256: str, pages: list[Page], patches: list, options: ExtractOptions, document: pdfium.PdfDocument
) -> list[Diagnostic]:
    """Drawn text and unmapped glyphs of text pages read by OCR and spliced into their lines (`patches`),
    the masked pages loaded from the stage's open `document`."""
    if not patches:
        return []
    try:
        return text_patches.apply_patches(
            path, sha256, pages, patches, options, lambda glyphs, width, height: _text_lines(glyphs, width, height, options.layout),
            document=document,
        )
    except (OcrUnavailable, OcrError) as exc:
        numbers = sorted({p.number for p in patches})
        raise StageUnavailable(path, f"page(s) {numbers} hold text their text layer lacks, which needs OCR, which could not run: {exc}") from None


def _pages_named(numbers: list[int]) -> str:
    """"page 3", or "pages 1–4, 7" for ascending page numbers."""
    if len(numbers) == 1:
        return f"page {numbers[0]}"
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return "pages " + ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _scanned_figures_warning(page: Page) -> Diagnostic:
    """What a curator should know of the figures found on a scanned page: where, and the text set aside."""
    boxes = ", ".join("(" + ", ".join(f"{v:.0f}" for v in f.bbox) + ")" for f in page.scanned_figures)
    words = [w for f in page.scanned_figures for w in f.words]
    shown = " ".join(words[:12]) + (" …" if len(words) > 12 else "")
    set_aside = f"; {len(words)} unsure word(s) read inside left out of the text: {shown!r}" if words else ""
    return diagnose(Code.SCANNED_FIGURES, page=page.number, count=len(page.scanned_figures), boxes=boxes, set_aside=set_aside)


# --------------------------------------------------------------------------- cleaning


def _furniture_keys(line: Line, page: Page) -> list[tuple[str, int]]:
    """Keys under which a running head/foot repeats: its exact text, and with the page number masked."""
    text = " ".join(line.text.split())
    row = round(line.top / 3)
    keys = [(text, row)]
    masked = re.sub(rf"(?<!\d){page.number}(?!\d)", "#", text)
    if masked != text:
        keys.append((masked, row))
    return keys


def _in_margin(line: Line, page: Page) -> bool:
    return line.top < page.height * MARGIN_ZONE or line.bottom > page.height * (1 - MARGIN_ZONE)


def _repeated_furniture(pages: list[Page]) -> tuple[set[tuple[str, int]], set[int]]:
    """Keys of lines at the same place near the top or bottom edge on most pages, and the ids of OCR'd
    lines that recur there read a little differently (`repeated_despite_misreadings`)."""
    with_text = [p for p in pages if p.lines]
    if len(with_text) < 2:
        return set(), set()
    seen: Counter = Counter()
    for page in with_text:
        keys = set()
        for line in page.lines:
            if _in_margin(line, page):
                keys.update(_furniture_keys(line, page))
        seen.update(keys)
    # Short documents (a two-page key) repeat their running head on every page; longer ones need more.
    threshold = 2 if len(with_text) <= 4 else max(3, int(0.4 * len(with_text)))
    misread = [[line for line in p.lines if _in_margin(line, p)] for p in with_text if p.method is PageMethod.OCR]
    return {key for key, n in seen.items() if n >= threshold}, repeated_despite_misreadings(misread, threshold)


def _is_page_number(match: re.Match | None, page: Page) -> bool:
    if match is None:
        return False
    printed = match.groupdict().get("page")
    # Table rows in the margin zone hold bare numbers too; only the page's own number is furniture.
    return printed is None or abs(int(printed) - page.number) <= 2


def _dominant_size(lines: list[Line]) -> float:
    sizes: Counter[int] = Counter()
    for line in lines:  # each line weighs a tenth of its length (at least 1)
        sizes[round(line.font_size or 0)] += max(1, len(line.text) // 10)
    return float(sizes.most_common(1)[0][0]) if sizes else 0.0


OCR_SIZE_TOLERANCE = 0.12  # share of the body size: OCR font sizes come from ink heights, not the font


def _is_margin_note(line: Line, page: Page, body_size: float) -> bool:
    """Small print wholly in the left or right margin: examiner score boxes, side tabs. On OCR'd pages
    "small" allows for the error of an ink-height size (a marking scheme's lone answer letter "A" at the
    left edge measured 11.3 against a body of 12)."""
    in_side = line.x1 < page.width * 0.1 or line.x0 > page.width * 0.9
    tolerance = max(0.5, OCR_SIZE_TOLERANCE * body_size) if page.method is PageMethod.OCR else 0.5
    return in_side and (line.font_size or 0) < body_size - tolerance and not _ends_a_paragraph(line, page, body_size, tolerance)


LABEL_TEXT_WITHIN = 6.0  # font sizes between a lone label and the text it opens (a tab stop)
PARAGRAPH_GAP = 0.6  # of the body size: at most this white between a paragraph's line and the next
PARAGRAPH_INDENT = 0.5  # of the body size: lines of one paragraph start this close to one another


def _ends_a_paragraph(line: Line, page: Page, body_size: float, tolerance: float) -> bool:
    """A short line of words that a body line's paragraph runs on into: the body line just above it, no more than a
    line's white away, starts where it starts. On a page whose text column starts inside the side band (a scan's
    narrow margins) a stem's last word on a line of its own (`são` under `… esses órgãos`) stands wholly in the band
    and, measured by its ink (no ascender), small: it is the paragraph's end, not a margin note. A score box or a side
    tab stands beside the column, never under one of its lines at its left edge."""
    if not any(ch.isalpha() for ch in line.text):
        return False
    for above in page.lines:
        if above is line or above.font_size is None or abs(above.font_size - body_size) > tolerance:
            continue
        if abs(above.x0 - line.x0) <= PARAGRAPH_INDENT * body_size and above.x1 - above.x0 > line.x1 - line.x0 \
                and 0 <= line.top - above.bottom <= PARAGRAPH_GAP * body_size:
            return True
    return False


def _label_opening_a_row(line: Line, page: Page, labels: tuple[str, ...]) -> bool:
    """An option label set apart from its text by a wide tab ("a)" and "En Pleno…" as two segments of one
    row): it may stand inside the margin band and measure small on a scan, but it is no margin note,
    for its text follows on the same row. Examiner boxes hold numbers and points, never a label with
    text beside it."""
    token = line.text.strip()
    if not LABEL_TOKEN.match(token) or token.strip("([.):").casefold() not in {label.casefold() for label in labels}:
        return False
    size = line.font_size or (line.bottom - line.top)
    for other in page.lines:
        overlap = min(other.bottom, line.bottom) - max(other.top, line.top)
        if other is not line and overlap > 0.5 * (line.bottom - line.top) and 0 <= other.x0 - line.x1 <= LABEL_TEXT_WITHIN * size:
            return True
    return False


MARGIN_NOTES_SHOWN = 12  # margin notes a file's diagnostic quotes (the rest counted)


def _margin_notes_dropped(dropped: list[tuple[int, str]]) -> list[Diagnostic]:
    """The one diagnostic that names a file's dropped margin notes (page and text), none where none was."""
    if not dropped:
        return []
    shown = ", ".join(f"page {number} {_clipped(text)!r}" for number, text in dropped[:MARGIN_NOTES_SHOWN])
    more = f" and {len(dropped) - MARGIN_NOTES_SHOWN} more" if len(dropped) > MARGIN_NOTES_SHOWN else ""
    return [diagnose(Code.MARGIN_NOTES_DROPPED, count=len(dropped), lines=shown + more)]


def _clipped(text: str, most: int = 40) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


def clean_pages(pages: list[Page], options: ExtractOptions) -> list[Diagnostic]:
    """Each page's lines less its furniture, page numbers, margin notes and `drop_lines` (in place), and pages
    `drop_pages` matches marked dropped; the margin notes dropped named in a diagnostic (nothing dropped unsaid)."""
    dropped_notes: list[tuple[int, str]] = []
    drop_line_rules = AnyPattern(options.drop_lines)
    margin_rules = [re.compile(p) for p in BUILTIN_MARGIN_PATTERNS]
    furniture, misread_furniture = _repeated_furniture(pages) if options.remove_repeated_lines else (set(), set())
    question_headers = AnyPattern(options.question_start) if misread_furniture and options.question_start else None
    for page in pages:
        ocr = page.method is PageMethod.OCR
        for pattern in options.drop_pages:
            found, edits = search_rule(pattern, page.text, ocr=ocr)
            if found:
                misread = f" (allowing {edits} OCR misreading(s))" if edits else ""
                page.dropped_reason = f"matches layout.drop_pages rule {pattern!r}{misread}"
                break
        if page.dropped_reason:
            # Not parsed, so kept whole: a cover's sheet code or variant code may sit in a "furniture" line.
            continue
        kept = []
        body_size = _dominant_size(page.lines)
        labels = options.ocr.option_labels or ()
        for line in page.lines:
            if options.drop_margin_notes and _is_margin_note(line, page, body_size) and not _label_opening_a_row(line, page, labels):
                dropped_notes.append((page.number, line.text))
                continue
            in_margin = _in_margin(line, page)
            if in_margin and any(_is_page_number(r.search(line.text), page) for r in margin_rules):
                continue
            alike = id(line) in misread_furniture and not (question_headers and question_headers.found_in(line.text))
            if in_margin and (alike or any(key in furniture for key in _furniture_keys(line, page))):
                continue
            if (ocr or line.ocr) and any(search_rule(p, line.text, ocr=True)[0] for p in options.drop_lines):
                continue  # as written, else allowing OCR misreadings
            if not (ocr or line.ocr) and drop_line_rules.found_in(line.text):
                continue
            kept.append(line)
        page.lines = kept
    return _margin_notes_dropped(dropped_notes)


# --------------------------------------------------------------------------- figures seam


class _FigureSearch:
    """The figure boxes of each page, found, and their crops cut (rendered and encoded), while the page is
    loaded for its text, so each page is loaded once; or why they could not be. The crops are written
    only once the whole file has been read (`_attach_figures`): a file whose later page fails leaves none."""

    def __init__(self, path: Path, sha256: str, options: ExtractOptions):
        self.wanted = options.figures_dir is not None
        self.out_dir = Path(options.figures_dir) if options.figures_dir is not None else None
        self.name = f"{path} ({sha256[:12]})" if sha256 else str(path)
        self.cuts: dict[int, list[figures.Cut]] = {}
        self.failure: figures.FigureError | None = None

    def search(self, page: pdfium.PdfPage, number: int) -> None:
        if not self.wanted or self.failure is not None or self.out_dir is None:
            return
        try:
            with timed("figures"):
                boxes = figures.find_figure_boxes(page)
            if boxes:
                with timed("figures:crops"):
                    self.cuts[number] = figures.cut_page(page, number, boxes, self.out_dir)
        except pdfium.PdfiumError as exc:
            self.failure = figures.FigureError(f"{self.name}: page {number} cannot be read: {exc}")


def _attach_figures(path: Path, document: ExtractedDocument, search: _FigureSearch, options: ExtractOptions) -> None:
    if options.figures_dir is None:
        return
    try:
        if search.failure is not None:
            raise search.failure
        root = Path(options.figures_root) if options.figures_root else None
        out_dir = Path(options.figures_dir)
        # Figures found on scanned pages are cropped from the file opened again (OCR rendered those pages).
        scanned = {p.number: [f.bbox for f in p.scanned_figures] for p in document.pages if p.scanned_figures}
        cut = [c for number in sorted(search.cuts) for c in search.cuts[number]]
        found = figures.save_cuts(cut, out_dir, root or figures.PROJECT_ROOT)
        found += figures.crop_found_figures(path, scanned, out_dir=out_dir, root=root, name=search.name)
    except (figures.FigureError, OSError) as exc:
        document.warnings.append(diagnose(Code.FIGURES_NOT_CROPPED, why=exc))
        return
    by_page: dict[int, list] = {}
    for figure in sorted(found, key=lambda f: f.page):  # per page: the text layer's figures, then the scan's
        by_page.setdefault(figure.page, []).append(figure)
    for page in document.pages:
        page.figures = by_page.get(page.number, [])


# --------------------------------------------------------------------------- entry point


@per_file  # the collector held back while the file is read, one collection after (`infra.collector`)
def extract_document(pdf_path: Path, sha256: str, options: ExtractOptions) -> ExtractedDocument:
    path = Path(pdf_path)
    document = _open(path, options)
    pages: list[Page] = []
    unusable: dict[str, list[int]] = {}  # why a text layer was not used -> the pages
    need_ocr: list[int] = []
    patches: list[text_patches.PagePatch] = []  # text pages with drawn text or unmapped glyphs, read in place
    figure_search = _FigureSearch(path, sha256, options)
    try:
        for index in range(len(document)):
            try:
                with timed("text:pdfium"):
                    page = document[index]
            except pdfium.PdfiumError as exc:  # a page tree that loops, a page object that is none
                raise ExtractError(path, f"page {index + 1} cannot be loaded: {exc}") from None
            try:
                width, height = page.get_size()
                too_large = bombs.page_too_large(width, height)
                if too_large is not None:
                    raise ExtractError(path, f"page {index + 1} {too_large}")
                with timed("text:pdfium"):
                    textpage = page.get_textpage()
                try:
                    with timed("text:glyphs"):
                        glyphs = page_glyphs(page, textpage, options.detect_highlights)
                    with timed("layout"):
                        lines = _text_lines(glyphs, width, height, options.layout)
                finally:
                    textpage.close()
                with timed("text:verdict"):
                    usable, why = _layer_verdict(lines, page)
                # Before the drawn-text check, which makes the page's text objects invisible: the crops
                # are cut from the page as it prints.
                figure_search.search(page, index + 1)
                if usable:
                    with timed("ink"):
                        patch = text_patches.find_patch(page, glyphs, index + 1)
                    if patch is not None:
                        patches.append(patch)
            except pdfium.PdfiumError as exc:
                raise ExtractError(path, f"page {index + 1} cannot be read: {exc}") from None
            finally:
                page.close()
            current = Page(number=index + 1, width=round(width, 2), height=round(height, 2), method=PageMethod.TEXT, lines=lines)
            if not usable:
                current.method = PageMethod.EMPTY
                current.lines = []
                need_ocr.append(index + 1)
                unusable.setdefault(why, []).append(index + 1)
            elif not lines:
                current.method = PageMethod.EMPTY  # a blank page
            pages.append(current)
        # OCR's seconds are counted only where it had pages to read, so a run without scans reports none
        with timed("ocr") if need_ocr else nullcontext():
            _run_ocr(path, sha256, pages, need_ocr, options)
        # Drawn text on text pages (and their layout), read while the file is still open.
        with timed("ocr:in-place") if patches else nullcontext():
            patched = _read_in_place(path, sha256, pages, patches, options, document)
    finally:
        document.close()
        pagechars.file_read()  # one file of a caller's plan read (`pagechars.plan_files`)
    warnings = [diagnose(Code.OCR_PAGES, pages=_pages_named(numbers), why=why) for why, numbers in unusable.items()]
    warnings += patched
    warnings += [
        diagnose(Code.OCR_DOUBTFUL, page=page.number, confidence=page.ocr_confidence, threshold=OCR_DOUBTFUL_BELOW)
        for page in pages
        if page.method is PageMethod.OCR and page.ocr_confidence is not None and page.ocr_confidence < OCR_DOUBTFUL_BELOW
    ]
    warnings += [_scanned_figures_warning(page) for page in pages if page.scanned_figures]
    warnings += [note.on_page(page.number) for page in pages for note in as_diagnostics(page.ocr_notes, Code.EXTRACT_NOTE)]
    with timed("layout:clean"):
        warnings += clean_pages(pages, options)
    result = ExtractedDocument(
        sha256=sha256, path=str(path), page_count=len(pages), pages=pages, stage_version=STAGE_VERSION, warnings=warnings
    )
    with timed("figures:crops"):  # the crops cut while the pages were loaded written, the scans' cropped
        _attach_figures(path, result, figure_search, options)
    return result
