"""One page image, or many pages of a PDF, through Tesseract and the page's passes (`pagepasses`), into
`Page`s of laid-out `Line`s (the same layout the text path uses).
"""
from __future__ import annotations

import sys
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from pipeline.diagnostics import Code, from_records
from pipeline.extract.document import Page, PageMethod, ScannedFigure
from pipeline.extract.layout import Glyph, assemble
from pipeline.extract.ocr.cache import ReadingCache, reading_key
from pipeline.extract.ocr.cellpasses import cell_facts
from pipeline.extract.ocr.certainty import digit_count_misfits, lowest_confidence, small_digits, split_words, unsure_words
from pipeline.extract.ocr.engine import OcrError, OcrUnavailable, render_page, require_languages
from pipeline.extract.ocr.labels import LABEL_TOKEN, normalize_ocr_line
from pipeline.extract.ocr.certainty import spelled_for
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.looseink import unaccounted
from pipeline.extract.ocr.pagepasses import enabled_passes, read_page
from pipeline.extract.ocr.reading import PageReading, ReadWord
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.typography import joined_words

__all__ = ["lay_out_page", "ocr_image", "ocr_pages", "read_page"]


def ocr_image(
    image: Image.Image,
    settings: OcrSettings,
    *,
    page_number: int,
    width_pt: float,
    height_pt: float,
    omp_thread_limit: int | None = 1,
) -> Page:
    """OCR one rendered page image (RGB or grey) whose size in points is `width_pt` × `height_pt`.
    The image was rendered at `settings.dpi`.

    Tesseract's words become positioned glyphs for pipeline.extract.layout, the same assembly the text layer goes
    through, so rows, option grids and two-column bands come out in the same order on both paths.
    """
    reading = read_page(image, settings, page_number=page_number, omp_thread_limit=omp_thread_limit)
    return lay_out_page(reading, settings, page_number=page_number, width_pt=width_pt, height_pt=height_pt)


