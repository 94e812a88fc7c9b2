"""Raised and lowered small glyphs read by their shape: a degree ring, primes, sub- and superscript digits.

Science, medicine and engineering exams print units and formulas in every language: a degree ring (`37.5°C`,
`T°39`), primes after a count or an angle (`110X'`, `45°30'`), subscripts (`SatO2`, `H2O`) and superscripts
(`m2`, `10 3`). On scans Tesseract reads the ring as `"`, `*`, `?` or `º`, a subscript 2 as a comma or a small
letter (`SatO,`, `Nas`), `H2O` as `H/0`, and drops primes. Such a glyph is told by the layout, the same in every
script, never by the words (`small_glyphs`):

- pieces of ink: the page as scanned (the page prepared for Tesseract breaks thin strokes) cut at two grey levels,
  `INK_BELOW` (a small glyph's thin strokes whole) and `DARK_BELOW` (a ring apart from a letter the blur joins it to);
  a glyph is a pale piece or, where none is, a dark one;
- the line's measures: the baseline (the median bottom of the line's pieces at least `LETTER_FROM` cap heights tall
  within `BASELINE_REACH` cap heights of the word) and the cap height (measured on the letters standing on the
  baseline; the line's font size estimate, `words.line_sizes`, where those are small letters alone);
- a raised small glyph: a piece of ink whose bottom stands between `RAISED_FROM` and `RAISED_BOTTOM_TO` cap heights
  over the baseline and whose top reaches no higher than `RAISED_TOP_TO` (a superscript set high, `kg/m²`), no
  taller than `SMALL_TO`, with no other ink under it down to the baseline (an i's dot, an accent stand over a letter;
  an ordinal's `º` stands on its bar, one piece reaching lower);
- a lowered small glyph: a piece reaching `LOWERED_FROM` under the baseline whose top stays under `LOWERED_TOP`
  cap heights over it, at least `DIGIT_FROM` tall and `LOWERED_WIDE_TO_CAP` wide (a comma is smaller), with no ink over
  it (a cedilla, an ogonek stand under a letter);
- its shape: a round piece (height over width between `ROUND_FROM` and `ROUND_TO`, at most `RING_TO` cap heights tall)
  with a hole in the page as scanned is a ring (`°`); a narrow piece (taller than wide by `TICK_FROM`, no wider than
  `TICK_WIDE_TO`) a tick, two ticks closer than `PAIR_GAP` a double tick (`"`), one a single (`'`); a piece at least
  `DIGIT_FROM` tall and `DIGIT_WIDE_TO_CAP` wide that is neither is read with a digit alphabet by Tesseract, upscaled
  to the line's cap height, all of a page's in one strip, and taken at `DIGIT_CONF`;
- the text: the character read where the glyph stands (character places estimated from the characters' widths) is
  rewritten where it is a mark of another class (`"` or `º` where a ring stands, `,` or `/` where a digit stands), or a
  letter where a lowered digit stands; a ring or a tick no character was read for is put in after a digit or a
  capital, or takes the place of a digit read there where the word has more letters and digits than pieces of
  letters' height (`40.77C`), and a ring that of a small letter read there (`Te` for `T°`: no small letter stands over
  the baseline); a raised mark read beside the glyph's own character where the ink shows no other raised glyph is
  dropped (`T"°`, `100X'"`: one glyph read twice); a digit is written plain, as a text layer gives a subscript
  (`SatO2`, not `SatO₂`), and so is a superscript (`kg/m2`, `1012/L`), as the text path writes both
  (`pipeline.extract.smallrows`, docs/concepts/extract-and-parse.md).

A raised minus (`10⁻³/L`, `m·s⁻²`, `cm⁻¹`; v3) is a flat stroke at an exponent's height (no taller than `MINUS_HIGH_TO`,
at least `MINUS_WIDE_FROM` wide and `MINUS_FLAT_FROM` times as wide as tall) with raised glyphs right after it, each
within `EXPONENT_GAP` (a raised `1`, narrow as a tick, is a digit there: no prime follows a minus); a flat stroke with
none after it is no glyph (a hyphen stands lower, and alone). The minus and its digits are written `-` and the digits
in place of what Tesseract read for them (`103/L`, `10"/L`, `cm'!` → `10-3/L`, `cm-1`: `mend_exponent`), placed by the
word's letters right of the exponent, where the text just before holds the digits read by shape, or marks.

A mark read where the ink shows no raised or lowered small glyph stays as read, and so does a glyph whose shape is
unclear. Measured by `python -m pipeline.devkit.unitscans` (docs/results.md, "Raised and lowered small glyphs") and
`python -m pipeline.devkit.supscans` (its `minus` families: "Raised minus signs and Latin units on non-Latin pages").
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
import re
from statistics import median

import numpy as np
from PIL import Image

from pipeline.extract.ocr.words import CAP_HEIGHT_PER_SIZE, Word, line_sizes, words_by_line

LETTER_FROM = 0.5  # cap heights: a piece this tall or taller is a letter the baseline is measured from
RAISED_FROM = 0.4  # cap heights over the baseline the bottom of a raised glyph stands at least
RAISED_BOTTOM_TO = 1.0  # cap heights over the baseline the bottom of a raised glyph stands at most (the line above's
# descenders end higher: 1.3 and more)
RAISED_TOP_TO = 1.6  # cap heights over the baseline the top of a raised glyph reaches at most (a superscript set high,
# as Revalida's `kg/m²`, reaches 1.4; v1 stopped at 1.3)
SMALL_TO = 0.8  # cap heights: a small glyph is no taller (a superscript is about 0.7 of the cap height, blur adds to it)
LOWERED_FROM = 0.08  # cap heights under the baseline a lowered glyph reaches at least
LOWERED_TOP = 0.62  # cap heights over the baseline a lowered glyph's top stays under (a p's top is at the x-height, 0.7+)
DIGIT_FROM = 0.42  # cap heights: a small digit is at least this tall (a comma is less: about 0.35)
DIGIT_WIDE_TO_CAP = 0.3  # cap heights: a small digit is at least this wide (a comma, a tick are narrower: 0.25)
DIGIT_WIDE_FROM = 0.45  # a small digit is at least this share of its height wide (a comma, a tick are narrower)
LOWERED_WIDE_TO_CAP = 0.3  # cap heights: a lowered digit is at least this wide. v2 (h-supers15) set 0.24 for a narrow
# face's subscript 2 at 150 dpi cut dark (0.28); on the corpus tuning set that took a sharp scan's comma after a capital
# for a digit (br-oab-2016-300: `A,` read `A1,`, `XYZ,` read `XYZ4,`), so it stays at v1's digit width (disabled)
RING_TO = 0.55  # cap heights: a ring is no taller
ROUND_FROM, ROUND_TO = 0.65, 1.5  # a ring's height over its width
TICK_FROM = 1.4  # a tick's height over its width, at least
TICK_WIDE_TO = 0.28  # cap heights: a tick is no wider (a small digit is wider: 0.35 and more)
TICK_HEIGHT_FROM = 0.18  # cap heights: a tick is at least this tall (a speck is less)
PAIR_GAP = 0.35  # cap heights between two ticks of one double tick, at most
MINUS_HIGH_TO = 0.2  # cap heights: a raised minus is a flat stroke no taller (blur adds to its thin stroke)
MINUS_WIDE_FROM = 0.2  # cap heights: a raised minus is at least this wide (a superscript's minus: 0.3 and more)
MINUS_FLAT_FROM = 1.3  # a raised minus is at least this many times as wide as it is tall (a tick is not; at 150 dpi a
# superscript's minus, blurred, is 4 px by 3)
EXPONENT_GAP = 0.5  # cap heights between a raised minus and its first digit, and between two digits of its exponent, at most
DIGIT_READ_HEIGHT = 36  # px: a small digit's crop is read this tall (at 150 dpi a cap height is 19 px)
DIGIT_CONF = 50.0  # Tesseract's confidence in a small digit read alone, at least
INK_BELOW = 185  # grey level in the page as scanned: a small glyph's thin strokes are ink this pale (the prepared page breaks them)
DARK_BELOW = 150  # grey level: the pieces letters are measured by, and a ring touching a letter at `INK_BELOW` stands apart
SEED_BELOW = 130  # grey level: a piece of ink holds a pixel this dark (paler pieces are grain and JPEG ringing)
CAP_MEASURED_FROM = 0.75  # of the line's estimate: a measured cap height this large or larger is taken
BASELINE_REACH = 6.0  # cap heights either side of a word within which its line's letters give the baseline
MIN_PIXELS = 4  # ink pieces of fewer pixels are specks
APART_SHARE = 0.6  # the middle share of a glyph's columns that must hold no other ink over or under it
RAISED_MARKS = frozenset("\"'`´*?°º^”“’‘′″˚·")
LOW_MARKS = frozenset(",.;:/)>(_")
QUOTE_PAIR = frozenset("\"”“″")
QUOTE_ONE = frozenset("'`´’‘′")
DOUBLED_MARKS = RAISED_MARKS - frozenset("?")  # marks that never stand on the line: one read beside a glyph's own is doubled
_EXPONENT_READ = re.compile(r"(?:[^\w\s]+\d*)+$")  # marks, maybe with digits after them: what a raised minus and its digits were read as
RINGS = frozenset("°˚")  # not `º`: an ordinal's o stands on a bar (one piece with it, reaching lower), never a ring alone
_NARROW = frozenset(".,:;'\"`´’‘”“*°º!|iljItf()/-[]")


@dataclass(frozen=True)
class Glyph:
    """A raised or lowered small glyph in a word's ink: page box, place, and what its shape says it is."""

    left: int
    top: int
    right: int
    bottom: int
    raised: bool
    kind: str  # "ring", "tick", "ticks", "digit" (read by `read_digits`), "minus" (before raised digits), "" unclear
    text: str = ""
    exponent: bool = False  # a digit of a raised minus's exponent


