"""The registry of a page's OCR passes, in the order a page goes through them, and `read_page`, which runs them.

Every pass is declared here with its name, version, cost and condition (`passes.page_pass`); what it
does lives in the module it calls (`noise`, `keycells`, `spelling`, …). `PAGE_PASSES` is the one
ordered list: the docs' table of passes, `examcorpus ocr passes` and the OCR cache key are all read from it.
"""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.document import ScannedFigure
from pipeline.extract.ocr.certainty import DEFAULT_POLICY, unsure_reason
from pipeline.extract.ocr.cellpasses import _cell_spaces, _dropped_glyphs
from pipeline.extract.ocr.commas import commas_read_as_periods
from pipeline.extract.ocr.condensed import CONDENSED_BELOW, MAX_STRETCH, NORMAL_CHAR_WIDTH, char_width, read_condensed, wide_readings
from pipeline.extract.ocr.deskew import deskewed
from pipeline.extract.ocr.engine import PAGE_SEGMENTATION_MODE, SPARSE_TEXT_PSM, parse_tsv, prepare_for_tesseract, run_tesseract
from pipeline.extract.ocr.droppedink import read_dropped_ink
from pipeline.extract.ocr.gridcells import read_grid_cells
from pipeline.extract.ocr.keycells import TABLE_PASS_MIN_ISOLATED, merge_table_pass, read_key_cells, read_table_areas, table_areas
from pipeline.extract.ocr.listcells import read_list_cells
from pipeline.extract.ocr.labelpasses import (
    _glued_labels, _label_case, _label_discs, _label_marks, _label_rings, _ring_neighbours, has_labels,
)
from pipeline.extract.ocr.labels import restore_question_numbers, roman_numerals
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.noise import is_legible, is_noise, read_orphans, without_icons
from pipeline.extract.ocr.orientation import ROTATION_CHECK_BELOW, ROTATION_MIN_WORDS, detect_rotation, known_words, may_lie_turned
from pipeline.extract.ocr.passes import Cost, PagePass, PageWork, check_disabled, enabled, page_pass
from pipeline.extract.ocr.reading import PageReading, ReadWord
from pipeline.extract.ocr.scanfigures import CONFIDENT_WORD, figure_regions
from pipeline.extract.ocr.secondread import read_again, second_reader_inputs, second_reader_version
from pipeline.extract.ocr.segment import REREAD_PSM, SEGMENTATION_VERSION, reread_prose
from pipeline.extract.ocr.tablecells import held_apart, read_table_cells
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.specks import MIN_SPECKS_PER_SQUARE_INCH, NEAR_LETTER, NEAR_ROW, specks_of, without_specks
from pipeline.extract.ocr.softness import measure_softness, rule_version, sharpened, sharpening
from pipeline.extract.ocr.spelling import (
    accents_read_twice,
    as_ellipsis,
    capital_accents,
    capitals_read_as_digits,
    dashes_by_width,
    join_overlapping_pieces,
    join_split_words,
    small_same_shape_capitals,
    split_glued_words,
    stray_inverted_marks,
)
from pipeline.extract.ocr.overreach import clip_overreaching
from pipeline.extract.ocr.typography import HIGHLIGHT_MIN_SHARE, bold_words, highlight_share
from pipeline.extract.ocr.widegaps import join_wide_glyph_pieces, wide_glyph_height
from pipeline.extract.ocr.words import INK_BELOW, Word, isolated_short_words, line_sizes, mean_confidence

# ---------------------------------------------------------------- conditions (their docstrings are what the listing shows)


def _says(text: str) -> Callable[[Callable[[PageWork], bool]], Callable[[PageWork], bool]]:
    """A condition's docstring built from the constants it tests, so the listing cannot drift from them."""

    def described(condition: Callable[[PageWork], bool]) -> Callable[[PageWork], bool]:
        condition.__doc__ = text
        return condition

    return described


def _deskew_asked(work: PageWork) -> bool:
    """the settings ask for it (`OcrSettings.deskew`, on by default)"""
    return work.settings.deskew


