"""Extract + parse throughput on text-layer sheets, next to raw pypdf and pdfplumber text extraction of
the same pages (measured in this run), and peak memory of a 1,000-page batch in a fresh process.

Uses the real corpus (../shared/corpus) when present, else generated sheets (tests/fixtures).
`python -m tests.bench extract`
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from pipeline.devkit import snapshot
from tests.bench.baseline import Throughput, pdfplumber_text, pypdf_text, timed_pages

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
BATCH_PAGES = 1000

# (spec, folder under the corpus): every family of the corpus, as the same-output snapshot runs them
CORPUS_FAMILIES = snapshot.CORPUS_FAMILIES


def _jobs_from_corpus():
    """[(spec, sheet, [keys], facts)] paired by the specs' own file rules."""
    from pipeline.acquire import ingest_local
    from pipeline.acquire import pair_files
    from pipeline.specs import load_spec

    jobs = []
    scratch = Path(tempfile.mkdtemp(prefix="bench_extract_"))
    for spec_name, folder in CORPUS_FAMILIES:
        spec = load_spec(spec_name)
        entries = list(ingest_local(spec, CORPUS / folder, scratch / "raw", progress=False).entries)
        for job in pair_files(entries, spec.pairing).jobs:
            keys = [Path(k.path if Path(k.path).is_absolute() else scratch / k.path) for k in job.keys]
            sheet = Path(job.sheet.path if Path(job.sheet.path).is_absolute() else scratch / job.sheet.path)
            jobs.append((spec, sheet, keys, job.sheet, list(job.keys)))
    return jobs


def _jobs_from_fixtures():
    from pipeline.acquire import ManifestEntry
    from pipeline.specs import load_spec
    from tests.fixtures import sheets

    folder = Path(tempfile.mkdtemp(prefix="bench_fixtures_"))
    made = [
        ("pl_cke_matura_informatyka", sheets.cke_matura(folder / "cke")),
        ("pe_conareme", sheets.peru_grid(folder / "pe")),
        ("sk_maturita_sjl", sheets.slovak_booklet(folder / "sk")),
        ("pl_cke_zawodowy", sheets.vocational(folder / "zaw", count=40)),
    ]
    jobs = []
    for spec_name, fixture in made:
        spec = load_spec(spec_name)

        def entry(path: Path, role: str, name: str = spec.name) -> ManifestEntry:
            return ManifestEntry(path.as_uri(), path.as_uri(), name, role, {"year": "2030"}, "local", "0" * 64, path=str(path))

        sheet = fixture.sheets[0]
        jobs.append((spec, sheet, fixture.keys, entry(sheet, "sheet"), [entry(k, "key") for k in fixture.keys]))
    return jobs


def _ours(jobs) -> tuple[Throughput, int, dict[str, tuple[float, float]]]:
    """Our extract + parse of every job: throughput, questions, and (wall, CPU) seconds per stage part."""
    from pipeline.extract import ExtractOptions, extract_document
    from pipeline.extract.ocr import masked
    from pipeline.infra import take_detail, timed
    from pipeline.parse import parse_sheet

    questions = 0

    def run() -> int:
        nonlocal questions
        pages = 0
        for spec, sheet, keys, sheet_entry, key_entries in jobs:
            options = ExtractOptions.from_spec(spec)
            document = extract_document(sheet, "0" * 64, options)
            key_docs = [(extract_document(k, "1" * 64, options), e) for k, e in zip(keys, key_entries)]
            pages += document.page_count + sum(d.page_count for d, _ in key_docs)
            with timed("parse"):
                questions += len(parse_sheet(document, sheet_entry, key_docs, spec).questions)
        return pages

    # Each run reads every distinct masked image once, as a first run of a fresh process does: the warm
    # run's readings, which the process remembers by content (`ocr.masked.REMEMBERED`), are forgotten.
    masked.REMEMBERED.clear()
    take_detail()
    throughput = timed_pages(run)
    return throughput, questions, take_detail()


OCR_PARTS = ("ocr", "ocr:in-place")  # Tesseract's own stage: scanned pages, and drawn text read in place


def stage_lines(throughput: Throughput, stages: dict[str, tuple[float, float]]) -> list[str]:
    """Wall and CPU ms per page of each stage part, largest CPU first, and what the parts leave untimed."""
    pages = max(throughput.pages, 1)
    lines = [f"  {name:16s} {wall * 1000 / pages:7.2f} ms/page wall {cpu * 1000 / pages:7.2f} ms/page CPU"
             for name, (wall, cpu) in sorted(stages.items(), key=lambda item: -item[1][1])]
    wall_left = throughput.seconds - sum(wall for wall, _ in stages.values())
    cpu_left = throughput.cpu_seconds - sum(cpu for _, cpu in stages.values())
    lines.append(f"  {'(untimed)':16s} {wall_left * 1000 / pages:7.2f} ms/page wall {cpu_left * 1000 / pages:7.2f} ms/page CPU")
    return lines