Piece = tuple[int, int, int, int, int]  # left, top, right, bottom (page pixels, right and bottom exclusive), ink pixels


def _pieces(grey: np.ndarray, box: tuple[int, int, int, int], below: int) -> list[Piece]:
    """Each piece of ink (grey under `below`, holding a pixel under `SEED_BELOW`) in `box` of the page as scanned."""
    from scipy import ndimage  # here, not at the top: only scanned pages need it

    left, top, right, bottom = max(box[0], 0), max(box[1], 0), min(box[2], grey.shape[1]), min(box[3], grey.shape[0])
    if right <= left or bottom <= top:
        return []
    crop = grey[top:bottom, left:right]
    labels, _ = ndimage.label(crop < below, structure=np.ones((3, 3), dtype=bool))
    found = []
    for index, where in enumerate(ndimage.find_objects(labels), start=1):
        if where is None:
            continue
        mask = labels[where] == index
        pixels = int(mask.sum())
        if pixels >= MIN_PIXELS and (crop[where][mask] < SEED_BELOW).any():
            found.append((left + where[1].start, top + where[0].start, left + where[1].stop, top + where[0].stop, pixels))
    return found


def _apart(ink: np.ndarray, piece: Piece, rows: tuple[int, int]) -> bool:
    """No ink in the middle `APART_SHARE` of the piece's columns between `rows` (page rows, end exclusive)."""
    left, _, right, _, _ = piece
    trim = (right - left) * (1 - APART_SHARE) / 2
    a, b = int(left + trim), max(int(left + trim) + 1, int(round(right - trim)))
    top, bottom = max(rows[0], 0), min(rows[1], ink.shape[0])
    return bottom <= top or not ink[top:bottom, a:b].any()


