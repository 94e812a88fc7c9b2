"""One page image, or many pages of a PDF, through Tesseract and every repair, into `Page`s of
laid-out `Line`s (the same layout the text path uses).
"""
from __future__ import annotations

import sys
import tempfile
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image
from tqdm import tqdm

from pipeline.diagnostics import Code, from_records
from pipeline.extract.document import Page, PageMethod, ScannedFigure
from pipeline.extract.layout import Glyph, assemble
from pipeline.extract.ocr.cache import PageReading, ReadingCache, ReadWord, reading_key
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.condensed import CONDENSED_BELOW, MAX_STRETCH, NORMAL_CHAR_WIDTH, char_width, read_condensed, wide_readings
from pipeline.extract.ocr.deskew import deskewed
from pipeline.extract.ocr.engine import OcrError, OcrUnavailable, parse_tsv, prepare_for_tesseract, render_page, require_languages, run_tesseract
from pipeline.extract.ocr.gridcells import read_grid_cells
from pipeline.extract.ocr.keycells import TABLE_PASS_MIN_ISOLATED, merge_table_pass, read_key_cells, read_table_areas, table_areas
from pipeline.extract.ocr.labeldiscs import read_label_discs
from pipeline.extract.ocr.labels import LABEL_TOKEN, label_case_cells, normalize_ocr_line, restore_label_marks, restore_question_numbers, roman_numerals, split_glued_labels
from pipeline.extract.ocr.orientation import detect_rotation, may_lie_turned
from pipeline.extract.ocr.noise import is_legible, is_noise, read_orphans, without_icons
from pipeline.extract.ocr.spelling import accents_read_twice, as_ellipsis, capital_accents, capitals_read_as_digits, dashes_by_width, join_overlapping_pieces, join_split_words, small_same_shape_capitals, split_glued_words, stray_inverted_marks
from pipeline.extract.ocr.scanfigures import CONFIDENT_WORD, figure_regions
from pipeline.extract.ocr.segment import reread_prose
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.typography import HIGHLIGHT_MIN_SHARE, bold_words, highlight_share, joined_words
from pipeline.extract.ocr.words import INK_BELOW, isolated_short_words, line_sizes, mean_confidence

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


