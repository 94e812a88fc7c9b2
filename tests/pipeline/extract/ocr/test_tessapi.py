"""Tesseract in this process (`tessapi`: libtesseract through its C API) reads exactly what the
`tesseract` binary prints, so the OCR cache (keyed by the binary's version) and every reading stay
what they were.

Real Tesseract on generated pages (a Polish question page scanned at 200 dpi, rendered at 300 dpi):
each call is made in process and by the CLI ($EXAMCORPUS_TESSERACT_MODE=cli), and the outputs are
compared byte for byte.
"""
from __future__ import annotations

import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pipeline.extract.ocr import OcrError, OcrUnavailable, prepare_for_tesseract
from pipeline.extract.ocr import engine, tessapi
from tests.pipeline.extract.ocr.builders import needs_tesseract

DPI = 300
LANGUAGES = ("pol",)

pytestmark = [
    pytest.mark.skipif(tessapi.library() is None, reason="libtesseract.so.5 is not installed (apt package libtesseract5)"),
    needs_tesseract(*LANGUAGES),
]


@pytest.fixture(scope="module")
def page(polish_question_scan) -> Image.Image:
    """The grey page as `read_page` gives it to Tesseract."""
    image, _, _ = polish_question_scan
    return prepare_for_tesseract(image, DPI)


@pytest.fixture(scope="module")
def options(page) -> Image.Image:
    """The page's answer options ("A. HTTP" … "D. DNS") cropped, a small image as key strips are."""
    labels = [w for w in engine.parse_tsv(engine.run_tesseract(page, LANGUAGES, DPI, omp_thread_limit=1)) if w.text in ("A.", "D.")]
    assert len(labels) == 2
    return page.crop((0, min(w.top for w in labels) - 20, page.width, max(w.bottom for w in labels) + 20))


@pytest.fixture(autouse=True)
def in_process_by_default(monkeypatch):
    monkeypatch.delenv(engine.TESSERACT_MODE_ENV, raising=False)
    monkeypatch.delenv(engine.TESSERACT_ENV, raising=False)
    assert engine.in_process(), "libtesseract loads and is the binary's version: run_tesseract runs in this process"


def both(monkeypatch, image: Image.Image | Path, **options) -> tuple[str, str]:
    """(in process, CLI) outputs of run_tesseract for the same image and options."""
    in_process = engine.run_tesseract(image, LANGUAGES, DPI, omp_thread_limit=1, **options)
    with monkeypatch.context() as cli:
        cli.setenv(engine.TESSERACT_MODE_ENV, "cli")
        assert not engine.in_process()
        by_cli = engine.run_tesseract(image, LANGUAGES, DPI, omp_thread_limit=1, **options)
    return in_process, by_cli


@pytest.mark.parametrize("psm", [3, 4, 6, 11])
def test_tsv_is_the_clis_byte_for_byte_in_every_segmentation_mode(monkeypatch, page, psm):
    in_process, by_cli = both(monkeypatch, page, psm=psm)
    assert in_process.startswith("level\tpage_num\tblock_num"), "the CLI's header line comes first, as parse_tsv expects"
    assert len(engine.parse_tsv(in_process)) > 20
    assert in_process == by_cli


def test_tsv_is_the_clis_for_a_colour_image_a_written_file_and_a_blank_image(monkeypatch, polish_question_scan, page, tmp_path):
    rgb, _, _ = polish_question_scan
    assert rgb.mode == "RGB"
    in_process, by_cli = both(monkeypatch, rgb)
    assert in_process == by_cli
    path = tmp_path / "page.pgm"
    page.save(path, format="PPM")
    in_process, by_cli = both(monkeypatch, path, psm=6)
    assert in_process == by_cli
    in_process, by_cli = both(monkeypatch, Image.new("L", (400, 200), 255), psm=7)
    assert in_process == by_cli


@pytest.fixture(scope="module")
def first_option(page) -> Image.Image:
    """One line: "A. HTTP", as a key strip is one line of cells (psm 7)."""
    label = next(w for w in engine.parse_tsv(engine.run_tesseract(page, LANGUAGES, DPI, omp_thread_limit=1)) if w.text == "A.")
    return page.crop((0, label.top - 10, page.width, label.bottom + 10))


