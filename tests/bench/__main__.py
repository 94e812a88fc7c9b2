"""`make bench`: every tests/bench/bench_*.py module's main(), each printing figures and ratios
against a baseline measured in the same run. `python -m tests.bench NAME` runs one; options after the
names go to the benchmarks whose main() takes them (`python -m tests.bench archive --full`)."""
import importlib
import inspect
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    first_option = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    wanted, options = argv[:first_option], argv[first_option:]
    if wanted:
        names = [n for n in names if any(a in n for a in wanted)]
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        started = time.perf_counter()
        bench_main = importlib.import_module(f"tests.bench.{name}").main
        if inspect.signature(bench_main).parameters:
            bench_main(options)
        elif options:
            raise SystemExit(f"{name} takes no options (given {options})")
        else:
            bench_main()
        print(f"({name} took {time.perf_counter() - started:.1f}s)", flush=True)
    return 0


if __name__ == "__main__":
    from pipeline.infra import own_process, settle

    # A program, as `examcorpus` is: the same collector policy (`infra.heap`, `infra.collector`). Settled at
    # once, so a benchmark that never settles (its harness and baselines) runs under the default thresholds.
    own_process()
    settle()
    sys.exit(main(sys.argv[1:]))