def _has_hole(scanned: np.ndarray, piece: Piece) -> bool:
    """The piece, thresholded halfway between its darkest grey and the paper in the page as scanned, encloses paper."""
    from scipy import ndimage

    left, top, right, bottom, _ = piece
    crop = scanned[max(top - 1, 0):bottom + 1, max(left - 1, 0):right + 1].astype(float)
    if crop.size == 0:
        return False
    paper = float(np.percentile(crop, 95))
    dark = crop < (float(crop.min()) + paper) / 2
    return bool((ndimage.binary_fill_holes(dark) & ~dark).any())


def line_pieces(grey: np.ndarray, members: list[Word], cap: float) -> tuple[list[Piece], list[Piece]]:
    """The pieces of ink of a line's box (its words' boxes joined, half a cap height over and under), cut at `DARK_BELOW`
    (letters apart from a ring beside them) and at `INK_BELOW` (a small glyph's thin strokes whole)."""
    box = (min(w.left for w in members) - 1, int(min(w.top for w in members) - 0.5 * cap),
           max(w.right for w in members) + int(cap), int(max(w.bottom for w in members) + 0.5 * cap))
    return _pieces(grey, box, DARK_BELOW), _pieces(grey, box, INK_BELOW)


def find_glyphs(word: Word, pieces: tuple[list[Piece], list[Piece]], ink: np.ndarray, scanned: np.ndarray, cap: float,
                reach: int) -> tuple[list[Glyph], list[float]]:
    """The raised and lowered small glyphs in `word`'s ink (module docstring), left to right, and the word's pieces as
    tall as letters: `pieces` its line's pieces of ink (`line_pieces`), `reach` the pixels right of its box searched for
    a mark its box left out. The baseline is the median bottom of the line's letters within `BASELINE_REACH` cap heights
    of the word. A glyph is a piece cut pale (whole) or, where none is, cut dark (apart from a letter it touches pale).
    The pieces as tall as letters are given by their middles (page x)."""
    dark, pale = pieces

    def owned(found: list[Piece]) -> list[Piece]:
        return [p for p in found if word.left - 1 <= (p[0] + p[2]) / 2 <= word.right + reach
                and p[3] > word.top - 0.5 * cap and p[1] < word.bottom + 0.5 * cap]

    letters = [p for p in dark if LETTER_FROM * cap <= p[3] - p[1] <= 1.6 * cap
               and word.left - BASELINE_REACH * cap <= (p[0] + p[2]) / 2 <= word.right + BASELINE_REACH * cap]
    own_dark, own_pale = owned(dark), owned(pale)
    if len(letters) < 3 or not own_dark:
        return [], []
    baseline = median(p[3] for p in letters)
    # The cap height measured on the letters standing on the baseline, where they give one (ascenders, capitals, digits
    # reach it); a line of small letters alone keeps the line's estimate.
    standing = sorted(p[3] - p[1] for p in letters if abs(p[3] - baseline) <= 0.12 * cap)
    measured = float(np.percentile(standing, 85)) if standing else 0.0
    cap = measured if CAP_MEASURED_FROM * cap <= measured <= 1.3 * cap else cap
    found = [g for g in (_glyph(p, baseline, ink, scanned, cap) for p in own_pale) if g is not None]
    for piece in own_dark:
        glyph = _glyph(piece, baseline, ink, scanned, cap)
        if glyph is not None and not any(g.left < glyph.right and glyph.left < g.right and g.top < glyph.bottom and glyph.top < g.bottom
                                         for g in found):
            found.append(glyph)
    glyphs = _exponents(_paired(sorted(found, key=lambda g: g.left), cap), cap)
    tall = [(p[0] + p[2]) / 2 for p in own_dark if LETTER_FROM * cap <= p[3] - p[1] and word.left <= (p[0] + p[2]) / 2 <= word.right]
    return glyphs, sorted(tall)