@_says(f"at least {ROTATION_MIN_WORDS} words of 3+ letters read with a mean confidence under {ROTATION_CHECK_BELOW:.0f}, "
       "on a page that is not itself the page read turned")
def _reads_as_turned(work: PageWork) -> bool:
    return work.turn_upright and may_lie_turned(work.parsed)


@_says(f"the page's confident words average under {CONDENSED_BELOW} font sizes per letter (narrow type)")
def _condensed(work: PageWork) -> bool:
    return work.stretch > 1


def _prose_to_reread(work: PageWork) -> bool:
    """`OcrSettings.reread_prose`, the page has words of 3+ letters to measure by, and it was not read again widened"""
    return work.settings.reread_prose and bool(work.typical_height) and not work.read_widened


@_says(f"the page holds at least {TABLE_PASS_MIN_ISOLATED} short words standing alone (a key table's cells)")
def _table_page(work: PageWork) -> bool:
    return len(work.lone_cells) >= TABLE_PASS_MIN_ISOLATED


def _key_table_with_labels(work: PageWork) -> bool:
    """a key table's cells (as above) and the spec's option labels"""
    return _table_page(work) and has_labels(work)


def _has_lexicon(work: PageWork) -> bool:
    """Tesseract's word lists for the page's languages are installed (`lexicon`)"""
    return work.lexicon is not None


def _ellipsis_asked(work: PageWork) -> bool:
    """the spec says the publisher sets an ellipsis as one character (`ocr.ellipsis`)"""
    return work.settings.ellipsis


def _upright_page(work: PageWork) -> bool:
    """the page lies as scanned (a page read turned keeps its words), does not read as if it lay turned, and is a whole page"""
    return work.turn_upright and not may_lie_turned(work.parsed) and not work.settings.parts_only


# ---------------------------------------------------------------- the first reading


@page_pass("deskew", "2", Cost.CHEAP, when=_deskew_asked)
def _deskew(work: PageWork) -> PageWork:
    """A tilted scan turned straight, its tilt found from its own text (`deskew`)."""
    return replace(work, image=deskewed(work.image)[0])


@_says(f"the page as scanned has at least {MIN_SPECKS_PER_SQUARE_INCH:g} specks per square inch: small dots with no writing within "
       f"{NEAR_LETTER:g} of its letter height up or down and {NEAR_ROW:g} along the row, and in no row of like dots")
def _speckled(work: PageWork) -> bool:
    return specks_of(work.image, work.settings.dpi).speckled(work.settings.dpi)


@page_pass("despeckle", "1", Cost.CHEAP, when=_speckled)
def _despeckle(work: PageWork) -> PageWork:
    """The specks turned to paper on the page every later pass reads, prepared or not; i-dots, accents, dots below,
    periods and leaders, which lie by writing or in rows of their like, stay (`specks`)."""
    specks = specks_of(work.image, work.settings.dpi)
    return replace(work, image=without_specks(work.image, specks))


@page_pass("prepare", "6", Cost.CHEAP, required=True)  # 5: a rule drifting by a row (turned straight) erased whole; 6: a banner's ornaments beside its panel made paper
def _prepare(work: PageWork) -> PageWork:
    """The grey page Tesseract reads: paper evened, fills and tints to white, panels inverted, rules erased (`engine`)."""
    grey = prepare_for_tesseract(work.image, work.settings.dpi)
    rgb = np.asarray(work.image) if work.image.mode == "RGB" else None
    return replace(work, grey=grey, rgb=rgb, ink=np.asarray(grey) < INK_BELOW)


@page_pass("sharpen", f"3+{rule_version()}", Cost.CHEAP)
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


