"""Executors run the same pure per-file function with the same results, whatever the engine."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.infra import make_executor


def square_with_pid(x: int) -> tuple[int, int]:
    return x * x, os.getpid()


@pytest.mark.parametrize("kind", ["inline", "process"])
def test_every_executor_returns_every_result(kind):
    with make_executor(kind, workers=2) as pool:
        results = list(pool.imap_unordered(square_with_pid, range(8)))
    assert sorted(r for r, _ in results) == [x * x for x in range(8)]


def test_the_process_pool_runs_work_outside_this_process():
    with make_executor("process", workers=2) as pool:
        pids = {pid for _, pid in pool.imap_unordered(square_with_pid, range(8))}
    assert os.getpid() not in pids


def test_a_single_worker_runs_inline_without_a_pool():
    with make_executor("process", workers=1) as pool:
        assert {pid for _, pid in pool.imap_unordered(square_with_pid, range(3))} == {os.getpid()}


# A fresh interpreter importing what an `examcorpus extract` process imports before its first file, then running
# items on one worker (inline, as `--workers 1` does), and on two (a pool): which multiprocessing modules it held.
_ONE_THEN_TWO = """
import sys
import pipeline.cli, pipeline.season, pipeline.extract, pipeline.parse
from pipeline.infra import make_executor
held = lambda: any(m == "multiprocessing" or m.startswith(("multiprocessing.", "concurrent.futures.process")) for m in sys.modules)
with make_executor("process", workers=1) as pool:
    print(sorted(pool.imap_unordered(abs, [-2, 1])), held())
with make_executor("process", workers=2) as pool:
    print(sorted(pool.imap_unordered(abs, [-2, 1])), held())
"""


def test_a_run_on_one_worker_never_imports_the_process_pool():
    """The process pool's module imports multiprocessing (about 3 CPU ms after a run's other imports), which a run
    on one worker, inline, never uses: imported only where a pool is made."""
    done = subprocess.run([sys.executable, "-c", _ONE_THEN_TWO], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[3])
    assert done.stdout.splitlines() == ["[1, 2] False", "[1, 2] True"]


def test_an_unknown_executor_is_refused():
    with pytest.raises(ValueError, match="unknown executor 'spark'"):
        with make_executor("spark"):
            pass


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray not installed (pip install ray)")
def test_ray_runs_the_same_function_as_tasks(monkeypatch):
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    with make_executor("ray", workers=2) as pool:
        results = list(pool.imap_unordered(square_with_pid, range(8)))
    assert sorted(r for r, _ in results) == [x * x for x in range(8)]
    assert os.getpid() not in {pid for _, pid in results}
    import ray

    assert not ray.is_initialized()  # the local Ray it started is stopped with the pool, not at exit
