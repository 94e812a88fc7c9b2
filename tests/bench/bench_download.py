"""Download throughput against a local site with per-request latency: concurrency 1 vs 4 vs 8, and
a conditional re-run (all 304) against the first pass. `python -m tests.bench download`."""
from __future__ import annotations

import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from fpdf import FPDF

from pipeline.acquire import DownloadOptions, download_source
from pipeline.devkit.serve import serve_directory
from pipeline.specs import parse_spec

FILES = 200
TARGET_BYTES = 20_000
LATENCY = 0.020  # seconds added to every response, like a distant server
YEAR = 2024


def make_pdfs(folder: Path) -> int:
    """FILES distinct PDFs of about TARGET_BYTES each; returns the total size.

    One real PDF is generated and each copy gets a unique comment after %%EOF (readers ignore
    trailing bytes), which keeps the setup to a fraction of a second instead of 200 layouts.
    """
    folder.mkdir(parents=True)
    pdf = FPDF()
    pdf.set_compression(False)
    pdf.set_creation_date(datetime(2024, 1, 1, tzinfo=timezone.utc))
    pdf.add_page()
    pdf.set_font("helvetica", size=5)
    pdf.multi_cell(0, 2, "lorem ipsum dolor " * (TARGET_BYTES // 24), new_x="LMARGIN", new_y="NEXT")
    template = bytes(pdf.output())
    total = 0
    for number in range(FILES):
        data = template + f"\n%bench copy {number}\n".encode()
        (folder / f"BEN-{number:03d}-{YEAR}.pdf").write_bytes(data)
        total += len(data)
    return total


def spec_for(base_url: str, concurrency: int):
    return parse_spec(
        {
            "name": "bench",
            "description": "benchmark site",
            "metadata": {"country": "PL", "language": "pl", "exam": "bench", "subject": "none"},
            "ocr": {"languages": ["pol"]},
            "download": {
                "base_url": base_url,
                "index_pages": ["{base_url}/files/{year}/"],  # serve_directory's generated listing
                "years": [YEAR],
                "links": [{"role": "sheet", "pattern": r"/files/(?P<year>\d{4})/(?P<sheet_code>BEN-\d+)-\d{4}\.pdf$"}],
                "rate_limit_per_host": 10_000,  # measure the transfer machinery, not the politeness delay
                "concurrency": concurrency,
            },
            "pairing": {"on": ["year", "sheet_code"], "key_required": False},
            "layout": {"question_start": r"^Zadanie (?P<number>\d+)"},
            "key": {"kind": "list", "entry": r"(?P<number>\d+)\.\s*(?P<answer>[A-D])"},
        },
        "bench.yaml",
    )


def timed_run(base_url: str, raw_dir: Path, concurrency: int) -> tuple[float, dict[str, int]]:
    started = time.perf_counter()
    result = download_source(spec_for(base_url, concurrency), raw_dir, progress=False, options=DownloadOptions(timeout=10))
    elapsed = time.perf_counter() - started
    statuses: dict[str, int] = {}
    for entry in result.entries:
        statuses[entry.status] = statuses.get(entry.status, 0) + 1
    if result.problems or len(result.entries) != FILES:
        raise RuntimeError(f"benchmark run went wrong: {result.summary()}; {result.messages()[:3]}")
    return elapsed, statuses


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-download-") as tmp:
        root = Path(tmp)
        total = make_pdfs(root / "site" / "files" / str(YEAR))
        megabytes = total / 1e6
        print(f"{FILES} PDFs, {megabytes:.1f} MB in all (~{total // FILES // 1000} KB each), server latency {LATENCY * 1000:.0f} ms/request")
        rows = []
        with serve_directory(root / "site", latency=LATENCY) as base_url:
            baseline = None
            for concurrency in (1, 4, 8):
                raw_dir = root / f"c{concurrency}" / "raw"
                elapsed, statuses = timed_run(base_url, raw_dir, concurrency)
                baseline = baseline or elapsed
                rows.append((f"first pass, concurrency {concurrency}", statuses, elapsed, megabytes, baseline / elapsed, "x vs concurrency 1"))
            first_pass = elapsed
            again, statuses = timed_run(base_url, root / "c8" / "raw", 8)
            rows.append(("re-run, concurrency 8 (conditional)", statuses, again, 0.0, first_pass / again, "x vs its first pass"))
        print(f"{'pass':<38} {'statuses':<22} {'seconds':>8} {'files/s':>8} {'MB/s':>7} {'speed-up':>9}")
        for name, statuses, elapsed, mb, ratio, against in rows:
            status_text = ", ".join(f"{n} {s}" for s, n in statuses.items())
            print(f"{name:<38} {status_text:<22} {elapsed:8.2f} {FILES / elapsed:8.1f} {mb / elapsed:7.2f} {ratio:8.2f}x  ({against})")


if __name__ == "__main__":
    main()
