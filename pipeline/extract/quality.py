"""Is a page's text layer usable, or must the page be OCR'd?

    assess_text_layer(text, *, image_coverage=0.0, curved_paths=0) -> TextLayerVerdict

`text` is the page text as the extractor assembled it (any line breaks and spacing); `image_coverage` is
the share of the page area covered by images (0–1, `image_coverage(pdfium_page)` computes it); and
`curved_paths` the number of path objects with Bézier segments (`curved_path_count(pdfium_page)`; only
used to spot text drawn as outlines). Both extras are
cheap: the extractor already walks the page objects. The verdict is conservative: a page is sent to OCR
only when its text layer is clearly broken, because OCR of a good page loses accuracy.

Unusable when
- the page is a scan: almost no text (< SCAN_MAX_LETTERS letters) over images covering most of the page;
- text is drawn as outlines: no text but many curved vector paths (ruled grids are straight, not counted);
- glyphs lack a Unicode mapping: `(cid:NN)` placeholders, U+FFFD or private-use characters make up
  ≥ BAD_GLYPH_MAX_SHARE of the glyphs, most of the page. Under that the text layer is kept and only the
  spans of unmapped glyphs are read by OCR, in place (`pipeline.extract.patches`): one math font without
  a Unicode map (38 % of a Korean booklet's glyphs) no longer sends the whole page to OCR, whose columns
  and circled labels came out worse than the text layer's;
- glyph spacing is broken: diacritic letters split off their words ("zawieraj ą", "ęzyk") on
  ≥ SPLIT_MAX_SHARE of the words — a font whose widths do not match its glyphs;
- mostly non-letters: under GARBAGE_MIN_ALNUM_SHARE of the glyphs are letters or digits.

Calibration on /work/shared/corpus (176 pages; text from pypdfium2 and from pdfplumber): every page is
usable, including a ruled answer-grid page with 12 letters and 2715 straight paths. Worst values seen: a
bad-glyph share of 1.3% (Wingdings check boxes), a split-diacritic share of 0.6%, an alphanumeric share
of 0.74. pypdf's text of the 2016 sheet splits diacritics ("protoko łem") on up to 5.0% of a page's
words, still under the threshold; pdfplumber and pypdfium2 do not split those words at all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import filterfalse

from pipeline.languages import all_languages

SCAN_MAX_LETTERS = 40
SCAN_MIN_IMAGE_COVERAGE = 0.5
OUTLINE_MAX_LETTERS = 20
OUTLINE_MIN_PATHS = 300
BAD_GLYPH_MAX_SHARE = 0.5
BAD_GLYPH_MIN_COUNT = 5
SPLIT_MAX_SHARE = 0.10
SPLIT_MIN_COUNT = 5
SPLIT_MIN_WORDS = 20
GARBAGE_MIN_ALNUM_SHARE = 0.5
GARBAGE_MIN_GLYPHS = 40

_CID = re.compile(r"\(cid:\d+\)")
_LEADERS = re.compile(r"(?:[.…_·‥] ?){4,}")
_BAD_GLYPH = re.compile("[\ufffd\ue000-\uf8ff\U000f0000-\U0010ffff]")  # what `is_bad_glyph` is true of


def split_letter_sets() -> tuple[str, str]:
    """(letters with a diacritic that never stand alone as a word, letters no word starts with), in
    both cases, from every language file (pipeline/languages): a lone one, or a token opening with
    one, is a glyph split off its word. Every language's, whatever the sheet's: a broken font splits
    any language's letters, and each file lists only letters that are never words of their own."""
    languages = all_languages().values()
    lone = {c for lang in languages for c in lang.text_quality.split_letters}
    initial = {c for lang in languages for c in lang.text_quality.never_initial}

    def both_cases(letters: set[str]) -> str:
        # Only capitals that lower back to the letter: Turkish dotless ı capitalises to a plain I.
        return "".join(sorted(letters | {c.upper() for c in letters if c.upper().lower() == c}))

    return both_cases(lone), both_cases(initial)


_DIACRITIC_LETTERS, _NEVER_INITIAL = (frozenset(letters) for letters in split_letter_sets())
_SPLIT_OPENINGS = _DIACRITIC_LETTERS | _NEVER_INITIAL


@dataclass(frozen=True)
class TextLayerVerdict:
    usable: bool
    reason: str | None = None  # why the layer is unusable; None when usable
    letters: int = 0
    bad_glyph_share: float = 0.0
    split_share: float = 0.0
    alnum_share: float = 1.0


def is_bad_glyph(ch: str) -> bool:
    """U+FFFD or a private-use point: a glyph whose meaning the text layer does not give."""
    code = ord(ch)
    return ch == "\ufffd" or 0xE000 <= code <= 0xF8FF or 0xF0000 <= code


