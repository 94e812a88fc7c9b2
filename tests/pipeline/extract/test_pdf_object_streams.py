"""A file whose pages and other dictionaries live inside object streams (PDF 1.5 `/Type /ObjStm`, found through a
cross-reference stream) is checked as one whose objects stand in its bytes, plain or encrypted.

Each attack of `test_pdf_inline_bombs` is written here with every object that is not a stream packed into one object
stream, as a plain file and encrypted (RC4-128 and AES-128, an empty user password, by pypdf's own security handler).
Before (`3fa8f0e`) the encrypted ones were refused (pypdf reads object streams), but the plain ones passed the check:
the bomb check read objects from the file's bytes, so it found no page (forms drawing forms ten times over, eight deep,
and one image drawn 10,000 times were read) and resolved no reference into an object stream (a `/Filter 5 0 R` naming
`[/FlateDecode]` was no filter: a stream pdfium inflates to 32 MiB and more was counted as its stored bytes; an
image's `/Width 6 0 R /Height 7 0 R` of 200,000 pixels each declared nothing). Measured in `docs/results.md`,
"Trust at the seams a ninth time".
"""
from __future__ import annotations

import hashlib
import re
import zlib
from pathlib import Path

import pypdfium2
import pytest
from pypdf._encryption import EncryptAlgorithm, Encryption

from pipeline.extract import bombs, objectstreams
from pipeline.extract.bombs import Bounds, file_bomb

from .test_pdf_bombs import CATALOG, _refusal, _stream
from .test_pdf_inline_bombs import PAGES, SMALL, nested_forms, page, reused_image, zeros_deflated

MiB = 1 << 20
CIPHERS = (None, "RC4-128", "AES-128")
_ALGORITHMS = {"RC4-128": EncryptAlgorithm.RC4_128, "AES-128": EncryptAlgorithm.AES_128}
_STREAM_OBJECT = re.compile(rb"(<<.*?>>)\nstream\n(.*)\nendstream\Z", re.S)


def packed_pdf(path: Path, objects: list[bytes], cipher: str | None = None) -> Path:
    """`objects` (object 1 the catalog, as `write_raw_pdf` takes them) written with every one that is not a stream
    inside one Flate object stream, found through a cross-reference stream; encrypted with `cipher` (an empty user
    password) when given: the streams, the object stream among them, each under its own object key."""
    count = len(objects)
    packed = [i for i, body in enumerate(objects) if b"\nstream\n" not in body]
    file_id = hashlib.md5(path.name.encode()).digest()
    security = Encryption.make(_ALGORITHMS[cipher], -4, file_id) if cipher else None
    entry = security.write_entry("", "owner") if security else None
    objstm, encrypt, xref = count + 1, count + 2, count + (3 if security else 2)

    def sealed(number: int, data: bytes) -> bytes:
        return security._make_crypt_filter(number, 0).stm_crypt.encrypt(data) if security else data  # noqa: SLF001

    out, offsets = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), {}
    for index, body in enumerate(objects):
        if index in packed:
            continue
        head, data = _STREAM_OBJECT.match(body).groups()
        data = sealed(index + 1, data)
        head = re.sub(rb"/Length \d+", b"/Length %d" % len(data), head, count=1)
        offsets[index + 1] = len(out)
        out += b"%d 0 obj\n%s\nstream\n%s\nendstream\nendobj\n" % (index + 1, head, data)
    listing, held = b"", b""
    for i in packed:
        listing += b"%d %d " % (i + 1, len(held))
        held += objects[i] + b"\n"
    data = sealed(objstm, zlib.compress(listing + b"\n" + held))
    offsets[objstm] = len(out)
    out += (b"%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream\nendobj\n"
            % (objstm, len(packed), len(listing) + 1, len(data), data))
    trailer = b""
    if security:
        crypt = (b" /CF << /StdCF << /AuthEvent /DocOpen /CFM %s /Length 16 >> >> /StmF /StdCF /StrF /StdCF"
                 % str(entry["/CF"]["/StdCF"]["/CFM"]).encode() if "/CF" in entry else b"")
        offsets[encrypt] = len(out)
        out += b"%d 0 obj\n<< /Filter /Standard /V %d /R %d /Length 128 /P -4 /O <%s> /U <%s>%s >>\nendobj\n" % (
            encrypt, int(entry["/V"]), int(entry["/R"]), bytes(entry["/O"]).hex().encode(),
            bytes(entry["/U"]).hex().encode(), crypt)
        trailer = b" /Encrypt %d 0 R /ID [<%s> <%s>]" % (encrypt, file_id.hex().encode(), file_id.hex().encode())
    rows = [b"\x00" * 5 + b"\xff\xff"]
    for number in range(1, xref + 1):
        if number == xref:
            rows.append(b"\x01" + len(out).to_bytes(4, "big") + b"\x00\x00")
        elif number - 1 in packed and number <= count:
            rows.append(b"\x02" + objstm.to_bytes(4, "big") + packed.index(number - 1).to_bytes(2, "big"))
        else:
            rows.append(b"\x01" + offsets[number].to_bytes(4, "big") + b"\x00\x00")
    table, start = b"".join(rows), len(out)
    out += (b"%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R%s /Length %d >>\nstream\n%s\nendstream\nendobj\n"
            b"startxref\n%d\n%%%%EOF\n" % (xref, xref + 1, trailer, len(table), table, start))
    path.write_bytes(bytes(out))
    return path


