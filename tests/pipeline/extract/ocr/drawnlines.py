"""A line of words drawn in a real typeface and blurred, each word's box its ink's: the input of the word passes
that decide by a word's ink (`sign-shapes`, `confused-letters`), without a page reading around it."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr.words import Word

FONT_DIR = Path("/usr/share/fonts/truetype")


def drawn_line(texts: list[str], font_path: Path, size: int, blur: float) -> tuple[np.ndarray, list[Word]]:
    """`texts` drawn as one line of words and blurred; each word's box is its ink's."""
    if not font_path.is_file():
        pytest.skip(f"{font_path} not installed")
    font = ImageFont.truetype(str(font_path), size)
    image = Image.new("L", (60 + size * sum(len(t) + 1 for t in texts), 4 * size), 255)
    draw = ImageDraw.Draw(image)
    words, x = [], 20
    for text in texts:
        box = [int(v) for v in draw.textbbox((x, 2 * size), text, font=font, anchor="ls")]
        draw.text((x, 2 * size), text, font=font, fill=0, anchor="ls")
        words.append(Word(text, 90.0, box[0], box[1], box[2], box[3], (1, 1, 1)))
        x = box[2] + int(0.3 * size)
    return np.asarray(image.filter(ImageFilter.GaussianBlur(blur))), words
