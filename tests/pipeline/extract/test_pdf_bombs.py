"""PDFs made to exhaust a reader: each fails its own file with a reason, bounded in memory and time.

Each attack is the file itself, written object by object (`write_raw_pdf`): a page tree that loops, a
million pages, a page of 100000 × 100000 pt holding a scan, a content stream that inflates to 600 MiB
(from 600 KiB), an image stream that inflates to 768 MB. Before, the loop and the huge page raised out of
`extract_document` (`PdfiumError`, `MemoryError`), which ended the whole season run; the content stream
took 2.1 GB of memory, and under an address-space limit pdfium aborted the process.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import pytest

from pipeline.cli import main as examcorpus
from pipeline.devkit.sample.rawtext import write_raw_pdf
from pipeline.extract import ExtractError, ExtractOptions, extract_document
from pipeline.extract.bombs import MAX_STREAM_BYTES, Bounds, file_bomb, oversized_stream

SHA = "0" * 64
CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"
SHEET = "{q}-2022-maj-egzamin-zawodowy-pisemny.pdf"
REPO = Path(__file__).resolve().parents[3]


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def _deflated(piece: bytes, times: int) -> bytes:
    packer = zlib.compressobj(9)
    return b"".join(packer.compress(piece) for _ in range(times)) + packer.flush()


def one_page(path: Path, page: bytes, *more: bytes) -> Path:
    return write_raw_pdf(path, [CATALOG, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", page, *more])


def looping_tree(path: Path) -> Path:
    """A page tree whose node lists itself among its kids."""
    return write_raw_pdf(path, [CATALOG, b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
                                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
                                _stream(b"0 0 m 100 100 l S")])


def million_pages(path: Path) -> Path:
    """One page object listed a million times (6 MB)."""
    count = 1_000_000
    kids = b" ".join([b"3 0 R"] * count)
    return write_raw_pdf(path, [CATALOG, b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % count,
                                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
                                _stream(b"0 0 m 100 100 l S")])


def huge_scan(path: Path) -> Path:
    """A page of 100000 × 100000 pt, a small image stretched over it: a scan, so OCR would render it."""
    image = zlib.compress(bytes(range(256)) * 48)  # 64 × 64 RGB
    return one_page(
        path,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100000 100000] /Contents 4 0 R "
        b"/Resources << /XObject << /Im 5 0 R >> >> >>",
        _stream(b"q 100000 0 0 100000 0 0 cm /Im Do Q"),
        _stream(image, b"/Type /XObject /Subtype /Image /Width 64 /Height 64 /ColorSpace /DeviceRGB "
                       b"/BitsPerComponent 8 /Filter /FlateDecode"))


def content_bomb(path: Path) -> Path:
    """A page whose content stream is 600 MiB of spaces, deflated to 600 KiB."""
    return one_page(path, b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
                    _stream(_deflated(b" " * (1 << 20), 600), b"/Filter /FlateDecode"))


def image_bomb(path: Path) -> Path:
    """A page showing a 16000 × 16000 RGB image (768 MB) deflated to 0.7 MB."""
    side = 16000
    return one_page(
        path,
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /XObject << /Im 5 0 R >> >> >>",
        _stream(b"q 595 0 0 842 0 0 cm /Im Do Q"),
        _stream(_deflated(b"\x00" * (side * 3), side),
                b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                b"/Filter /FlateDecode" % (side, side)))


@pytest.fixture(scope="module")
def bombs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    makers = {"loop": looping_tree, "million": million_pages, "huge": huge_scan, "content": content_bomb, "image": image_bomb}
    return {name: make(folder / f"{name}.pdf") for name, make in makers.items()}


def _refusal(path: Path) -> str:
    with pytest.raises(ExtractError) as caught:
        extract_document(path, SHA, ExtractOptions(ocr_workers=1))
    return caught.value.message


def test_a_page_tree_that_loops_fails_its_file_naming_the_page(bombs):
    assert "cannot be loaded" in _refusal(bombs["loop"])


def test_a_million_pages_fail_the_file_at_the_page_limit_at_once(bombs):
    started = time.process_time()
    assert "1000000 pages is over the limit" in _refusal(bombs["million"])
    assert time.process_time() - started < 10


def test_a_page_too_large_to_render_fails_its_file_before_any_render(bombs):
    message = _refusal(bombs["huge"])
    assert "page 1 is 100000 × 100000 pt" in message and "not read" in message


def test_a_stream_inflating_past_the_bound_is_found_in_the_file_bytes(bombs):
    found = oversized_stream(bombs["content"].read_bytes())
    assert found is not None and found[1] > MAX_STREAM_BYTES
    assert "decompression bomb" in _refusal(bombs["image"])


def test_a_content_stream_bomb_fails_its_file_within_a_memory_limit(bombs):
    """In a process limited to 1.5 GB of address space. Before, pdfium read the page: the stream inflated
    whole (1.2 GB at the peak; a 1 GiB stream took 2.1 GB, and under this limit aborted the process with
    SIGABRT). Now the file is refused from its bytes, the stream counted a piece at a time."""
    script = textwrap.dedent(f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
        from pipeline.extract import ExtractError, ExtractOptions, extract_document
        try:
            extract_document({str(bombs["content"])!r}, {SHA!r}, ExtractOptions(ocr_workers=1))
        except ExtractError as exc:
            print("refused:", exc.message)
        # This process's own high-water mark (VmHWM, fresh at exec): `ru_maxrss` keeps the forking process's peak, and
        # under pytest-xdist that is a worker's gigabytes.
        status = open("/proc/self/status").read()
        print("peak MB", int(status.split("VmHWM:")[1].split()[0]) >> 10)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "refused: a compressed stream at byte" in done.stdout and "decompression bomb" in done.stdout
    assert int(done.stdout.split("peak MB")[1]) < 512  # the stream is counted piece by piece, never held


def test_a_season_of_bombs_fails_each_file_and_curates_the_good_sheet(project_root, season_folder, bombs):
    """The real `examcorpus extract` run: before, the looping tree's PdfiumError and the huge page's
    MemoryError ended the run (exit 1, nothing curated)."""
    codes = {"loop": "lop01", "huge": "hug01", "content": "cnt01", "image": "img01"}  # the spec's qualification codes
    for name, path in bombs.items():
        if name in codes:  # the page limit held before; the season tests cover it
            (season_folder / SHEET.format(q=codes[name])).write_bytes(path.read_bytes())
    assert examcorpus(["extract", "--source", "sample_pl", "--from", str(season_folder), "--root", str(project_root),
                       "--no-progress", "--workers", "2"]) == 0
    files = {Path(f["url"]).name: f for f in json.loads(
        (project_root / "curated" / "reports" / "sample_pl.json").read_text(encoding="utf-8"))["files"]}
    errors = {name: " ".join(files[SHEET.format(q=code)]["errors"]) for name, code in codes.items()}
    assert "cannot be loaded" in errors["loop"]
    assert "100000 × 100000 pt" in errors["huge"]
    assert "decompression bomb" in errors["content"] and "decompression bomb" in errors["image"]
    good = files["ele02-2023-czerwiec-egzamin-zawodowy-pisemny.pdf"]
    assert good["questions"] == 10 and not good["errors"]


def _counting_inflaters(monkeypatch) -> list[int]:
    """The inflaters the bomb check makes, counted."""
    from pipeline.extract import streamfilters

    made: list[int] = []
    real = zlib.decompressobj

    def counted(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(streamfilters.zlib, "decompressobj", counted)
    return made


def _two_streams(path: Path, first: bytes, second: bytes) -> Path:
    return write_raw_pdf(path, [CATALOG, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents [4 0 R 5 0 R] >>",
                                _stream(first, b"/Filter /FlateDecode"), _stream(second, b"/Filter /FlateDecode")])


def test_a_sheet_sized_file_is_checked_without_inflating_a_stream_that_holds_no_page_content(tmp_path, monkeypatch):
    """A 60 kB Flate font program cannot pass 512 MiB, whatever it holds (Deflate writes at most 1032 bytes for a
    byte): it is not inflated. Before, every stream of every file was (3–4 CPU ms a generated sheet). A page's
    content stream is always inflated and read, for the inline images and XObject draws it may hold
    (`test_pdf_inline_bombs.py`): one inflater, the content's."""
    program = bytes(range(256)) * 4000  # 1 MB that deflates to about 60 kB of stream
    sheet = one_page(tmp_path / "sheet.pdf", b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
                     _stream(zlib.compress(b"0 0 m 10 10 l S"), b"/Filter /FlateDecode"),
                     _stream(zlib.compress(program, 9), b"/Length1 %d /Filter /FlateDecode" % len(program)))
    made = _counting_inflaters(monkeypatch)
    assert file_bomb(sheet) is None
    assert made == [1]


