"""The cyclic garbage collector's policy while one file is extracted or parsed: rarely inside, once after.

Reading a page makes many small container objects (a `Line` a segment, glyph records, lists of boxes) that
die by reference counting, and a few that live as long as the document. Under CPython's default thresholds
(700, 10, 10) the collector runs a young collection every 700 net allocations, walking the file's
surviving objects again and again, and a full collection whenever enough of them have survived, walking
every object the process holds. None of that frees anything extract or parse needs freed mid-file: their
objects form no cycles worth collecting before the file is done (the corpus's 394 pages, extracted and
parsed, left about 3,700 objects to the collector in about 250 young collections).

So `one_file()` raises the young threshold to `FILE_THRESHOLD` for the file (the collector still runs if
a file's objects ever reach that many, so a 2,000-page file stays bounded), and on leaving collects once:
the generation CPython's own schedule would have reached by now (the young one after most files, the
middle one every `threshold1` files, the whole heap every `threshold1 * threshold2` files), so what a file
left as cyclic garbage is freed before the next one starts and memory stays bounded across a run. The
thresholds are restored as they were; the collector's on/off state is left alone, and a process that
turned it off gets no collection from here. Nested or concurrent uses (a key document read inside a sheet's run, OCR
threads) change the policy once: the outermost restores it.

Together with `heap.settle()` (the long-lived modules frozen out of every collection, in a program's own
process; until the first settle, the start's imports held back the same way: `hold_until_settled()`) it is
the whole of the pipeline's collector policy. What is collected, and so every output, is
unchanged; only when. Measured on the real corpus (`python -m tests.bench extract`, a program's own
process like a season worker): see docs/results.md, "The garbage collector's share".

`extract.extract_document` and `parse.parse_sheet` run under it, so a season run's workers, the inline
executor, the benchmarks and every test take the same path.
"""
from __future__ import annotations

import functools
import gc
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, ParamSpec, TypeVar

FILE_THRESHOLD = 100_000  # young objects (net allocations) a file may make before the collector runs anyway

P = ParamSpec("P")
R = TypeVar("R")

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, ...] = ()
_start_held: tuple[int, ...] | None = None  # the thresholds before `hold_until_settled()`, until `release_start()`
_after_file: Callable[[], bool] | None = None  # run after each outermost file; True: it collected everything


def hold_until_settled() -> None:
    """A program's start (`heap.own_process()`): its imports make long-lived objects by the hundred thousand,
    which the default schedule walks in young, middle and full collections (about 0.05 CPU s of an
    `examcorpus extract` process's 0.6 s start) for no garbage; the young threshold is raised until
    `heap.settle()` collects once and sets them aside (`release_start()`). A command that never settles keeps the
    raised young threshold: its collector still runs, every `FILE_THRESHOLD` young objects."""
    global _start_held
    with _lock:
        if _start_held is None:
            _start_held = gc.get_threshold()
            gc.set_threshold(max(FILE_THRESHOLD, _start_held[0]), *_start_held[1:])


def release_start() -> None:
    """The start's thresholds back (at once, or when the file running now ends)."""
    global _start_held, _saved
    with _lock:
        if _start_held is None:
            return
        if _depth:
            _saved = _start_held
        else:
            gc.set_threshold(*_start_held)
        _start_held = None


def after_each_file(step: Callable[[], bool]) -> None:
    """Run `step` after each outermost file, before the collection there, which is skipped where `step` returns True
    (it collected everything itself: `heap.settle_new_modules`)."""
    global _after_file
    _after_file = step


def _between_files(thresholds: tuple[int, ...]) -> int | None:
    """The generation collected after a file: the oldest whose count passed its threshold, as CPython's
    own schedule picks it, else the young one. None when the collector is off (the caller's choice)."""
    if not gc.isenabled():
        return None
    counts = gc.get_count()
    for generation in (2, 1):
        if counts[generation] >= thresholds[generation]:
            return generation
    return 0


@contextmanager
def one_file() -> Iterator[None]:
    """Run one file's extract or parse with the collector held back, and collect once after it."""
    global _depth, _saved
    with _lock:
        _depth += 1
        if _depth == 1:
            _saved = gc.get_threshold()
            gc.set_threshold(max(FILE_THRESHOLD, _saved[0]), *_saved[1:])
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            outermost = _depth == 0
            if outermost:
                gc.set_threshold(*_saved)
                generation = _between_files(_saved)
        if outermost and generation is not None and not (_after_file is not None and _after_file()):
            gc.collect(generation)


def per_file(function: Callable[P, R]) -> Callable[P, R]:
    """`function` (one file's extract or parse) run under `one_file()`."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with one_file():
            return function(*args, **kwargs)

    return run
