"""`make bench` (tests/bench/__main__.py) calls each benchmark's main() with the options after the names, as a
list, whenever that main takes a parameter; a main whose first parameter is anything else (a count, a flag) would
be handed a list and fail only at the end of a long `make bench` run (bench_publish did, after 80 minutes)."""
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

BENCH = Path(__file__).parent
NAMES = sorted(m.name for m in pkgutil.iter_modules([str(BENCH)]) if m.name.startswith("bench_"))


@pytest.mark.parametrize("name", NAMES)
def test_each_benchmark_main_takes_the_runners_option_list_or_nothing(name):
    parameters = list(inspect.signature(importlib.import_module(f"tests.bench.{name}").main).parameters.values())
    if not parameters:
        return
    first = parameters[0]
    assert "list" in str(first.annotation), f"{name}.main's first parameter {first} is not the option list"
    assert all(p.default is not inspect.Parameter.empty for p in parameters[1:]), name


def test_the_publish_benchmark_reads_its_size_from_the_options(capsys):
    bench_publish = importlib.import_module("tests.bench.bench_publish")
    bench_publish.main(["--records", "200"])
    assert "generated 200 records" in capsys.readouterr().out