@page_pass("orientation", "2", Cost.WHOLE_PAGE, when=_reads_as_turned)
def _orientation(work: PageWork) -> PageWork:
    """Tesseract's orientation detection says how the page lies; turned upright, it is read again, and the turned
    reading is kept when it is the more confident and reads no fewer known words (`orientation`)."""
    path = work.folder / f"page-{work.page_number}.pgm"
    work.prepared().save(path, format="PPM")
    rotation = detect_rotation(path, work.omp_thread_limit)
    if not rotation:
        return work
    turned = read_page(work.as_scanned.rotate(-rotation, expand=True), work.settings, page_number=work.page_number,
                       omp_thread_limit=work.omp_thread_limit, turn_upright=False)
    more_known = known_words([w.text for w in turned.words], work.lexicon) >= known_words([w.text for w in work.parsed], work.lexicon)
    if (turned.confidence or 0.0) > (mean_confidence(work.parsed) or 0.0) and more_known:
        return replace(work, outcome=replace(turned, rotation=rotation))
    return work


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
    parsed, _ = reread_prose(
        work.for_prose(), work.image.convert("L"), work.parsed, work.typical_height, confident_from=settings.reread_below,
        languages=settings.languages, dpi=settings.dpi, omp_thread_limit=work.omp_thread_limit,
    )
    return replace(work, parsed=parsed, words=parsed)


# ---------------------------------------------------------------- words lost, junk dropped, tables


@page_pass("noise", "4", Cost.CHEAP)
def _drop_noise(work: PageWork) -> PageWork:
    """Specks, rule fragments and pictograms (a one- or two-character unsure word taller than its line) dropped (`noise`)."""
    return replace(work, words=without_icons([w for w in work.words if not is_noise(w, work.typical_height)], work.ink))


@page_pass("orphans", "6", Cost.REGIONS)  # 3: re-readings of one unsure word count together; 4: a number read unsurely in the strip read alone; 5: a word's own glyph left outside its box not read again as a word, its box grown over it; 6: solid patches (dark squares) in a strip of their own
def _read_orphans(work: PageWork) -> PageWork:
    """Ink no word covers (a question number in its box, a lone answer letter) and unsure short words read again from a strip (`noise`)."""
    settings = work.settings
    words = read_orphans(work.prepared(), work.words, work.parsed, work.typical_height, settings.languages, settings.dpi,
                         work.omp_thread_limit, work.folder, work.stretch)
    return replace(work, words=words)


def _whole_page_with_text(work: PageWork) -> bool:
    """a whole page (not parts of a text page, whose drawn regions were chosen as text and read already) with words of
    3+ letters to measure its text height by"""
    return bool(work.typical_height) and not work.settings.parts_only


@page_pass("dropped-ink", f"2+{second_reader_version()}", Cost.REGIONS, when=_whole_page_with_text)  # 2: a line beside a box side up to 2 line heights
def _dropped_ink(work: PageWork) -> PageWork:
    """Lines of text Tesseract returned no word (or only junk) for, found from the ink no word covers, read in place by
    RapidOCR (Tesseract as one text line where RapidOCR has no model for the language), the sure words kept and noted (`droppedink`)."""
    dropped = read_dropped_ink(work.prepared(), work.words, work.typical_height, work.settings.languages)
    return replace(work, words=dropped.words, notes=work.notes + ((dropped.note,) if dropped.note else ()))


@page_pass("lone-cells", "1", Cost.CHEAP, required=True)
def _find_lone_cells(work: PageWork) -> PageWork:
    """The short words standing alone (a key table's cells), which decide whether the table passes apply."""
    return replace(work, lone_cells=isolated_short_words(work.words))


@page_pass("table-block", "1", Cost.REGIONS, when=_table_page)
def _read_table_block(work: PageWork) -> PageWork:
    """A key page whole, elsewhere the areas around lone cells, read again as one block (`--psm 6`) and merged (`keycells`)."""
    settings, grey = work.settings, work.prepared()
    # A key page may have no word of three letters to measure text by: its cells do then.
    cell_height = work.typical_height or float(np.median([w.bottom - w.top for w in work.lone_cells]))
    areas = table_areas(work.words, work.lone_cells, cell_height, grey.width, grey.height)
    if not areas:
        return work
    block_pass = read_table_areas(grey, areas, cell_height, settings.languages, settings.dpi, work.omp_thread_limit)
    return replace(work, words=merge_table_pass(work.words, [w for w in block_pass if not is_noise(w, work.typical_height)]))


