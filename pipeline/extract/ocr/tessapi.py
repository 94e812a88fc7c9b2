"""Tesseract in this process, through its C API (libtesseract.so.5 by ctypes), instead of one `tesseract`
process per image.

Why: a page costs about 3.3 Tesseract calls (the page, prose regions, key cells, orphans), and each
`tesseract` process spends ~80 ms starting and loading the language model before it reads a pixel.
Here the process keeps initialised `TessBaseAPI`s per (languages, tessdata folder) and lends one to each
call (`leased_api`), so the model is loaded once per process and concurrent call, not once per call,
file or thread: the OCR thread pools are made per file (`read_masked`, `ocr_pages`), and a fresh
thread loading the model again cost 0.05-0.14 s of CPU (eng, pol+eng), more than reading a small
masked window. The output is the CLI's, byte for byte (`tests/.../test_tessapi.py`
compares both engines): the same variables are set the way `tesseract IMAGE stdout --psm N --dpi D
[-c tessedit_char_whitelist=W] tsv|makebox` sets them, and the TSV header line that the CLI's renderer
prints (the API does not) is added.

OpenMP: the CLI runs with OMP_THREAD_LIMIT=1 in its child's environment; this process's environment is
never touched. A single-threaded call sets libgomp's max-active-levels to 0 on its own thread for the
duration of the call (`_omp_limit`), so every OpenMP region of Tesseract runs on the calling thread.

Not thread-safe per API object, by design: an API is lent to one call at a time, and a call leaves it
as it found it (page segmentation mode and dpi set by every call, whitelist reset, `Clear`), so which
idle API a call gets changes nothing it reads. At most `IDLE_APIS` wait between calls (each holds its
language model, 10-20 MB); a forked child starts with none of its parent's.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import numpy as np

LIBRARY_ENV = "EXAMCORPUS_LIBTESSERACT"  # path to libtesseract.so.5, when it is not where the loader looks
SONAME = "libtesseract.so.5"
TSV_HEADER = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
OUTPUTS = ("tsv", "makebox")


class InitFailed(RuntimeError):
    """TessBaseAPIInit failed, or skipped a language: its data (or the tessdata folder) is not there."""

    def __init__(self, missing: list[str], datapath: str | None) -> None:
        super().__init__(f"no language data for {', '.join(missing)} in {datapath or 'the default tessdata folder'}")
        self.missing = missing


class RecognitionFailed(RuntimeError):
    """Recognize returned an error, or the deadline passed before it finished."""


class _Api(ctypes.Structure):
    """Opaque TessBaseAPI."""


class _Monitor(ctypes.Structure):
    """Opaque ETEXT_DESC (the progress monitor that carries the deadline)."""


_API_P = ctypes.POINTER(_Api)
_MONITOR_P = ctypes.POINTER(_Monitor)
_SIGNATURES: dict[str, tuple[list, object]] = {
    "TessVersion": ([], ctypes.c_char_p),
    "TessBaseAPICreate": ([], _API_P),
    "TessBaseAPIDelete": ([_API_P], None),
    "TessBaseAPIEnd": ([_API_P], None),
    "TessBaseAPIClear": ([_API_P], None),
    "TessBaseAPIInit3": ([_API_P, ctypes.c_char_p, ctypes.c_char_p], ctypes.c_int),
    "TessBaseAPISetPageSegMode": ([_API_P, ctypes.c_int], None),
    "TessBaseAPISetVariable": ([_API_P, ctypes.c_char_p, ctypes.c_char_p], ctypes.c_int),
    "TessBaseAPISetImage": ([_API_P, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int], None),
    "TessBaseAPIRecognize": ([_API_P, _MONITOR_P], ctypes.c_int),
    # char* results are declared c_void_p so that we keep the pointer to free it with TessDeleteText.
    "TessBaseAPIGetTsvText": ([_API_P, ctypes.c_int], ctypes.c_void_p),
    "TessBaseAPIGetBoxText": ([_API_P, ctypes.c_int], ctypes.c_void_p),
    "TessBaseAPIGetLoadedLanguagesAsVector": ([_API_P], ctypes.POINTER(ctypes.c_char_p)),
    "TessDeleteText": ([ctypes.c_void_p], None),
    "TessDeleteTextArray": ([ctypes.POINTER(ctypes.c_char_p)], None),
    "TessMonitorCreate": ([], _MONITOR_P),
    "TessMonitorDelete": ([_MONITOR_P], None),
    "TessMonitorSetDeadlineMSecs": ([_MONITOR_P, ctypes.c_int], None),
}


@lru_cache(maxsize=4)
def _load(path: str | None) -> ctypes.CDLL | None:
    candidates = [path] if path else [ctypes.util.find_library("tesseract"), SONAME]
    for candidate in filter(None, candidates):
        try:
            lib = ctypes.CDLL(candidate)  # CDLL releases the GIL during each call: threads OCR in parallel
        except OSError:
            continue
        try:
            for name, (argtypes, restype) in _SIGNATURES.items():
                function = getattr(lib, name)
                function.argtypes, function.restype = argtypes, restype
        except AttributeError:  # not the C API we know (another major version)
            continue
        return lib
    return None


def library() -> ctypes.CDLL | None:
    """libtesseract, loaded once ($EXAMCORPUS_LIBTESSERACT, else the loader's libtesseract.so.5); None
    when it cannot be loaded (the caller then runs the `tesseract` binary)."""
    return _load(os.environ.get(LIBRARY_ENV) or None)


def version() -> str | None:
    """The loaded library's version ("5.3.0"), None without the library."""
    lib = library()
    return lib.TessVersion().decode() if lib is not None else None


@lru_cache(maxsize=1)
def _gomp() -> ctypes.CDLL | None:
    """libgomp as libtesseract loaded it (None when Tesseract was built without OpenMP)."""
    try:
        gomp = ctypes.CDLL("libgomp.so.1", mode=os.RTLD_NOLOAD)
    except OSError:
        return None
    gomp.omp_get_max_active_levels.restype = ctypes.c_int
    gomp.omp_set_max_active_levels.argtypes = [ctypes.c_int]
    return gomp


@contextmanager
def _omp_limit(threads: int | None) -> Iterator[None]:
    """With `threads=1`, every OpenMP parallel region this thread starts runs on this thread alone:
    libgomp's max-active-levels 0 (per thread in libgomp 12, like the environment of a child). Tesseract's
    LSTM asks for `num_threads(10)` explicitly, which `omp_set_num_threads(1)` does not override (measured:
    3 OpenMP threads appear, and the call takes twice as long on 2 busy cores). `None` leaves Tesseract's
    default threading (the benchmark's comparison)."""
    gomp = _gomp()
    if threads != 1 or gomp is None:
        yield
        return
    saved = gomp.omp_get_max_active_levels()
    gomp.omp_set_max_active_levels(0)
    try:
        yield
    finally:
        gomp.omp_set_max_active_levels(saved)


class LoadedApi:
    """One initialised TessBaseAPI; ended and deleted when the last reference goes."""

    def __init__(self, lib: ctypes.CDLL, languages: str, datapath: str | None) -> None:
        self.lib, self.api = lib, lib.TessBaseAPICreate()
        # Tesseract's messages (resolution warnings, "Empty page!!", statistics) went to the child's
        # captured stderr; here they would reach the terminal. `debug_file` is process-wide, set before Init.
        lib.TessBaseAPISetVariable(self.api, b"debug_file", b"/dev/null")
        failed = lib.TessBaseAPIInit3(self.api, datapath.encode() if datapath else None, languages.encode()) != 0
        # Init succeeds when the first language loads and skips the others; a reading without a
        # requested language is not the reading asked for.
        missing = sorted(set(languages.split("+")) - (set() if failed else self._loaded()))
        if failed or missing:
            self.__del__()
            raise InitFailed(missing or languages.split("+"), datapath)

    def _loaded(self) -> set[str]:
        names = self.lib.TessBaseAPIGetLoadedLanguagesAsVector(self.api)
        try:
            loaded, index = set(), 0
            while names[index] is not None:  # a NULL-terminated array of char*
                loaded.add(names[index].decode())
                index += 1
            return loaded
        finally:
            self.lib.TessDeleteTextArray(names)

    def __del__(self) -> None:
        if getattr(self, "api", None):
            self.lib.TessBaseAPIEnd(self.api)
            self.lib.TessBaseAPIDelete(self.api)
            self.api = None


IDLE_APIS = 8  # initialised APIs kept between calls (a family's languages on two threads, and a second family's), the longest idle ended first
_idle: list[tuple[tuple[str, str | None], LoadedApi]] = []  # (languages, datapath), API; last returned last
_idle_lock = threading.Lock()
_idle_pid = os.getpid()


@contextmanager
def leased_api(languages: str) -> Iterator[LoadedApi]:
    """An initialised API for `languages` ("pol+eng") and $TESSDATA_PREFIX, this call's alone until it
    returns: an idle one where the process has one, else a new one (the model loaded); given back after."""
    global _idle_pid
    lib = library()
    if lib is None:
        raise RuntimeError("libtesseract is not loaded")
    key = (languages, os.environ.get("TESSDATA_PREFIX") or None)
    lent = None
    with _idle_lock:
        if _idle_pid != os.getpid():  # a forked child: its parent's APIs are not its own to share
            _idle.clear()
            _idle_pid = os.getpid()
        for at in range(len(_idle) - 1, -1, -1):
            if _idle[at][0] == key:
                lent = _idle.pop(at)[1]
                break
    if lent is None:
        lent = LoadedApi(lib, *key)
    try:
        yield lent
    finally:
        with _idle_lock:
            _idle.append((key, lent))
            ended = _idle[:-IDLE_APIS]
            del _idle[:-IDLE_APIS]
        del ended  # their models freed outside the lock


def idle_apis() -> int:
    """How many initialised APIs wait between calls in this process."""
    with _idle_lock:
        return len(_idle) if _idle_pid == os.getpid() else 0


def _take_text(lib: ctypes.CDLL, pointer: int | None) -> str:
    if not pointer:
        return ""
    try:
        return ctypes.string_at(pointer).decode("utf-8", errors="replace")
    finally:
        lib.TessDeleteText(pointer)


def recognise(
    pixels: np.ndarray,
    languages: str,
    dpi: int,
    *,
    psm: int,
    whitelist: str | None,
    output: str,
    deadline_s: float,
    omp_threads: int | None,
) -> str:
    """What `tesseract IMAGE stdout -l LANGUAGES --psm PSM --dpi DPI [-c tessedit_char_whitelist=W]
    OUTPUT` prints for the 8-bit grey (h×w) or RGB (h×w×3) `pixels`. Raises InitFailed when the
    languages cannot be loaded, RecognitionFailed on an error or when `deadline_s` passes."""
    if output not in OUTPUTS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
    if pixels.dtype != np.uint8 or not (pixels.ndim == 2 or (pixels.ndim == 3 and pixels.shape[2] == 3)):
        raise ValueError(f"pixels must be uint8 grey (h, w) or RGB (h, w, 3), got {pixels.dtype} {pixels.shape}")
    pixels = np.ascontiguousarray(pixels)
    height, width = pixels.shape[:2]
    depth = 1 if pixels.ndim == 2 else 3
    with leased_api(languages) as handle:
        return _recognise(handle, pixels, width, height, depth, dpi, psm=psm, whitelist=whitelist, output=output,
                          deadline_s=deadline_s, omp_threads=omp_threads)


def _recognise(handle: LoadedApi, pixels: np.ndarray, width: int, height: int, depth: int, dpi: int, *, psm: int,
               whitelist: str | None, output: str, deadline_s: float, omp_threads: int | None) -> str:
    lib, api = handle.lib, handle.api
    monitor = lib.TessMonitorCreate()
    try:
        lib.TessBaseAPISetPageSegMode(api, psm)
        lib.TessBaseAPISetVariable(api, b"user_defined_dpi", str(dpi).encode())  # what the CLI's --dpi sets
        lib.TessBaseAPISetVariable(api, b"tessedit_char_whitelist", (whitelist or "").encode())
        lib.TessBaseAPISetImage(api, pixels.ctypes.data, width, height, depth, width * depth)  # copied
        lib.TessMonitorSetDeadlineMSecs(monitor, max(1, round(deadline_s * 1000)))
        started = time.monotonic()
        with _omp_limit(omp_threads):
            status = lib.TessBaseAPIRecognize(api, monitor)
        elapsed = time.monotonic() - started
        if elapsed >= deadline_s:
            raise RecognitionFailed(f"Tesseract took longer than {deadline_s:g}s (stopped at its deadline)")
        if status != 0:
            raise RecognitionFailed(f"Tesseract's Recognize failed (status {status}) on a {width}×{height} image")
        if output == "tsv":
            return TSV_HEADER + _take_text(lib, lib.TessBaseAPIGetTsvText(api, 0))
        return _take_text(lib, lib.TessBaseAPIGetBoxText(api, 0))
    finally:
        lib.TessMonitorDelete(monitor)
        # The whitelist is set for this call only: a later call lent this API reads every character.
        lib.TessBaseAPISetVariable(api, b"tessedit_char_whitelist", b"")
        lib.TessBaseAPIClear(api)
