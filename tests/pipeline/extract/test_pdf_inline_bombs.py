"""What a page's content asks of pdfium beyond its stream's own bytes: inline images under their own filters, and
XObjects drawn many times over.

Each attack is the file itself, written object by object. Before (`59a4e9b`), `bombs` counted an inline image's data
(`BI … ID … EI` inside a content stream) as the content stream's bytes: a 750 KB inline image deflated from 768 MB
(`/F /Fl`, declaring 100 × 100 pixels) added 1.47 GB to a process that only loaded its page, inside a plain or a
Flate content stream alike. Forms drawing forms ten times over, eight deep (a 2 KB file), aborted the process
(SIGABRT) under a 3 GiB cap; one image drawn 10,000 times kept figure cropping busy past two minutes. Measured in
`docs/results.md`, "Trust at the seams a seventh time".
"""
from __future__ import annotations

import base64
import subprocess
import sys
import tempfile
import textwrap
import zlib
from pathlib import Path

import pytest

from pipeline.devkit.sample.rawtext import write_raw_pdf
from pipeline.extract import ExtractOptions, bombs, extract_document
from pipeline.extract.bombs import Bounds, file_bomb

from .test_pdf_bombs import CATALOG, REPO, SHA, _stream
from .test_pdf_bombs import _deflated as deflated
from .test_pdf_stream_bombs import lzw_run

PAGES = b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
MiB = 1 << 20
SMALL = Bounds(24 * MiB, 24 * MiB)  # the in-process attacks are 32 MiB against these


def page(resources: bytes = b"") -> bytes:
    return b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R %s >>" % resources


def inline_image(data: bytes, keys: bytes) -> bytes:
    return b"q 595 0 0 842 0 0 cm BI /W 100 /H 100 /CS /RGB /BPC 8 " + keys + b" ID " + data + b"\nEI Q"


def with_content(path: Path, content: bytes, extra: bytes = b"") -> Path:
    return write_raw_pdf(path, [CATALOG, PAGES, page(), _stream(content, extra)])


def zeros_deflated(mib: int) -> bytes:
    return deflated(b"\x00" * MiB, mib)