def _glyph(piece: Piece, baseline: float, ink: np.ndarray, scanned: np.ndarray, cap: float) -> Glyph | None:
    """The piece as a raised or lowered small glyph, or None where it is neither (module docstring)."""
    left, top, right, bottom, _ = piece
    height, width = bottom - top, max(right - left, 1)
    if height > SMALL_TO * cap:
        return None
    if RAISED_FROM * cap <= baseline - bottom <= RAISED_BOTTOM_TO * cap and top >= baseline - RAISED_TOP_TO * cap:
        if not _apart(ink, piece, (bottom + 1, int(baseline - 0.1 * cap))):
            return None
        return Glyph(left, top, right, bottom, True, _raised_kind(piece, scanned, cap))
    if bottom - baseline >= LOWERED_FROM * cap and baseline - top <= LOWERED_TOP * cap and height >= DIGIT_FROM * cap:
        if width < max(DIGIT_WIDE_FROM * height, LOWERED_WIDE_TO_CAP * cap) or not _apart(ink, piece, (int(baseline - 1.0 * cap), top - 1)):
            return None
        return Glyph(left, top, right, bottom, False, "digit")
    return None


def _raised_kind(piece: Piece, scanned: np.ndarray, cap: float) -> str:
    left, top, right, bottom, _ = piece
    height, width = bottom - top, max(right - left, 1)
    ratio = height / width
    if height <= MINUS_HIGH_TO * cap and width >= max(MINUS_WIDE_FROM * cap, MINUS_FLAT_FROM * height):
        return "minus"
    if height <= RING_TO * cap and ROUND_FROM <= ratio <= ROUND_TO and _has_hole(scanned, piece):
        return "ring"
    if ratio >= TICK_FROM and width <= TICK_WIDE_TO * cap and height >= TICK_HEIGHT_FROM * cap:
        return "tick"
    if height >= DIGIT_FROM * cap and width >= max(DIGIT_WIDE_FROM * height, DIGIT_WIDE_TO_CAP * cap):
        return "digit"
    return ""


