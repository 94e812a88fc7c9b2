"""Cheap per-stage timers: where a run's seconds went (download, text, layout, OCR, parse, curate).

A stage wraps its steps in `timed("layout")`; the process adds up the seconds per name until `take()`
hands them over and starts again from zero. A worker takes its figures after each file and returns
them with the file's outcome, so the season run can sum them into the run report. One perf_counter
pair per step and page: nothing measurable next to the work it times.

A step may name a part of its stage after a colon (`timed("text:pdfium")`): `take()` adds the parts
into their stage ("text"), as the run report lists them, while `take_detail()` hands over each part
apart, with its CPU seconds (this process's, every thread) beside its wall seconds, for the benchmarks:
on a shared machine the CPU figure holds still where wall time moves with the other jobs' load.
"""
from __future__ import annotations

import time

_seconds: dict[str, float] = {}
_cpu_seconds: dict[str, float] = {}
_perf_counter, _process_time = time.perf_counter, time.process_time


class _Timer:
    """One timed step: a plain context manager (2.2 µs a step as a generator-based one, 1.5 as this; about
    15 steps a page)."""

    __slots__ = ("stage", "started", "cpu_started")

    def __init__(self, stage: str) -> None:
        self.stage = stage

    def __enter__(self) -> None:
        self.started, self.cpu_started = _perf_counter(), _process_time()

    def __exit__(self, *exc: object) -> None:  # an exception inside the step goes on, its seconds counted
        stage = self.stage
        _seconds[stage] = _seconds.get(stage, 0.0) + _perf_counter() - self.started
        _cpu_seconds[stage] = _cpu_seconds.get(stage, 0.0) + _process_time() - self.cpu_started


def timed(stage: str) -> _Timer:
    """`with timed("layout"):` adds the step's wall and CPU seconds to `stage`, also when the step raises."""
    return _Timer(stage)


def take() -> dict[str, float]:
    """The seconds per stage (its parts added in) this process spent since the last take(), and a fresh start."""
    taken: dict[str, float] = {}
    for name, seconds in take_detail().items():
        stage = name.split(":", 1)[0]
        taken[stage] = taken.get(stage, 0.0) + seconds[0]
    return taken


def take_detail() -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds per stage part ("text:pdfium", "layout") since the last take, and a fresh start."""
    taken = {name: (seconds, _cpu_seconds.get(name, 0.0)) for name, seconds in _seconds.items()}
    _seconds.clear()
    _cpu_seconds.clear()
    return taken


def add_seconds(totals: dict[str, float], more: dict[str, float]) -> dict[str, float]:
    """`totals` with `more` added stage by stage (a new dict)."""
    summed = dict(totals)
    for stage, seconds in more.items():
        summed[stage] = summed.get(stage, 0.0) + seconds
    return summed