def lay_out_page(reading: PageReading, settings: OcrSettings, *, page_number: int, width_pt: float, height_pt: float) -> Page:
    """A page's reading assembled into lines by `settings.layout` (cheap: redone on every extraction)."""
    figures = [_figure_in_points(f, width_pt / reading.image_width, height_pt / reading.image_height) for f in reading.figures]
    if not reading.words:
        return Page(number=page_number, width=width_pt, height=height_pt, method=PageMethod.EMPTY, scanned_figures=figures)
    option_labels = settings.option_labels
    if reading.rotation in (90, 270):  # read turned on its side: the upright page is the other way round
        width_pt, height_pt = height_pt, width_pt
    sx = width_pt / reading.image_width
    sy = height_pt / reading.image_height
    heights = line_bands(reading.words)
    glyphs = [
        Glyph(w.text, w.left * sx, top * sy, w.right * sx, bottom * sy, size=w.size * sy, highlighted=w.highlighted, bold=w.bold,
              run=w.line, conf=w.conf, second=w.second)
        for w in reading.words
        for top, bottom in (laid_out_rows(w, heights),)
    ]
    # Words whose mark's ink was unclear (`commas`), by text and place: laid out, they are unsure whatever else says.
    unclear_marks = {(g.text, g.x0, g.top) for g, w in zip(glyphs, reading.words) if w.unsure_mark}
    # Ink no word covers (`looseink`), in points like the glyphs: judged against each line it stands in.
    loose = [(left * sx, top * sy, right * sx, bottom * sy) for left, top, right, bottom, _ in reading.loose_ink] \
        if settings.certainty.enabled and settings.certainty.loose_ink else []
    # Where a glyph is several pieces of ink (square cells: Hangul), ink closer to a word than a word space is its own.
    facts = cell_facts(settings.languages) if loose else None
    own_within = facts.word_space if facts is not None else 0.0
    # Numbers whose box does not fit their read digit count, measured against the page's other numbers (`digit_count`).
    misfits = {(g.text, g.x0, g.top) for g, misfit in zip(glyphs, digit_count_misfits(
        [(g.text, g.x1 - g.x0, g.bottom - g.top) for g in glyphs], settings.certainty.digit_count)) if misfit} \
        if settings.certainty.enabled else set()
    lexicon = load_lexicon(settings.languages) if settings.certainty.enabled else None
    # A language of square cells (Korean): its spelling dictionary knows every word, and asking it never ends.
    cells = cell_facts(settings.languages) if lexicon is not None else None
    spelled = spelled_for(tuple(settings.languages)) if lexicon is not None else None
    page_lines = []
    for segment in assemble(glyphs, width_pt, settings.layout):
        # Each glyph is a whole word: join with single spaces rather than re-deriving spaces from gaps.
        text = joined_words(segment.glyphs)
        if option_labels:
            text = normalize_ocr_line(text, option_labels)
        # The key marking covers the answer, not always its label ("A." on white, "24" on yellow).
        body = segment.glyphs[1:] if len(segment.glyphs) > 1 and LABEL_TOKEN.match(segment.glyphs[0].text) else segment.glyphs
        letters = sum(len(g.text) for g in body)
        marked = sum(len(g.text) for g in body if g.highlighted)
        # Highlight weighted by characters like the text path.
        line = segment.to_line(text, highlighted=marked * 2 > letters, font_size=round(segment.size, 1))
        line.ocr_confidence = lowest_confidence([g.conf for g in segment.glyphs])
        line.unsure_words = unsure_words([(g.text, g.conf, g.second) for g in segment.glyphs], lexicon, settings.certainty,
                                         spelled)
        if settings.certainty.enabled:
            small = small_digits([(g.text, g.bottom - g.top) for g in segment.glyphs], settings.certainty.small_digits)
            line.unsure_words += [g.text for g, is_small in zip(segment.glyphs, small) if is_small and g.text not in line.unsure_words]
            line.unsure_words += [g.text for g in segment.glyphs if (g.text, g.x0, g.top) in misfits and g.text not in line.unsure_words]
            split = split_words([(g.text, g.x0, g.x1, g.size, g.conf) for g in segment.glyphs], settings.certainty.split_gap,
                                lexicon, spelled if cells is None else None)
            line.unsure_words += [g.text for g, is_split in zip(segment.glyphs, split) if is_split and g.text not in line.unsure_words]
            line.unclear_marks = [g.text for g in segment.glyphs if (g.text, g.x0, g.top) in unclear_marks and g.text not in line.unsure_words]
            line.unsure_words += line.unclear_marks
            beside = unaccounted([(g.x0, g.top, g.x1, g.bottom) for g in segment.glyphs],
                                 [any(ch.isalnum() for ch in g.text) for g in segment.glyphs], loose, own_within=own_within)
            line.unaccounted_ink = [segment.glyphs[i].text for i in sorted(beside)]
            line.unsure_words += [w for w in line.unaccounted_ink if w not in line.unsure_words]
        page_lines.append(line)
    return Page(
        number=page_number,
        width=width_pt,
        height=height_pt,
        method=PageMethod.OCR,
        lines=page_lines,
        ocr_confidence=reading.confidence,
        scanned_figures=figures,
        ocr_notes=from_records(reading.notes, Code.EXTRACT_NOTE),  # typed again when read from the cache
    )


# A word of marks alone (no letter or digit) whose ink is at most this share of its line's word height is laid out at
# its line's height, as a text layer lays out a glyph by its font's box. By its own flat box a blank to fill in (`_`)
# or a lone low mark has its middle on or under the line's baseline, where its line's words end, and opened a row
# of its own that parse then dropped: INAP 2024 printed `… 10, 3, _`, Tesseract read the `_`, the page said `10, 3,`.
FLAT_MARK_SHARE = 0.5
# ... where its middle stands inside its line's band or under it by at most this share of the band's height.
UNDER_BAND = 0.5


def line_bands(words: tuple[ReadWord, ...]) -> dict[tuple[int, int, int], tuple[float, float]]:
    """The band (median top, median bottom) of each Tesseract line's words that hold a letter or a digit."""
    members: dict[tuple[int, int, int], list[ReadWord]] = {}
    for word in words:
        if word.line is not None and any(ch.isalnum() for ch in word.text):
            members.setdefault(word.line, []).append(word)
    return {line: (_median([w.top for w in ws]), _median([w.bottom for w in ws])) for line, ws in members.items()}


def laid_out_rows(word: ReadWord, bands: dict[tuple[int, int, int], tuple[float, float]]) -> tuple[float, float]:
    """The rows `word` is laid out by: its line's band where it is a flat word of marks alone standing in or just under
    that band (FLAT_MARK_SHARE, UNDER_BAND), else its own box."""
    band = bands.get(word.line) if word.line is not None else None
    if band is None or any(ch.isalnum() for ch in word.text):
        return word.top, word.bottom
    top, bottom = band
    height = bottom - top
    middle = (word.top + word.bottom) / 2
    if height <= 0 or word.bottom - word.top > FLAT_MARK_SHARE * height or not top <= middle <= bottom + UNDER_BAND * height:
        return word.top, word.bottom
    return min(top, word.top), max(bottom, word.bottom)


