"""Pages scanned upside down or sideways, turned upright before they are read.

A native scan may hold a page fed upside down, or a landscape page (a table) turned on its side. Read as
it lies, such a page gives Tesseract's words of three letters or more a mean confidence around 36
against 85-90 upright (measured on rasterised CKE pages turned by 90° and 180°), and its questions
would be lost. Only such a page pays for Tesseract's orientation detection (`--psm 0`, about 1.2 s); the
page is read again turned as it says, and the turned reading is kept only when it is the more confident
and reads no fewer words the language's word list knows (`known_words`).
"""
from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from pathlib import Path

from pipeline.extract.ocr.engine import PAGE_TIMEOUT_S, OcrUnavailable, tesseract_command
from pipeline.extract.ocr.lexicon import Lexicon
from pipeline.extract.ocr.words import Word, mean_confidence

# Mean confidence of the page pass's words of 3+ letters under which a page may lie turned.
ROTATION_CHECK_BELOW = 60.0
ROTATION_MIN_WORDS = 10  # fewer words say nothing about the page's orientation (a figure, a blank page)
OSD_MIN_CONFIDENCE = 2.0  # Tesseract's orientation confidence under which its answer is a guess
_ROTATE = re.compile(r"^Rotate:\s*(\d+)", re.MULTILINE)
_CONFIDENCE = re.compile(r"^Orientation confidence:\s*([\d.]+)", re.MULTILINE)


def may_lie_turned(words: Sequence[Word]) -> bool:
    """Whether the page pass read like a turned page: many words, and little confidence in them."""
    long_words = [w for w in words if sum(ch.isalpha() for ch in w.text) >= 3]
    mean = mean_confidence(long_words)
    return len(long_words) >= ROTATION_MIN_WORDS and mean is not None and mean < ROTATION_CHECK_BELOW


def known_words(texts: Sequence[str], lexicon: Lexicon | None) -> int:
    """How many words of 3+ letters the lexicon knows (0 without one): what a reading of the page upright
    has and a reading of it turned the wrong way lacks. Confidence alone misleads where the model gives
    right words low confidences: a Greek key page upright (62, 10 known words) lost to its reading
    upside down (71, 3 known words of junk)."""
    if lexicon is None:
        return 0
    return sum(lexicon.knows(text) for text in texts if sum(ch.isalpha() for ch in text) >= 3)


def detect_rotation(image_path: Path, omp_thread_limit: int | None) -> int:
    """Degrees (0, 90, 180, 270) to turn the image clockwise to set its text upright, by Tesseract's
    orientation detection; 0 when it is unsure or cannot run (the `osd` data missing: the page is then
    read as it lies, as before)."""
    env = dict(os.environ)
    if omp_thread_limit is not None:
        env["OMP_THREAD_LIMIT"] = str(omp_thread_limit)
    try:
        result = subprocess.run(
            [tesseract_command(), str(image_path), "stdout", "--psm", "0"],
            capture_output=True, timeout=PAGE_TIMEOUT_S, env=env, check=False,
        )
    except (OSError, subprocess.TimeoutExpired, OcrUnavailable):
        return 0
    output = result.stdout.decode("utf-8", errors="replace")
    rotate, confidence = _ROTATE.search(output), _CONFIDENCE.search(output)
    if result.returncode != 0 or rotate is None or confidence is None:
        return 0
    degrees = int(rotate.group(1)) % 360
    if degrees not in (90, 180, 270) or float(confidence.group(1)) < OSD_MIN_CONFIDENCE:
        return 0
    return degrees