@page_pass("table-cells", "7", Cost.REGIONS, when=has_labels)  # 4: answer cells matched against the table's sure cells (`cellshapes`); 5: ink inside a mid-grey fill measured against the fill's own level (`shading`), a number column counted in blocks (`numbering`); 6: a reading its neighbour counts on from is never mended, nor mends (`numbering._counted_on`), and a page word anywhere in a cell read goes with it (`_band_spans`: rule to rule); 7: a label strip that reads some cells and leaves most unread read again with the space allowed (`keycells.read_label_cells`)
def _read_table_cells(work: PageWork) -> PageWork:
    """A ruled key table's cells found from its rules, each read with its alphabet: numbers as digits, answers as labels (`tablecells`)."""
    settings = work.settings
    assert settings.option_labels
    # Unprepared: preparing erases the rules that say where the cells are.
    words = read_table_cells(work.image, work.prepared(), work.words, settings.option_labels, settings.languages, settings.dpi,
                             work.omp_thread_limit, work.folder)
    return replace(work, words=words)


@page_pass("key-cells", "2", Cost.REGIONS, when=_key_table_with_labels)  # 2: a label strip that reads some cells and leaves most unread read again with the space allowed
def _read_key_cells(work: PageWork) -> PageWork:
    """In a table of numbered rows, the answer cells read together against the option labels (`keycells`)."""
    settings = work.settings
    assert settings.option_labels  # the condition says so
    read, words = held_apart(work.words)  # a table read from its rules is not read again
    words = read + read_key_cells(work.prepared(), words, settings.option_labels, settings.languages, settings.dpi,
                           work.omp_thread_limit, work.folder)
    return replace(work, words=words)


@page_pass("grid-cells", "5", Cost.REGIONS, when=has_labels)  # 2: a column's read letter before a piece read as nothing; 3: neighbours misread together renumbered; 4: a letter-sized cell read as an annulment mark is read again against the labels; 5: a rule's blurred edge is part of the rule (number boxes apart by white gutters)
def _read_grid_cells(work: PageWork) -> PageWork:
    """A grid key's answer rows under their number rows read cell by cell (`gridcells`)."""
    settings = work.settings
    assert settings.option_labels
    # Unprepared grey: preparing erases a number row's dark fill with the table rules, digits and all.
    read, words = held_apart(work.words)
    words = read + read_grid_cells(work.image.convert("L"), words, settings.option_labels, settings.languages, settings.dpi,
                            work.omp_thread_limit, work.folder)
    return replace(work, words=words)


@page_pass("list-cells", "5", Cost.REGIONS, when=has_labels)  # 2: a word may lead an entry; 3: answers matched as table-cells 4; 4: a label strip that reads some cells and leaves most unread read again with the space allowed; 5: an answer at a tab stop or past a dotted leader, the pitch fitted, blocks counted apart
def _read_list_cells(work: PageWork) -> PageWork:
    """An unruled list key's entries (`1. B`, `1 – C`, in columns) found from its white space, numbers read as digits and
    answers as labels, an answer unread kept as unread at its place (`listcells`)."""
    settings = work.settings
    assert settings.option_labels
    read, words = held_apart(work.words)
    words = read_list_cells(work.prepared(), words, read, settings.option_labels, settings.languages, settings.dpi,
                            work.omp_thread_limit, work.folder)
    return replace(work, words=read + words)


# ---------------------------------------------------------------- a second recogniser


def _second_reader_inputs(settings: OcrSettings) -> str:
    """The recogniser's packages and the languages' dictionary files, or why the pass skips (`secondread`)."""
    return second_reader_inputs(tuple(settings.languages))


# The words worth a second look: the shipped policy's, with the I/l swap judged in words of capitals too (a second
# look costs little; the flag does not rest on that swap alone, `CertaintyPolicy.swap_in_capitals`).
READING_POLICY = replace(DEFAULT_POLICY, swap_in_capitals=True)


