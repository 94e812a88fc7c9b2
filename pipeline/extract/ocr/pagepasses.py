"""The registry of a page's OCR passes, in the order a page goes through them, and `read_page`, which runs them.

Every pass is declared with its name, version, cost and condition (`passes.page_pass`) in the module of its theme:
`readingpasses` (the scan prepared and read whole), `junkpasses` (junk dropped, lost words read again),
`tablepasses` (answer-key tables and lists), `labelpasses` (option labels), `cellpasses` (square-cell scripts),
`wordpasses` (words and numbers mended) and `contentpasses` (what the page holds); `orientation`, which reads the
page again through this registry, is declared here. What a pass does lives in the module it calls (`noise`,
`keycells`, `spelling`, …). `PAGE_PASSES` is the one ordered list: the docs' table of passes, `examcorpus ocr passes`
and the OCR cache key are all read from it.
"""
from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

from PIL import Image

from pipeline.extract.ocr.cellpasses import _cell_spaces, _dropped_glyphs
from pipeline.extract.ocr.faintdots import _faint_dots
from pipeline.extract.ocr.stemletters import _one_letter_stems
from pipeline.extract.ocr.labelpasses import (
    _glued_labels, _label_ghosts, _label_case, _label_discs, _label_marks, _label_rings, _lone_glyphs, _ring_neighbours,
)
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.orientation import (
    OSD_MIN_CONFIDENCE, ROTATION_CHECK_BELOW, ROTATION_MIN_WORDS, SPARSE_MIN_WORDS, SPARSE_OSD_MIN_CONFIDENCE, SPARSE_NUMBER_SHARE, SPARSE_UNREAD_GLYPHS, detected_orientation, known_words, may_lie_turned, sparse_and_unread,
    reads_as_numbers, sparse_turned_reading_loses, sparse_turned_reading_wins,
)
from pipeline.extract.ocr.numbering import INFERRED_CONF
from pipeline.extract.ocr.passes import Cost, PagePass, PageWork, check_disabled, enabled, page_pass, says
from pipeline.extract.ocr.reading import PageReading, ReadWord
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.typography import HIGHLIGHT_MIN_SHARE, bold_words, highlight_share
from pipeline.extract.ocr.words import line_sizes, mean_confidence
from pipeline.extract.ocr.contentpasses import _figures, _legibility, _loose_ink
from pipeline.extract.ocr.junkpasses import _drop_noise, _dropped_ink, _read_orphans
from pipeline.extract.ocr.readingpasses import (
    _border, _deskew, _despeckle, _measure, _page_as_block, _prepare, _read_condensed, _recognise, _reread_prose, _sharpen,
)
from pipeline.extract.ocr.tablepasses import (
    _find_lone_cells, _read_grid_cells, _read_key_cells, _read_stacked_columns, _read_list_cells, _read_table_block, _read_table_cells,
)
from pipeline.extract.ocr.wordpasses import (
    _accent_lines, _accents_read_twice, _confused_letters, _blank_strokes, _box_overreach, _capital_accents, _capitals_as_digits, _comma_tails, _small_glyphs, _lookalike_units, _sign_shapes, _unread_marks, _dashes, _ellipsis, _glued_words,
    _inverted_marks, _join_split_words, _lexicon_repair, _overlapping_pieces, _question_numbers, _roman_numerals,
    _companion_words, _lone_rereads, _same_shape_capitals, _second_reader, _wide_glyph_gaps,
    _number_spaces, _seen_marks, _second_letters, _ink_accents, _stray_letters, _mark_checks,
)


@says(f"at least {ROTATION_MIN_WORDS} words of 3+ letters read with a mean confidence under {ROTATION_CHECK_BELOW:.0f}, or fewer "
       f"such words and either {SPARSE_UNREAD_GLYPHS}+ glyph-sized pieces of ink no word covers or {SPARSE_MIN_WORDS}+ words "
       f"under {SPARSE_NUMBER_SHARE:.0%} of them numbers (a table on its side), "
       "on a page that is not itself the page read turned")
def _reads_as_turned(work: PageWork) -> bool:
    return work.turn_upright and (may_lie_turned(work.parsed) or sparse_and_unread(work.parsed, work.ink, work.settings.dpi))


