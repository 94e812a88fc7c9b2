"""Tesseract's LSTM alternatives for each letter of a word: what the engine itself also saw at each place.

Public API:
    read_choices(pixels, languages, dpi, omp_threads=None) -> list[ChoiceWord]   # one line read, letter by letter
    ChoiceWord(text, conf, box, letters)        # letters: per symbol, (its reading, ((alternative, conf), ...))

The page's reading comes from Tesseract's TSV, which keeps one reading per word. The LSTM decoder weighs every
character of its alphabet at each place; with `lstm_choice_mode=2` the C API's choice iterator gives, for each
symbol, the characters it weighed there with their confidences (the best first). A tone mark read as its neighbour
(`mối` for `mồi` at 9 points) leaves the printed letter among them, often as weighed as the one read. The choice mode
leaves the reading itself unchanged (a whole Vietnamese page read both ways: the same 452 words). What is made of the
alternatives is `diacritics`' (measured, not run on pages); nothing here decides anything.
"""
from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass

import numpy as np

from pipeline.extract.ocr.tessapi import RecognitionFailed, _omp_limit, leased_api, library

RIL_WORD, RIL_SYMBOL = 3, 4
PSM_SINGLE_LINE = 7
CHOICE_MODE = b"2"  # lstm_choice_mode 2: the best characters per symbol (1 gives them per LSTM timestep)


@dataclass(frozen=True)
class ChoiceWord:
    """A word as Tesseract read it in a line, with the characters it weighed at each of its symbols."""

    text: str
    conf: float
    box: tuple[int, int, int, int]  # left, top, right, bottom in the image read
    letters: tuple[tuple[str, tuple[tuple[str, float], ...]], ...]  # (symbol read, ((choice, conf), ...)) per symbol


_P = ctypes.c_void_p
_SIGNATURES: dict[str, tuple[list, object]] = {
    "TessBaseAPIGetIterator": ([_P], _P),
    "TessResultIteratorDelete": ([_P], None),
    "TessResultIteratorNext": ([_P, ctypes.c_int], ctypes.c_int),
    "TessResultIteratorGetPageIterator": ([_P], _P),
    "TessResultIteratorGetUTF8Text": ([_P, ctypes.c_int], _P),
    "TessResultIteratorConfidence": ([_P, ctypes.c_int], ctypes.c_float),
    "TessResultIteratorGetChoiceIterator": ([_P], _P),
    "TessPageIteratorIsAtBeginningOf": ([_P, ctypes.c_int], ctypes.c_int),
    "TessPageIteratorIsAtFinalElement": ([_P, ctypes.c_int, ctypes.c_int], ctypes.c_int),
    "TessPageIteratorBoundingBox": ([_P, ctypes.c_int] + [ctypes.POINTER(ctypes.c_int)] * 4, ctypes.c_int),
    "TessChoiceIteratorNext": ([_P], ctypes.c_int),
    "TessChoiceIteratorGetUTF8Text": ([_P], ctypes.c_char_p),
    "TessChoiceIteratorConfidence": ([_P], ctypes.c_float),
    "TessChoiceIteratorDelete": ([_P], None),
}


def _declared(lib: ctypes.CDLL) -> ctypes.CDLL:
    for name, (argtypes, restype) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = argtypes, restype
    return lib


def available() -> bool:
    """Whether libtesseract is loaded with the iterator calls this module needs."""
    lib = library()
    if lib is None:
        return False
    try:
        _declared(lib)
    except AttributeError:
        return False
    return True


def read_choices(pixels: np.ndarray, languages: str, dpi: int, omp_threads: int | None = None,
                 deadline_s: float = 20.0, psm: int = PSM_SINGLE_LINE) -> list[ChoiceWord]:
    """The words of the 8-bit grey image `pixels`, read as one text line, each with its symbols' choices."""
    lib = library()
    if lib is None:
        raise RecognitionFailed("libtesseract is not loaded")
    lib = _declared(lib)
    pixels = np.ascontiguousarray(pixels, dtype=np.uint8)
    height, width = pixels.shape[:2]
    with leased_api(languages) as handle:
        api = handle.api
        monitor = lib.TessMonitorCreate()
        try:
            lib.TessBaseAPISetPageSegMode(api, psm)
            lib.TessBaseAPISetVariable(api, b"user_defined_dpi", str(dpi).encode())
            lib.TessBaseAPISetVariable(api, b"lstm_choice_mode", CHOICE_MODE)
            lib.TessBaseAPISetImage(api, pixels.ctypes.data, width, height, 1, width)
            lib.TessMonitorSetDeadlineMSecs(monitor, max(1, round(deadline_s * 1000)))
            started = time.monotonic()
            with _omp_limit(omp_threads):
                status = lib.TessBaseAPIRecognize(api, monitor)
            if time.monotonic() - started >= deadline_s or status != 0:
                raise RecognitionFailed(f"Tesseract could not read a {width}×{height} line (status {status})")
            return _walk(lib, api)
        finally:
            lib.TessMonitorDelete(monitor)
            # The choice mode is set for this call only: a later call lent this API reads as it always did.
            lib.TessBaseAPISetVariable(api, b"lstm_choice_mode", b"0")
            lib.TessBaseAPIClear(api)


def _text(lib: ctypes.CDLL, pointer: int | None) -> str:
    if not pointer:
        return ""
    try:
        return ctypes.string_at(pointer).decode("utf-8", errors="replace")
    finally:
        lib.TessDeleteText(pointer)


def _walk(lib: ctypes.CDLL, api: int) -> list[ChoiceWord]:
    iterator = lib.TessBaseAPIGetIterator(api)
    if not iterator:
        return []
    words: list[ChoiceWord] = []
    try:
        page = lib.TessResultIteratorGetPageIterator(iterator)
        text, conf, box, letters = "", -1.0, (0, 0, 0, 0), []
        while True:
            if lib.TessPageIteratorIsAtBeginningOf(page, RIL_WORD):
                if text:
                    words.append(ChoiceWord(text, conf, box, tuple(letters)))
                text = _text(lib, lib.TessResultIteratorGetUTF8Text(iterator, RIL_WORD))
                conf = float(lib.TessResultIteratorConfidence(iterator, RIL_WORD))
                corners = [ctypes.c_int() for _ in range(4)]
                lib.TessPageIteratorBoundingBox(page, RIL_WORD, *[ctypes.byref(c) for c in corners])
                box = (corners[0].value, corners[1].value, corners[2].value, corners[3].value)
                letters = []
            symbol = _text(lib, lib.TessResultIteratorGetUTF8Text(iterator, RIL_SYMBOL))
            letters.append((symbol, _choices(lib, iterator)))
            if not lib.TessResultIteratorNext(iterator, RIL_SYMBOL):
                break
        if text:
            words.append(ChoiceWord(text, conf, box, tuple(letters)))
    finally:
        lib.TessResultIteratorDelete(iterator)
    return words


def _choices(lib: ctypes.CDLL, iterator: int) -> tuple[tuple[str, float], ...]:
    choice = lib.TessResultIteratorGetChoiceIterator(iterator)
    if not choice:
        return ()
    found = []
    try:
        while True:
            raw = lib.TessChoiceIteratorGetUTF8Text(choice)
            if raw:
                found.append((raw.decode("utf-8", errors="replace"), float(lib.TessChoiceIteratorConfidence(choice))))
            if not lib.TessChoiceIteratorNext(choice):
                break
    finally:
        lib.TessChoiceIteratorDelete(choice)
    return tuple(found)