def _paired(glyphs: list[Glyph], cap: float) -> list[Glyph]:
    """Two raised ticks side by side, closer than `PAIR_GAP`, one double tick."""
    out: list[Glyph] = []
    for glyph in glyphs:
        last = out[-1] if out else None
        if (last is not None and last.kind == "tick" and glyph.kind == "tick" and glyph.left - last.right <= PAIR_GAP * cap
                and abs(glyph.top - last.top) <= 0.25 * cap):
            out[-1] = replace(last, right=glyph.right, top=min(last.top, glyph.top), bottom=max(last.bottom, glyph.bottom), kind="ticks")
        else:
            out.append(glyph)
    return out


def _exponents(glyphs: list[Glyph], cap: float) -> list[Glyph]:
    """A raised minus is one only before its exponent: raised glyphs right after it, each within `EXPONENT_GAP` of the
    one before, are its digits (a raised `1` is as narrow as a tick, and no prime follows a minus); a flat stroke with
    no raised glyph after it is no glyph of ours (a hyphen, a rule)."""
    out: list[Glyph] = []
    for glyph in glyphs:
        last = out[-1] if out else None
        after_sign = last is not None and (last.kind == "minus" or last.exponent)
        if (after_sign and glyph.raised and glyph.kind in ("digit", "tick", "") and glyph.left - last.right <= EXPONENT_GAP * cap
                and glyph.bottom - glyph.top >= TICK_HEIGHT_FROM * cap * 2):
            glyph = replace(glyph, kind="digit", exponent=True)
        out.append(glyph)
    return [g for at, g in enumerate(out) if g.kind != "minus" or at + 1 < len(out) and out[at + 1].exponent]


def exponent_groups(glyphs: list[Glyph]) -> list[list[Glyph]]:
    """Each raised minus with the digits of its exponent, left to right."""
    groups: list[list[Glyph]] = []
    for glyph in glyphs:
        if glyph.kind == "minus":
            groups.append([glyph])
        elif groups and glyph.exponent:
            groups[-1].append(glyph)
    return groups