@pytest.mark.parametrize("image, psm, whitelist", [("options", 6, None), ("options", 6, "ABCD"), ("first_option", 7, None), ("first_option", 7, "ABCDHTP")])
def test_makebox_is_the_clis_byte_for_byte(monkeypatch, request, image, psm, whitelist):
    in_process, by_cli = both(monkeypatch, request.getfixturevalue(image), psm=psm, whitelist=whitelist, output="makebox")
    assert in_process.count("\n") >= 5, "character boxes, one a line"
    assert in_process == by_cli


def test_a_whitelist_restricts_its_own_call_only(monkeypatch, options):
    unrestricted_first = engine.run_tesseract(options, LANGUAGES, DPI, omp_thread_limit=1, psm=6)
    restricted, restricted_by_cli = both(monkeypatch, options, psm=6, whitelist="ABCD")
    assert restricted == restricted_by_cli
    letters = {w.text for w in engine.parse_tsv(restricted)}
    assert letters and all(set(text) <= set("ABCD") for text in letters)
    # The same thread, the same API object: the next call reads every character again.
    unrestricted, by_cli = both(monkeypatch, options, psm=6)
    assert unrestricted == by_cli == unrestricted_first
    assert unrestricted != restricted


def test_a_missing_language_raises_ocr_unavailable_naming_it_even_beside_an_installed_one(options):
    for languages in (("zzz",), ("pol", "zzz")):
        with pytest.raises(OcrUnavailable, match="missing: no language data for zzz in .*tesseract-ocr-zzz$"):
            engine.run_tesseract(options, languages, DPI, omp_thread_limit=1)


def test_a_passed_deadline_raises_ocr_error_instead_of_returning_less_text(monkeypatch, page):
    monkeypatch.setattr(engine, "PAGE_TIMEOUT_S", 0.001)
    with pytest.raises(OcrError, match="longer than"):
        engine.run_tesseract(page, LANGUAGES, DPI, omp_thread_limit=1)
    monkeypatch.undo()
    assert engine.parse_tsv(engine.run_tesseract(page, LANGUAGES, DPI, omp_thread_limit=1)), "the API is usable after a deadline"


def test_concurrent_calls_never_share_an_api_and_a_thread_pool_reads_what_one_thread_reads(monkeypatch, page, options, first_option):
    """Whitelisted and open calls at once on several threads: each call has an API of its own for its
    duration, so each call's settings stay its own."""
    jobs = [(page, 3, None), (first_option, 7, "ABCDHTP"), (options, 6, None), (options, 6, "ABCD"), (page, 6, None)] * 2
    serial = [engine.run_tesseract(image, LANGUAGES, DPI, omp_thread_limit=1, psm=psm, whitelist=w) for image, psm, w in jobs]
    in_use: set[int] = set()
    used: set[int] = set()
    shared: list[int] = []
    lock = threading.Lock()
    recognise = tessapi._recognise

    def watched(handle, *args, **kwargs):
        with lock:
            if id(handle) in in_use:
                shared.append(id(handle))
            in_use.add(id(handle))
            used.add(id(handle))
        try:
            return recognise(handle, *args, **kwargs)
        finally:
            with lock:
                in_use.discard(id(handle))

    monkeypatch.setattr(tessapi, "_recognise", watched)
    with ThreadPoolExecutor(max_workers=3) as pool:
        assert list(pool.map(lambda job: engine.run_tesseract(job[0], LANGUAGES, DPI, omp_thread_limit=1, psm=job[1], whitelist=job[2]), jobs)) == serial
    assert not shared, "no two calls at once share an API"
    assert 1 < len(used) <= 3, "calls at once read with APIs of their own, and later calls reuse them"