def assess_text_layer(text: str, *, image_coverage: float = 0.0, curved_paths: int = 0) -> TextLayerVerdict:
    """The verdict on one page's text layer; see the module docstring for the rules and thresholds."""
    # "(cid:" looked for first: a text without it (nearly every page) is neither searched nor copied.
    cids = len(_CID.findall(text)) if "(cid:" in text else 0
    # Answer lines drawn as dot leaders or underscores ("a) 10 ………………") are printed on purpose: they
    # say nothing about the layer's letters, and a page full of them is not "mostly non-letters".
    plain = _LEADERS.sub(" ", _CID.sub("", text) if cids else text)
    # Counted by C loops (str.split parts at exactly the characters str.isspace names; `_BAD_GLYPH` is
    # `is_bad_glyph` as a character class): a page's thousands of characters, once each.
    tokens = plain.split()  # never empty: a lone letter split off, or a token opening with one
    glyphs = "".join(tokens)
    # Letters and letters-or-digits counted by the page's distinct characters: every character that is
    # not one is counted by `str.count` (a C scan), not each of the page's thousands asked in turn.
    distinct = set(glyphs)
    alpha = {ch for ch in distinct if ch.isalpha()}
    letters = len(glyphs) - sum(map(glyphs.count, distinct - alpha))
    alnum = len(glyphs) - sum(glyphs.count(ch) for ch in distinct if not ch.isalnum())
    bad = cids + len(_BAD_GLYPH.findall(glyphs))
    total = len(glyphs) + cids
    bad_share = bad / total if total else 0.0
    alnum_share = alnum / total if total else 1.0

    # A word holds a letter: most are letters only (`str.isalpha`, one C call), the rest are looked into
    # (a token with none of the page's letters in it has none).
    mixed = list(filterfalse(str.isalpha, tokens))
    words = len(tokens) - sum(map(alpha.isdisjoint, mixed))
    # Split off: a lone letter of `_DIACRITIC_LETTERS`, or a longer token opening with one of
    # `_NEVER_INITIAL`; only tokens opening with a letter of either set can be, the rest are not looked into.
    opening = [t for t in tokens if t[0] in _SPLIT_OPENINGS]
    split = sum(t in _DIACRITIC_LETTERS if len(t) == 1 else t[0] in _NEVER_INITIAL for t in opening)
    split_share = split / words if words else 0.0

    def verdict(reason: str | None) -> TextLayerVerdict:
        return TextLayerVerdict(
            usable=reason is None,
            reason=reason,
            letters=letters,
            bad_glyph_share=round(bad_share, 4),
            split_share=round(split_share, 4),
            alnum_share=round(alnum_share, 4),
        )

    if letters < SCAN_MAX_LETTERS and image_coverage >= SCAN_MIN_IMAGE_COVERAGE:
        return verdict(f"scanned page: {letters} letters of text over images covering {image_coverage:.0%} of the page")
    if letters < OUTLINE_MAX_LETTERS and curved_paths >= OUTLINE_MIN_PATHS:
        return verdict(f"text drawn as outlines: {letters} letters of text and {curved_paths} curved vector paths")
    if bad >= BAD_GLYPH_MIN_COUNT and bad_share >= BAD_GLYPH_MAX_SHARE:
        return verdict(
            f"glyphs without Unicode mapping: {bad} of {total} are (cid:NN), private-use or U+FFFD ({bad_share:.0%})"
        )
    if words >= SPLIT_MIN_WORDS and split >= SPLIT_MIN_COUNT and split_share >= SPLIT_MAX_SHARE:
        return verdict(f"broken glyph spacing: diacritics split off {split} of {words} words ({split_share:.0%})")
    if total >= GARBAGE_MIN_GLYPHS and alnum_share < GARBAGE_MIN_ALNUM_SHARE:
        return verdict(f"mostly non-letters: only {alnum_share:.0%} of {total} glyphs are letters or digits")
    return verdict(None)


def image_coverage(page) -> float:
    """Share of a pypdfium2 page's area covered by image objects, clipped to the page.

    Overlapping images are counted twice (the sum is capped at 1): the scan test only asks "most of the page?".
    """
    import pypdfium2.raw as pdfium_c

    width, height = page.get_size()
    area = width * height
    if area <= 0:
        return 0.0
    covered = 0.0
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2):
        x0, y0, x1, y1 = obj.get_bounds()
        w = max(0.0, min(x1, width) - max(x0, 0.0))
        h = max(0.0, min(y1, height) - max(y0, 0.0))
        covered += w * h
    return min(1.0, covered / area)


def curved_path_count(page) -> int:
    """Number of path objects with at least one Bézier segment on a pypdfium2 page (form XObjects included).

    Glyph outlines are curved; ruled answer grids and table borders are straight and are not counted.
    """
    import pypdfium2.raw as pdfium_c

    count = 0
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=2):
        segments = pdfium_c.FPDFPath_CountSegments(obj.raw)
        for index in range(max(segments, 0)):
            segment = pdfium_c.FPDFPath_GetPathSegment(obj.raw, index)
            if segment and pdfium_c.FPDFPathSegment_GetType(segment) == pdfium_c.FPDF_SEGMENT_BEZIERTO:
                count += 1
                break
    return count


def assess_page(text: str, page) -> TextLayerVerdict:
    """`assess_text_layer` of a pypdfium2 page's `text`, its page objects walked only where what they say can
    change the verdict: both only where `text` as given holds under SCAN_MAX_LETTERS letters (the verdict's own
    count, of the text less its (cid:NN) and leaders, is never more, so it is asked first); the curved paths
    only where the verdict counts under OUTLINE_MAX_LETTERS and the images have not already made the page a
    scan (the outline test is asked only after the scan test fails). A page of text is walked for neither."""
    verdict = assess_text_layer(text)
    if verdict.letters >= SCAN_MAX_LETTERS or sum(map(str.isalpha, text)) >= SCAN_MAX_LETTERS:
        return verdict
    coverage = image_coverage(page)
    if verdict.letters >= OUTLINE_MAX_LETTERS or coverage >= SCAN_MIN_IMAGE_COVERAGE:
        return assess_text_layer(text, image_coverage=coverage)
    return assess_text_layer(text, image_coverage=coverage, curved_paths=curved_path_count(page))


def text_layer_usable(text: str, *, image_coverage: float = 0.0, curved_paths: int = 0) -> bool:
    """True when a page's text layer can be used as it is (`assess_text_layer` without the reason)."""
    return assess_text_layer(text, image_coverage=image_coverage, curved_paths=curved_paths).usable
