"""Recognisers behind one interface: each reads crops of a page (a line, a few words) into text.

Public API:
    RECOGNISERS: {name: Recogniser}          # the registry: "tesseract", "rapidocr"
    Recogniser.unavailable() -> str | None     # why it cannot run here (a package or data missing); None: it can
    Recogniser.alphabet() -> frozenset | None  # every character it can emit; None: whatever its language data holds
    Recogniser.read(crops, languages) -> [CropReading]   # one reading per crop (an RGB or grey array), in order
    CropReading(text, confidence, words)       # words: (text, confidence 0–1, left, right in the crop's pixels)

Tesseract reads whole pages elsewhere (`engine`); here it reads crops as single text lines (`--psm 7`).
RapidOCR (PP-OCR through onnxruntime; the `ocr` extra) ships its detection and recognition weights
inside its wheel, so nothing is downloaded: only its recogniser runs here, on crops the page passes chose
(no detection, no orientation classifier), on one onnxruntime thread, as Tesseract runs on one OpenMP
thread. Its recognition model reads Latin script with its diacritics (and Han); which languages it
serves is told by its alphabet against each language's letters (`secondread`), never by a list here.
"""
from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import parse_tsv, run_tesseract


@dataclass(frozen=True)
class CropReading:
    """What a recogniser read in one crop: its text, its confidence (0–1) and its words with their columns."""

    text: str
    confidence: float
    words: tuple[tuple[str, float, int, int], ...] = ()


class Recogniser(Protocol):
    name: str

    def unavailable(self) -> str | None: ...

    def alphabet(self) -> frozenset[str] | None: ...

    def read(self, crops: Sequence[np.ndarray], languages: Sequence[str]) -> list[CropReading]: ...


class TesseractLines:
    """Tesseract on each crop as one text line (`--psm 7`), through the same engine as the page pass."""

    name = "tesseract"
    dpi = 300  # crops carry no resolution; Tesseract reads a text line's shape the same at any

    def unavailable(self) -> str | None:
        from pipeline.extract.ocr.engine import OcrUnavailable, tesseract_command

        try:
            tesseract_command()
        except OcrUnavailable as exc:
            return str(exc)
        return None

    def alphabet(self) -> frozenset[str] | None:
        return None

    def read(self, crops: Sequence[np.ndarray], languages: Sequence[str]) -> list[CropReading]:
        readings = []
        for crop in crops:
            words = parse_tsv(run_tesseract(Image.fromarray(crop), languages, self.dpi, omp_thread_limit=1, psm=7))
            confident = [w.conf / 100 for w in words if w.conf >= 0]
            readings.append(CropReading(
                " ".join(w.text for w in words), min(confident) if confident else 0.0,
                tuple((w.text, max(w.conf, 0) / 100, w.left, w.right) for w in words),
            ))
        return readings


class RapidOcrLines:
    """RapidOCR's text recogniser (PP-OCR, onnxruntime) on each crop; the crops are its text lines."""

    name = "rapidocr"
    package = "rapidocr"

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one onnxruntime session, one crop batch at a time

    def unavailable(self) -> str | None:
        try:
            _engine()
        except ImportError as exc:
            return f"the rapidocr and onnxruntime packages are not installed (pip install '.[ocr]'): {exc}"
        except Exception as exc:  # a broken install or model file: said, and the pass skips
            return f"RapidOCR cannot start: {type(exc).__name__}: {exc}"
        return None

    def alphabet(self) -> frozenset[str] | None:
        return _alphabet()

    def read(self, crops: Sequence[np.ndarray], languages: Sequence[str]) -> list[CropReading]:
        if not crops:
            return []
        from rapidocr.ch_ppocr_rec.typings import TextRecInput

        rgb = [np.ascontiguousarray(np.stack([c] * 3, axis=-1) if c.ndim == 2 else c) for c in crops]
        with self._lock:
            out = _engine().text_rec(TextRecInput(img=rgb, return_word_box=True))
        readings = []
        for crop, text, score, info in zip(rgb, out.txts or (), out.scores, out.word_results):
            readings.append(CropReading(str(text), float(score), _word_columns(info, crop.shape[1])))
        return readings


def _word_columns(info: Any, width: int) -> tuple[tuple[str, float, int, int], ...]:
    """Each word of a RapidOCR line with its mean character confidence and its columns in the crop.

    The recogniser reports, per character, a step of its output sequence (`word_cols`) out of
    `line_txt_len` steps across the (resized, padded) line; steps scale to the crop's width."""
    words = getattr(info, "words", None) or []
    columns = getattr(info, "word_cols", None) or []
    confs = list(getattr(info, "confs", None) or [])
    steps = float(getattr(info, "line_txt_len", 0.0) or 0.0)
    found, used = [], 0
    for chars, cols in zip(words, columns):
        text = "".join(chars)
        conf = confs[used : used + len(chars)]
        used += len(chars)
        if not text or not cols or steps <= 0:
            continue
        scale = width / steps
        left, right = int(min(cols) * scale), int((max(cols) + 1) * scale)
        found.append((text, float(sum(conf) / len(conf)) if conf else 0.0, left, min(width, right)))
    return tuple(found)


@lru_cache(maxsize=1)
def _engine() -> Any:
    from rapidocr import RapidOCR

    engine = RapidOCR(params={
        "Global.use_det": False, "Global.use_cls": False, "Global.log_level": "warning",
        "EngineConfig.onnxruntime.intra_op_num_threads": 1, "EngineConfig.onnxruntime.inter_op_num_threads": 1,
    })
    engine._load_rec_model() if hasattr(engine, "_load_rec_model") else None
    if getattr(engine, "text_rec", None) is None:
        raise RuntimeError("this rapidocr has no text recogniser (3.x is needed)")
    return engine


@lru_cache(maxsize=1)
def _alphabet() -> frozenset[str]:
    """The characters RapidOCR's recognition model can emit (its dictionary, kept in the model file)."""
    character = _engine().text_rec.session.get_character_list()
    return frozenset(ch for ch in (character or []) if len(ch) == 1)


RECOGNISERS: dict[str, Recogniser] = {r.name: r for r in (TesseractLines(), RapidOcrLines())}
