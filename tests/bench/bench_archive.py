"""A national archive end to end: generated sheets served over HTTP, `examcorpus extract` on both sample
specs as a curator runs it (`make extract`: one fresh process running both specs one after the other, the local
process pool; `--process-per-spec`: a process a spec), then the same again with nothing new.

Prints wall time, pages/s, peak memory (RSS) of the run's main process and of each pool worker, the
seconds per stage from the run reports (download, text, layout, ocr, figures, parse, curate), pypdf's raw
text extraction of the same text-layer files in this run as the baseline, how much of the truth the run
curated, and the re-run's time as a share of the first (goal ≤ 5 %). Without scans, the whole run's CPU a
page against pypdf's, and the same less each process's start (measured in the run): the steady state a
full-size archive approaches, where the start is spread over tens of thousands of pages.

    python -m tests.bench archive                 # 60 sheets: a few minutes on two cores
    python -m tests.bench archive --sheets 300
    python -m tests.bench archive --full          # 1,500 sheets, the size of a national archive
    python -m tests.bench archive --executor ray  # on the Ray cluster RAY_ADDRESS names (`ray start --head`)
    python -m tests.bench archive --executor ray --ray-nodes 2 --workers 2   # a cluster of its own, stopped after
    python -m tests.bench archive --keep /tmp/arch  # keep the archive; a later run with --keep reuses it
    python -m tests.bench archive --process-per-spec   # `examcorpus extract --source SPEC` once a spec

Every figure comes with the machine's load average (other jobs move wall time; CPU seconds hold
still), and the per-page figures are extrapolated to the full archive (1,500 sheets).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import resource
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from pipeline.devkit.sample.archive import SCANNED_SHARE, archive_sheets, build_archive_site
from pipeline.devkit.sample.check import compare_with_truth
from pipeline.devkit.sample.site import TRUTH_FILE, SheetTruth, load_truth
from pipeline.devkit.serve import serve_directory
from tests.bench.baseline import pypdf_text

DEFAULT_SHEETS = 60
FULL_SHEETS = 1500
SPECS = ("sample_pl", "sample_el")
POLL_SECONDS = 0.1
STAGES = ("download", "text", "layout", "ocr", "figures", "parse", "curate")
TEXT_PATH = ("text", "layout", "figures", "parse")  # a text-layer page's work in the workers and parse


@dataclass
class PeakMemory:
    """Highest RSS seen per process of a run, sampled every POLL_SECONDS."""

    main: int = 0
    workers: dict[int, int] = field(default_factory=dict)  # pid -> bytes (pool workers, OCR helpers)
    total: int = 0  # the most RSS the run's processes held at one moment, all together
    ray_cpu: dict[int, float] = field(default_factory=dict)  # pid -> CPU seconds of Ray workers (not our children)

    def sample(self, root: psutil.Process, ray_workers: bool = False) -> None:
        try:
            now = root.memory_info().rss
            self.main = max(self.main, now)
            children = root.children(recursive=True)
        except psutil.Error:
            return
        if ray_workers:  # Ray's workers are the raylets' children, not the run's
            ray = [p for p in psutil.process_iter(["cmdline"]) if "default_worker.py" in " ".join(p.info["cmdline"] or ())
                   or (p.info["cmdline"] or [""])[0].startswith("ray::")]
            children += ray
            for worker in ray:
                try:
                    times = worker.cpu_times()
                    self.ray_cpu[worker.pid] = times.user + times.system
                except psutil.Error:
                    continue
        for child in children:
            try:
                if "-S" in child.cmdline()[1:3]:
                    continue  # the pool's watchdog: a bare interpreter, no work
                rss = child.memory_info().rss
            except psutil.Error:
                continue
            self.workers[child.pid] = max(self.workers.get(child.pid, 0), rss)
            now += rss
        self.total = max(self.total, now)


@dataclass
class SpecRun:
    """One `examcorpus extract` process: the specs it ran, one after another, and each one's report."""

    specs: tuple[str, ...]
    seconds: float
    memory: PeakMemory
    reports: list[dict]
    cpu_seconds: float  # the run's process and every process it waited for; Ray workers' as sampled

    def total(self, name: str) -> int:
        """A report total (pages, questions, ...) over the process's specs."""
        return sum(report["totals"][name] for report in self.reports)