def objects_of(make, tmp_path: Path, *args) -> list[bytes]:
    """The objects a `test_pdf_inline_bombs` maker writes (read back from its plain file)."""
    data = make(tmp_path / "plain.pdf", *args).read_bytes()
    return [m.group(1) for m in re.finditer(rb"\d+ 0 obj\n(.*?)\nendobj\n", data, re.S)]


def test_the_packed_files_are_what_pdfium_reads_its_pages_from(tmp_path):
    """The writer's own check: pdfium finds the page through the cross-reference stream, in each cipher."""
    for cipher in CIPHERS:
        path = packed_pdf(tmp_path / f"{cipher}.pdf", [CATALOG, PAGES, page(), _stream(b"0 0 m 9 9 l S")], cipher)
        document = pypdfium2.PdfDocument(str(path))
        assert len(document) == 1 and document[0].get_size() == (595, 842)
        assert b"/Type /Page" not in path.read_bytes()  # the page is in the object stream only
        document.close()


@pytest.mark.parametrize("cipher", CIPHERS)
def test_forms_drawing_forms_from_a_page_in_an_object_stream_are_counted(tmp_path, cipher):
    found = file_bomb(packed_pdf(tmp_path / "nested.pdf", objects_of(nested_forms, tmp_path), cipher))
    assert found is not None and f"draws more than {bombs.MAX_DRAWS} XObjects" in found, found
    assert "11111111 counted" in found


@pytest.mark.parametrize("cipher", CIPHERS)
def test_one_image_drawn_ten_thousand_times_from_a_packed_page_is_refused_and_three_hundred_read(tmp_path, cipher):
    found = file_bomb(packed_pdf(tmp_path / "many.pdf", objects_of(reused_image, tmp_path, 10000), cipher))
    assert found is not None and "10000 counted" in found, found
    assert file_bomb(packed_pdf(tmp_path / "few.pdf", objects_of(reused_image, tmp_path, 300), cipher)) is None
    assert file_bomb(packed_pdf(tmp_path / "shallow.pdf", objects_of(nested_forms, tmp_path, 3), cipher)) is None


@pytest.mark.parametrize("cipher", CIPHERS)
def test_a_filter_named_by_a_reference_into_an_object_stream_is_undone_and_counted(tmp_path, cipher):
    bomb = zeros_deflated(32)
    objects = [CATALOG, PAGES, page(), b"<< /Length %d /Filter 5 0 R >>\nstream\n%s\nendstream" % (len(bomb), bomb),
               b"[/FlateDecode]"]
    found = file_bomb(packed_pdf(tmp_path / "filter.pdf", objects, cipher), SMALL)
    assert found is not None and "decodes past 24 MiB" in found, found
    assert file_bomb(packed_pdf(tmp_path / "within.pdf", objects, cipher), Bounds(48 * MiB, 48 * MiB)) is None


@pytest.mark.parametrize("cipher", CIPHERS)
def test_an_image_whose_size_is_a_reference_into_an_object_stream_declares_it(tmp_path, cipher):
    objects = [CATALOG, PAGES, page(b"/Resources << /XObject << /I 5 0 R >> >>"), _stream(b"q 595 0 0 842 0 0 cm /I Do Q"),
               _stream(b"\x00" * 64, b"/Type /XObject /Subtype /Image /Width 6 0 R /Height 7 0 R /ColorSpace /DeviceRGB "
                                     b"/BitsPerComponent 8 /Filter /JBIG2Decode"), b"200000", b"200000"]
    found = file_bomb(packed_pdf(tmp_path / "image.pdf", objects, cipher))
    assert found is not None and "declares 152587 MiB of pixels" in found, found
    objects[5:7] = [b"200", b"200"]
    assert file_bomb(packed_pdf(tmp_path / "small.pdf", objects, cipher)) is None


@pytest.mark.parametrize("cipher", CIPHERS)
def test_a_packed_page_too_large_to_render_fails_its_file(tmp_path, cipher):
    huge = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100000 100000] /Contents 4 0 R >>"
    message = _refusal(packed_pdf(tmp_path / "huge.pdf", [CATALOG, PAGES, huge, _stream(b"0 0 m 1 1 l S")], cipher))
    assert "page 1 is 100000 × 100000 pt" in message and "not read" in message


def test_object_streams_decoding_past_their_bound_refuse_the_file_that_needs_them(tmp_path, monkeypatch):
    monkeypatch.setattr(objectstreams, "MAX_OBJECT_STREAM_BYTES", 4096)
    content = zeros_deflated(1)
    objects = [CATALOG, PAGES, page(), b"<< /Length %d /Filter 5 0 R >>\nstream\n%s\nendstream" % (len(content), content),
               b"[/FlateDecode]"]
    assert file_bomb(packed_pdf(tmp_path / "plain.pdf", objects)) is None
    found = file_bomb(packed_pdf(tmp_path / "padded.pdf", [*objects, b"<< /Pad (%s) >>" % (b"x" * 8192)]))
    assert found is not None and "object streams decode past" in found, found
