"""Where per-file stage functions run: inline, a local process pool, or a Ray cluster.

Stages hand this module a pure, picklable function and its inputs; nothing else about scheduling
lives in the pipeline, so a whole national archive can run on an existing engine (Ray) by choosing
`--executor ray` without touching any stage.
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")

EXECUTORS = ("inline", "process", "ray")


class _Inline:
    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        return map(fn, items)


class _ProcessPool:
    def __init__(self, workers: int):
        self._pool = ProcessPoolExecutor(max_workers=workers)

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        futures = [self._pool.submit(fn, item) for item in items]
        for future in as_completed(futures):
            yield future.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class _RayPool:
    def __init__(self, workers: int | None):
        try:
            from ray.util.multiprocessing import Pool
        except ImportError as exc:
            raise RuntimeError("--executor ray needs Ray: pip install 'ray[default]'") from exc
        # Connects to RAY_ADDRESS when set (an existing cluster), else starts a local one.
        self._pool = Pool(processes=workers)

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        return self._pool.imap_unordered(fn, list(items))

    def close(self) -> None:
        self._pool.terminate()


@contextmanager
def make_executor(kind: str = "process", workers: int | None = None):
    if kind not in EXECUTORS:
        raise ValueError(f"unknown executor {kind!r}; choose one of {EXECUTORS}")
    workers = workers or os.cpu_count() or 1
    if kind == "inline" or (kind == "process" and workers == 1):
        yield _Inline()
        return
    pool = _RayPool(workers) if kind == "ray" else _ProcessPool(workers)
    try:
        yield pool
    finally:
        pool.close()