def char_spans(text: str, left: int, right: int) -> list[tuple[float, float]]:
    """Each character's estimated (left, right) in a word's box, by rough widths (narrow marks a third of a letter)."""
    weights = [0.4 if ch in _NARROW else 1.3 if ch in "mwMWm%" else 1.0 for ch in text]
    scale = (right - left) / max(sum(weights), 1e-9)
    spans, x = [], float(left)
    for weight in weights:
        spans.append((x, x + weight * scale))
        x += weight * scale
    return spans


def _written(glyph: Glyph) -> str | None:
    return {"ring": "°", "tick": "'", "ticks": '"'}.get(glyph.kind) or (glyph.text or None)


def _same_class(char: str, glyph: Glyph) -> bool:
    if glyph.kind == "ring":
        return char in RINGS
    if glyph.kind == "tick":
        return char in QUOTE_ONE
    if glyph.kind == "ticks":
        return char in QUOTE_PAIR
    return char == glyph.text


def mend_word(text: str, left: int, right: int, glyphs: list[Glyph], letters: int, tall_at: Sequence[float] = ()) -> str:
    """`text` with each glyph written where it stands (module docstring: rewritten, or put in), right to left. `letters`:
    the word's pieces of ink as tall as letters; where the text holds more letters and digits than that, a ring or a tick
    where a digit was read takes its place rather than being put in beside it (`40.77C` for `40.7°C`); a letter read
    there stays (on pe-conareme the ticks of `54X",` took the X's place). `tall_at`: those pieces' middles (page x),
    by which a raised minus and its exponent are placed (`mend_exponent`)."""
    for group in reversed(exponent_groups(glyphs)):
        mended = mend_exponent(text, group, tall_at)
        if mended is not None:
            text = mended
            glyphs = [g for g in glyphs if all(g is not m for m in group)]
    extra = sum(ch.isalnum() for ch in text) - letters
    for glyph in sorted(glyphs, key=lambda g: -g.left):
        written = _written(glyph)
        if written is None:
            continue
        spans = char_spans(text, left, right)
        centre = (glyph.left + glyph.right) / 2
        pitch = (right - left) / max(len(text), 1)
        near = [i for i, (a, b) in enumerate(spans) if a - 0.6 * pitch <= centre <= b + 0.6 * pitch]
        same = [i for i in near if _same_class(text[i], glyph)]
        if same:
            text = _doubled_dropped(text, min(same, key=lambda i: abs((spans[i][0] + spans[i][1]) / 2 - centre)), glyph,
                                    glyphs, left, right)
            continue
        if glyph.kind == "digit":  # any mark, never a letter read there (an ordinal's `º` is a letter: Tesseract saw its bar)
            marks = [i for i in near if not text[i].isalnum() and not text[i].isspace()]
        else:
            marks = [i for i in near if text[i] in (RAISED_MARKS if glyph.raised else LOW_MARKS)]
        if glyph.kind == "digit" and not glyph.raised and not marks:
            marks = [i for i in near if text[i].isalpha() and spans[i][0] - 0.3 * pitch <= centre <= spans[i][1] + 0.3 * pitch]
            marks = marks[-1:] if marks and marks[-1] == len(text) - 1 or len(marks) == 1 else []
        if marks:
            at = min(marks, key=lambda i: abs((spans[i][0] + spans[i][1]) / 2 - centre))
            text = _doubled_dropped(text[:at] + written + text[at + 1:], at, glyph, glyphs, left, right)
            continue
        if glyph.kind == "digit":
            continue  # a digit with no place read for it: where it belongs is not sure enough to put it in
        # A digit, not a letter: a ring is read as `9`, `5`, `3`, `7`; a letter there is more likely one the glyph stands
        # beside, but for a ring read as a small letter (`Te` for `T°`): a small letter stands on the baseline, never over it.
        read_for = [i for i in near if (text[i].isdigit() or glyph.kind == "ring" and text[i].islower())
                    and spans[i][0] - 0.25 * pitch <= centre <= spans[i][1] + 0.25 * pitch]
        if extra > 0 and read_for:
            at = min(read_for, key=lambda i: abs((spans[i][0] + spans[i][1]) / 2 - centre))
            text, extra = text[:at] + written + text[at + 1:], extra - 1
            continue
        at = min(range(len(text) + 1), key=lambda i: abs((spans[i][0] if i < len(text) else right) - centre))
        if at > 0 and (text[at - 1].isdigit() or text[at - 1].isupper()):
            text = text[:at] + written + text[at:]
    return text


