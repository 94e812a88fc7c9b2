"""Words of wide glyphs (Hangul, Han, kana) that Tesseract cut into pieces put back together by the pitch
of their glyphs. Tesseract's Korean data puts a space between syllables of one word now and then
(`경 수 로` for `경수로`, `려 야` for `려야`, on lines of their own), so the option read no longer
matched the sheet.

Printed Korean keeps a space between words, none between a word's syllables, and sets every syllable
on the same square: from one syllable's middle to the next's is one em within a word, one em and a
space across a word space. The white between two boxes says less (a narrow "려" leaves more white
beside it than a word space after a wide one). Between two neighbouring pieces on a row, the one ending
and the other starting with a wide glyph (Unicode East Asian width W or F; no script is named), the
distance from the middle of the left one's last glyph to the middle of the right one's first (each
piece's width shared evenly by its glyphs), in the page's wide-glyph heights, decides: under
`WORD_PITCH` they are one word. Measured on Noto Sans CJK at 150–300 dpi: 0.55–1.15 within a word,
1.25 and more across a word space.

In a script set solid (language data `word_spaces: false`) Tesseract also reads a word's last glyph apart, unsurely
and in a box taller than its row (`利根` and a `川` of confidence 45 over 1.7 row heights, its ink inside the box of
`利根`, which is three glyphs wide): `noise` would drop it as a pictogram. `lost_glyph_ends` gives it back to the word
whose box holds its ink and has room for it (`ROOM_FOR_GLYPH`).

A box with no room for another glyph holds no lost one: a short piece of wide glyphs inside it, read less surely than
the word, is the word's own ink read a second time (`무언` at confidence 97 and a `므` of confidence 65 over its upper
half, 17 px of the row's 40), not the next piece of it. `stacked_readings` drops such a piece, with a note, before any
piece is joined by its pitch. A piece inside a box may be the word's real glyph all the same (`탄` at confidence 0
boxed two glyphs wide over a `다` read at 97): only the short, less sure one, with no room for it, is dropped. Nothing
here names a script: Hangul, Han and kana alike, any wide glyph.
"""
from __future__ import annotations

import unicodedata

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.words import Word, joined_chains, same_row
from pipeline.languages import language_for_tesseract

WORD_PITCH = 1.2  # glyph middle to glyph middle, in wide-glyph heights, under which two pieces are one word
# The same where the script sets no word spaces (Japanese, Chinese: language data `word_spaces: false`): glyphs set
# solid stand one em apart (about 1.2 heights), glyphs across an ideographic space or a column's gap two em or more
# (2.3 heights and more). Only wide glyphs either side, as with word spaces: a digit or a Latin letter beside a wide
# glyph (`1.` before a Chinese stem, `A.` before an option) stays apart, its space is the parser's to read.
UNSPACED_PITCH = 1.7
# A word's box (its width over its row's height) holds one glyph more than its text when it is this many cells wider
# than its glyphs at least: n glyphs set solid are about n + 0.2 heights wide (an em is 1.1 heights, a glyph's ink
# 0.9); a glyph lost at its end leaves its box a whole cell wider than its text (`利根` boxed 2.96 heights wide).
ROOM_FOR_GLYPH = 0.6
LOST_GLYPHS = 2  # a word of this many wide glyphs at most is a piece that may have been read apart
# Digits set full-width (`７１０年`) stand a glyph's cell apart, as wide glyphs do (about 1.1 wide-glyph heights from
# middle to middle); plain digits half that (0.55 em, about 0.6 heights). Tesseract reads both as plain digits.
STACKED_HEIGHT = 0.7  # a piece this share of its word's row height at most, inside the word's box, is a second reading
FULL_WIDTH_PITCH = 0.85  # wide-glyph heights from one digit's middle to the next's, at least, for full-width digits
_TO_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def sets_no_word_spaces(languages: Sequence[str]) -> bool:
    """A language of the page sets no word spaces (language data `word_spaces: false`: Japanese, Chinese)."""
    return any((found := language_for_tesseract(name)) is not None and not found.word_spaces for name in languages)


