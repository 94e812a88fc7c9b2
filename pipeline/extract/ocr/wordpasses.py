"""The page passes that mend words and numbers: unsure words read again with a companion script's model and by a
second recogniser, then boxes, split
and glued words, question numbers, roman numerals, marks, known words, accents, commas, capitals, dashes and the
ellipsis. Declared like every other page pass (`passes.page_pass`) and placed in the one ordered registry by
`pagepasses.PAGE_PASSES`."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.accentlines import accent_inputs, mend_lost_marks, page_spelling, tesseract_reader
from pipeline.extract.ocr.certainty import DEFAULT_POLICY, spelled_for, unsure_reason
from pipeline.extract.ocr.companionwords import companions_of, lookalike_units, read_companion_words
from pipeline.extract.ocr.companions import reading_languages
from pipeline.extract.ocr.engine import installed_languages, prepared_before_whitening
from pipeline.extract.ocr.inkaccents import mend_by_ink
from pipeline.extract.ocr.markchecks import check_marks, checked_marks_note, dictionaries_to_ask, mark_facts
from pipeline.extract.ocr.lonereads import reread_short_words, tesseract_reader as lone_reader
from pipeline.extract.ocr.blanks import blanks_on_baselines
from pipeline.extract.ocr.commas import commas_read_as_periods
from pipeline.extract.ocr.confusions import mend_confused_letters
from pipeline.extract.ocr.labels import restore_question_numbers, restored_marks_note, roman_numerals
from pipeline.extract.ocr.numbergaps import split_number_words
from pipeline.extract.ocr.numbering import inferred_notes
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.seenmarks import evidence_for, seen_marks_note, take_seen_marks
from pipeline.extract.ocr.secondletters import Box, mend_words, take_second_letters
from pipeline.extract.ocr.secondread import read_again, second_reader_inputs, second_reader_version
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.infra import fingerprint
from pipeline.extract.ocr.signshapes import is_candidate as may_hold_sign, sign_shapes
from pipeline.extract.ocr.smallglyphs import is_candidate, small_glyphs
from pipeline.extract.ocr.strayletters import stray_letters
from pipeline.extract.ocr.spelling import (
    accents_read_twice,
    as_ellipsis,
    capital_accents,
    capitals_read_as_digits,
    dashes_by_width,
    join_overlapping_pieces,
    join_split_words,
    NarrowSpaces,
    small_same_shape_capitals,
    split_glued_words,
    stray_inverted_marks,
)
from pipeline.extract.ocr.overreach import clip_overreaching
from pipeline.extract.ocr.tablecells import held_apart
from pipeline.extract.ocr.unreadmarks import unread_marks
from pipeline.extract.ocr.widegaps import (
    full_width_digits, join_wide_glyph_pieces, sets_no_word_spaces, stacked_note, stacked_readings, unspaced_inputs, wide_glyph_height,
)
from pipeline.extract.ocr.words import Word, line_sizes, words_by_line
from pipeline.languages import language_for_tesseract


def _has_lexicon(work: PageWork) -> bool:
    """Tesseract's word lists for the page's languages are installed (`lexicon`)"""
    return work.lexicon is not None


def _ellipsis_asked(work: PageWork) -> bool:
    """the spec says the publisher sets an ellipsis as one character (`ocr.ellipsis`)"""
    return work.settings.ellipsis


def _second_reader_inputs(settings: OcrSettings) -> str:
    """The recogniser's packages and the languages' dictionary files, or why the pass skips (`secondread`); and the
    policy it picks words by (`_reading_policy_inputs`)."""
    return f"{second_reader_inputs(tuple(settings.languages))}; {_reading_policy_inputs(settings)}"


# The words worth a second look: the shipped policy's, with the I/l swap judged in words of capitals too (a second
# look costs little; the flag does not rest on that swap alone, `CertaintyPolicy.swap_in_capitals`).
# Not the confusable variants (`confusable_letters`, `confusable_marks`): they ask the spelling dictionaries, which this
# judgement is not given, and the words the second recogniser reads stay those its cache key was made for.
READING_POLICY = replace(DEFAULT_POLICY, swap_in_capitals=True, confusable_letters=False, confusable_marks=False)


def _reading_policy_inputs(settings: OcrSettings) -> str:
    """"reading policy <digest>": the passes that read words again pick them by `READING_POLICY` (the shipped policy's
    switches and version), so its digest (`fingerprint`) is part of their cache key, and a page cached under other
    switches is read again (a run with quantities spared read RapidOCR's `95%` where a cache of the shipped policy held
    `9596`)."""
    return f"reading policy {fingerprint(READING_POLICY)[:16]}"


# 2: keeps what it read per word (`agreement`); 3: reads the page as scanned, not as smoothed for Tesseract; 4: `a/b`
# judged and taken alternative by alternative (`alternatives`)
@page_pass("second-reader", f"4+{second_reader_version()}", Cost.REGIONS, inputs=_second_reader_inputs)
def _second_reader(work: PageWork) -> PageWork:
    """Words Tesseract is unsure of (low confidence, unknown to the language's spelling dictionary) read again
    by RapidOCR in windows of their line cut from the page as scanned (not as smoothed for Tesseract), and each
    window's readings combined by agreement, confidence and the dictionary, a token of alternatives (`sonet/znelka`)
    alternative by alternative (`secondread`, `alternatives`); a language RapidOCR
    cannot read, or a machine without it, skips it, said in the reading."""
    # The shipped policy's verdict, not the spec's: the reading must not depend on what its cache key lacks.
    def judged_unsure(word: Word) -> bool:
        return unsure_reason(word.text, word.conf, work.lexicon, READING_POLICY) is not None

    again = read_again(work.prepared(), work.words, work.settings.languages, skip=work.lone_cells, judged_unsure=judged_unsure,
                       scanned=work.image)
    return replace(work, words=again.words, second_reading=again.note)


def _has_companion(work: PageWork) -> bool:
    """a language of the page prints another script beside its own, whose Tesseract data is installed (language data
    `codes.companions`: Latin on a Greek page)"""
    return bool(work.words) and bool(companions_of(work.settings.languages))


def _companion_inputs(settings: OcrSettings) -> str:
    """The companion scripts read (their data, and so the pass's output, follow the language files)."""
    return "+".join(companions_of(settings.languages)) or "none"


# 2: away from a unit's place, only a word of the companion (letters alone, known to its dictionary); 3: at a unit's place,
# a word unknown to the page's dictionary read again however sure, and taken where the companion is surer at all
# 4: a unit or formula of the companion's script read as the page script's look-alikes (`рН`, `ΝΟ2`, `тод/Т` for `mg/L`),
# at a unit's place or unit-shaped, taken by its look-alike spelling or the companion's reading where the script data's
# unit vocabulary vouches for it (`unitwords`)
@page_pass("companion-words", "6", Cost.REGIONS, when=_has_companion, inputs=_companion_inputs)
def _companion_words(work: PageWork) -> PageWork:
    """Words the page's own model was unsure of, unknown to its dictionary, read again with the companion script's model
    alone, one crop a line, and taken where that reading is sure, in the companion's script and not capitals alone
    (`companionwords`: `cm` read `επῃ` on a Greek page)."""
    held, _ = held_apart(work.words)
    words, _ = read_companion_words(work.prepared(), work.words, work.settings.languages, work.settings.dpi, work.omp_thread_limit,
                                    spelled_for(tuple(work.settings.languages)), skip=[*held, *work.lone_cells])
    return replace(work, words=words)


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


# 2: a short piece stacked over a surer word's ink, in a box with no room for it, dropped as a second reading
@page_pass("wide-glyph-gaps", "2", Cost.CHEAP, when=_has_wide_glyphs, inputs=unspaced_inputs)
def _wide_glyph_gaps(work: PageWork) -> PageWork:
    """A short piece of wide glyphs stacked over a surer word's ink, whose box has no room for it, dropped as that ink read
    twice (`무언` and a `므` over its upper half); pieces of one word of wide glyphs (Korean syllables read apart) joined where their glyphs' pitch leaves no word space; in a
    script without word spaces (Japanese, Chinese) any pieces a glyph's gap does not part, digits standing a glyph's cell
    apart written full-width first (`７１０年` read `710` `年`; `widegaps`)."""
    unspaced = sets_no_word_spaces(work.settings.languages)
    words, dropped = stacked_readings(work.words)
    words = full_width_digits(words, work.ink) if unspaced and work.ink is not None else words
    return replace(work, words=join_wide_glyph_pieces(words, unspaced), notes=work.notes + stacked_note(dropped))


@page_pass("question-numbers", "3", Cost.CHEAP)  # 3: a number mended between the numbers above and below read as one less and one more is anchored (`numbering.anchored_mends`): confidence kept, note info; 2: a number taken from look-alikes or the sequence is inferred (read unsure, a note names it); lost dots counted in an info note
def _question_numbers(work: PageWork) -> PageWork:
    """Question numbers at the number column: a lost dot, look-alike letters, a digit breaking the sequence (`labels`)."""
    words = restore_question_numbers(work.words)
    changed = [after for before, after in zip(work.words, words) if after is not before]  # a number a pass before inferred is said
    notes = inferred_notes(changed, "question numbers") + restored_marks_note(work.words, words, "question number(s)")
    return replace(work, words=words, notes=work.notes + notes)


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


def _accent_inputs(settings: OcrSettings) -> str:
    """The languages' dictionary files (`accentlines`)."""
    return accent_inputs(tuple(settings.languages))


def narrow_spaces(languages: tuple[str, ...]) -> NarrowSpaces | None:
    """The page's languages' one-letter words (language data `glued_words`) and spelling dictionaries, which let a
    blurred scan's narrow space after a one-letter word count (`spelling.NarrowSpaces`); None where a language has
    neither."""
    spelled = spelled_for(languages)
    found = [language_for_tesseract(name) for name in languages]
    glued = [language.glued_words for language in found if language is not None and language.glued_words is not None]
    if spelled is None or not glued:
        return None
    return NarrowSpaces(frozenset(w for g in glued for w in g.one_letter), frozenset(w for g in glued for w in g.words), spelled)


# 3: a leading one-letter word's narrow space counted where it is most of its line's word space, only where the spelling
# dictionaries know the rest and not the glued whole (v2, the same space test without them, was taken back)
@page_pass("glued-words", "3", Cost.CHEAP, when=_has_lexicon, inputs=_accent_inputs)
def _glued_words(work: PageWork) -> PageWork:
    """Words glued together split where the image shows a word space and both parts are known; on a blurred scan a
    leading one-letter word's narrower space too, where its line's word spaces say so, the letter is one of the language's
    one-letter words and the spelling dictionaries know the rest and not the glued whole (`spelling`)."""
    assert work.lexicon is not None and work.ink is not None
    narrow = narrow_spaces(tuple(work.settings.languages))
    return replace(work, words=split_glued_words(work.words, work.ink, work.lexicon, narrow))


def _has_any_words(work: PageWork) -> bool:
    """the page has words"""
    return bool(work.words)


def _has_words_measured(work: PageWork) -> bool:
    """the page has words, and words of 3+ letters to measure its text height by"""
    return bool(work.words) and bool(work.typical_height)


@page_pass("number-spaces", "1", Cost.CHEAP, when=_has_any_words)
def _number_spaces(work: PageWork) -> PageWork:
    """A number and a word read as one token (`1904lice`, `zikzak54`) split where the ink shows a word space between
    them, measured against the line's word spaces; a white between a letter gap and a word space leaves it unsure
    (`numbergaps`)."""
    assert work.ink is not None
    words, changes = split_number_words(work.words, work.ink)
    if not changes:
        return work
    shown = ", ".join(changes[:12]) + (" …" if len(changes) > 12 else "")
    return replace(work, words=words, notes=work.notes + (f"number spaces: {len(changes)} token(s) of a number and a word ({shown})",))


# 2: ink is pale print's too, on the page not whitened (a grid key's pale answers were dropped); a speck is measured
# by the word's box where that is lower than the page's text height (a key page's junk made it 399 px)
@page_pass("stray-letters", "2", Cost.CHEAP, when=_has_words_measured)
def _stray_letters(work: PageWork) -> PageWork:
    """A one- or two-letter word apart from its neighbours whose box holds no ink, pale print's included, or only a
    speck's (a letter read into a row's wide gap), dropped; one the second reader read alike stays (`strayletters`)."""
    unwhitened = work.unwhitened_page()  # kept by `prepare` for the image every pass after it reads
    # else the page Tesseract read (its greys over `engine.WHITE_FROM` paper), never a second preparation of the page
    page = unwhitened if unwhitened is not None else np.asarray(work.prepared())
    words, dropped = stray_letters(work.words, page, work.typical_height)
    if not dropped:
        return work
    return replace(work, words=words, notes=work.notes + (
        f"stray letters: {len(dropped)} letter(s) read where the scan holds no letter's ink dropped ({', '.join(dropped[:12])})",))


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


def _has_small_glyph_words(work: PageWork) -> bool:
    """the page has a word holding a digit, a raised mark (`"`, `*`, `?`, `°`, …), a capital followed by a low mark
    (`SatO,`, `H/0`) or a capital and one small letter alone (`Te`): where a raised or lowered small glyph may stand or
    have been read as a mark or a letter"""
    return any(is_candidate(w.text) for w in work.words)


# 2: superscripts set high, condensed subscripts, a ring read as a small letter, a raised mark read twice
# 3: a raised minus (a flat stroke before raised digits) and its exponent written plain (`10-3/L`, `m·s-2`)
@page_pass("small-glyphs", "3", Cost.REGIONS, when=_has_small_glyph_words)
def _small_glyphs(work: PageWork) -> PageWork:
    """Raised and lowered small glyphs in a word's ink (pieces standing over the line's letters or under its baseline,
    measured in cap heights) read by their shape: a ring with a hole is `°`, one or two narrow ticks `'` or `"`, a small
    digit read by Tesseract with a digit alphabet, upscaled, and written plain; the mark read in its place is rewritten
    (a ring read as a small letter too), a dropped one put in, one read twice beside it dropped; a mark where the ink
    shows no such glyph stays as read (`smallglyphs`)."""
    scanned = np.asarray(work.image.convert("L"))
    words, changes = small_glyphs(work.words, scanned, work.prepared(), tuple(work.settings.languages), work.settings.dpi,
                                  work.omp_thread_limit, work.folder, skip=work.lone_cells)
    if not changes:
        return work
    shown = ", ".join(f"{before} → {after}" for before, after in changes[:12]) + (" …" if len(changes) > 12 else "")
    note = f"small glyphs: {len(changes)} word(s) took a raised or lowered glyph read by its shape ({shown})"
    return replace(work, words=words, notes=work.notes + (note,))


@page_pass("lookalike-units", "3", Cost.CHEAP, when=_has_companion, inputs=_companion_inputs)
def _lookalike_units(work: PageWork) -> PageWork:
    """A unit or formula of the companion's script read as the page script's look-alike letters, whole only once the small
    glyphs are read (`ΝΟ;` → `ΝΟ2`), written in the companion's letters where so spelt it is a unit expression of the
    script data (`ΝΟ2` → `NO2`, `рН` → `pH`; `companionwords.lookalike_units`)."""
    words, changes = lookalike_units(work.words, work.settings.languages, spelled_for(tuple(work.settings.languages)), skip=work.lone_cells)
    if not changes:
        return work
    shown = ", ".join(f"{before} → {after}" for before, after in changes[:12]) + (" …" if len(changes) > 12 else "")
    return replace(work, words=words, notes=work.notes + (f"look-alike units: {len(changes)} word(s) written in the companion's letters ({shown})",))


def _has_sign_words(work: PageWork) -> bool:
    """the page has a cross (`x`, `X`, `×`) between or beside numbers, or a letter read before a unit symbol after a
    number (`47000/pl`, `250 ug`): where a multiplication or micro sign may stand or have been read as a letter"""
    return any(may_hold_sign(members, at) for members in words_by_line(work.words).values() for at in range(len(members)))


@page_pass("sign-shapes", "1", Cost.CHEAP, when=_has_sign_words)
def _sign_shapes(work: PageWork) -> PageWork:
    """A cross between numbers written `×` where its ink stands over the baseline (the mathematical axis) and `x` where it
    stands on it; a letter read before a unit symbol after a number written `μ` where its ink descends under the
    baseline and is open at its top, as the micro sign is and `u`, `p`, `n` are not (`signshapes`)."""
    scanned = np.asarray(work.image.convert("L"))
    words, changes = sign_shapes(work.words, scanned, skip=work.lone_cells)
    if not changes:
        return work
    shown = ", ".join(f"{before} → {after}" for before, after in changes[:12]) + (" …" if len(changes) > 12 else "")
    note = f"sign shapes: {len(changes)} word(s) took the sign or letter their ink shows ({shown})"
    return replace(work, words=words, notes=work.notes + (note,))


def _has_words(work: PageWork) -> bool:
    """the page has words"""
    return bool(work.words)


@page_pass("unread-marks", "1", Cost.CHEAP, when=_has_words, inputs=unspaced_inputs)
def _unread_marks(work: PageWork) -> PageWork:
    """A period, comma, colon or semicolon whose ink stands right after a word, alone in the gap after it, and that
    Tesseract read nothing for, put back from its shape (a tail: a comma; a round dot: a period; a dot over it: a colon
    or semicolon); the word and the next are one where no word space stands between; ink of a mark whose shape is
    unclear marks its word unsure (`unreadmarks`). In a script without word spaces a word ending in a wide glyph is
    not judged: such scripts print their marks on a glyph's cell (`。`, `、`), and a stroke of a glyph read apart is dot-sized."""
    words, changes = unread_marks(work.words, work.image, wide_marks=sets_no_word_spaces(work.settings.languages))
    if not changes and words == work.words:
        return work
    shown = ", ".join(f"{before} → {after}" for before, after in changes[:12]) + (" …" if len(changes) > 12 else "")
    note = f"unread marks: {len(changes)} mark(s) put back from their ink ({shown})" if changes else None
    return replace(work, words=words, notes=work.notes + ((note,) if note else ()))


@page_pass("blank-strokes", "1", Cost.CHEAP, when=_has_words)
def _blank_strokes(work: PageWork) -> PageWork:
    """A flat stroke on a line's baseline, the only ink in a gap between its words or after its last word, read as the
    underscores of a blank to fill in (Tesseract drops a lone one, or reads it unsurely and `noise` drops it), one per
    half font size of its length (`blanks`)."""
    words, count = blanks_on_baselines(work.words, work.image)
    if not count:
        return work
    note = f"blank strokes: {count} blank(s) to fill in read from the ink as underscores"
    return replace(work, words=words, notes=work.notes + (note,))


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


def _may_have_lost_marks(work: PageWork) -> bool:
    """the page's languages have spelling dictionaries whose alphabet has marked letters, and the page has words"""
    return bool(work.words) and page_spelling(work.settings.languages) is not None


@page_pass("accent-lines", "3", Cost.REGIONS, when=_may_have_lost_marks, inputs=_accent_inputs)
def _accent_lines(work: PageWork) -> PageWork:
    """Lines holding a word no dictionary knows whose twin with more marks it knows read again from the page
    prepared but not whitened; a word takes the second reading where it only adds marks and is a dictionary word
    (`accentlines`)."""
    spelling = page_spelling(work.settings.languages)
    assert spelling is not None
    settings = work.settings
    unwhitened = work.unwhitened_page()
    page = Image.fromarray(unwhitened if unwhitened is not None else prepared_before_whitening(work.image, settings.dpi), mode="L")
    mended = mend_lost_marks(work.words, page, spelling, tesseract_reader(settings.languages, settings.dpi, work.omp_thread_limit))
    if not mended.changes:
        return work
    shown = ", ".join(f"{first} → {second}" for first, second in mended.changes)
    note = f"accent lines: {len(mended.changes)} words took a mark read again from the page not whitened ({shown})"
    return replace(work, words=mended.words, notes=work.notes + (note,))


def _may_hold_confused_letters(work: PageWork) -> bool:
    """the page's languages name the letters blur joins (language data `text_quality.misread_letters`), have spelling
    dictionaries, and the page has words"""
    return bool(work.words) and work.lexicon is not None and bool(work.lexicon.misread_letters) \
        and spelled_for(tuple(work.settings.languages)) is not None


@page_pass("confused-letters", "1", Cost.CHEAP, when=_may_hold_confused_letters, inputs=_accent_inputs)
def _confused_letters(work: PageWork) -> PageWork:
    """A word no dictionary knows that one confused letter group put back (`rn` read `m`, `ri` read `n`, `cl` read `d`)
    or the second reader's reading of its box makes into exactly one word the spelling dictionaries know, where the
    box's width fits the mended word's letters, is mended (`supraestemal` → `supraesternal`; `confusions`)."""
    assert work.lexicon is not None
    spelled = spelled_for(tuple(work.settings.languages))
    assert spelled is not None
    mended = mend_confused_letters(work.words, work.lexicon, spelled)
    if not mended.changes:
        return work
    shown = ", ".join(f"{before} → {after}" for before, after in mended.changes[:12]) + (" …" if len(mended.changes) > 12 else "")
    note = f"confused letters: {len(mended.changes)} word(s) took the one known word their confused letters make ({shown})"
    return replace(work, words=mended.words, notes=work.notes + (note,))


def _second_reader_read(work: PageWork) -> bool:
    """the second reader read some of the page's words again, and the page's languages have spelling dictionaries"""
    return any(w.second for w in work.words) and spelled_for(tuple(work.settings.languages)) is not None


@page_pass("seen-marks", "1", Cost.CHEAP, when=_second_reader_read, inputs=_accent_inputs)
def _seen_marks(work: PageWork) -> PageWork:
    """A word no spelling dictionary knows that the second reader read letter for letter alike but with marks over
    letters Tesseract read bare takes those marks, where the marked word is known or the word as read is unknown to
    Tesseract's word list as well (`adenopatias` → `adenopatías`); a known word is never rewritten (`seenmarks`)."""
    evidence = evidence_for(work.settings.languages, spelled_for(tuple(work.settings.languages)))
    assert evidence is not None
    words, changes = take_seen_marks(work.words, evidence)
    if not changes:
        return work
    return replace(work, words=words, notes=work.notes + (seen_marks_note(changes),))


@page_pass("second-letters", "1", Cost.CHEAP, when=_second_reader_read, inputs=_accent_inputs)
def _second_letters(work: PageWork) -> PageWork:
    """A word no dictionary knows, read unsurely, that the second reader read with a thin letter more, less or other, or
    a blur-joined group apart (`Permetrna` → `Permetrina`, `Ilvermectina` → `Ivermectina`), takes that reading where
    the box's width, measured against the page's own letters' widths, holds it at least as well; it stays unsure unless
    a dictionary knows it (`secondletters`)."""
    spelled = spelled_for(tuple(work.settings.languages))
    assert spelled is not None
    sizes = line_sizes(work.words)
    boxes = [Box(w.text, w.conf if w.conf >= 0 else None, w.right - w.left, sizes.get(w.line), w.second) for w in work.words]
    found = take_second_letters(boxes, work.lexicon, spelled)
    if not found:
        return work
    words, note = mend_words(work.words, found)
    return replace(work, words=words, notes=work.notes + (note,))


# 2: only a word the dictionaries do not know as read, and not one the second recogniser read the same (v1, on a branch,
# gave known words marks the print lacks on real sheets)
@page_pass("ink-accents", "2", Cost.CHEAP, when=_may_have_lost_marks, inputs=_accent_inputs)
def _ink_accents(work: PageWork) -> PageWork:
    """A word no dictionary knows, read without a mark whose ink stands over or under one of its letters, unaccounted
    for by the reading, takes the one spelling with that letter's mark the dictionaries know, read from the page
    prepared but not whitened (`inkaccents`)."""
    spelling = page_spelling(work.settings.languages)
    assert spelling is not None
    unwhitened = work.unwhitened_page()
    page = unwhitened if unwhitened is not None else prepared_before_whitening(work.image, work.settings.dpi)
    mended = mend_by_ink(work.words, page, spelling)
    if not mended.changes:
        return work
    shown = ", ".join(f"{first} → {second}" for first, second in mended.changes)
    note = f"ink accents: {len(mended.changes)} words took a mark their ink shows ({shown})"
    return replace(work, words=mended.words, notes=work.notes + (note,))


@page_pass("dashes", "1", Cost.CHEAP)
def _dashes(work: PageWork) -> PageWork:
    """A lone dash becomes `-`, `–` or `—` by its ink width (`spelling`)."""
    return replace(work, words=dashes_by_width(work.words))


@page_pass("ellipsis", "1", Cost.CHEAP, when=_ellipsis_asked)
def _ellipsis(work: PageWork) -> PageWork:
    """Three dots read for the publisher's `…` become it (a dotted leader stays; `spelling`)."""
    return replace(work, words=as_ellipsis(work.words))


# 2: label lifts stand only where every label the page read unsure is lifted (`parse.certainty.labels_vouch` judges them together)
# 3: a ring label's digit read inside its ring found by shape around Tesseract's box (a box of the digit alone held part of the ring)
# 4: that ring looked for on the page with grey paper lifted to white (`ringshapes.on_white`)
@page_pass("lone-rereads", "4", Cost.REGIONS, inputs=_reading_policy_inputs)
def _lone_rereads(work: PageWork) -> PageWork:
    """A word of one to four digits or an option label read under the shipped policy's `unsure_below`, cut out and read
    again constrained to what can stand there (digits; the spec's labels; a ring's digit) at 1× and 2×, and free at 2×:
    lifted out of unsure where every reading reads it as read, surely; a page note where the constrained readings agree on
    another text (`lonereads`). A ring label's digit is read inside its ring, found by shape around the word on the page
    before its light greys were whitened."""
    if not work.words:
        return work
    languages = reading_languages(work.settings.languages, installed_languages())
    words, notes = reread_short_words(work.words, work.prepared(), tuple(work.settings.option_labels or ()),
                                      READING_POLICY.unsure_below, lone_reader(languages, work.settings.dpi, work.omp_thread_limit,
                                                                                               free=work.settings.languages),
                                      text_height=work.typical_height, ring_page=work.unwhitened_page())
    return replace(work, words=words, notes=work.notes + tuple(notes)) if notes else work


def _may_misread_marks(work: PageWork) -> bool:
    """the page has words, and its languages have spelling dictionaries to ask (not Korean's, which knows every word) or
    say which marks they print (language data `text_quality.optional_marks`, `marked_letters`)"""
    languages = tuple(work.settings.languages)
    return bool(work.words) and (bool(mark_facts(languages)) or dictionaries_to_ask(languages) is not None)


@page_pass("mark-checks", "1", Cost.CHEAP, when=_may_misread_marks, inputs=_accent_inputs)
def _mark_checks(work: PageWork) -> PageWork:
    """A word read with a mark its print may leave off where the ink over the letter says otherwise (`веселые` with dots
    over its `е`), with a mark its language never writes (`Εὐκρατη`), or with a doubled letter its box has no room for
    (`Αιχμμαλώτισαν`), where the other spelling is a word: marked unsure, not rewritten (`markchecks`)."""
    languages = tuple(work.settings.languages)
    scanned = np.asarray(work.image.convert("L"))
    words, found = check_marks(work.words, scanned, mark_facts(languages), dictionaries_to_ask(languages), work.lexicon)
    return replace(work, words=words, notes=work.notes + (checked_marks_note(found),)) if found else work