def run_extract(specs: tuple[str, ...], base_url: str, root: Path, workers: int, executor: str = "process") -> SpecRun:
    """One `examcorpus extract --source SPEC ...` in a fresh process (several specs: one after another in it, as
    `make extract` runs the sample's), its process tree watched for memory."""
    sources = [argument for spec in specs for argument in ("--source", spec)]
    command = [sys.executable, "-m", "pipeline.cli", "extract", *sources, "--base-url", base_url,
               "--root", str(root), "--workers", str(workers), "--executor", executor, "--no-progress"]
    memory = PeakMemory()
    started = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
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
        raise RuntimeError(f"examcorpus extract {' '.join(sources)} failed ({process.returncode}):\n{out[-2000:]}\n{err[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime + sum(memory.ray_cpu.values())
    reports = [json.loads((root / "curated" / "reports" / f"{spec}.json").read_text(encoding="utf-8")) for spec in specs]
    return SpecRun(tuple(specs), seconds, memory, reports, cpu)


def _mib(size: int) -> float:
    return size / 2**20


def _agreement(root: Path, truth: dict[str, SheetTruth]) -> tuple[int, int, int, int]:
    """(questions found, expected, closed answers right, closed expected) over the whole archive."""
    import pyarrow.parquet as pq

    from pipeline.records import table_to_questions

    questions = [q for spec in SPECS for q in table_to_questions(pq.read_table(root / "curated" / f"{spec}.parquet"))]
    agreements = compare_with_truth(questions, truth)
    return (sum(a.found for a in agreements), sum(a.expected for a in agreements),
            sum(a.same_answer for a in agreements), sum(a.closed for a in agreements))


def _curated_stamp(root: Path, spec: str) -> tuple[int, bytes]:
    path = root / "curated" / f"{spec}.parquet"
    return path.stat().st_mtime_ns, path.read_bytes()


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} / {five:.1f} / {fifteen:.1f} (1/5/15 min) on {os.cpu_count()} cores"