def _tall_char(ch: str) -> bool:
    """A character printed as tall as a letter: one the word's pieces of letters' height count."""
    return ch.isalnum() or ch in "/()[]"


def mend_exponent(text: str, group: list[Glyph], tall_at: Sequence[float]) -> str | None:
    """`text` with a raised minus and its exponent's digits (`group`) written plain where they stand (`10-3/L`, `m·s-2`,
    the text path's convention), or None where that is not sure: a digit unread, or no place in the text for them.
    The exponent ends where the word's letters right of it (`tall_at`, counted) begin in the text, and what was read
    for it just before is either the digits as read by shape, maybe after marks (`106/L`, the minus dropped; `10"6`),
    or marks, maybe followed by digits (`cm'!`, `10"!2`), no more characters than the minus and its digits. Counting
    the letters left of it would not do: letters touching on a blurred scan are one piece (`cm`, `10`)."""
    digits = "".join(g.text for g in group[1:])
    if len(digits) != len(group) - 1 or not digits.isdigit():
        return None
    after = sum(1 for x in tall_at if x > group[-1].right)
    tall = [i for i, ch in enumerate(text) if _tall_char(ch)]
    if after >= len(tall):
        return None
    rest = tall[len(tall) - after] if after else len(text.rstrip(",.;:"))
    if text[:rest].endswith(digits) and rest - len(digits) > 0:
        cut = rest - len(digits)
    else:
        read = _EXPONENT_READ.search(text[:rest])
        if read is None or read.end() - read.start() > len(group):
            return None
        cut = read.start()
    while cut > 1 and not _tall_char(text[cut - 1]) and not text[cut - 1].isspace():
        cut -= 1
    if cut == 0 or not _tall_char(text[cut - 1]):
        return None
    return text[:cut] + "-" + digits + text[rest:]


def _doubled_dropped(text: str, at: int, glyph: Glyph, glyphs: list[Glyph], left: int, right: int) -> str:
    """`text` without a raised mark read beside the glyph's character at `at` (`T"°`, `100X'"`: Tesseract read one ring or
    tick twice) where no other raised glyph of the word stands at that mark's place; a mark that may stand on the line
    (`?`) stays."""
    if not glyph.raised:
        return text
    spans = char_spans(text, left, right)
    pitch = (right - left) / max(len(text), 1)
    for j in (at + 1, at - 1):
        if not 0 <= j < len(text) or text[j] not in DOUBLED_MARKS:
            continue
        if any(g is not glyph and g.raised and spans[j][0] - 0.5 * pitch <= (g.left + g.right) / 2 <= spans[j][1] + 0.5 * pitch
               for g in glyphs):
            continue
        return text[:j] + text[j + 1:]
    return text


