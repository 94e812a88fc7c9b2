"""Where a whole `examcorpus extract` run's CPU goes, step by step, on a generated archive without scans: both
sample specs through the program's own code (`pipeline.cli.main`, one worker, inline) in this one process,
each step's CPU seconds (`time.process_time`) a page. pypdf's bare text extraction of the same files, in the
same process, is the baseline (issue 31's bar: the whole process at least as fast on generated sheets).

Two kinds of figures, which add up: the season run's steps, timed around the functions the run calls
(download, the extract task with its document cached, parse with its cache and document read back, curate
and the report as the rest of the run), and the extract stage's own timers (`infra.clock`, CPU side: pdfium,
glyphs, layout, figures, clean). The program's imports are timed once, before the run. cProfile is not
used: it doubles a run's CPU and charges small Python calls most.

    python -m tests.bench steps                      # 60 sheets, generated in a temporary folder
    python -m tests.bench steps --sheets 150 --keep /tmp/arch   # an archive kept (and reused) by `archive --keep`
"""
from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SPECS = ("sample_pl", "sample_el")
DEFAULT_SHEETS = 60


class StepClock:
    """CPU seconds per named step, added up over the calls of the functions it wraps."""

    def __init__(self, clock: Callable[[], float] = time.process_time) -> None:
        self.clock = clock
        self.seconds: dict[str, float] = {}

    def add(self, step: str, seconds: float) -> None:
        self.seconds[step] = self.seconds.get(step, 0.0) + seconds

    def wrap(self, owner: object, name: str, step: str) -> None:
        """`owner.name` replaced by itself timed as `step` (a call inside another wrapped one counts in both)."""
        function = getattr(owner, name)

        @functools.wraps(function)
        def timed(*args, **kwargs):
            started = self.clock()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(step, self.clock() - started)

        setattr(owner, name, timed)


def step_table(steps: dict[str, float], pages: int) -> list[tuple[str, float]]:
    """(step, CPU ms a page), largest first; a step the run never reached is left out."""
    return [(step, 1000 * seconds / pages) for step, seconds in sorted(steps.items(), key=lambda kv: -kv[1]) if seconds > 0]


def _timed_run(site_dir: Path, root: Path) -> tuple[float, int, StepClock, StepClock]:
    """(the run's CPU seconds, its pages, the season's steps, the extract stage's timers) of both specs."""
    import pipeline.extract as extract
    from pipeline import cli, parse, season
    from pipeline.devkit.serve import serve_directory
    from pipeline.infra import clock

    steps, timers = StepClock(), StepClock()
    take = season.take

    def take_with_cpu() -> dict[str, float]:
        # what the worker hands over (wall seconds per stage, for the run report), the CPU side kept here
        detail = clock.take_detail()
        for part, (_, cpu) in detail.items():
            timers.add(part, cpu)
        return {stage_name: sum(w for p, (w, _) in detail.items() if p.split(":", 1)[0] == stage_name)
                for stage_name in {p.split(":", 1)[0] for p in detail}}

    season.take = take_with_cpu
    steps.wrap(season, "acquire", "download (manifest, fetch, hashing)")
    steps.wrap(season, "run_extract_task", "extract task (document made and cached)")
    steps.wrap(extract, "extract_document", "… extract_document")  # as the task imports it, from the package
    steps.wrap(season, "_parse_job", "parse job (document read back, parsed, cached)")
    steps.wrap(parse, "parse_sheet", "… parse_sheet")
    steps.wrap(season, "run_source", "run_source (the whole run but the program's parsing of its options)")
    try:
        # the terminal summary is made as a curator's run makes it (its CPU counted), and not shown
        with serve_directory(site_dir) as url, contextlib.redirect_stdout(io.StringIO()):
            started = time.process_time()
            for spec in SPECS:
                cli.main(["extract", "--source", spec, "--base-url", url, "--root", str(root), "--workers", "1",
                          "--no-progress"])
            run = time.process_time() - started
    finally:
        season.take = take
    pages = sum(json.loads((root / "curated" / "reports" / f"{spec}.json").read_text(encoding="utf-8"))["totals"]["pages"]
                for spec in SPECS)
    rest = steps.seconds.get("run_source (the whole run but the program's parsing of its options)", 0.0) - sum(
        seconds for step, seconds in steps.seconds.items() if not step.startswith(("…", "run_source")))
    steps.add("curate, report and the rest of run_source", rest)
    steps.add("… … extract_document's work under no timer (file opened, pages made, crops saved, …)",
              steps.seconds.get("… extract_document", 0.0) - sum(timers.seconds.values()))
    steps.add("… the document's JSON and the stage caches (the task less extract_document)",
              steps.seconds.get("extract task (document made and cached)", 0.0) - steps.seconds.get("… extract_document", 0.0))
    return run, pages, steps, timers


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench steps", description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=DEFAULT_SHEETS, help=f"generated sheets (default {DEFAULT_SHEETS})")
    parser.add_argument("--keep", type=Path, help="the archive here (its site/ reused when it is this very archive)")
    args = parser.parse_args(argv or [])
    started = time.process_time()
    from pipeline.infra import own_process

    own_process()
    import pipeline.cli  # noqa: F401  what a run imports before its first file
    import pipeline.extract  # noqa: F401
    import pipeline.parse  # noqa: F401
    import pipeline.season  # noqa: F401

    imports = time.process_time() - started
    from tests.bench.bench_archive import _site, compile_bytecode, load_compiled_loops
    from tests.bench.baseline import pypdf_text

    with tempfile.TemporaryDirectory(prefix="bench-steps-") as tmp:
        base = args.keep or Path(tmp)
        site_dir, root = base / "site", base / "steps-root"
        shutil.rmtree(root, ignore_errors=True)
        compile_bytecode()
        load_compiled_loops()
        truth, _ = _site(site_dir, args.sheets, 0.0)
        run, pages, steps, timers = _timed_run(site_dir, root)
        baseline = pypdf_text([site_dir / t.sheet for t in truth.values()] + [site_dir / t.key for t in truth.values()])
    pypdf_ms = 1000 * baseline.cpu_seconds / baseline.pages
    print(f"{len(truth)} sheets, {pages} pages; imports before the run {imports:.2f} CPU s (once a process; a season run "
          f"has one a spec); the run {run:.2f} CPU s = {1000 * run / pages:.2f} ms a page; pypdf {pypdf_ms:.2f} ms a page "
          f"({pypdf_ms / (1000 * run / pages):.2f}x)")
    print("the season run's steps, CPU ms a page (… : inside the step above):")
    for step, ms in step_table(steps.seconds, pages):
        print(f"  {step:80s} {ms:6.2f}")
    print("the extract stage's timers, CPU ms a page:")
    for step, ms in step_table(timers.seconds, pages):
        print(f"  {step:80s} {ms:6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
