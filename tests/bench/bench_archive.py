"""A national archive end to end: generated sheets served over HTTP, `examcorpus extract` on both sample
specs as a curator runs it (fresh processes, the local process pool), then the same again with nothing new.

Prints wall time, pages/s, peak memory (RSS) of the run's main process and of each pool worker, the
seconds per stage from the run reports (download, text, layout, ocr, figures, parse, curate), pypdf's raw
text extraction of the same text-layer files in this run as the baseline, how much of the truth the run
curated, and the re-run's time as a share of the first (goal ≤ 5 %).

    python -m tests.bench archive                 # 60 sheets: a few minutes on two cores
    python -m tests.bench archive --sheets 300
    python -m tests.bench archive --full          # 1,500 sheets, the size of a national archive
    python -m tests.bench archive --executor ray  # on the Ray cluster RAY_ADDRESS names (`ray start --head`)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from pipeline.devkit.sample.archive import SCANNED_SHARE, build_archive_site
from pipeline.devkit.sample.check import compare_with_truth
from pipeline.devkit.serve import serve_directory
from tests.bench.baseline import pypdf_text

DEFAULT_SHEETS = 60
FULL_SHEETS = 1500
SPECS = ("sample_pl", "sample_el")
POLL_SECONDS = 0.1
STAGES = ("download", "text", "layout", "ocr", "figures", "parse", "curate")


@dataclass
class PeakMemory:
    """Highest RSS seen per process of a run, sampled every POLL_SECONDS."""

    main: int = 0
    workers: dict[int, int] = field(default_factory=dict)  # pid -> bytes (pool workers, OCR helpers)

    def sample(self, root: psutil.Process, ray_workers: bool = False) -> None:
        try:
            self.main = max(self.main, root.memory_info().rss)
            children = root.children(recursive=True)
        except psutil.Error:
            return
        if ray_workers:  # Ray's workers are the raylets' children, not the run's
            children += [p for p in psutil.process_iter(["cmdline"]) if "default_worker.py" in " ".join(p.info["cmdline"] or ())]
        for child in children:
            try:
                if "-S" in child.cmdline()[1:3]:
                    continue  # the pool's watchdog: a bare interpreter, no work
                self.workers[child.pid] = max(self.workers.get(child.pid, 0), child.memory_info().rss)
            except psutil.Error:
                continue


@dataclass
class SpecRun:
    spec: str
    seconds: float
    memory: PeakMemory
    report: dict


def run_extract(spec: str, base_url: str, root: Path, workers: int, executor: str = "process") -> SpecRun:
    """One `examcorpus extract --source SPEC` in a fresh process, its process tree watched for memory."""
    command = [sys.executable, "-m", "pipeline.cli", "extract", "--source", spec, "--base-url", base_url,
               "--root", str(root), "--workers", str(workers), "--executor", executor, "--no-progress"]
    memory = PeakMemory()
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watched = psutil.Process(process.pid)
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            memory.sample(watched, ray_workers=executor == "ray")
            done.wait(POLL_SECONDS)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    out, err = process.communicate()
    seconds = time.perf_counter() - started
    done.set()
    watcher.join()
    if process.returncode != 0:
        raise RuntimeError(f"examcorpus extract --source {spec} failed ({process.returncode}):\n{out[-2000:]}\n{err[-2000:]}")
    report = json.loads((root / "curated" / "reports" / f"{spec}.json").read_text(encoding="utf-8"))
    return SpecRun(spec, seconds, memory, report)


def _mib(size: int) -> float:
    return size / 2**20


def _agreement(root: Path, site) -> tuple[int, int, int, int]:
    """(questions found, expected, closed answers right, closed expected) over the whole archive."""
    import pyarrow.parquet as pq

    from pipeline.records import table_to_questions

    questions = [q for spec in SPECS for q in table_to_questions(pq.read_table(root / "curated" / f"{spec}.parquet"))]
    agreements = compare_with_truth(questions, site.truth)
    return (sum(a.found for a in agreements), sum(a.expected for a in agreements),
            sum(a.same_answer for a in agreements), sum(a.closed for a in agreements))


def _print_run(title: str, runs: list[SpecRun], workers: int) -> None:
    seconds = sum(r.seconds for r in runs)
    pages = sum(r.report["totals"]["pages"] for r in runs)
    ocr_pages = sum(r.report["totals"]["ocr_pages"] for r in runs)
    questions = sum(r.report["totals"]["questions"] for r in runs)
    print(f"{title}: {seconds:.1f} s wall, {pages} pages ({ocr_pages} OCR) = {pages / seconds:.1f} pages/s "
          f"on {workers} worker(s), {questions} questions")
    main_peak = max(r.memory.main for r in runs)
    worker_peaks = [peak for r in runs for peak in r.memory.workers.values()]
    if worker_peaks:
        largest = ", ".join(f"{_mib(peak):.0f}" for peak in sorted(worker_peaks, reverse=True)[:6])
        print(f"  peak RSS: main process {_mib(main_peak):.0f} MiB; worker processes ({len(worker_peaks)}), "
              f"largest first: {largest} MiB")
    else:
        print(f"  peak RSS: main process {_mib(main_peak):.0f} MiB; no worker process (nothing to extract)")
    totals: dict[str, float] = {}
    for run in runs:
        for stage, value in run.report.get("stage_seconds", {}).items():
            totals[stage] = totals.get(stage, 0.0) + value
    spent = sum(totals.values())
    if spent > 0:
        shares = ", ".join(f"{stage} {totals.get(stage, 0.0):.1f} s ({totals.get(stage, 0.0) / spent:.0%})" for stage in STAGES)
        print(f"  per stage (text/layout/ocr/figures in worker seconds): {shares}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench archive", description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help=f"the full archive: {FULL_SHEETS} sheets")
    size.add_argument("--sheets", type=int, default=DEFAULT_SHEETS, help=f"how many sheets (default {DEFAULT_SHEETS})")
    parser.add_argument("--scanned-share", type=float, default=SCANNED_SHARE, help="share of each style's sheets published as scans")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="extract workers (default: CPU count)")
    parser.add_argument("--executor", choices=("process", "ray"), default="process",
                        help="ray: the cluster RAY_ADDRESS names, started beforehand with `ray start --head`")
    parser.add_argument("--keep", type=Path, help="build the archive and the run's root here and keep them")
    args = parser.parse_args(argv or [])
    sheets = FULL_SHEETS if args.full else args.sheets
    with tempfile.TemporaryDirectory(prefix="bench-archive-") as tmp:
        base = args.keep or Path(tmp)
        site_dir, root = base / "site", base / "root"
        started = time.perf_counter()
        site = build_archive_site(site_dir, sheets, scanned_share=args.scanned_share, workers=os.cpu_count() or 1)
        scans = [t for t in site.truth.values() if t.scanned]
        print(f"archive: {len(site.truth)} sheets ({len(scans)} scanned, {args.scanned_share:.0%} asked), "
              f"{sum(t.page_count for t in site.truth.values())} sheet pages, "
              f"{sum(len(t.questions) for t in site.truth.values())} questions; generated in {time.perf_counter() - started:.1f} s")
        with serve_directory(site_dir) as base_url:
            first = [run_extract(spec, base_url, root, args.workers, args.executor) for spec in SPECS]
            rerun = [run_extract(spec, base_url, root, args.workers, args.executor) for spec in SPECS]
        print(f"executor: {args.executor}" + (f" (RAY_ADDRESS={os.environ.get('RAY_ADDRESS', 'unset: a local Ray')})" if args.executor == "ray" else ""))
        _print_run("first make extract", first, args.workers)
        found, expected, right, closed = _agreement(root, site)
        print(f"  curated {found}/{expected} questions of the truth, {right}/{closed} closed answers right")
        _print_run("re-run, nothing new", rerun, args.workers)
        ratio = sum(r.seconds for r in rerun) / sum(r.seconds for r in first)
        print(f"  re-run / first = {ratio:.1%} (goal ≤ 5%: {'met' if ratio <= 0.05 else 'NOT met'})")

        text_files = [site_dir / t.sheet for t in site.truth.values() if not t.scanned]
        text_files += [site_dir / t.key for t in site.truth.values()]
        baseline = pypdf_text(text_files)
        base_pages, base_seconds = baseline.pages, baseline.seconds
        stage_totals: dict[str, float] = {}
        for run in first:
            for stage, value in run.report.get("stage_seconds", {}).items():
                stage_totals[stage] = stage_totals.get(stage, 0.0) + value
        ours_seconds = sum(stage_totals.get(s, 0.0) for s in ("text", "layout", "figures", "parse"))
        print(f"pypdf extract_text, same text-layer files, one process: {base_pages} pages in {base_seconds:.1f} s "
              f"= {base_pages / base_seconds:.1f} pages/s")
        if ours_seconds > 0:
            ours_rate = base_pages / ours_seconds
            print(f"ours on those pages (text + layout + figures + parse seconds, one core's worth): {ours_rate:.1f} pages/s "
                  f"= {ours_rate / (base_pages / base_seconds):.2f}x pypdf")


if __name__ == "__main__":
    main(sys.argv[1:])
