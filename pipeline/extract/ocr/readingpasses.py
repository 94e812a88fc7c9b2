"""The page passes up to and through the first reading: the scan turned straight and despeckled, prepared for Tesseract
and sharpened, read whole (again as one block where nothing legible came back), measured, and narrow type or unsure
prose read again. Declared like every other page pass (`passes.page_pass`) and placed in the one ordered registry by
`pagepasses.PAGE_PASSES`."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.borders import DARK_BELOW, EDGE_BAND_INCHES, has_border, without_border
from pipeline.extract.ocr.condensed import CONDENSED_BELOW, MAX_STRETCH, NORMAL_CHAR_WIDTH, char_width, read_condensed, wide_readings
from pipeline.extract.ocr.deskew import deskewed
from pipeline.extract.ocr.engine import (
    PAGE_SEGMENTATION_MODE, SPARSE_TEXT_PSM, parse_tsv, prepared_before_whitening, run_tesseract, whitened,
)
from pipeline.extract.ocr.noise import is_legible
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass, says
from pipeline.extract.ocr.segment import REREAD_PSM, SEGMENTATION_VERSION, reread_prose
from pipeline.extract.ocr.specks import MIN_SPECKS_PER_SQUARE_INCH, NEAR_LETTER, NEAR_ROW, specks_of, without_specks
from pipeline.extract.ocr.softness import measure_softness, rule_version, sharpened, sharpening
from pipeline.extract.ocr.words import INK_BELOW


def _deskew_asked(work: PageWork) -> bool:
    """the settings ask for it (`OcrSettings.deskew`, on by default)"""
    return work.settings.deskew


@says(f"the page's confident words average under {CONDENSED_BELOW} font sizes per letter (narrow type)")
def _condensed(work: PageWork) -> bool:
    return work.stretch > 1


def _prose_to_reread(work: PageWork) -> bool:
    """`OcrSettings.reread_prose`, the page has words of 3+ letters to measure by, and it was not read again widened"""
    return work.settings.reread_prose and bool(work.typical_height) and not work.read_widened


def _scanned(work: PageWork) -> bool:
    """the image is a scan, not parts of a text page rendered from its own drawing (`OcrSettings.parts_only`): a render
    has no scanner's border, dust or blur, only the page's own ink, its edges a pixel wide"""
    return not work.settings.parts_only


@says(f"a scanned page (not parts of a text page rendered) with a dark edge: its outer {EDGE_BAND_INCHES:g} in has a middle "
      f"grey under {DARK_BELOW} (a scanner's lid or glass beyond the sheet)")
def _bordered(work: PageWork) -> bool:
    return _scanned(work) and has_border(work.image, work.settings.dpi)


@page_pass("border", "1", Cost.CHEAP, when=_bordered)
def _border(work: PageWork) -> PageWork:
    """The dark border and its shadow, from the edge inward to the paper, made paper on the page every later pass reads,
    before its tilt is measured (`borders`)."""
    return replace(work, image=without_border(work.image, work.settings.dpi))


@page_pass("deskew", "3", Cost.CHEAP, when=_deskew_asked)  # 3: the corners the rotation uncovers filled with the paper's grey, not white, on grey paper (`deskew.paper_grey`)
def _deskew(work: PageWork) -> PageWork:
    """A tilted scan turned straight, its tilt found from its own text (`deskew`)."""
    return replace(work, image=deskewed(work.image)[0])


@says(f"a scanned page (not parts of a text page rendered) with at least {MIN_SPECKS_PER_SQUARE_INCH:g} specks per square "
      f"inch: small dots with no writing within {NEAR_LETTER:g} of its letter height up or down and {NEAR_ROW:g} along the row, "
      "and in no row of like dots")
def _speckled(work: PageWork) -> bool:
    return _scanned(work) and specks_of(work.image, work.settings.dpi).speckled(work.settings.dpi)


@page_pass("despeckle", "2", Cost.CHEAP, when=_speckled)  # 2: a tiny dot on a pale stroke (a light ring's darkest spots) is no speck (`specks.STROKE_INK_BELOW`)
def _despeckle(work: PageWork) -> PageWork:
    """The specks turned to paper on the page every later pass reads, prepared or not; i-dots, accents, dots below,
    periods and leaders, which lie by writing or in rows of their like, stay (`specks`)."""
    specks = specks_of(work.image, work.settings.dpi)
    return replace(work, image=without_specks(work.image, specks))


# 5: a rule drifting by a row (turned straight) erased whole; 6: a banner's ornaments beside its panel made paper;
# 10: a panel's fill must be a background (`panels.DEEP_FILL_SHARE`), no bold heading's strokes (7-9 were branches not merged);
# 11: a panel's edge test looks beyond the edge's own blurred row (`panels._steps_to_paper`)
@page_pass("prepare", "11", Cost.CHEAP, required=True)
def _prepare(work: PageWork) -> PageWork:
    """The grey page Tesseract reads: paper evened, fills and tints to white, panels inverted, rules erased (`engine`)."""
    # `prepare_for_tesseract`'s two steps, the page before whitening kept (read-only) for the passes that read it
    # (`accent-lines`), which would otherwise prepare the same image again.
    unwhitened = prepared_before_whitening(work.image, work.settings.dpi)
    unwhitened.flags.writeable = False
    grey = whitened(unwhitened)
    rgb = np.asarray(work.image) if work.image.mode == "RGB" else None
    return replace(work, grey=grey, rgb=rgb, ink=np.asarray(grey) < INK_BELOW, unwhitened=(work.image, unwhitened))


@page_pass("sharpen", f"3+{rule_version()}", Cost.CHEAP, when=_scanned)
def _sharpen(work: PageWork) -> PageWork:
    """A soft scan (its strokes' edges wide against the strokes, measured on the page as scanned) sharpened for the
    prose passes by an unsharp mask scaled by that softness; cells, grids and keys keep reading it unsharpened (`softness`)."""
    plan = sharpening(measure_softness(work.image), work.settings.dpi)
    return replace(work, sharp=sharpened(work.prepared(), plan)) if plan is not None else work


@page_pass("recognise", "1", Cost.WHOLE_PAGE, required=True)
def _recognise(work: PageWork) -> PageWork:
    """Tesseract reads the whole page (`--psm 3`; parts of a text page, everything else white, as sparse text: `--psm 11`)."""
    settings = work.settings
    # psm 3 drops whole columns of small isolated blocks (half the cells of a drawn key); psm 11 reads them.
    psm = SPARSE_TEXT_PSM if settings.parts_only else PAGE_SEGMENTATION_MODE
    parsed = parse_tsv(run_tesseract(work.for_prose(), settings.languages, settings.dpi, omp_thread_limit=work.omp_thread_limit, psm=psm))
    return replace(work, parsed=parsed, words=parsed)


def _nothing_legible(work: PageWork) -> bool:
    """the whole page was read, into words of which none is legible"""
    return not work.settings.parts_only and bool(work.parsed) and not any(is_legible(w) for w in work.parsed)


@page_pass("page-as-block", "1", Cost.WHOLE_PAGE, when=_nothing_legible)
def _page_as_block(work: PageWork) -> PageWork:
    """The page read again as one block of text (`--psm 6`), that reading kept where it holds a legible word: psm 3's
    layout analysis read a 300 dpi Korean key page of eleven short lines as 22 junk words ("가", "0", "}"), all
    of it then dropped as an empty page, where psm 6 reads every line. A blank page (no word) is not read again."""
    settings = work.settings
    parsed = parse_tsv(run_tesseract(work.for_prose(), settings.languages, settings.dpi, omp_thread_limit=work.omp_thread_limit,
                                     psm=REREAD_PSM))
    return replace(work, parsed=parsed, words=parsed) if any(is_legible(w) for w in parsed) else work


@page_pass("measure", "1", Cost.CHEAP, required=True)
def _measure(work: PageWork) -> PageWork:
    """The page's text height (median height of words of 3+ letters) and letter width, which later passes scale by."""
    heights = sorted(w.bottom - w.top for w in work.parsed if sum(ch.isalpha() for ch in w.text) >= 3)
    width = char_width(work.parsed)
    stretch = min(MAX_STRETCH, NORMAL_CHAR_WIDTH / width) if width and width < CONDENSED_BELOW else 1.0
    return replace(work, typical_height=heights[len(heights) // 2] if heights else 0.0, stretch=stretch)


@page_pass("condensed", "1", Cost.WHOLE_PAGE, when=_condensed)
def _read_condensed(work: PageWork) -> PageWork:
    """Narrow type read again unsmoothed and widened; the wide reading replaces the words it covers exactly (`condensed`)."""
    settings = work.settings
    wide = read_condensed(work.image, settings.dpi, work.stretch, settings.languages, work.omp_thread_limit, work.folder)
    parsed = wide_readings(work.parsed, wide)
    return replace(work, parsed=parsed, words=parsed, read_widened=True)


@page_pass("reread-prose", f"1+{SEGMENTATION_VERSION}", Cost.REGIONS, when=_prose_to_reread)
def _reread_prose(work: PageWork) -> PageWork:
    """The page cut into regions by its white space; unsure prose regions read again as text blocks (`--psm 6`, `segment`)."""
    settings = work.settings
    if not any(0 <= word.conf < settings.reread_below for word in work.parsed):
        # A region is read again only where its words' mean confidence (of those given one) is under
        # `reread_below`: with no such word anywhere no region is, and the page's regions need not be found.
        return replace(work, words=work.parsed)
    parsed, _ = reread_prose(
        work.for_prose(), work.image.convert("L"), work.parsed, work.typical_height, confident_from=settings.reread_below,
        languages=settings.languages, dpi=settings.dpi, omp_thread_limit=work.omp_thread_limit,
    )
    return replace(work, parsed=parsed, words=parsed)