def read_digits(glyphs: list[Glyph], page: Image.Image, cap: float, languages: tuple[str, ...], dpi: int,
                omp_thread_limit: int | None, folder: Path) -> list[Glyph]:
    """The digit glyphs read by Tesseract with a digit alphabet, each crop upscaled to `DIGIT_READ_HEIGHT` pixels (or
    `cap`, where taller) and the crops stacked one per line (`cellreads.read_digit_confs`); a glyph read as one digit at
    `DIGIT_CONF` or more takes it, any other keeps no text. Side by side in one strip (v1), Tesseract read the strip as
    one word however wide the gaps, and one crop misread or dropped left every digit of the page unread."""
    from pipeline.extract.ocr.cellreads import read_digit_confs

    digits = [g for g in glyphs if g.kind == "digit"]
    if not digits:
        return glyphs
    height = max(int(cap), DIGIT_READ_HEIGHT)
    gap = max(height // 2, 8)
    grey = page.convert("L")
    scaled = []
    for g in digits:
        crop = grey.crop((g.left - 1, g.top - 1, g.right + 1, g.bottom + 1))
        factor = height / max(crop.height, 1)
        scaled.append(crop.resize((max(1, round(crop.width * factor)), height), Image.Resampling.LANCZOS))
    canvas = Image.new("L", (sum(s.width for s in scaled) + gap * (len(scaled) + 1), height + 2 * gap), 255)
    boxes, x = [], gap
    for s in scaled:
        canvas.paste(s, (x, gap))
        boxes.append((x - 2, gap - 2, x + s.width + 2, gap + height + 2))
        x += s.width + gap
    reads = read_digit_confs(canvas, boxes, gap, languages, dpi, omp_thread_limit)
    read = {id(g): r[0] for g, r in zip(digits, reads) if r is not None and len(r[0]) == 1 and r[1] >= DIGIT_CONF}
    return [replace(g, text=read.get(id(g), "")) if g.kind == "digit" else g for g in glyphs]


def is_candidate(text: str) -> bool:
    """A word worth looking at: one holding a digit, a raised mark, a capital followed by a low mark, or a capital and
    one small letter alone (`Te` for `T°`: a ring read as a small letter)."""
    if any(ch.isdigit() or ch in RAISED_MARKS for ch in text):
        return True
    core = text.rstrip(",.;:")
    if len(core) == 2 and core[0].isupper() and core[1].islower():
        return True
    return any(a.isupper() and b in LOW_MARKS for a, b in zip(text, text[1:]))


def small_glyphs(words: list[Word], scanned: np.ndarray, page: Image.Image, languages: tuple[str, ...],
                 dpi: int, omp_thread_limit: int | None, folder: Path, skip: Sequence[Word] = ()) -> tuple[list[Word], list[tuple[str, str]]]:
    """`words` with their raised and lowered small glyphs read by shape (module docstring), and each change (read, now)."""
    sizes = line_sizes(words)
    skipped = {id(w) for w in skip}
    found: dict[int, tuple[Word, list[Glyph], float]] = {}
    pieces: dict[int, tuple[list[Piece], list[Piece]]] = {}
    letters: dict[int, list[float]] = {}
    ink = scanned < INK_BELOW
    for members in words_by_line(words).values():
        for at, word in enumerate(members):
            if id(word) in skipped or not is_candidate(word.text) or word.right <= word.left:
                continue
            cap = CAP_HEIGHT_PER_SIZE * sizes[word.line]
            after = members[at + 1].left if at + 1 < len(members) else word.right + int(cap)
            reach = max(0, min(int(0.5 * cap), after - word.right - 2))
            if id(word.line) not in pieces:
                pieces[id(word.line)] = line_pieces(scanned, members, cap)
            glyphs, tall = find_glyphs(word, pieces[id(word.line)], ink, scanned, cap, reach)
            if glyphs:
                found[id(word)] = (word, glyphs, cap)
                letters[id(word)] = tall
    if not found:
        return words, []
    digits = [g for _, glyphs, _ in found.values() for g in glyphs if g.kind == "digit"]
    if digits:
        cap = median(c for _, _, c in found.values())
        read = iter(read_digits(digits, page, cap, languages, dpi, omp_thread_limit, folder))
        by_digit = {id(g): next(read) for g in digits}
        found = {k: (w, [by_digit.get(id(g), g) for g in glyphs], c) for k, (w, glyphs, c) in found.items()}
    changes: list[tuple[str, str]] = []
    mended: dict[int, Word] = {}
    for key, (word, glyphs, _) in found.items():
        text = mend_word(word.text, word.left, word.right, glyphs, len(letters[key]), letters[key])
        if text != word.text:
            changes.append((word.text, text))
            mended[key] = replace(word, text=text)
    return [mended.get(id(w), w) for w in words], changes
