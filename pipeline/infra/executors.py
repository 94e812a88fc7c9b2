"""Where per-file stage functions run: inline, a local process pool, or a Ray cluster.

Stages hand this module a pure, picklable function and its inputs; nothing else about scheduling
lives in the pipeline, so a whole national archive can run on an existing engine (Ray) by choosing
`--executor ray` without touching any stage.

Local workers never outlive the run. They join one process group led by a tiny watchdog process,
so everything they start (Tesseract) is in it too; the watchdog kills the whole group the moment
its parent disappears, even by kill -9, which no handler in the parent could catch. On Linux each
worker also asks the kernel for SIGKILL when its parent dies (PR_SET_PDEATHSIG). An exception or
Ctrl-C in the parent kills the group at once instead of waiting for running OCR to finish.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
from concurrent.futures import as_completed
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator, TypeVar

T = TypeVar("T")
R = TypeVar("R")

EXECUTORS = ("inline", "process", "ray")


class _Inline:
    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        return map(fn, items)


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

# Runs as its own process group's leader; the pool's workers join that group. It polls rather than
# waits on a pipe because forked workers inherit every pipe end, so EOF would never come.
_WATCHDOG = """
import os, signal, sys, time
parent = int(sys.argv[1])
signal.signal(signal.SIGINT, signal.SIG_IGN)
while os.getppid() == parent:
    time.sleep(0.1)
os.killpg(0, signal.SIGKILL)
"""


def _die_with_parent(group: int) -> None:
    """Worker initializer: join the watchdog's process group and die with the parent (Linux)."""
    with contextlib.suppress(OSError):
        os.setpgid(0, group)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class _ProcessPool:
    def __init__(self, workers: int):
        self._watchdog = subprocess.Popen(
            [sys.executable, "-S", "-c", _WATCHDOG, str(os.getpid())],
            process_group=0,
            stdin=subprocess.DEVNULL,
            close_fds=True,
        )
        self.group = self._watchdog.pid
        # Imported here: the process pool's module imports multiprocessing (about 3 CPU ms after a run's other
        # imports), which a run on one worker, inline in its own process, never needs.
        from concurrent.futures import ProcessPoolExecutor

        self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent, initargs=(self.group,))

    def imap_unordered(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        futures = [self._pool.submit(fn, item) for item in items]
        for future in as_completed(futures):
            yield future.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._watchdog.terminate()
        self._watchdog.wait()

    def abort(self) -> None:
        """The parent is failing (an exception, Ctrl-C): kill workers and their children now."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.group, signal.SIGKILL)
        self._watchdog.wait()
        self._pool.shutdown(wait=False, cancel_futures=True)


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
        self._disconnect()

    def abort(self) -> None:
        self._pool.terminate()
        self._disconnect()

    @staticmethod
    def _disconnect() -> None:
        """Leave the cluster: a local Ray the pool started is stopped now, not when the process exits;
        a cluster named by RAY_ADDRESS keeps running (`ray stop` on its nodes ends it)."""
        import ray

        ray.shutdown()


def pool_size(kind: str = "process", workers: int | None = None) -> int:
    """How many processes `make_executor(kind, workers)` runs its items in (1: inline, in this one)."""
    workers = workers or os.cpu_count() or 1
    return 1 if kind == "inline" else workers


@contextmanager
def make_executor(kind: str = "process", workers: int | None = None):
    if kind not in EXECUTORS:
        raise ValueError(f"unknown executor {kind!r}; choose one of {EXECUTORS}")
    workers = pool_size(kind, workers)
    if kind == "inline" or (kind == "process" and workers == 1):
        yield _Inline()
        return
    pool = _RayPool(workers) if kind == "ray" else _ProcessPool(workers)
    try:
        yield pool
    except BaseException:
        pool.abort()
        raise
    pool.close()