def without_ocr(throughput: Throughput, stages: dict[str, tuple[float, float]]) -> Throughput:
    """The same run less the seconds its OCR parts took: extract + parse of the text layer alone."""
    wall = sum(stages.get(name, (0.0, 0.0))[0] for name in OCR_PARTS)
    cpu = sum(stages.get(name, (0.0, 0.0))[1] for name in OCR_PARTS)
    return Throughput(throughput.pages, throughput.seconds - wall, throughput.cpu_seconds - cpu)


_BATCH_CHILD = """
import sys, time
from pathlib import Path
sys.path.insert(0, {root!r})
paths = [Path(p) for p in {paths!r}]
done = 0
started = time.perf_counter()
if {mode!r} == "ours":
    from pipeline.extract import ExtractOptions, extract_document
    options = ExtractOptions()
    while done < {target}:
        for path in paths:
            done += extract_document(path, "0" * 64, options).page_count
            if done >= {target}:
                break
else:
    from pypdf import PdfReader
    while done < {target}:
        for path in paths:
            for page in PdfReader(path).pages:
                page.extract_text()
                done += 1
            if done >= {target}:
                break
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent.
peak_kib = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(done, time.perf_counter() - started, peak_kib)
"""


def _batch(mode: str, paths: list[Path]) -> tuple[int, float, float]:
    code = _BATCH_CHILD.format(root=str(ROOT), paths=[str(p) for p in paths], mode=mode, target=BATCH_PAGES)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), float(out[1]), int(out[2]) / 1024


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench extract")
    parser.add_argument("--generated", action="store_true", help="generated sheets even where the corpus is present")
    args = parser.parse_args(argv or [])
    from pipeline.infra import settle

    if CORPUS.is_dir() and not args.generated:
        jobs, origin = _jobs_from_corpus(), f"real corpus ({CORPUS})"
    else:
        jobs, origin = _jobs_from_fixtures(), "generated sheets" + ("" if args.generated else " (corpus not found)")
    # Run as a program (`python -m tests.bench`, its own process as `examcorpus extract` and its workers are):
    # the long-lived objects set aside once the specs are loaded, as a season run settles (`infra.heap`).
    settle()
    paths = [p for _, sheet, keys, _, _ in jobs for p in [sheet, *keys]]
    print(f"input: {origin}: {len(jobs)} sheets, {len(paths)} files")
    _ours(jobs)  # warm imports and fonts once
    ours, questions, stages = _ours(jobs)
    pypdf, plumber = pypdf_text(paths), pdfplumber_text(paths)
    text_only = without_ocr(ours, stages)
    print(ours.line("examcorpus extract+parse") + f" ({questions} questions)")
    print(text_only.line("  the same less OCR"))
    print(pypdf.line("pypdf extract_text"))
    print(plumber.line("pdfplumber (x_tol 1.5)"))
    print(f"ratio ours/pypdf = {ours.pages_per_second / pypdf.pages_per_second:.2f}x wall, "
          f"{ours.pages_per_cpu_second / pypdf.pages_per_cpu_second:.2f}x CPU; "
          f"less OCR {text_only.pages_per_second / pypdf.pages_per_second:.2f}x wall, "
          f"{text_only.pages_per_cpu_second / pypdf.pages_per_cpu_second:.2f}x CPU; "
          f"ours/pdfplumber = {ours.pages_per_second / plumber.pages_per_second:.2f}x wall")
    from pipeline.extract import charloop

    print("pdfium's per-character calls: " + ("one compiled loop a kind (numba, `pipeline.extract.charloop`)"
          if charloop.in_use() else "ctypes (numba not installed, switched off, or too few characters read to load it)"))
    print("per stage part (the OCR parts run Tesseract, whose threads' CPU counts here):")
    print("\n".join(stage_lines(ours, stages)))
    for mode in ("ours", "pypdf"):
        done, secs, peak = _batch(mode, paths)
        print(f"{BATCH_PAGES}-page batch, {mode:5s}: {done} pages in {secs:6.2f}s, peak RSS {peak:7.1f} MiB (fresh process)")


if __name__ == "__main__":
    main()