# 2: keeps what it read per word (`agreement`); 3: reads the page as scanned, not as smoothed for Tesseract
@page_pass("second-reader", f"3+{second_reader_version()}", Cost.REGIONS, inputs=_second_reader_inputs)
def _second_reader(work: PageWork) -> PageWork:
    """Words Tesseract is unsure of (low confidence, unknown to the language's spelling dictionary) read again
    by RapidOCR in windows of their line cut from the page as scanned (not as smoothed for Tesseract), and each
    window's readings combined by agreement, confidence and the dictionary (`secondread`); a language RapidOCR
    cannot read, or a machine without it, skips it, said in the reading."""
    # The shipped policy's verdict, not the spec's: the reading must not depend on what its cache key lacks.
    def judged_unsure(word: Word) -> bool:
        return unsure_reason(word.text, word.conf, work.lexicon, READING_POLICY) is not None

    again = read_again(work.prepared(), work.words, work.settings.languages, skip=work.lone_cells, judged_unsure=judged_unsure,
                       scanned=work.image)
    return replace(work, words=again.words, second_reading=again.note)


# ---------------------------------------------------------------- words and numbers


@page_pass("box-overreach", "1", Cost.CHEAP)
def _box_overreach(work: PageWork) -> PageWork:
    """A word's box holding the box of a later word of its line cut back to its own ink before that word (`overreach`)."""
    words, count = clip_overreaching(work.words, work.ink)
    return replace(work, words=words) if count else work


@page_pass("split-words", "1", Cost.CHEAP)
def _join_split_words(work: PageWork) -> PageWork:
    """Closing punctuation read as a word of its own glued back (`84` + `.` → `84.`; `spelling`)."""
    return replace(work, words=join_split_words(work.words))


def _has_wide_glyphs(work: PageWork) -> bool:
    """the page has words of wide glyphs (Hangul, Han, kana)"""
    return wide_glyph_height(work.words) > 0


@page_pass("wide-glyph-gaps", "1", Cost.CHEAP, when=_has_wide_glyphs)
def _wide_glyph_gaps(work: PageWork) -> PageWork:
    """Pieces of one word of wide glyphs (Korean syllables read apart) joined where their glyphs' pitch leaves no word space (`widegaps`)."""
    return replace(work, words=join_wide_glyph_pieces(work.words))


@page_pass("question-numbers", "1", Cost.CHEAP)
def _question_numbers(work: PageWork) -> PageWork:
    """Question numbers at the number column: a lost dot, look-alike letters, a digit breaking the sequence (`labels`)."""
    return replace(work, words=restore_question_numbers(work.words))


@page_pass("roman-numerals", "1", Cost.CHEAP)
def _roman_numerals(work: PageWork) -> PageWork:
    """`ll`, `Il`, `l` standing alone → `II`, `II`, `I` (`labels`)."""
    return replace(work, words=roman_numerals(work.words))


@page_pass("inverted-marks", "1", Cost.CHEAP)
def _inverted_marks(work: PageWork) -> PageWork:
    """An i's dot read as `¡` with no `!` after it on the line dropped (`spelling`)."""
    return replace(work, words=stray_inverted_marks(work.words))


@page_pass("overlapping-pieces", "1", Cost.CHEAP, when=_has_lexicon)
def _overlapping_pieces(work: PageWork) -> PageWork:
    """Pieces of one word whose boxes overlap, the left one no known word, joined (`spelling`)."""
    assert work.lexicon is not None
    return replace(work, words=join_overlapping_pieces(work.words, work.lexicon))


@page_pass("lexicon", "1", Cost.CHEAP, when=_has_lexicon)
def _lexicon_repair(work: PageWork) -> PageWork:
    """An unknown word one lost ligature letter or two away from exactly one known word is mended (`lexicon`)."""
    lexicon = work.lexicon
    assert lexicon is not None
    return replace(work, words=[replace(w, text=lexicon.repair(w.text)) for w in work.words])


@page_pass("glued-words", "1", Cost.CHEAP, when=_has_lexicon)
def _glued_words(work: PageWork) -> PageWork:
    """Words glued together split where the image shows a word space and both parts are known (`spelling`)."""
    assert work.lexicon is not None and work.ink is not None
    return replace(work, words=split_glued_words(work.words, work.ink, work.lexicon))