def _stage_totals(runs: list[SpecRun]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for report in (report for run in runs for report in run.reports):
        for stage, value in report.get("stage_seconds", {}).items():
            totals[stage] = totals.get(stage, 0.0) + value
    return totals


def _print_run(title: str, runs: list[SpecRun], workers: int) -> None:
    seconds = sum(r.seconds for r in runs)
    pages = sum(r.total("pages") for r in runs)
    ocr_pages = sum(r.total("ocr_pages") for r in runs)
    questions = sum(r.total("questions") for r in runs)
    cpu = sum(r.cpu_seconds for r in runs)
    print(f"{title}: {seconds:.1f} s wall, {cpu:.1f} s CPU, {pages} pages ({ocr_pages} OCR) = {pages / seconds:.1f} pages/s "
          f"on {workers} worker(s), {questions} questions; {_load()} at its end")
    main_peak = max(r.memory.main for r in runs)
    worker_peaks = [peak for r in runs for peak in r.memory.workers.values()]
    together = max(r.memory.total for r in runs)
    if worker_peaks:
        largest = ", ".join(f"{_mib(peak):.0f}" for peak in sorted(worker_peaks, reverse=True)[:6])
        print(f"  peak RSS: main process {_mib(main_peak):.0f} MiB; worker processes ({len(worker_peaks)}), "
              f"largest first: {largest} MiB; all processes at once {_mib(together):.0f} MiB")
    else:
        print(f"  peak RSS: main process {_mib(main_peak):.0f} MiB; no worker process (nothing to extract)")
    totals = _stage_totals(runs)
    spent = sum(totals.values())
    if spent > 0:
        shares = ", ".join(f"{stage} {totals.get(stage, 0.0):.1f} s ({totals.get(stage, 0.0) / spent:.0%})" for stage in STAGES)
        print(f"  per stage (text/layout/ocr/figures in worker seconds): {shares}")


def _per_page(runs: list[SpecRun], truth: dict[str, SheetTruth]) -> None:
    """Each stage's cost per page (one core's seconds), and what the full archive costs by them."""
    totals = _stage_totals(runs)
    pages = sum(r.total("pages") for r in runs)
    ocr_pages = sum(r.total("ocr_pages") for r in runs)
    text_pages = pages - ocr_pages
    if not pages:
        return
    per_text = sum(totals.get(s, 0.0) for s in TEXT_PATH) / max(text_pages, 1)
    per_ocr = totals.get("ocr", 0.0) / ocr_pages if ocr_pages else 0.0
    per_page_rest = (totals.get("download", 0.0) + totals.get("curate", 0.0)) / pages
    print(f"  per page, one core: text path {1000 * per_text:.0f} ms ("
          + ", ".join(f"{s} {1000 * totals.get(s, 0.0) / max(text_pages, 1):.0f}" for s in TEXT_PATH)
          + f"), OCR {per_ocr:.2f} s a scanned page, download + curate {1000 * per_page_rest:.1f} ms (main process)")
    sheets = len(truth)
    scale = FULL_SHEETS / sheets
    full_text, full_ocr = text_pages * scale, ocr_pages * scale
    core_seconds = full_text * per_text + full_ocr * per_ocr
    wall = core_seconds / (os.cpu_count() or 1) + pages * scale * per_page_rest
    print(f"  full archive by these figures ({FULL_SHEETS} sheets: {full_text:.0f} text + {full_ocr:.0f} scanned pages): "
          f"{core_seconds / 3600:.2f} core-hours = {wall / 60:.0f} min on {os.cpu_count()} idle cores")


# What every `examcorpus extract` process imports before it reads a file (the season run, both stages), as the
# program imports it: its own process from `pipeline.cli.main` on (`infra.heap`, `infra.collector`).
START_IMPORTS = "import pipeline.cli; pipeline.cli.own_process(); import pipeline.season, pipeline.extract, pipeline.parse"


def process_start_cpu(repeats: int = 3) -> float:
    """CPU seconds (user + system) of a fresh interpreter importing what an extract process imports before
    its first file: the median of `repeats` starts, measured in this run beside the run they are taken from."""
    spent = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", START_IMPORTS], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return sorted(spent)[len(spent) // 2]


def steady_cpu_ms_a_page(run_cpu: float, processes: int, start_cpu: float, pages: int) -> float:
    """CPU ms a page of a whole run less its processes' start: what a page costs once the start is
    spread over an archive's pages (on the full-size archive the start is about 1 % of the run)."""
    return 1000 * max(run_cpu - processes * start_cpu, 0.0) / pages


def _site(site_dir: Path, sheets: int, scanned_share: float) -> tuple[dict[str, SheetTruth], float]:
    """The archive's truth, and the seconds spent generating it: none when `site_dir` holds this very
    archive already (a kept one), so a benchmark can be run again without generating it again."""
    started = time.perf_counter()
    wanted = archive_sheets(sheets, scanned_share=scanned_share)
    try:
        truth = load_truth(site_dir / TRUTH_FILE)
    except (FileNotFoundError, ValueError):
        truth = {}
    same = [(s.sheet_file, s.scanned) for s in wanted] == [(t.sheet, t.scanned) for t in truth.values()]
    if same and all((site_dir / t.sheet).is_file() and (site_dir / t.key).is_file() for t in truth.values()):
        return truth, 0.0
    site = build_archive_site(site_dir, sheets, scanned_share=scanned_share, workers=os.cpu_count() or 1)
    return site.truth, time.perf_counter() - started


def compile_bytecode() -> int:
    """Write the bytecode of every `pipeline` module beside its source, as installing the package does, and
    return how many modules had none: a checkout run under PYTHONDONTWRITEBYTECODE (or an editable install
    that never wrote any) compiles every module it imports from source in every process, about 0.3 CPU s an
    `examcorpus extract` process here, which an installed package (and pypdf, the baseline) does not pay.

    Under PYTHONPYCACHEPREFIX every module's bytecode is read from the prefix alone, the installed packages'
    (numpy, pydantic, pyarrow, ...) and the standard library's too, and with PYTHONDONTWRITEBYTECODE nothing
    writes it there: each process compiled all of them from source (measured: a run's imports 1.55-1.76 CPU s
    against 0.66-0.70 without the prefix). So where a prefix is set, every module a run imports before its
    first file is compiled into it as well (`_compile_run_imports_into_prefix`), and counted."""
    import compileall
    import importlib.util

    import pipeline

    package = Path(pipeline.__file__).resolve().parent
    sources = list(package.rglob("*.py"))
    missing = sum(1 for source in sources if not Path(importlib.util.cache_from_source(str(source))).is_file())
    compileall.compile_dir(str(package), quiet=1)
    return missing + _compile_run_imports_into_prefix()


# What an `examcorpus extract` process imports before its first file (`bench_steps` times the same imports),
# and the source file of each module it then holds.
RUN_IMPORTS = ("import sys, pipeline.cli, pipeline.extract, pipeline.parse, pipeline.season; "
               "print('\\n'.join(sorted({f for m in list(sys.modules.values()) "
               "if isinstance(f := getattr(m, '__file__', None), str) and f.endswith('.py')})))")


def _compile_run_imports_into_prefix() -> int:
    """Where `sys.pycache_prefix` is set: the modules a run imports (listed by a fresh interpreter) compiled
    into the prefix where it has none of their bytecode; how many were."""
    if not sys.pycache_prefix:
        return 0
    import compileall
    import importlib.util

    listed = subprocess.run([sys.executable, "-c", RUN_IMPORTS], capture_output=True, text=True, check=True).stdout
    missing = [source for source in listed.splitlines()
               if source and not Path(importlib.util.cache_from_source(source)).is_file()]
    for source in missing:
        compileall.compile_file(source, quiet=2)
    return len(missing)


# Loads layout's and the character reader's compiled loops as a run does once past its threshold
# (`extract.charloop`), which writes numba's on-disk cache beside their source the first time; and llvmlite's
# loops, as every run does from its first page, which keeps their object code on disk (`extract.objectcache`).
LOAD_COMPILED_LOOPS = ("from pipeline.extract import charloop; charloop.char_loops(); "
                       "raise SystemExit(0 if charloop.compiled_reader() and charloop.compiled_layout() else 3)")


def load_compiled_loops() -> float | None:
    """CPU seconds of a fresh interpreter loading the compiled loops, which compiles them where this checkout
    has no numba cache for them yet (a fresh clone or worktree: about 6 CPU s, in each of a run's processes
    that gets past the threshold before the cache is written), or None where they are not used (numba
    missing, `EXAMCORPUS_COMPILED_CHARS=0`). An installed package compiles them on its first run and keeps
    them: a first run on new sheets, which this benchmark measures, finds them compiled, as the bytecode."""
    from pipeline.extract import charloop

    if charloop.switch() == "0":
        return None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", LOAD_COMPILED_LOOPS], env=os.environ | {charloop.ENV_SWITCH: "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime if done.returncode == 0 else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench archive", description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--full", action="store_true", help=f"the full archive: {FULL_SHEETS} sheets")
    size.add_argument("--sheets", type=int, default=DEFAULT_SHEETS, help=f"how many sheets (default {DEFAULT_SHEETS})")
    parser.add_argument("--scanned-share", type=float, default=SCANNED_SHARE, help="share of each style's sheets published as scans")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="extract workers (default: CPU count)")
    parser.add_argument("--executor", choices=("process", "ray"), default="process",
                        help="ray: the cluster RAY_ADDRESS names, started beforehand with `ray start --head`")
    parser.add_argument("--ray-nodes", type=int, default=0,
                        help="with --executor ray: start a local cluster of this many nodes (a head and N-1 more, "
                             "one CPU each) for the run and stop it after")
    parser.add_argument("--no-bytecode", action="store_true", help="compile nothing beforehand: a module without bytecode "
                        "is compiled from source by each process that imports it (bytecode already there is still used)")
    parser.add_argument("--cold-loops", action="store_true", help="leave numba's cache of the compiled loops as it is: "
                        "in a checkout that never built them, the run's processes compile them (several CPU s each)")
    parser.add_argument("--process-per-spec", action="store_true", help="one `examcorpus extract` process a spec (each "
                        "paying the program's start), where by default both specs run in one, as `make extract` runs them")
    parser.add_argument("--keep", type=Path, help="build the archive and the run's root here and keep them "
                        "(an archive already there is reused; the root is emptied first)")
    args = parser.parse_args(argv or [])
    sheets = FULL_SHEETS if args.full else args.sheets
    if args.ray_nodes and args.executor != "ray":
        parser.error("--ray-nodes needs --executor ray")
    with tempfile.TemporaryDirectory(prefix="bench-archive-") as tmp:
        base = args.keep or Path(tmp)
        site_dir, root = base / "site", base / "root"
        if root.exists():
            shutil.rmtree(root)  # a first run is a first run: nothing cached from an earlier benchmark
        print(f"machine: {_load()} before generating")
        if not args.no_bytecode:
            print(f"bytecode: {compile_bytecode()} modules compiled beforehand, as an installed package has them")
        if not args.cold_loops:
            loaded = load_compiled_loops()
            print("compiled loops: " + (f"loaded beforehand in {loaded:.2f} CPU s (about 10 s where they were compiled now, as "
                                        "a first run after installing does; about 1 s where numba's cache had them)"
                                        if loaded is not None else "not used (numba missing, failing or switched off)"))
        truth, generated = _site(site_dir, sheets, args.scanned_share)
        scans = [t for t in truth.values() if t.scanned]
        print(f"archive: {len(truth)} sheets ({len(scans)} scanned, {args.scanned_share:.0%} asked), "
              f"{sum(t.page_count for t in truth.values())} sheet pages + {len(truth)} key pages, "
              f"{sum(len(t.questions) for t in truth.values())} questions; "
              + (f"generated in {generated:.1f} s" if generated else f"reused from {site_dir}"))
        with contextlib.ExitStack() as stack:
            if args.ray_nodes:
                from tests.bench.raycluster import local_ray_cluster

                started = time.perf_counter()
                cluster = stack.enter_context(local_ray_cluster(worker_nodes=args.ray_nodes - 1))
                os.environ["RAY_ADDRESS"] = cluster.address
                print(f"Ray cluster: {cluster.nodes} nodes at {cluster.address}, started in {time.perf_counter() - started:.1f} s")
            base_url = stack.enter_context(serve_directory(site_dir))
            processes = [(spec,) for spec in SPECS] if args.process_per_spec else [SPECS]
            first = [run_extract(specs, base_url, root, args.workers, args.executor) for specs in processes]
            curated = [_curated_stamp(root, spec) for spec in SPECS]
            rerun = [run_extract(specs, base_url, root, args.workers, args.executor) for specs in processes]
            untouched = [_curated_stamp(root, spec) for spec in SPECS] == curated
        if args.ray_nodes:
            left = cluster.left
            print(f"Ray cluster stopped: {'no process left' if not left else f'processes left: {list(left)}'}")
        print(f"executor: {args.executor}" + (f" (RAY_ADDRESS={os.environ.get('RAY_ADDRESS', 'unset: a local Ray')})" if args.executor == "ray" else ""))
        _print_run("first make extract", first, args.workers)
        _per_page(first, truth)
        found, expected, right, closed = _agreement(root, truth)
        print(f"  curated {found}/{expected} questions of the truth, {right}/{closed} closed answers right")
        _print_run("re-run, nothing new", rerun, args.workers)
        ratio = sum(r.seconds for r in rerun) / sum(r.seconds for r in first)
        print(f"  re-run / first = {ratio:.1%} (goal ≤ 5%: {'met' if ratio <= 0.05 else 'NOT met'})")
        print(f"  re-run: reports say nothing new: {[report.get('nothing_new', False) for r in rerun for report in r.reports]}; curated Parquet "
              f"{'left as it was (same bytes and modification time)' if untouched else 'rewritten'}")

        text_files = [site_dir / t.sheet for t in truth.values() if not t.scanned]
        text_files += [site_dir / t.key for t in truth.values()]
        baseline = pypdf_text(text_files)
        base_pages, base_seconds = baseline.pages, baseline.seconds
        stage_totals = _stage_totals(first)
        ours_seconds = sum(stage_totals.get(s, 0.0) for s in TEXT_PATH)
        print(f"pypdf extract_text, same text-layer files, one process: {base_pages} pages in {base_seconds:.1f} s "
              f"= {base_pages / base_seconds:.1f} pages/s ({baseline.pages_per_cpu_second:.1f} per CPU second); {_load()}")
        if ours_seconds > 0:
            ours_rate = base_pages / ours_seconds
            print(f"ours on those pages (text + layout + figures + parse seconds in the workers): {ours_rate:.1f} pages/s "
                  f"= {ours_rate / (base_pages / base_seconds):.2f}x pypdf")
        first_cpu = sum(r.cpu_seconds for r in first)
        first_pages = sum(r.total("pages") for r in first)
        if first_cpu > 0 and not any(r.total("ocr_pages") for r in first):
            # CPU seconds hold still under other jobs' load, where worker wall seconds do not
            ours_cpu_rate = first_pages / first_cpu
            print(f"ours, whole first run (every process, download to curate) per CPU second: {ours_cpu_rate:.1f} pages "
                  f"= {ours_cpu_rate / baseline.pages_per_cpu_second:.2f}x pypdf's per CPU second")
            start = process_start_cpu()
            steady = steady_cpu_ms_a_page(first_cpu, len(first), start, first_pages)
            pypdf_ms = 1000 * baseline.cpu_seconds / base_pages
            print(f"ours at steady state (the first run less its {len(first)} processes' start, {start:.2f} CPU s each, "
                  f"median of 3 in this run): {steady:.2f} CPU ms a page against pypdf's {pypdf_ms:.2f} "
                  f"= {pypdf_ms / steady:.2f}x pypdf" if steady else "ours at steady state: no CPU left after the starts")


if __name__ == "__main__":
    main(sys.argv[1:])