ATTACKS = {
    # name: (inline data, its keys, the content stream's own filter)
    "flate": lambda: (zeros_deflated(32), b"/F /Fl", None),
    "flate, full names": lambda: (zeros_deflated(32), b"/Filter /FlateDecode", None),
    "hex then flate": lambda: (base64.b16encode(zeros_deflated(32)) + b">", b"/F [/AHx /Fl]", None),
    "ascii85 then flate": lambda: (base64.a85encode(zeros_deflated(32)) + b"~>", b"/F [/A85 /Fl]", None),
    "lzw": lambda: (lzw_run(0, 32 * MiB), b"/F /LZW", None),
    "flate inside a flate content stream": lambda: (zeros_deflated(32), b"/F /Fl", "flate"),
    "flate, dictionary with a comment and an escaped name": lambda: (zeros_deflated(32), b"%x ID\n/F /F#6c", None),
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_an_inline_image_is_counted_through_its_own_filters(tmp_path, name):
    data, keys, outer = ATTACKS[name]()
    content = inline_image(data, keys)
    path = with_content(tmp_path / "inline.pdf", zlib.compress(content) if outer else content,
                        b"/Filter /FlateDecode" if outer else b"")
    found = file_bomb(path, SMALL)
    assert found is not None and "an inline image in the stream" in found and "decompression bomb" in found


def test_an_inline_image_declaring_more_pixels_than_the_bound_is_refused(tmp_path):
    content = b"BI /W 4000 /H 4000 /CS /RGB /BPC 8 /F /DCT ID \xff\xd8\xff\xd9 EI"
    assert "an inline image" in (file_bomb(with_content(tmp_path / "declared.pdf", content), SMALL) or "")


def test_inline_images_together_count_with_the_content_streams(tmp_path):
    """Four inline images of 8 MiB each (each under the 24 MiB bound) in one stream: 32 MiB of content in all."""
    content = b" ".join(inline_image(zeros_deflated(8), b"/F /Fl") for _ in range(4))
    found = file_bomb(with_content(tmp_path / "four.pdf", content), SMALL)
    assert found is not None and "in all, inline images counted" in found


def nested_forms(path: Path, levels: int = 8, fan: int = 10) -> Path:
    """A page drawing form 5, which draws form 6 `fan` times, … `levels` deep: fan^(levels-1) drawings of a line."""
    objects = [CATALOG, PAGES, page(b"/Resources << /XObject << /F 5 0 R >> >>"), _stream(b"/F Do")]
    for level in range(levels):
        if level == levels - 1:
            objects.append(_stream(b"0 0 m 10 10 l S", b"/Type /XObject /Subtype /Form /BBox [0 0 595 842]"))
        else:
            objects.append(_stream(b" ".join([b"/F Do"] * fan),
                                   b"/Type /XObject /Subtype /Form /BBox [0 0 595 842] "
                                   b"/Resources << /XObject << /F %d 0 R >> >>" % (6 + level)))
    return write_raw_pdf(path, objects)


def reused_image(path: Path, draws: int) -> Path:
    """One 200 × 200 image drawn `draws` times over a page, each a small figure."""
    image = deflated(b"\x80" * 600, 200)
    content = b" ".join(b"q 5 0 0 5 %d %d cm /I Do Q" % ((i % 100) * 5, (i // 100) * 8 % 800) for i in range(draws))
    return write_raw_pdf(path, [CATALOG, PAGES, page(b"/Resources << /XObject << /I 5 0 R >> >>"), _stream(content),
                                _stream(image, b"/Type /XObject /Subtype /Image /Width 200 /Height 200 "
                                               b"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode")])


def test_forms_drawing_forms_are_counted_each_time_they_are_drawn(tmp_path):
    found = file_bomb(nested_forms(tmp_path / "nested.pdf"))
    assert found is not None and f"draws more than {bombs.MAX_DRAWS} XObjects" in found
    assert file_bomb(nested_forms(tmp_path / "shallow.pdf", levels=3)) is None  # 10 × 10 drawings: a sheet's kind


def test_one_image_drawn_ten_thousand_times_is_refused_and_a_few_hundred_are_read(tmp_path):
    found = file_bomb(reused_image(tmp_path / "many.pdf", 10_000))
    assert found is not None and "draws more than" in found and "10000 counted" in found
    assert file_bomb(reused_image(tmp_path / "few.pdf", 300)) is None


def test_a_sheet_with_small_inline_images_and_forms_is_read(tmp_path):
    """No false refusal: an 8 × 8 inline image under Flate, one under ASCIIHex, a form drawn twice."""
    small = zlib.compress(b"\x80" * 192)
    content = (b"BI /W 8 /H 8 /CS /RGB /BPC 8 /F /Fl ID " + small + b"\nEI "
               b"BI /W 2 /H 1 /CS /G /BPC 8 /F /AHx ID 80ff> EI /Fm Do /Fm Do")
    path = write_raw_pdf(tmp_path / "sheet.pdf", [
        CATALOG, PAGES, page(b"/Resources << /XObject << /Fm 5 0 R >> >>"), _stream(content),
        _stream(b"0 0 m 10 10 l S", b"/Type /XObject /Subtype /Form /BBox [0 0 20 20]")])
    assert file_bomb(path) is None
    assert len(extract_document(path, SHA, ExtractOptions(ocr_workers=1)).pages) == 1


def _child(script: str, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO)


def test_an_inline_image_bomb_fails_its_file_within_memory(tmp_path):
    """600 MiB of zeros deflated into an inline image that declares 100 × 100 pixels, default bounds, a process
    limited to 1.5 GB of address space. Before, pdfium inflated it as it parsed the page (1.47 GB added under a
    3 GiB cap). What the refusal adds is measured from the peak reset after a plain sheet was read."""
    path = with_content(tmp_path / "inline.pdf", inline_image(zeros_deflated(600), b"/F /Fl"))
    done = _child(f"""
        import resource, sys, tempfile
        resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
        from pathlib import Path
        from pipeline.devkit.sample.rawtext import write_raw_pdf
        from pipeline.extract import ExtractError, ExtractOptions, extract_document

        def status(key):
            return int(open("/proc/self/status").read().split(key + ":")[1].split()[0]) >> 10

        plain = write_raw_pdf(Path(tempfile.mkdtemp()) / "plain.pdf", [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>"])
        extract_document(plain, {SHA!r}, ExtractOptions(ocr_workers=1))
        open("/proc/self/clear_refs", "w").write("5")
        before = status("VmRSS")
        try:
            extract_document({str(path)!r}, {SHA!r}, ExtractOptions(ocr_workers=1))
            print("read")
        except ExtractError as exc:
            print("refused:", exc.message)
        print("added MB", status("VmHWM") - before)
    """)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "refused: an inline image" in done.stdout, done.stdout
    assert int(done.stdout.split("added MB")[1]) < 200  # a window and a few pieces (52 MB measured)


def test_nested_forms_and_a_reused_image_fail_their_files_in_a_process_that_survives(tmp_path):
    """Before, the nested forms aborted the process (SIGABRT, under a 3 GiB cap) and the reused image's figures
    held it past two minutes; each is now refused from its bytes."""
    nested, many = nested_forms(tmp_path / "nested.pdf"), reused_image(tmp_path / "many.pdf", 10_000)
    figures = tempfile.mkdtemp(dir=tmp_path)
    done = _child(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        from pipeline.extract import ExtractError, ExtractOptions, extract_document
        for path in ({str(nested)!r}, {str(many)!r}):
            try:
                extract_document(path, {SHA!r}, ExtractOptions(ocr_workers=1, figures_dir={figures!r}))
                print("read")
            except ExtractError as exc:
                print("refused:", exc.message)
    """, timeout=90)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("XObjects, forms' draws counted") == 2, done.stdout


def test_an_inline_image_whose_dictionary_never_ends_is_refused(tmp_path):
    content = b"BI /W 1 /H 1 " + b"/K 1 " * 300_000 + b"ID x EI"
    found = file_bomb(with_content(tmp_path / "long.pdf", content))
    assert found is not None and "does not end within" in found