def _median(values: list[int]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _figure_in_points(figure: ScannedFigure, sx: float, sy: float) -> ScannedFigure:
    left, top, right, bottom = figure.bbox
    return ScannedFigure((round(left * sx, 2), round(top * sy, 2), round(right * sx, 2), round(bottom * sy, 2)), figure.words)


def ocr_pages(
    pdf_path: Path,
    page_numbers: list[int],
    settings: OcrSettings,
    *,
    workers: int = 2,
    omp_thread_limit: int | None = 1,
    progress: bool | None = None,
    cache_dir: Path | str | None = None,
    sha256: str | None = None,
) -> dict[int, Page]:
    """OCR the given 1-based pages of `pdf_path`; returns {page number: Page}.

    Rendering stays on this thread (pdfium is not thread-safe); Tesseract runs in `workers` child
    processes at a time, each limited to one OpenMP thread (`omp_thread_limit=None` leaves Tesseract's
    default threading, for benchmarks only). At most 2 × workers rendered pages wait in memory.
    `settings` (languages, dpi, layout, option labels, ellipsis) come from the source spec.

    With `cache_dir` and the file's `sha256`, each page's reading is cached there
    (`pipeline.extract.ocr.cache`): a page read before under the same languages, dpi, labels and
    Tesseract is only laid out again, never rendered or read, whatever `settings.layout` says now.
    """
    if (cache_dir is None) != (sha256 is None):
        raise ValueError("ocr_pages: cache_dir and sha256 go together (the cache is keyed by the file's SHA-256)")
    cache = ReadingCache(cache_dir) if cache_dir is not None else None
    pdf_path = Path(pdf_path)
    enabled_passes(settings)  # a pass name no pass has fails here, before any page is rendered
    require_languages(settings.languages)
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if not page_numbers:
        return {}
    try:
        document = pdfium.PdfDocument(str(pdf_path))
    except Exception as exc:
        raise OcrError(f"{pdf_path}: cannot open as PDF: {exc}") from exc
    results: dict[int, Page] = {}
    try:
        count = len(document)
        bad = [n for n in page_numbers if not 1 <= n <= count]
        if bad:
            raise OcrError(f"{pdf_path}: page(s) {bad} out of range 1–{count}")
        show = sys.stderr.isatty() if progress is None else progress
        from tqdm import tqdm  # here, not at the top: a process that reads only text layers never loads it

        pending: deque[tuple[int, float, float, Future[PageReading]]] = deque()
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ocr") as pool, tqdm(
            total=len(page_numbers), desc=f"OCR {pdf_path.name}", unit="page", disable=not show, file=sys.stderr
        ) as bar:

            def collect_one() -> None:
                number, width_pt, height_pt, future = pending.popleft()
                try:
                    reading = future.result()
                except (OcrError, OcrUnavailable) as exc:
                    raise type(exc)(f"{pdf_path} page {number}: {exc}") from exc
                results[number] = lay_out_page(reading, settings, page_number=number, width_pt=width_pt, height_pt=height_pt)
                bar.update(1)

            def read_and_keep(image: Image.Image, number: int, key: str | None) -> PageReading:
                reading = read_page(image, settings, page_number=number, omp_thread_limit=omp_thread_limit)
                if cache is not None and key is not None:
                    cache.put(key, reading)
                return reading

            for number in page_numbers:
                key = reading_key(sha256, number, settings) if cache is not None else None
                cached = cache.get(key) if cache is not None and key is not None else None
                if cached is not None:
                    width_pt, height_pt = _page_size(document, number - 1)
                    results[number] = lay_out_page(cached, settings, page_number=number, width_pt=width_pt, height_pt=height_pt)
                    bar.update(1)
                    continue
                image, width_pt, height_pt = render_page(document, number - 1, settings.dpi)
                pending.append((number, width_pt, height_pt, pool.submit(read_and_keep, image, number, key)))
                if len(pending) >= 2 * workers:
                    collect_one()
            while pending:
                collect_one()
    finally:
        document.close()
    return results


def _page_size(document: pdfium.PdfDocument, index: int) -> tuple[float, float]:
    page = document[index]
    try:
        return page.get_size()
    finally:
        page.close()