@page_pass("orientation", "6", Cost.WHOLE_PAGE, when=_reads_as_turned)  # 6: a sparse page's turned reading that counts fewer numbers than the page as it lay is not kept, whatever its confidence (`sparse_turned_reading_loses`); 5: the turned reading's counting numbers most of its numbers (junk of a table upside down repeats a few), and a sparse page's turned reading of numbers judged by them alone, never by confidence; 4: a guess on a low-confidence page, kept by its numbers
def _orientation(work: PageWork) -> PageWork:
    """Tesseract's orientation detection says how the page lies; turned upright, it is read again, and the turned
    reading is kept when it is the more confident and reads no fewer known words (`orientation`), or when it reads many
    times the numbers that count 1, 2, 3 … (a table, whose junk read on its side may be the more confident:
    `sparse_turned_reading_wins`); on a sparse page a turned reading that is mostly numbers is judged by them alone, never by
    its confidence (`reads_as_numbers`: an upright table read upside down reads confident digits), nor kept where it counts
    fewer numbers than the page as it lay (`sparse_turned_reading_loses`). A detection under its sure confidence is followed on a sparse page, and on a page of
    low-confidence words too, where only the numbers that count keep the turned reading (a key table on its side at
    150 dpi reads as junk words)."""
    path = work.folder / f"page-{work.page_number}.pgm"
    work.prepared().save(path, format="PPM")
    sparse = not may_lie_turned(work.parsed)  # sent by `sparse_and_unread`: the turned reading's numbers decide
    rotation, confidence = detected_orientation(path, work.omp_thread_limit)
    if not rotation or confidence < SPARSE_OSD_MIN_CONFIDENCE:
        return work
    turned = read_page(work.as_scanned.rotate(-rotation, expand=True), work.settings, page_number=work.page_number,
                       omp_thread_limit=work.omp_thread_limit, turn_upright=False)
    if sparse_turned_reading_wins([w.text for w in turned.words], work.parsed):  # a table: its numbers count, turned
        return replace(work, outcome=replace(turned, rotation=rotation))
    if sparse and reads_as_numbers([w.text for w in turned.words]):  # a table's junk, read confidently: its numbers said no
        return work
    if sparse and sparse_turned_reading_loses([w.text for w in turned.words], work.parsed):  # a table's numbers lost turned
        return work
    if not sparse and confidence < OSD_MIN_CONFIDENCE:  # a guess on a page of words: only its numbers could keep it
        return work
    more_known = known_words([w.text for w in turned.words], work.lexicon) >= known_words([w.text for w in work.parsed], work.lexicon)
    if (turned.confidence or 0.0) > (mean_confidence(work.parsed) or 0.0) and more_known:
        return replace(work, outcome=replace(turned, rotation=rotation))
    return work


PAGE_PASSES: tuple[PagePass, ...] = (
    _border, _deskew, _despeckle, _prepare, _sharpen, _recognise, _orientation, _page_as_block, _measure, _read_condensed, _reread_prose,
    _drop_noise, _read_orphans, _dropped_ink, _read_stacked_columns, _find_lone_cells, _read_table_block, _read_table_cells, _read_list_cells, _read_key_cells, _read_grid_cells, _companion_words, _second_reader, _stray_letters,
    _box_overreach, _join_split_words, _wide_glyph_gaps, _question_numbers, _roman_numerals, _inverted_marks,
    _overlapping_pieces, _lexicon_repair, _glued_words, _number_spaces, _faint_dots, _one_letter_stems, _capital_accents, _comma_tails, _small_glyphs, _lookalike_units, _sign_shapes, _unread_marks, _blank_strokes, _capitals_as_digits,
    _same_shape_capitals, _accents_read_twice, _accent_lines, _confused_letters,
    _glued_labels, _label_ghosts, _label_case, _label_marks, _label_discs, _label_rings, _ring_neighbours, _cell_spaces, _dropped_glyphs, _lone_glyphs, _lone_rereads,
    _dashes, _ellipsis, _legibility, _figures, _loose_ink, _seen_marks, _second_letters, _ink_accents, _mark_checks,
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
            conf=INFERRED_CONF if word.inferred_from is not None and not word.inferred_anchored else round(word.conf, 1) if word.conf >= 0 else None,
            second=word.second,
            unsure_mark=word.unsure_mark,
        )
        for word in work.words
    )
    confidence = work.confidence
    return PageReading(grey.width, grey.height, read, round(confidence, 2) if confidence is not None else None,
                       figures=work.figures, notes=work.notes, second_reading=work.second_reading, loose_ink=work.loose_ink)