def test_a_new_thread_pool_reads_with_the_apis_loaded_before_and_reads_the_same(monkeypatch, page, options):
    """The OCR thread pools are made per file: a pool's fresh threads are lent the APIs earlier threads
    loaded (the language model is not loaded again) and read what a fresh API reads."""
    jobs = [(page, 3), (options, 6)] * 2
    with ThreadPoolExecutor(max_workers=2) as pool:
        first = list(pool.map(lambda job: engine.run_tesseract(job[0], LANGUAGES, DPI, omp_thread_limit=1, psm=job[1]), jobs))
    assert tessapi.idle_apis() >= 1
    loaded: list[str] = []
    init = tessapi.LoadedApi.__init__

    def counted(self, lib, languages, datapath):
        loaded.append(languages)
        init(self, lib, languages, datapath)

    monkeypatch.setattr(tessapi.LoadedApi, "__init__", counted)
    with ThreadPoolExecutor(max_workers=1) as pool:
        again = list(pool.map(lambda job: engine.run_tesseract(job[0], LANGUAGES, DPI, omp_thread_limit=1, psm=job[1]), jobs))
    assert again == first
    assert loaded == [], "a new thread reads with an API already loaded"
    fresh = tessapi.LoadedApi(tessapi.library(), "+".join(LANGUAGES), None)
    assert tessapi._recognise(fresh, *_arguments(page), psm=3, whitelist=None, output="tsv", deadline_s=60, omp_threads=1) == first[0]


def _arguments(image: Image.Image) -> tuple:
    pixels = np.ascontiguousarray(np.asarray(image))
    height, width = pixels.shape[:2]
    return pixels, width, height, 1 if pixels.ndim == 2 else 3, DPI


OPENMP_THREADS = """
import os, sys
from PIL import Image
from pipeline.extract.ocr import engine
page = Image.open(sys.argv[1])
limit = None if sys.argv[2] == "default" else int(sys.argv[2])
before = len(os.listdir("/proc/self/task"))
engine.run_tesseract(page, ["pol"], 300, omp_thread_limit=limit)
print(len(os.listdir("/proc/self/task")) - before)
"""


def test_one_openmp_thread_starts_no_openmp_threads_and_the_default_does(page, tmp_path):
    """omp_thread_limit=1 runs Tesseract on the calling thread (as OMP_THREAD_LIMIT=1 ran the child);
    Tesseract's default threading starts OpenMP threads, which shows this count would see them."""
    path = tmp_path / "page.pgm"
    page.save(path, format="PPM")
    root = Path(__file__).resolve().parents[4]

    def started(limit: str) -> int:
        result = subprocess.run([sys.executable, "-c", OPENMP_THREADS, str(path), limit], capture_output=True,
                                text=True, cwd=root, timeout=120, check=True)
        return int(result.stdout.strip().splitlines()[-1])

    assert started("1") == 0
    assert started("default") > 0


def test_the_cli_runs_when_asked_for_or_given_a_binary(monkeypatch):
    monkeypatch.setenv(engine.TESSERACT_MODE_ENV, "cli")
    assert not engine.in_process()
    monkeypatch.delenv(engine.TESSERACT_MODE_ENV)
    monkeypatch.setenv(engine.TESSERACT_ENV, engine.tesseract_command())
    assert not engine.in_process()


def _forked_read(page: Image.Image, queue) -> None:
    loaded: list[str] = []
    init = tessapi.LoadedApi.__init__

    def counted(self, lib, languages, datapath):
        loaded.append(languages)
        init(self, lib, languages, datapath)

    tessapi.LoadedApi.__init__ = counted  # type: ignore[method-assign]
    queue.put((loaded, engine.run_tesseract(page, LANGUAGES, DPI, omp_thread_limit=1, psm=3)))


def test_a_forked_child_loads_its_own_api_and_reads_what_the_parent_reads(page):
    """A worker process forked after its parent read holds copies of the parent's idle APIs: it is lent
    none of them, and reads what the parent reads."""
    import multiprocessing

    parent = engine.run_tesseract(page, LANGUAGES, DPI, omp_thread_limit=1, psm=3)
    assert tessapi.idle_apis() >= 1
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_forked_read, args=(page, queue))
    child.start()
    loaded_in_child, read_in_child = queue.get(timeout=120)
    child.join(timeout=60)
    assert loaded_in_child == ["+".join(LANGUAGES)]
    assert read_in_child == parent
