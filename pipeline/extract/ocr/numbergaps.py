"""A number and a word read as one token where the print sets a word space between them: split there, or, where the
white is between a letter gap and a word space, left whole and unsure.

On a noisy 300 dpi scan Tesseract read `1904 lice`, `81 do`, `zikzak 54`, `os 64` as `1904lice`, `81do`, `zikzak54`,
`os64` (with the option label before them, `D)1904lice`): the white between the digits and the letters was 17–21 px,
the line's word spaces 17–20, the token's own letter gaps at most 8. So the white where the token turns from digits to
letters (or back) is measured against its line's word space (`words.word_spaces`, the median white between the line's
words): at least SPLIT_FROM of it, and OVER_LETTER_GAPS times the token's median gap between glyphs, splits the token there; from
UNCLEAR_FROM of it the token stays as read and is unsure (`UNSURE_CONF`, which the certainty flag reads). A code printed
tight (`B12`, `CD4`, `2a`, `10km`) has no such white and stays as read. Where the ink parts every character the gap's
index is the boundary's; else the white nearest where the boundary falls by its share of the characters, within
NEAR_BOUNDARY characters' mean width (NEAR_SHARE of the token's width at most).
"""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.words import Word, letter_gaps, word_spaces

SPLIT_FROM = 0.8  # of the line's word space
UNCLEAR_FROM = 0.5  # of the line's word space: whiter than a letter gap, narrower than a space
OVER_LETTER_GAPS = 2.0  # times the token's median gap between glyphs
# Characters' mean widths between the white and where the boundary falls by its share of the characters (a token the
# ink does not part at every character): `(C)1917roketler` 0.5, `oD)81do` 0.3 on the 300 dpi scan; a quarter of the
# token's width let a formula's `=SI(E20>1000;…` take a bracket's white as its `E|20` space at 150 dpi.
NEAR_BOUNDARY = 1.0
NEAR_SHARE = 0.25  # and at most this share of the token's width (a token of two or three characters)
UNSURE_CONF = 0.0
_BOUNDARY = re.compile(r"(?<=\d)(?=[^\W\d_])|(?<=[^\W\d_])(?=\d)")


def split_number_words(words: list[Word], ink: np.ndarray) -> tuple[list[Word], list[str]]:
    """`words` with each number-and-word token split where the ink shows a word space between them (a white between a
    letter gap and a word space: the token kept, unsure), and what was done, for a note (`1904lice → 1904 lice`)."""
    spaces = word_spaces(words)
    result: list[Word] = []
    changes: list[str] = []
    for word in words:
        space = spaces.get(word.line, 0.0)
        if not space or word.bottom <= word.top or not _BOUNDARY.search(word.text):
            result.append(word)
            continue
        pieces, unclear = _split(word, ink, space)
        if len(pieces) > 1:
            changes.append(f"{word.text} → {' '.join(p.text for p in pieces)}")
        elif unclear:
            pieces = [replace(word, conf=min(word.conf, UNSURE_CONF))]
            changes.append(f"{word.text} unsure")
        result.extend(pieces)
    return result, changes


def _split(word: Word, ink: np.ndarray, space: float) -> tuple[list[Word], bool]:
    """The token's pieces (itself alone when no boundary shows a space) and whether a boundary's white was unclear."""
    gaps, gap_starts = letter_gaps(ink, word)
    if gaps.size == 0:
        return [word], False
    width = max(word.right - word.left, 1)
    cuts: list[tuple[int, int]] = []  # (gap index, character index)
    unclear = False
    whiter = np.array([at for at in range(gaps.size) if gaps[at] >= UNCLEAR_FROM * space
                       and (gaps.size == 1 or gaps[at] >= OVER_LETTER_GAPS * float(np.median(np.delete(gaps, at))))], dtype=int)
    for found in _BOUNDARY.finditer(word.text):
        k = found.start()
        at = _gap_at(k, word.text, gaps, gap_starts, width, whiter)
        if at is None:
            continue
        if gaps[at] >= SPLIT_FROM * space and all(at != c for c, _ in cuts):
            cuts.append((at, k))
        else:
            unclear = True
    if not cuts:
        return [word], unclear
    pieces, left, text_from = [], word.left, 0
    for at, k in sorted(cuts):
        ink_end = word.left + int(gap_starts[at])
        pieces.append(replace(word, text=word.text[text_from:k], left=left, right=ink_end))
        left, text_from = ink_end + int(gaps[at]), k
    pieces.append(replace(word, text=word.text[text_from:], left=left))
    return pieces, unclear


def _gap_at(k: int, text: str, gaps: np.ndarray, gap_starts: np.ndarray, width: int, whiter: np.ndarray) -> int | None:
    """The index of the white between characters k-1 and k when it is whiter than a letter gap (`whiter`): that gap
    where the ink parts every character, else the whiter gap nearest where character k starts by its share of the
    characters, within NEAR_BOUNDARY characters' mean width; None when there is none."""
    if gaps.size == len(text) - 1:
        return k - 1 if k - 1 in whiter else None
    if whiter.size == 0:
        return None
    distance = np.abs(gap_starts[whiter] + gaps[whiter] / 2 - width * k / len(text))
    nearest = int(np.argmin(distance))
    return int(whiter[nearest]) if distance[nearest] <= min(NEAR_BOUNDARY * width / len(text), NEAR_SHARE * width) else None
