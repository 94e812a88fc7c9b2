"""`bench_archive`'s steady-state figure: a whole run's CPU less each process's start, a page. The start is
measured as a real interpreter importing what an extract process imports (no timing is asserted)."""
from pathlib import Path

import pytest

from tests.bench.bench_archive import compile_bytecode, process_start_cpu, steady_cpu_ms_a_page


def test_the_steady_state_takes_each_processs_start_off_the_run():
    # two processes of 0.5 CPU s each in a run of 5.6 CPU s over 1,000 pages: 4.6 ms a page
    assert steady_cpu_ms_a_page(5.6, 2, 0.5, 1000) == pytest.approx(4.6)
    assert steady_cpu_ms_a_page(5.6, 1, 0.5, 1000) == pytest.approx(5.1)


def test_a_run_shorter_than_its_starts_is_no_negative_cost():
    assert steady_cpu_ms_a_page(0.8, 2, 0.5, 100) == 0.0


def test_a_process_start_is_measured_from_a_real_interpreter():
    assert process_start_cpu(repeats=1) > 0.0


def test_the_package_is_compiled_once_as_an_installed_one_is():
    compile_bytecode()
    assert compile_bytecode() == 0  # every module has its bytecode beside it now


def test_under_a_bytecode_prefix_the_installed_packages_a_run_imports_are_compiled_into_it(tmp_path, monkeypatch):
    # PYTHONPYCACHEPREFIX: every module's bytecode is read from the prefix alone, numpy's too
    import importlib.util
    import sys

    import numpy
    import pydantic

    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    assert compile_bytecode() > 0
    for module in (numpy, pydantic):
        assert Path(importlib.util.cache_from_source(module.__file__)).is_file()
    assert compile_bytecode() == 0


def test_the_compiled_loops_are_loaded_beforehand_where_a_run_would_use_them(monkeypatch):
    from tests.bench.bench_archive import load_compiled_loops

    assert load_compiled_loops() > 0.0  # numba is installed here: loaded (compiled the first time) in a fresh interpreter
    monkeypatch.setenv("EXAMCORPUS_COMPILED_CHARS", "0")
    assert load_compiled_loops() is None  # switched off: a run never loads them, nor does the benchmark
