"""Progress of long steps, on stderr: a bar when a person is watching (a terminal), plain lines otherwise.

Redirected to a file, piped, under nohup or CI, a redrawn bar is either dropped (tqdm's default) or
a smear of carriage returns; there a step prints one line every `every_s` seconds (default 30, or
EXAMCORPUS_PROGRESS_EVERY_S) with its count, rate and time left, and one line when it ends.
Both answer `update(n)`, `set_postfix(mapping)` and `close()`, and work as context managers. A step shown
nowhere (`enabled=False`: a worker, `--no-progress`) gets `SilentProgress`, and tqdm is imported only for a
bar on a terminal: its import (with `importlib.metadata` for its version) was a tenth of the start of every
`examcorpus extract` process, most of which never draw a bar.
"""
from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from tqdm import tqdm

EVERY_S_VARIABLE = "EXAMCORPUS_PROGRESS_EVERY_S"
DEFAULT_EVERY_S = 30.0


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds // 60 % 60:02d} min"


class PlainProgress:
    """The bar's stand-in where no terminal redraws it: a line every `every_s` seconds and at the end."""

    def __init__(self, *, total: int, desc: str, unit: str, every_s: float, stream: TextIO):
        self.total, self.desc, self.unit, self.every_s, self.stream = total, desc, unit, every_s, stream
        self.n = 0
        self.postfix: dict = {}
        self.started = self._last_line = time.monotonic()
        self._printed_n: int | None = None
        self.closed = False

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self._last_line >= self.every_s and self.n < self.total:
            self._line(now)

    def set_postfix(self, mapping: dict | None = None, refresh: bool = True, **fields) -> None:
        self.postfix = {**(mapping or {}), **fields}

    def line(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        elapsed = now - self.started
        share = f" ({100 * self.n / self.total:.0f} %)" if self.total else ""
        text = f"{self.desc}: {self.n}/{self.total} {self.unit}{share}, {_duration(elapsed)}"
        if self.n and elapsed > 0:
            rate = self.n / elapsed
            text += f", {rate:.2f} {self.unit}/s" if rate < 100 else f", {rate:.0f} {self.unit}/s"
            if self.n < self.total:
                text += f", about {_duration((self.total - self.n) / rate)} left"
        if self.postfix:
            text += "; " + " ".join(f"{key}={value}" for key, value in self.postfix.items())
        return text

    def _line(self, now: float | None = None) -> None:
        print(self.line(now), file=self.stream, flush=True)
        self._last_line = time.monotonic() if now is None else now
        self._printed_n = self.n

    def close(self) -> None:
        if not self.closed and self.total and self._printed_n != self.n:
            self._line()
        self.closed = True

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class SilentProgress:
    """A step's progress shown nowhere: it answers what a bar answers and prints nothing."""

    def __init__(self, *, total: int):
        self.total, self.n = total, 0

    def update(self, n: int = 1) -> None:
        self.n += n

    def set_postfix(self, mapping: dict | None = None, refresh: bool = True, **fields) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> SilentProgress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _every_s() -> float:
    try:
        return max(0.0, float(os.environ.get(EVERY_S_VARIABLE, DEFAULT_EVERY_S)))
    except ValueError:
        return DEFAULT_EVERY_S


def progress(*, total: int, desc: str, unit: str = "it", enabled: bool = True,
             every_s: float | None = None) -> tqdm | PlainProgress | SilentProgress:
    """A bar on a terminal, plain periodic lines elsewhere, nothing when not `enabled`."""
    if not enabled:
        return SilentProgress(total=total)
    stream = sys.stderr
    if not stream.isatty():
        return PlainProgress(total=total, desc=desc, unit=unit, every_s=_every_s() if every_s is None else every_s, stream=stream)
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, file=stream, dynamic_ncols=True)
