"""Season re-run cost: a second `examcorpus extract` (what `make extract` runs) on the embedded sample
with nothing new, as a ratio of the first run (goal ≤ 5%). Each run is a fresh process, as a curator
runs it, so interpreter start-up and imports count; both runs on the same machine and files."""
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _timed_run(root: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline.cli", "extract", "--root", str(root), "--no-progress"],
                   check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        first = _timed_run(root)
        reruns = [_timed_run(root) for _ in range(3)]
    rerun = min(reruns)
    print(f"{'run (fresh process each)':<38}{'seconds':>10}{'ratio':>10}")
    print(f"{'first make extract (baseline)':<38}{first:>10.2f}{1.0:>10.1%}")
    print(f"{'re-run, nothing new (best of 3)':<38}{rerun:>10.2f}{rerun / first:>10.1%}")
    print(f"goal ≤ 5%: {'met' if rerun / first <= 0.05 else 'NOT met'}")