@pytest.mark.parametrize("over", [1, 4096, 1 << 20])
def test_the_most_compressed_stream_that_passes_a_bound_is_still_inflated_and_found(tmp_path, monkeypatch, over):
    """Zeros deflated at level 9 (about 1030:1, near Deflate's most) to just past a bound: their ceiling passes it, so
    the stream is inflated and the file refused; under a bound it stays within, the same file is read."""
    limit = 1 << 20
    path = one_page(tmp_path / "zeros.pdf", b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>",
                    _stream(zlib.compress(b"\0" * (limit + over), 9), b"/Filter /FlateDecode"))
    made = _counting_inflaters(monkeypatch)
    assert "decompression bomb" in (file_bomb(path, Bounds(stream=limit, content=1 << 30)) or "")
    assert made
    assert file_bomb(path, Bounds(stream=limit + over, content=1 << 30)) is None


def test_streams_counted_by_their_ceiling_are_decoded_once_their_ceilings_pass_the_content_bound(tmp_path):
    """Two content streams, each of whose ceiling fits the bound for a page's content but not both: they are then
    decoded and counted by what they hold. Zeros that hold 0.6 of the bound each are refused together; random bytes
    of the same stored size (holding about their own size) are read."""
    bound = 1 << 22
    zeros = zlib.compress(b"\0" * int(0.6 * bound), 9)
    assert len(zeros) * 1032 <= bound < 2 * len(zeros) * 1032
    noise = zlib.compress(random.Random(7).randbytes(len(zeros)), 0)[:len(zeros)]
    bounds = Bounds(stream=bound, content=bound)
    assert "in all" in (file_bomb(_two_streams(tmp_path / "zeros.pdf", zeros, zeros), bounds) or "")
    assert file_bomb(_two_streams(tmp_path / "noise.pdf", noise, noise), bounds) is None


def test_a_length_that_does_not_end_at_endstream_is_not_taken(tmp_path):
    """A /Length of 10 before a bomb's stream of 60 kB: pdfium finds `endstream` itself and decodes it all, so the
    check reads past the short /Length too and refuses the file."""
    bomb = zlib.compress(b"\0" * (1 << 24), 9)
    stream = b"<< /Length 10 /Filter /FlateDecode >>\nstream\n" + bomb + b"\nendstream"
    path = one_page(tmp_path / "short.pdf", b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>", stream)
    assert "decompression bomb" in (file_bomb(path, Bounds(stream=1 << 20, content=1 << 30)) or "")
