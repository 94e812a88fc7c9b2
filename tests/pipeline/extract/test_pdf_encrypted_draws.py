"""An encrypted file that opens without a password is checked as a plain one is: its XObject draws counted, forms'
draws each time a form is drawn, and its inline images through their own filters.

Each attack is a plain attack of `test_pdf_inline_bombs` encrypted by pypdf (RC4-128 and AES-128, an empty user
password). Before (`d753c64`), the streams of an encrypted file came through pypdf without their object numbers or
a form's resources, so no draw was counted: forms drawing forms ten times over, eight deep (a 2.5 KB file), aborted
the process that read it (SIGABRT under a 3 GiB cap) and one image drawn 10,000 times was read; the same files
unencrypted were refused. Measured in `docs/results.md`, "Trust at the seams an eighth time".
"""
from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pypdf
import pytest

from pipeline.devkit.sample.rawtext import write_raw_pdf
from pipeline.extract import bombs
from pipeline.extract.bombs import Bounds, file_bomb

from .test_pdf_bombs import CATALOG, REPO, SHA, _stream
from .test_pdf_inline_bombs import inline_image, nested_forms, reused_image, with_content, zeros_deflated

ALGORITHMS = ("RC4-128", "AES-128")
MiB = 1 << 20


def encrypted(plain: Path, algorithm: str) -> Path:
    """`plain` encrypted with an empty user password (it opens without one, as published sheets with an owner
    password only do), written beside it."""
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(str(plain)))
    writer.encrypt(user_password="", owner_password="owner", algorithm=algorithm)
    buffer = io.BytesIO()
    writer.write(buffer)
    out = plain.with_name(f"{plain.stem}-{algorithm}.pdf")
    out.write_bytes(buffer.getvalue())
    assert pypdf.PdfReader(str(out)).is_encrypted
    return out


def inherited_nested_forms(path: Path) -> Path:
    """Nested forms whose page takes its resources from the page tree and lists its content as an array."""
    objects = [CATALOG, b"<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /XObject << /F 5 0 R >> >> >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents [4 0 R] >>", _stream(b"/F Do")]
    for level in range(6):
        inner = b"" if level == 5 else b"/Resources << /XObject << /F %d 0 R >> >>" % (6 + level)
        objects.append(_stream(b"0 0 m 1 1 l S" if level == 5 else b" ".join([b"/F Do"] * 10),
                               b"/Type /XObject /Subtype /Form /BBox [0 0 595 842] " + inner))
    return write_raw_pdf(path, objects)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_forms_drawing_forms_in_an_encrypted_file_are_counted_each_time_they_are_drawn(tmp_path, algorithm):
    found = file_bomb(encrypted(nested_forms(tmp_path / "nested.pdf"), algorithm))
    assert found is not None and f"draws more than {bombs.MAX_DRAWS} XObjects" in found, found
    assert "11111111 counted" in found
    assert file_bomb(encrypted(nested_forms(tmp_path / "shallow.pdf", levels=3), algorithm)) is None  # 10 × 10


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_resources_inherited_from_the_page_tree_of_an_encrypted_file_are_followed(tmp_path, algorithm):
    found = file_bomb(encrypted(inherited_nested_forms(tmp_path / "inherited.pdf"), algorithm))
    assert found is not None and "draws more than" in found and "111111 counted" in found, found


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_one_image_drawn_ten_thousand_times_in_an_encrypted_file_is_refused_and_a_few_hundred_are_read(tmp_path,
                                                                                                        algorithm):
    found = file_bomb(encrypted(reused_image(tmp_path / "many.pdf", 10_000), algorithm))
    assert found is not None and "draws more than" in found and "10000 counted" in found, found
    assert file_bomb(encrypted(reused_image(tmp_path / "few.pdf", 300), algorithm)) is None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_an_inline_image_bomb_in_an_encrypted_file_is_counted_through_its_own_filters(tmp_path, algorithm):
    """Held on `d753c64` too (the decrypted content stream was read for inline images): kept as a test."""
    path = encrypted(with_content(tmp_path / "inline.pdf", inline_image(zeros_deflated(32), b"/F /Fl")), algorithm)
    found = file_bomb(path, Bounds(24 * MiB, 24 * MiB))
    assert found is not None and "an inline image" in found, found


def test_an_encrypted_sheet_with_a_form_drawn_twice_and_a_small_inline_image_is_read(tmp_path):
    """No false refusal (held on `d753c64` too)."""
    content = b"BI /W 2 /H 1 /CS /G /BPC 8 /F /AHx ID 80ff> EI /Fm Do /Fm Do"
    plain = write_raw_pdf(tmp_path / "sheet.pdf", [
        CATALOG, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R "
        b"/Resources << /XObject << /Fm 5 0 R >> >> >>", _stream(content),
        _stream(b"0 0 m 10 10 l S", b"/Type /XObject /Subtype /Form /BBox [0 0 20 20]")])
    for algorithm in ALGORITHMS:
        assert file_bomb(encrypted(plain, algorithm)) is None


def test_encrypted_nested_forms_fail_their_file_in_a_process_that_survives(tmp_path):
    """Before, reading the encrypted nested forms aborted the process (SIGABRT) under a 3 GiB cap: a season run
    would have ended there. Now the file is refused from its bytes and the process goes on."""
    path = encrypted(nested_forms(tmp_path / "nested.pdf"), "AES-128")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
        from pipeline.extract import ExtractError, ExtractOptions, extract_document
        try:
            extract_document({str(path)!r}, {SHA!r}, ExtractOptions(ocr_workers=1))
            print("read")
        except ExtractError as exc:
            print("refused:", exc.message)
    """)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "refused:" in done.stdout and "XObjects" in done.stdout, done.stdout