@page_pass("capital-accents", "1", Cost.CHEAP, when=_has_lexicon)
def _capital_accents(work: PageWork) -> PageWork:
    """An acute printed above a capital, outside the word's box, put back (`Ulcera` → `Úlcera`; `spelling`)."""
    assert work.lexicon is not None and work.ink is not None
    return replace(work, words=capital_accents(work.words, work.ink, work.lexicon))


@page_pass("comma-tails", "4", Cost.CHEAP)  # 4: every context, colons, decimal marks, low quotes; unclear ink unsure
def _comma_tails(work: PageWork) -> PageWork:
    """A mark read as a period or colon whose ink hangs below the baseline read as the comma or semicolon it is, dots
    stacked as a colon or semicolon, a low quote read as a comma as `„`; a mark whose ink is unclear marks its word
    unsure (`commas`)."""
    return replace(work, words=commas_read_as_periods(work.words, work.image))


@page_pass("capitals-as-digits", "1", Cost.CHEAP, when=_has_lexicon)
def _capitals_as_digits(work: PageWork) -> PageWork:
    """A capital read as a digit mended where the mended word is known (`4le` → `Ale`; `spelling`)."""
    assert work.lexicon is not None
    return replace(work, words=capitals_read_as_digits(work.words, work.lexicon))


@page_pass("same-shape-capitals", "1", Cost.CHEAP)
def _same_shape_capitals(work: PageWork) -> PageWork:
    """A same-shape capital (`C`, `O`, `S`, …) no taller than the small letters mid-sentence is small (`spelling`)."""
    assert work.ink is not None
    return replace(work, words=small_same_shape_capitals(work.words, work.ink))


@page_pass("accents-read-twice", "1", Cost.CHEAP)
def _accents_read_twice(work: PageWork) -> PageWork:
    """An accented vowel read again bare after itself loses the bare one (`Colposcopíia`; `spelling`)."""
    return replace(work, words=accents_read_twice(work.words, work.lexicon))


# ---------------------------------------------------------------- typography and what the page holds


@page_pass("dashes", "1", Cost.CHEAP)
def _dashes(work: PageWork) -> PageWork:
    """A lone dash becomes `-`, `–` or `—` by its ink width (`spelling`)."""
    return replace(work, words=dashes_by_width(work.words))


@page_pass("ellipsis", "1", Cost.CHEAP, when=_ellipsis_asked)
def _ellipsis(work: PageWork) -> PageWork:
    """Three dots read for the publisher's `…` become it (a dotted leader stays; `spelling`)."""
    return replace(work, words=as_ellipsis(work.words))


@page_pass("legibility", "2", Cost.CHEAP, required=True)
def _legibility(work: PageWork) -> PageWork:
    """A page with no legible word and no key cell read reads as empty (parts of a text page with any word do not); otherwise its mean word
    confidence is taken, figures' junk included."""
    cells, _ = held_apart(work.words)  # a key read cell by cell ("10)", "a") is text, though no word has three letters
    if not any(is_legible(w) for w in work.words) and not cells and not (work.settings.parts_only and work.words):
        grey = work.prepared()
        return replace(work, outcome=PageReading(grey.width, grey.height))
    return replace(work, confidence=mean_confidence(work.words))


@page_pass("figures", "2", Cost.CHEAP, when=_upright_page)  # 2: a figure's own rules (a chart's axes) in its box
def _figures(work: PageWork) -> PageWork:
    """Figures found on the scan, the unsure words read inside each set aside with it (`scanfigures`)."""
    words, figures = work.words, list(work.figures)
    cells, _ = held_apart(words)
    for region in figure_regions(work.prepared(), words, work.typical_height, work.settings.dpi, work.image):
        if any(region.holds(w) for w in cells):
            continue  # a key table read cell by cell (its letters at a whitelist's low confidence), no figure
        junk = {id(w): w.text for w in words if region.holds(w) and w.conf < CONFIDENT_WORD}
        figures.append(ScannedFigure((region.left, region.top, region.right, region.bottom), tuple(junk.values())))
        words = [w for w in words if id(w) not in junk]
    return replace(work, words=words, figures=tuple(figures))


