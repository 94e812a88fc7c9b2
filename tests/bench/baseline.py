"""The baselines the extract benchmarks measure against in the same run: pypdf's and pdfplumber's raw text
extraction of the same files, one process, and the wall and CPU seconds it took.

`bench_extract` and `bench_archive` both compare with these; CPU seconds are printed beside wall seconds
because a shared machine's load moves wall time, and a ratio of CPU seconds holds still."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Throughput:
    pages: int
    seconds: float  # wall
    cpu_seconds: float  # this process's

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0

    @property
    def pages_per_cpu_second(self) -> float:
        return self.pages / self.cpu_seconds if self.cpu_seconds else 0.0

    def line(self, name: str) -> str:
        return (f"{name:25s}: {self.pages:5d} pages in {self.seconds:6.2f}s = {self.pages_per_second:7.1f} pages/s "
                f"({self.pages_per_cpu_second:7.1f} pages per CPU second)")


def timed_pages(count_pages) -> Throughput:
    """`count_pages()` run once, its page count with the wall and CPU seconds it took."""
    wall, cpu = time.perf_counter(), time.process_time()
    pages = count_pages()
    return Throughput(pages, time.perf_counter() - wall, time.process_time() - cpu)


def pypdf_text(paths: list[Path]) -> Throughput:
    """pypdf's `extract_text` of every page of `paths`."""
    from pypdf import PdfReader

    def run() -> int:
        pages = 0
        for path in paths:
            for page in PdfReader(path).pages:
                page.extract_text()
                pages += 1
        return pages

    return timed_pages(run)


def pdfplumber_text(paths: list[Path]) -> Throughput:
    """pdfplumber's `extract_text` (x tolerance 1.5) of every page of `paths`."""
    import pdfplumber

    def run() -> int:
        pages = 0
        for path in paths:
            with pdfplumber.open(path) as pdf:
                for page in pdf.pages:
                    page.extract_text(x_tolerance=1.5)
                    pages += 1
        return pages

    return timed_pages(run)