def unspaced_inputs(settings: OcrSettings) -> str | None:
    """`unspaced` for a page in a script without word spaces; None otherwise, so every other page keeps its cached
    reading (a pass's cache inputs: what it does differently on such a page). `/2`: glyphs read apart inside a word's box
    given back, full-width digits told by their pitch, no mark put back after a wide glyph."""
    return f"unspaced {UNSPACED_PITCH}/2 {ROOM_FOR_GLYPH} {FULL_WIDTH_PITCH}" if sets_no_word_spaces(settings.languages) else None


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def wide_glyph_height(words: list[Word]) -> float:
    """The median height of words written in wide glyphs only (0: none on the page)."""
    heights = sorted(w.bottom - w.top for w in words if w.text and all(_wide(ch) for ch in w.text))
    return float(heights[len(heights) // 2]) if heights else 0.0


def join_wide_glyph_pieces(words: list[Word], unspaced: bool = False) -> list[Word]:
    """`words` with neighbouring pieces of one word of wide glyphs joined (see the module), on whatever
    Tesseract line each piece is: the joined word keeps the left one's place and line. `unspaced`: the page's
    script sets no word spaces, and pieces are joined up to `UNSPACED_PITCH`."""
    height = wide_glyph_height(words)
    if not height:
        return words
    pitch = UNSPACED_PITCH if unspaced else WORD_PITCH
    pieces = [w for w in words if w.text and (_wide(w.text[0]) or _wide(w.text[-1]))]
    follows: dict[int, Word] = {}  # id of a piece -> the piece of the same word right of it
    for left in pieces:
        beside = [w for w in pieces if w is not left and same_row(left, w) and w.left > left.left and w.left < left.right + height]
        if beside:
            right = min(beside, key=lambda w: w.left)
            if _wide(left.text[-1]) and _wide(right.text[0]) and _pitch(left, right) < pitch * height:
                follows[id(left)] = right
    return joined_chains(words, follows)[0]


def _pitch(left: Word, right: Word) -> float:
    """From the middle of `left`'s last glyph to the middle of `right`'s first, in pixels."""
    last = left.right - (left.right - left.left) / len(left.text) / 2
    first = right.left + (right.right - right.left) / len(right.text) / 2
    return first - last


def lost_glyph_ends(words: list[Word]) -> list[Word]:
    """`words` with each piece of at most `LOST_GLYPHS` wide glyphs whose middle stands inside the box of a word of its
    row, a word whose box has room for the piece's glyphs and no more (`ROOM_FOR_GLYPH`) and holds no other word, put into that word at the glyph its place
    in the box gives (the box shared evenly by the glyphs of both: Tesseract drops a glyph inside a word too). The joined word keeps the word's row (the piece's box is
    Tesseract's and may be taller) and the lower confidence of the two."""
    pieces = [w for w in words if 0 < len(w.text) <= LOST_GLYPHS and all(_wide(ch) for ch in w.text)]
    if not pieces:
        return words
    taken: dict[int, Word] = {}  # id of a host word -> the host with its lost glyphs
    gone: set[int] = set()
    for piece in pieces:
        middle = (piece.left + piece.right) / 2
        hosts = [w for w in words if w is not piece and id(w) not in gone and w.text and w.left <= middle <= w.right
                 and w.top <= (piece.top + piece.bottom) / 2 <= w.bottom and _wide(w.text[0]) and _wide(w.text[-1])]
        if len(hosts) != 1 or id(hosts[0]) in taken or any(
                w is not piece and w is not hosts[0] and same_row(w, hosts[0]) and hosts[0].left < (w.left + w.right) / 2 < hosts[0].right
                for w in words):
            continue  # the box holds another word of its row too (a digit between two glyphs, a box over its neighbours)
        host = hosts[0]
        cells = (host.right - host.left) / max(1, host.bottom - host.top)
        if not len(host.text) + len(piece.text) - 1 + ROOM_FOR_GLYPH <= cells <= len(host.text) + len(piece.text) + ROOM_FOR_GLYPH:
            continue  # no room for the piece, or room for more than it: a box over more than the two
        pitch = (max(host.right, piece.right) - min(host.left, piece.left)) / (len(host.text) + len(piece.text))
        at = min(len(host.text), max(0, round((piece.left - min(host.left, piece.left)) / pitch)))
        taken[id(hosts[0])] = replace(host, text=host.text[:at] + piece.text + host.text[at:],
                                      conf=min(host.conf, piece.conf), left=min(host.left, piece.left),
                                      right=max(host.right, piece.right))
        gone.add(id(piece))
    return [taken.get(id(w), w) for w in words if id(w) not in gone]


def stacked_readings(words: list[Word]) -> tuple[list[Word], list[tuple[Word, Word]]]:
    """`words` less each piece of at most `LOST_GLYPHS` wide glyphs whose middle stands inside the box of a word of wide
    glyphs read more surely, no more than `STACKED_HEIGHT` of that word's height, where the word's box has no room for
    the piece's glyphs (`ROOM_FOR_GLYPH`, as `lost_glyph_ends` measures room): the word's ink read a second time. With
    the dropped pieces, each beside the word it stood over (for the page's notes)."""
    pieces = [w for w in words if 0 < len(w.text) <= LOST_GLYPHS and all(_wide(ch) for ch in w.text)]
    dropped: list[tuple[Word, Word]] = []
    gone: set[int] = set()
    for piece in pieces:
        x, y = (piece.left + piece.right) / 2, (piece.top + piece.bottom) / 2
        for host in words:
            height = host.bottom - host.top
            if (host is piece or id(host) in gone or not host.text or not (_wide(host.text[0]) and _wide(host.text[-1]))
                    or not (host.left <= x <= host.right and host.top <= y <= host.bottom) or height <= 0
                    or piece.bottom - piece.top > STACKED_HEIGHT * height or piece.conf >= host.conf):
                continue
            if (host.right - host.left) / height < len(host.text) + len(piece.text) - 1 + ROOM_FOR_GLYPH:
                dropped.append((piece, host))
                gone.add(id(piece))
                break
    return [w for w in words if id(w) not in gone], dropped


def stacked_note(dropped: list[tuple[Word, Word]]) -> tuple[str, ...]:
    """The page's note of the pieces `stacked_readings` dropped (none: no note)."""
    if not dropped:
        return ()
    return (f"wide glyphs read twice: {len(dropped)} short piece(s) over a surer word's ink dropped ("
            + ", ".join(f"'{piece.text}' over '{host.text}'" for piece, host in dropped) + ")",)


def full_width_digits(words: list[Word], ink: np.ndarray) -> list[Word]:
    """`words` with each run of two or more digits opening a word written full-width where its digits stand a wide
    glyph's cell apart (`FULL_WIDTH_PITCH`), measured on the page's `ink` (the digits' pieces of ink in the word's box,
    one a digit): Tesseract reads `７１０年` as `710` and `年`, and the digits so written are wide glyphs, joined to the
    glyphs beside them as any. A run whose ink does not part into one piece a digit is left as read."""
    height = wide_glyph_height(words)
    if not height:
        return words
    out = []
    for word in words:
        digits = len(word.text) - len(word.text.lstrip("0123456789"))
        if digits >= 2:
            middles = _piece_middles(ink, word)
            if len(middles) >= digits and (middles[digits - 1] - middles[0]) / (digits - 1) >= FULL_WIDTH_PITCH * height:
                word = replace(word, text=word.text[:digits].translate(_TO_FULL_WIDTH) + word.text[digits:])
        out.append(word)
    return out


def _piece_middles(ink: np.ndarray, word: Word) -> list[float]:
    """The middles of the runs of inked columns in `word`'s box, left to right (pixels, in the page)."""
    box = np.asarray(ink[max(0, word.top):max(0, word.bottom), max(0, word.left):max(0, word.right)])
    if not box.size:
        return []
    inked = np.concatenate(([False], box.any(axis=0), [False])).astype(np.int8)
    edges = np.diff(inked)
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    return [max(0, word.left) + (a + b - 1) / 2 for a, b in zip(starts, ends)]