def read_page(
    image: Image.Image, settings: OcrSettings, *, page_number: int, omp_thread_limit: int | None = 1,
    turn_upright: bool = True,
) -> PageReading:
    """What Tesseract reads on one page image, after every word repair, before assembly into lines.
    It depends on the image, languages, dpi, option labels, `ellipsis`, `deskew` and the segmentation
    settings (`reread_prose`, `reread_below`), never on `settings.layout`
    (what `pipeline.extract.ocr.cache` keys it by). A page that reads as if it lay turned is read
    again upright when Tesseract's orientation detection says how (`orientation`; `turn_upright`)."""
    languages, dpi, option_labels = settings.languages, settings.dpi, settings.option_labels
    notes: list[str] = []  # what the repairs inferred rather than read
    as_scanned = image
    if settings.deskew:
        image, _ = deskewed(image)
    rgb = np.asarray(image) if image.mode == "RGB" else None
    grey = prepare_for_tesseract(image, dpi)
    with tempfile.TemporaryDirectory(prefix="examcorpus-ocr-") as folder:
        parsed = parse_tsv(run_tesseract(grey, languages, dpi, omp_thread_limit=omp_thread_limit))
        if turn_upright and may_lie_turned(parsed):
            path = Path(folder) / f"page-{page_number}.pgm"
            grey.save(path, format="PPM")
            rotation = detect_rotation(path, omp_thread_limit)
            if rotation:
                turned = read_page(as_scanned.rotate(-rotation, expand=True), settings, page_number=page_number,
                                   omp_thread_limit=omp_thread_limit, turn_upright=False)
                if (turned.confidence or 0.0) > (mean_confidence(parsed) or 0.0):
                    return replace(turned, rotation=rotation)
        heights = sorted(w.bottom - w.top for w in parsed if sum(ch.isalpha() for ch in w.text) >= 3)
        typical_height = heights[len(heights) // 2] if heights else 0.0
        width = char_width(parsed)
        stretch = min(MAX_STRETCH, NORMAL_CHAR_WIDTH / width) if width and width < CONDENSED_BELOW else 1.0
        if stretch > 1:
            parsed = wide_readings(parsed, read_condensed(image, dpi, stretch, languages, omp_thread_limit, Path(folder)))
        elif settings.reread_prose and typical_height:
            # Condensed pages are already read again, widened; the others get their prose regions read as blocks.
            parsed, _ = reread_prose(
                grey, image.convert("L"), parsed, typical_height, confident_from=settings.reread_below,
                languages=languages, dpi=dpi, omp_thread_limit=omp_thread_limit,
            )
        words = without_icons([w for w in parsed if not is_noise(w, typical_height)])
        words = read_orphans(grey, words, parsed, typical_height, languages, dpi, omp_thread_limit, Path(folder), stretch)
        isolated = isolated_short_words(words)
        if len(isolated) >= TABLE_PASS_MIN_ISOLATED:
            # A key page may have no word of three letters to measure text by: its cells do then.
            cell_height = typical_height or float(np.median([w.bottom - w.top for w in isolated]))
            areas = table_areas(words, isolated, cell_height, grey.width, grey.height)
            if areas:
                block_pass = read_table_areas(grey, areas, cell_height, languages, dpi, omp_thread_limit)
                words = merge_table_pass(words, [w for w in block_pass if not is_noise(w, typical_height)])
            if option_labels:
                words = read_key_cells(grey, words, option_labels, languages, dpi, omp_thread_limit, Path(folder))
        if option_labels:
            # Unprepared grey: preparing erases a number row's dark fill with the table rules, digits and all.
            words = read_grid_cells(image.convert("L"), words, option_labels, languages, dpi, omp_thread_limit, Path(folder))
    words = stray_inverted_marks(roman_numerals(restore_question_numbers(join_split_words(words))))
    lexicon = load_lexicon(languages)
    ink = np.asarray(grey) < INK_BELOW
    if lexicon is not None:
        words = [replace(w, text=lexicon.repair(w.text)) for w in join_overlapping_pieces(words, lexicon)]
        words = capital_accents(split_glued_words(words, ink, lexicon), ink, lexicon)
        words = capitals_read_as_digits(words, lexicon)
    words = accents_read_twice(small_same_shape_capitals(words, ink), lexicon)
    if option_labels:
        words = split_glued_labels(words, option_labels)
        words = label_case_cells(words, option_labels)
        words = restore_label_marks(words, option_labels)
        # Last: a disc's label is printed without a mark, and the marks above would lend it one.
        words, disc_notes = read_label_discs(grey, words, option_labels, typical_height, languages, dpi, omp_thread_limit)
        notes += disc_notes
    words = dashes_by_width(words)
    if settings.ellipsis:
        words = as_ellipsis(words)
    if not any(is_legible(w) for w in words):
        return PageReading(grey.width, grey.height)
    figures = []
    confidence = mean_confidence(words)
    # Figures are cropped from the PDF page as it lies, so a page read turned keeps its words instead;
    # so does a page that reads as if it lay turned (its junk is no figure, and must stay to be seen).
    for region in figure_regions(grey, words, typical_height, dpi) if turn_upright and not may_lie_turned(parsed) else ():
        junk = {id(w): w.text for w in words if region.holds(w) and w.conf < CONFIDENT_WORD}
        figures.append(ScannedFigure((region.left, region.top, region.right, region.bottom), tuple(junk.values())))
        words = [w for w in words if id(w) not in junk]
    if not words:
        return PageReading(grey.width, grey.height, figures=tuple(figures))
    sizes = line_sizes(words)
    bold = bold_words(words, ink, sizes)
    read = tuple(
        ReadWord(
            word.text,
            word.left,
            word.top,
            word.right,
            word.bottom,
            size=float(sizes[word.line]),
            highlighted=highlight_share(rgb, (word.left, word.top, word.right, word.bottom)) >= HIGHLIGHT_MIN_SHARE,
            bold=id(word) in bold,
            line=word.line,
        )
        for word in words
    )
    return PageReading(grey.width, grey.height, read, round(confidence, 2) if confidence is not None else None, figures=tuple(figures),
                       notes=tuple(notes))


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
    glyphs = [
        Glyph(w.text, w.left * sx, w.top * sy, w.right * sx, w.bottom * sy, size=w.size * sy, highlighted=w.highlighted, bold=w.bold,
              run=w.line)
        for w in reading.words
    ]
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
        page_lines.append(segment.to_line(text, highlighted=marked * 2 > letters, font_size=round(segment.size, 1)))
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