PAGE_PASSES: tuple[PagePass, ...] = (
    _deskew, _despeckle, _prepare, _sharpen, _recognise, _orientation, _page_as_block, _measure, _read_condensed, _reread_prose,
    _drop_noise, _read_orphans, _dropped_ink, _find_lone_cells, _read_table_block, _read_table_cells, _read_list_cells, _read_key_cells, _read_grid_cells, _second_reader,
    _box_overreach, _join_split_words, _wide_glyph_gaps, _question_numbers, _roman_numerals, _inverted_marks,
    _overlapping_pieces, _lexicon_repair, _glued_words, _capital_accents, _comma_tails, _capitals_as_digits,
    _same_shape_capitals, _accents_read_twice,
    _glued_labels, _label_case, _label_marks, _label_discs, _label_rings, _ring_neighbours, _cell_spaces, _dropped_glyphs,
    _dashes, _ellipsis, _legibility, _figures,
)  # fmt: skip


def pass_names() -> list[str]:
    """Every registered pass's name, in order."""
    return [p.name for p in PAGE_PASSES]


def check_pass_names(disabled: list[str]) -> list[str]:
    """`disabled` as given when each names a pass that may be disabled; else `passes.UnknownPass` (a ValueError)."""
    check_disabled(PAGE_PASSES, disabled)
    return disabled


def enabled_passes(settings: OcrSettings) -> tuple[PagePass, ...]:
    """The registry less what `settings.disabled_passes` takes out (`passes.UnknownPass` for a name no pass has)."""
    return enabled(PAGE_PASSES, settings.disabled_passes)


def pass_versions(settings: OcrSettings) -> list[tuple[str, str]]:
    """(name, version) of each pass these settings run, in order: the OCR cache key holds it. A pass whose
    output depends on installed data (the second reader's dictionaries) has it after its version."""
    versions = []
    for page_pass_ in enabled_passes(settings):
        inputs = page_pass_.depends_on(settings)
        versions.append((page_pass_.name, page_pass_.version if inputs is None else f"{page_pass_.version} [{inputs}]"))
    return versions


def read_page(
    image: Image.Image, settings: OcrSettings, *, page_number: int, omp_thread_limit: int | None = 1,
    turn_upright: bool = True,
) -> PageReading:
    """What one page image reads as after every enabled pass that applies, before assembly into lines.

    It depends on the image, the passes enabled and the settings they read (languages, dpi, option
    labels, `ellipsis`, `deskew`, `reread_prose`, `reread_below`), never on `settings.layout` (what
    `pipeline.extract.ocr.cache` keys it by). `turn_upright=False`: the image is a page already turned
    upright, not to be turned again."""
    passes = enabled_passes(settings)
    with tempfile.TemporaryDirectory(prefix="examcorpus-ocr-") as folder:
        work = PageWork(settings, page_number, omp_thread_limit, turn_upright, Path(folder), image, image,
                        lexicon=load_lexicon(settings.languages))
        for page_pass_ in passes:
            if page_pass_.applies(work):
                work = page_pass_.run(work)
            if work.outcome is not None:
                return work.outcome
    return _reading(work)


def _reading(work: PageWork) -> PageReading:
    """The page's words as a `PageReading`: each with its line's size, bold by its stems, highlighted by its fill."""
    grey = work.prepared()
    if not work.words:
        return PageReading(grey.width, grey.height, figures=work.figures)
    assert work.ink is not None
    sizes = line_sizes(work.words)
    bold = bold_words(work.words, work.ink, sizes)
    read = tuple(
        ReadWord(
            word.text, word.left, word.top, word.right, word.bottom,
            size=float(sizes[word.line]),
            highlighted=highlight_share(work.rgb, (word.left, word.top, word.right, word.bottom)) >= HIGHLIGHT_MIN_SHARE,
            bold=id(word) in bold,
            line=word.line,
            conf=round(word.conf, 1) if word.conf >= 0 else None,
            second=word.second,
            unsure_mark=word.unsure_mark,
        )
        for word in work.words
    )
    confidence = work.confidence
    return PageReading(grey.width, grey.height, read, round(confidence, 2) if confidence is not None else None,
                       figures=work.figures, notes=work.notes, second_reading=work.second_reading)
