"""Signs of science and arithmetic read as Latin letters, told apart by their ink: `×` from `x`, `μ` from `u`, `p`, `n`.

Medicine, science and arithmetic exams print a multiplication sign between numbers (`3 × 4`, `2×10`) and micro units
after them (`47000/μl`, `250 μg`). On scans Tesseract, whose Latin models hold neither sign in their words, reads the
cross as the letter `x` (and a printed letter `x` now and then as `×`), and the micro sign as the Latin letter its
strokes come closest to: `u`, `p`, `n`, `H`, `1`, `L`. The text alone cannot tell which was printed (a typesetter may
print the letter `x` between numbers, or `ug` for `μg`); the glyph's place on its line can, the same in every script
and face:

- the line's baseline: the median bottom of its pieces of ink as tall as letters within `BASELINE_REACH` cap heights
  (`smallglyphs.find_glyphs`' measure), and its cap height;
- a cross (`x`, `X`, `×` read between or beside numbers: `3 x 4`, `7x8`, `10×`): the multiplication sign stands on
  the mathematical axis, its bottom `RAISED_FROM` cap heights or more over the baseline; the letter `x` stands on the
  baseline (its bottom within `ON_BASELINE` of it). The piece of ink at the character's place decides, one way or the
  other; a piece between the two is unclear and stays as read;
- a micro sign (a letter read before a unit symbol `MICRO_UNITS` names, in a word after a number or a `/`:
  `47000/pl`, `250 Hg`, `3 um`): `μ` is a small letter's height with a stem that reaches `DESCENDS_FROM` cap heights or more under
  the baseline and is open at its top (two strokes rise apart to the x-height, like `u`'s); `u` has no descender, `p`
  a bowl closed at its top, `n` an arch. Only a piece that shows all three of a micro sign's features is written `μ`.

A sign Tesseract read where the ink shows the letter is written as the letter (the `x` of `10 x 20 cm`); nothing is
written where the piece at the character's place is unclear (touching its neighbours, too tall, too small).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from statistics import median

import numpy as np

from pipeline.extract.ocr.smallglyphs import DARK_BELOW, LETTER_FROM, Piece, _pieces, char_spans
from pipeline.extract.ocr.words import CAP_HEIGHT_PER_SIZE, Word, line_sizes, words_by_line

BASELINE_REACH = 6.0  # cap heights either side of a word within which its line's letters give the baseline
RAISED_FROM = 0.1  # cap heights over the baseline a multiplication sign's bottom stands at least (Liberation 0.16-0.20; DejaVu 0.04-0.05, too low to tell)
ON_BASELINE = 0.03  # cap heights: a letter's bottom is within this of the baseline (a sign's: DejaVu 0.045 and more)
CROSS_HEIGHT = (0.35, 0.85)  # cap heights: a cross (the sign or the letter) is this tall
DESCENDS_FROM = 0.15  # cap heights under the baseline a micro sign's stem reaches at least (its descender)
SMALL_TOP_TO = 0.85  # cap heights over the baseline a micro sign's top stays under (a small letter, not an ascender)
SMALL_TOP_FROM = 0.45  # ... and over (the x-height)
PALE_SHARE = 0.8  # of the way from a piece's darkest grey to its paper: what is ink in the open-top test
OPEN_DEPTH = 0.45  # of the piece's height over the baseline: how far down paper reaches between a micro sign's strokes
WIDE_TO = 1.1  # cap heights: a piece wider is letters the blur joined, unclear

CROSSES = frozenset("xX×")
# Unit symbols a micro prefix is printed before (SI and the clinical ones): the word's letters after the micro sign.
MICRO_UNITS = frozenset({"g", "l", "L", "m", "mol", "s", "U", "UI", "IU", "A", "V", "F", "Ci", "Eq", "eq", "M", "Pa", "W", "Gy", "Sv"})
# The letters and digits a scan of `μ` is read as (any other letter there is taken as printed).
MICRO_READINGS = frozenset("upnHL1µμy")
_NUMBER_END = re.compile(r"\d[.,]?$")
_MICRO_WORD = re.compile(r"^(?P<head>(?:.*\d)?/?)(?P<sign>.)(?P<unit>[A-Za-z]{1,3})(?P<tail>(?:/[A-Za-z0-9]+)?[.,;:)]*)$")


def _cross_places(members: list[Word], at: int) -> list[int]:
    """The characters of `members[at]` that may be a multiplication sign: a cross alone between two numbers, or one
    glued between or after digits (`7x8`, `10×`, `×20` after a number)."""
    word = members[at]
    text = word.text
    before = members[at - 1].text if at > 0 else ""
    after = members[at + 1].text if at + 1 < len(members) else ""
    if text in CROSSES:
        return [0] if _NUMBER_END.search(before) and after[:1].isdigit() else []
    places = []
    for i, ch in enumerate(text):
        if ch not in CROSSES:
            continue
        left = text[i - 1] if i > 0 else (before[-1:] if _NUMBER_END.search(before) else "")
        right = text[i + 1] if i + 1 < len(text) else (after[:1] if after[:1].isdigit() else "")
        if left.isdigit() and (right.isdigit() or (i + 1 == len(text) and not right)) or (i == 0 and left and right.isdigit()):
            places.append(i)
    return places


def _micro_place(members: list[Word], at: int) -> int | None:
    """The character of `members[at]` that may be a micro sign: a letter `MICRO_READINGS` holds before a unit symbol,
    in a word after a number (in it, before a `/`, or the word before)."""
    text = members[at].text
    found = _MICRO_WORD.match(text)
    if found is None or found["sign"] not in MICRO_READINGS or found["unit"] not in MICRO_UNITS:
        return None
    head = found["head"]
    before = members[at - 1].text if at > 0 else ""
    if head and not any(ch.isdigit() for ch in head):
        return None
    if not head and not _NUMBER_END.search(before):
        return None
    return len(head)


def _piece_at(pieces: list[Piece], span: tuple[float, float], word: Word, cap: float,
              below: float | None = None) -> Piece | None:
    """The piece of ink as tall as a small letter whose middle stands nearest the middle of `span` (the character's
    estimated place), within a third of its width of it; where `below` is given (page row), the nearest that reaches
    under it (a descender: the character's place is an estimate, its neighbour's piece may stand nearer). None where
    there is none or it is wider than a letter."""
    a, b = span
    wide = (b - a) / 3
    found = [p for p in pieces if a - wide <= (p[0] + p[2]) / 2 <= b + wide and p[3] - p[1] >= 0.3 * cap
             and p[3] > word.top - 0.3 * cap and p[1] < word.bottom + 0.5 * cap and (below is None or p[3] >= below)]
    if not found:
        return None
    nearest = min(found, key=lambda p: abs((p[0] + p[2]) / 2 - (a + b) / 2))
    return nearest if nearest[2] - nearest[0] <= WIDE_TO * cap else None


def cross_sign(piece: Piece, baseline: float, cap: float) -> str | None:
    """`×` where the piece stands on the mathematical axis, `x` where it stands on the baseline, None where unclear."""
    height = piece[3] - piece[1]
    if not CROSS_HEIGHT[0] * cap <= height <= CROSS_HEIGHT[1] * cap:
        return None
    raised = baseline - piece[3]
    if raised >= RAISED_FROM * cap:
        return "×"
    if abs(raised) <= ON_BASELINE * cap:
        return "x"
    return None


def is_micro(piece: Piece, scanned: np.ndarray, baseline: float, cap: float) -> bool:
    """The piece is a micro sign: a small letter's height over the baseline, a stem under it, and open at its top:
    paper from its top reaches `OPEN_DEPTH` of its height over the baseline down between its strokes (`u`'s shape; a
    `p`'s bowl closes it, an `n`'s arch too). Ink is cut at `PALE_SHARE` of the way from the piece's darkest grey to
    its paper, so a faint hairline (the top of a serif face's bowl, blurred) still closes."""
    left, top, right, bottom, _ = piece
    if bottom - baseline < DESCENDS_FROM * cap or not SMALL_TOP_FROM * cap <= baseline - top <= SMALL_TOP_TO * cap:
        return False
    body = scanned[max(top - 1, 0):int(round(baseline)), left:right].astype(float)
    width = right - left
    if body.size == 0 or width < 3:
        return False
    paper, dark = float(np.percentile(body, 95)), float(body.min())
    ink = body < dark + PALE_SHARE * (paper - dark)
    middle = ink[:, int(0.25 * width):max(int(0.25 * width) + 1, int(round(0.75 * width)))]
    depths = [int(np.argmax(column)) if column.any() else column.size for column in middle.T]
    return max(depths) >= OPEN_DEPTH * ink.shape[0]


def _baseline(word: Word, pieces: list[Piece], cap: float) -> float | None:
    letters = [p for p in pieces if LETTER_FROM * cap <= p[3] - p[1] <= 1.6 * cap
               and word.left - BASELINE_REACH * cap <= (p[0] + p[2]) / 2 <= word.right + BASELINE_REACH * cap]
    if len(letters) < 3:
        return None
    return float(median(p[3] for p in letters))


def is_candidate(members: list[Word], at: int) -> bool:
    return bool(_cross_places(members, at)) or _micro_place(members, at) is not None


def sign_shapes(words: list[Word], scanned: np.ndarray, skip: Sequence[Word] = ()) -> tuple[list[Word], list[tuple[str, str]]]:
    """`words` with each cross and micro sign written as its ink shows it (module docstring), and each change."""
    sizes = line_sizes(words)
    skipped = {id(w) for w in skip}
    mended: dict[int, Word] = {}
    changes: list[tuple[str, str]] = []
    for members in words_by_line(words).values():
        pieces: list[Piece] | None = None
        for at, word in enumerate(members):
            if id(word) in skipped or word.right <= word.left:
                continue
            crosses, micro = _cross_places(members, at), _micro_place(members, at)
            if not crosses and micro is None:
                continue
            cap = CAP_HEIGHT_PER_SIZE * sizes[word.line]
            if pieces is None:
                box = (min(w.left for w in members) - 1, int(min(w.top for w in members) - 0.5 * cap),
                       max(w.right for w in members) + 1, int(max(w.bottom for w in members) + 0.5 * cap))
                pieces = _pieces(scanned, box, DARK_BELOW)
            baseline = _baseline(word, pieces, cap)
            if baseline is None:
                continue
            text = word.text
            spans = char_spans(text, word.left, word.right)
            for i in crosses:
                piece = _piece_at(pieces, spans[i], word, cap)
                sign = cross_sign(piece, baseline, cap) if piece is not None else None
                if sign is not None and sign != text[i] and not (sign == "x" and text[i] == "X"):
                    text = text[:i] + sign + text[i + 1:]
            if micro is not None and text[micro] not in "µμ":
                piece = _piece_at(pieces, spans[micro], word, cap, below=baseline + DESCENDS_FROM * cap)
                if piece is not None and is_micro(piece, scanned, baseline, cap):
                    text = text[:micro] + "μ" + text[micro + 1:]
            if text != word.text:
                changes.append((word.text, text))
                mended[id(word)] = replace(word, text=text)
    return [mended.get(id(w), w) for w in words], changes
