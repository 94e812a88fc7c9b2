"""Rows of words drawn in a real typeface at a scan's size, softened and grained as a noisy scan is, with each word's
box at its ink as Tesseract gives it: the lines the `stray-letters` and `number-spaces` tests measure."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr.words import INK_BELOW, Word

FONTS = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
         Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf")]


@dataclass(frozen=True)
class Scan:
    dpi: int
    blur: float  # px at that resolution
    noise: float  # standard deviation of the grain, a share of full scale

    @property
    def size(self) -> int:
        """A 10 pt line's em in pixels."""
        return round(10 * self.dpi / 72)


SCANS = [Scan(150, 0.6, 0.02), Scan(200, 0.5, 0.03), Scan(250, 0.5, 0.04), Scan(300, 0.5, 0.03), Scan(300, 0.8, 0.04)]


def drawn_row(text: str, font_path: Path, scan: Scan, *, seed: int = 0) -> tuple[np.ndarray, list[Word]]:
    """`text` drawn as one line (spaces as the font sets them; `|` draws nothing and parts no word: a narrow white of
    half a space's width), blurred and grained; the page's ink (`INK_BELOW`) and one word a run of non-spaces."""
    grey, words = drawn_grey(text, font_path, scan, seed=seed)
    return grey < INK_BELOW, words


def drawn_grey(text: str, font_path: Path, scan: Scan, *, seed: int = 0, shade: int = 0) -> tuple[np.ndarray, list[Word]]:
    """`drawn_row`'s line printed in grey `shade` (0: black; 165: a key grid's pale answers), as the grey page (uint8,
    as `engine.prepared_before_whitening` leaves a scan) and its words boxed at their ink."""
    if not font_path.is_file():
        pytest.skip(f"{font_path} not installed")
    font = ImageFont.truetype(str(font_path), scan.size)
    image = Image.new("L", (80 + int(font.getlength(text)) + scan.size, 3 * scan.size), 255)
    draw = ImageDraw.Draw(image)
    half = font.getlength(" ") / 2
    x, y, words = 40.0, float(scan.size), []
    for token in text.split(" "):
        if token:
            left = right = top = bottom = None
            for piece in token.split("|"):
                box = draw.textbbox((x, y), piece, font=font)
                draw.text((x, y), piece, font=font, fill=shade)
                left = box[0] if left is None else left
                top = box[1] if top is None else min(top, box[1])
                bottom = box[3] if bottom is None else max(bottom, box[3])
                right = box[2]
                x += font.getlength(piece) + half
            x -= half
            words.append(Word(token.replace("|", ""), 90.0, int(left), int(top), int(right), int(bottom), (1, 1, 1)))
        x += font.getlength(" ")
    printed = np.asarray(image) < (shade + 255) / 2  # the box at the print's half tone (`INK_BELOW` for black)
    words = [_at_ink(w, printed) for w in words]
    grey = np.asarray(image.filter(ImageFilter.GaussianBlur(scan.blur)), dtype=np.float32)
    grain = np.random.default_rng(seed).normal(0.0, 255 * scan.noise, grey.shape)
    return np.clip(grey + grain, 0, 255).astype(np.uint8), words


def _at_ink(word: Word, printed: np.ndarray) -> Word:
    """The word's box shrunk to its ink, as Tesseract boxes a word."""
    columns = np.flatnonzero(printed[word.top : word.bottom, word.left : word.right].any(axis=0))
    rows = np.flatnonzero(printed[word.top : word.bottom, word.left : word.right].any(axis=1))
    return Word(word.text, word.conf, word.left + int(columns[0]), word.top + int(rows[0]), word.left + int(columns[-1]) + 1,
                word.top + int(rows[-1]) + 1, word.line)


def text_height(words: list[Word]) -> float:
    """The page's text height as `_measure` takes it: the median height of words of 3+ letters."""
    heights = sorted(w.bottom - w.top for w in words if sum(c.isalpha() for c in w.text) >= 3)
    return float(heights[len(heights) // 2])
