"""Cheap per-stage timers: where a run's seconds went (download, text, layout, OCR, parse, curate).

A stage wraps its steps in `timed("layout")`; the process adds up the seconds per name until `take()`
hands them over and starts again from zero. A worker takes its figures after each file and returns
them with the file's outcome, so the season run can sum them into the run report. One perf_counter
pair per step and page: nothing measurable next to the work it times.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

_seconds: dict[str, float] = {}


@contextmanager
def timed(stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        _seconds[stage] = _seconds.get(stage, 0.0) + time.perf_counter() - started


def take() -> dict[str, float]:
    """The seconds per stage this process spent since the last take(), and a fresh start."""
    taken = dict(_seconds)
    _seconds.clear()
    return taken


def add_seconds(totals: dict[str, float], more: dict[str, float]) -> dict[str, float]:
    """`totals` with `more` added stage by stage (a new dict)."""
    summed = dict(totals)
    for stage, seconds in more.items():
        summed[stage] = summed.get(stage, 0.0) + seconds
    return summed
