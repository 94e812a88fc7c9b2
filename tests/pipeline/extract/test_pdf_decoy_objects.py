"""A PDF holding two copies of one object is checked as pdfium reads it: the copy its cross-reference names.

An object number may be defined more than once in a file's bytes: an incremental update appends a new copy and a
new cross-reference section (`/Prev` naming the older one), and a file may list an object in an object stream while
a plain object of the same number stands in its bytes. pdfium reads the copy the newest cross-reference section
names. Before, the bomb check read an object's last copy in the bytes (and a plain copy before a packed one), so a
decoy placed after the real copy was judged instead: a `/Filter 5 0 R` whose real copy is `[/FlateDecode
/FlateDecode]` counted through one inflate only, a form redefined by an update to draw forms ten by ten counted as
the harmless form it replaced, a page in an object stream judged by a plain page of its number that draws nothing.
Each file here is first shown read by pdfium as the cross-reference says (a text that only the named copy yields),
then the same file with the bomb is refused. Measured in `docs/results.md`, "Trust at the seams a tenth time".
"""
from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from pipeline.extract import bombs, crossrefs
from pipeline.extract.bombs import Bounds, file_bomb
from tests.fixtures.rawpdf import Obj, Table, XrefStream, assemble, object_stream, text_of

from .test_pdf_bombs import CATALOG, _stream
from .test_pdf_inline_bombs import PAGES, SMALL, page

MiB = 1 << 20
FONT = b"/Resources << /Font << /H << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>"


def said(words: bytes) -> bytes:
    return b"BT /H 24 Tf 72 700 Td (%s) Tj ET" % words


# --------------------------------------------------------------------------- a filter named by reference, twice


def filter_decoy(path: Path, content: bytes, encrypt: bool = False) -> Path:
    """Content stream 4 `/Filter 5 0 R`, deflated twice; object 5 `[/FlateDecode /FlateDecode]` where the table
    names it, and a decoy `[/FlateDecode]` of the same number after it in the bytes."""
    twice = zlib.compress(zlib.compress(content, 9), 9)
    parts = [Obj("1", 1, CATALOG), Obj("2", 2, PAGES), Obj("3", 3, page(FONT)),
             Obj("4", 4, b"<< /Length %d /Filter 5 0 R >>\nstream\n%s\nendstream" % (len(twice), twice)),
             Obj("5", 5, b"[/FlateDecode /FlateDecode]"), Obj("5 decoy", 5, b"[/FlateDecode]"),
             Table("xref", {1: "1", 2: "2", 3: "3", 4: "4", 5: "5"})]
    return assemble(path, parts, "xref", encrypt=encrypt)


@pytest.mark.parametrize("encrypt", [False, True])
def test_pdfium_undoes_the_filters_the_cross_reference_names_not_the_last_copy(tmp_path, encrypt):
    assert "the named copy" in text_of(filter_decoy(tmp_path / "words.pdf", said(b"the named copy"), encrypt))


@pytest.mark.parametrize("encrypt", [False, True])
def test_a_filter_chain_whose_decoy_copy_inflates_once_is_counted_as_pdfium_inflates_it(tmp_path, encrypt):
    """Encrypted, the file is read through pypdf, which follows the cross-reference: it held before too."""
    bomb = b"0 0 m 1 1 l S\n" + b" " * (32 * MiB)  # content that pdfium inflates twice to 32 MiB
    found = file_bomb(filter_decoy(tmp_path / "bomb.pdf", bomb, encrypt), SMALL)
    assert found is not None and "decodes past 24 MiB" in found and "decompression bomb" in found, found
    assert file_bomb(filter_decoy(tmp_path / "within.pdf", bomb, encrypt), Bounds(48 * MiB, 48 * MiB)) is None


def test_a_bomb_in_the_last_copy_is_refused_though_the_cross_reference_names_a_harmless_one(tmp_path):
    """The decoy the other way round: the table names `[/FlateDecode]` and the last copy in the bytes is
    `[/FlateDecode /FlateDecode]`. pdfium reads the last copy wherever it rejects the table and rebuilds it from the
    bytes, so a table the check accepts is not enough: both readings are judged."""
    bomb = b"0 0 m 1 1 l S\n" + b" " * (32 * MiB)
    twice = zlib.compress(zlib.compress(bomb, 9), 9)
    parts = [Obj("1", 1, CATALOG), Obj("2", 2, PAGES), Obj("3", 3, page(FONT)),
             Obj("4", 4, b"<< /Length %d /Filter 5 0 R >>\nstream\n%s\nendstream" % (len(twice), twice)),
             Obj("5 named", 5, b"[/FlateDecode]"), Obj("5 last", 5, b"[/FlateDecode /FlateDecode]"),
             Table("xref", {1: "1", 2: "2", 3: "3", 4: "4", 5: "5 named"})]
    found = file_bomb(assemble(tmp_path / "bomb.pdf", parts, "xref"), SMALL)
    assert found is not None and "decodes past 24 MiB" in found, found
    assert file_bomb(assemble(tmp_path / "within.pdf", parts, "xref"), Bounds(48 * MiB, 48 * MiB)) is None


# --------------------------------------------------------------------------- an update redefining a form, /Prev


def form(content: bytes, resources: bytes = b"") -> bytes:
    return _stream(content, b"/Type /XObject /Subtype /Form /BBox [0 0 595 842] " + resources)


def updated_form(path: Path, levels: int = 8, fan: int = 10, words: bytes = b"") -> Path:
    """A page drawing form 5. The update (the newest section, placed first in the bytes) redefines form 5 to draw
    form 6 `fan` times, which draws form 7 … `levels` deep; the original section after it holds the harmless form 5
    it replaced (a line, or `words`), its table the older one (`/Prev`)."""
    update, names = [], {}
    for level in range(levels):
        number = 5 + level
        if level == levels - 1:
            body = form(said(words) if words else b"0 0 m 10 10 l S", FONT)
        else:
            body = form(b" ".join([b"/F Do"] * fan), b"/Resources << /XObject << /F %d 0 R >> >>" % (number + 1))
        update.append(Obj(f"{number} new", number, body))
        names[number] = f"{number} new"
    original = [Obj("1", 1, CATALOG), Obj("2", 2, PAGES), Obj("3", 3, page(b"/Resources << /XObject << /F 5 0 R >> >>")),
                Obj("4", 4, _stream(b"/F Do")), Obj("5 old", 5, form(b"0 0 m 10 10 l S")),
                Table("old", {1: "1", 2: "2", 3: "3", 4: "4", 5: "5 old"})]
    return assemble(path, [*update, Table("new", names, prev="old"), *original], "new")


def test_pdfium_draws_the_form_the_newest_section_names(tmp_path):
    assert "redefined" in text_of(updated_form(tmp_path / "words.pdf", levels=2, fan=1, words=b"redefined"))


def test_forms_an_update_redefines_to_draw_forms_are_counted_though_the_older_copy_comes_later(tmp_path):
    found = file_bomb(updated_form(tmp_path / "nested.pdf"))
    assert found is not None and f"draws more than {bombs.MAX_DRAWS} XObjects" in found, found
    assert file_bomb(updated_form(tmp_path / "shallow.pdf", levels=3)) is None  # 10 × 10 drawings: a sheet's kind


# --------------------------------------------------------------------------- a packed page and a plain decoy


def packed_page(path: Path, resources: bytes, objects: list[tuple[int, bytes]]) -> Path:
    """Page 3 (with `resources`) inside object stream 20, as the cross-reference stream says; a plain page 3 with no
    resources in the bytes, named by nothing; `objects` (number, body) plain and named."""
    plain = [Obj(str(number), number, body) for number, body in objects]
    names: dict[int, str | tuple[int, int]] = {n: str(n) for n, _ in objects}
    names.update({1: (20, 0), 2: (20, 1), 3: (20, 2), 20: "20"})
    parts = [object_stream("20", 20, [(1, CATALOG), (2, PAGES), (3, page(resources))]), *plain,
             Obj("3 decoy", 3, page()), XrefStream("xref", 21, names)]
    return assemble(path, parts, "xref")


def test_pdfium_reads_the_packed_page_the_cross_reference_stream_names(tmp_path):
    path = packed_page(tmp_path / "words.pdf", FONT, [(4, _stream(said(b"packed page")))])
    assert "packed page" in text_of(path)


def test_a_packed_page_is_judged_by_its_own_resources_not_a_plain_decoy_of_its_number(tmp_path):
    forms = [(5 + level, form(b" ".join([b"/F Do"] * 10), b"/Resources << /XObject << /F %d 0 R >> >>" % (6 + level))
              if level < 7 else form(b"0 0 m 10 10 l S")) for level in range(8)]
    found = file_bomb(packed_page(tmp_path / "nested.pdf", b"/Resources << /XObject << /F 5 0 R >> >>",
                                  [(4, _stream(b"/F Do")), *forms]))
    assert found is not None and f"draws more than {bombs.MAX_DRAWS} XObjects" in found, found
    assert file_bomb(packed_page(tmp_path / "shallow.pdf", b"/Resources << /XObject << /F 5 0 R >> >>",
                                 [(4, _stream(b"/F Do")), *forms[5:]])) is None


def test_an_image_sized_by_a_packed_object_is_judged_by_it_not_a_plain_decoy(tmp_path):
    """`/Width 6 0 R /Height 7 0 R`: 200,000 each in the object stream the cross-reference stream names, 200 in
    plain decoys of the same numbers."""
    image = _stream(b"\x00" * 64, b"/Type /XObject /Subtype /Image /Width 6 0 R /Height 7 0 R /ColorSpace /DeviceRGB "
                                  b"/BitsPerComponent 8 /Filter /JBIG2Decode")
    parts = [object_stream("20", 20, [(1, CATALOG), (2, PAGES), (6, b"200000"), (7, b"200000")]),
             Obj("3", 3, page(b"/Resources << /XObject << /I 5 0 R >> >>")),
             Obj("4", 4, _stream(b"q 595 0 0 842 0 0 cm /I Do Q")), Obj("5", 5, image),
             Obj("6 decoy", 6, b"200"), Obj("7 decoy", 7, b"200")]
    names: dict[int, str | tuple[int, int]] = {1: (20, 0), 2: (20, 1), 3: "3", 4: "4", 5: "5", 6: (20, 2), 7: (20, 3),
                                               20: "20"}
    found = file_bomb(assemble(tmp_path / "image.pdf", [*parts, XrefStream("xref", 21, names)], "xref"))
    assert found is not None and "declares 152587 MiB of pixels" in found, found
    names.update({6: "6 decoy", 7: "7 decoy"})
    assert file_bomb(assemble(tmp_path / "small.pdf", [*parts, XrefStream("xref", 21, names)], "xref")) is None


# --------------------------------------------------------------------------- what the cross-reference cannot name


def test_a_file_without_a_readable_cross_reference_is_judged_by_its_last_copies(tmp_path):
    """pdfium rebuilds a broken cross-reference from the bytes, where a later copy replaces an earlier one: so
    does the check (a `startxref` naming nothing)."""
    bomb = b"0 0 m 1 1 l S\n" + b" " * (32 * MiB)
    twice = zlib.compress(zlib.compress(bomb, 9), 9)
    parts = [Obj("1", 1, CATALOG), Obj("2", 2, PAGES), Obj("3", 3, page()),
             Obj("4", 4, b"<< /Length %d /Filter 5 0 R >>\nstream\n%s\nendstream" % (len(twice), twice)),
             Obj("5 decoy", 5, b"[/FlateDecode]"), Obj("5", 5, b"[/FlateDecode /FlateDecode]")]
    path = assemble(tmp_path / "broken.pdf", parts, "nowhere")
    found = file_bomb(path, SMALL)
    assert found is not None and "decodes past 24 MiB" in found, found


# --------------------------------------------------------------------------- the cross-reference reader itself


def _predicted(rows: list[bytes], kind: int) -> bytes:
    """`rows` under PNG filter `kind` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth), each row its filter byte first."""
    out, previous = b"", bytes(len(rows[0]))
    for row in rows:
        coded = bytearray()
        for i, value in enumerate(row):
            left, up, corner = (row[i - 1] if i else 0), previous[i], (previous[i - 1] if i else 0)
            guess = left + up - corner
            paeth = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))[2]
            coded.append((value - (0, left, up, (left + up) // 2, paeth)[kind]) & 0xFF)
        out += bytes([kind]) + bytes(coded)
        previous = row
    return out


def test_a_cross_reference_stream_under_each_png_predictor_names_the_same_copies():
    rows = [b"\x00" * 5 + b"\xff\xff", b"\x01\x00\x00\x01\x2c\x00\x00", b"\x02\x00\x00\x00\x14\x00\x03",
            b"\x01\x00\x01\xf3\x9a\x00\x00", b"\x00\x00\x00\x00\x00\x00\x01"]
    for kind in range(5):
        data = zlib.compress(_predicted(rows, kind))
        body = (b"%%PDF-1.7\n9 0 obj\n<< /Type /XRef /Size 5 /W [1 4 2] /Filter /FlateDecode "
                b"/DecodeParms << /Predictor 12 /Columns 7 >> /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (len(data), data))
        named = crossrefs.read_crossrefs(body + b"startxref\n9\n%%EOF\n", lambda value: value)
        assert named is not None, kind
        assert (named.plain, named.packed, named.free) == ({1: 300, 3: 127898}, {2: 20}, {0, 4}), kind


def test_the_newest_section_wins_and_a_broken_prev_leaves_the_bytes_to_decide(tmp_path):
    path = updated_form(tmp_path / "chain.pdf", levels=2, fan=1)
    data = path.read_bytes()
    named = crossrefs.read_crossrefs(data, lambda value: value)
    assert named is not None and data[named.plain[5]:].startswith(b"5 0 obj\n<< /Length 5 /Type /XObject")
    assert data.index(b"5 0 obj", named.plain[5] + 1) > named.plain[5]  # the older copy stands later in the bytes
    broken = data.replace(b"/Prev ", b"/Prev 9", 1)
    assert crossrefs.read_crossrefs(broken, lambda value: value) is None


def test_a_cross_reference_listing_millions_of_entries_is_not_read():
    """A cross-reference stream of 2 KB listing 3,000,000 objects (`/W [0 1 0]`, one byte each) would be millions of
    entries in memory: past `MAX_ENTRIES` the reader answers None and the bytes decide; a table likewise."""
    count = 3_000_000
    data = zlib.compress(b"\x00" * count, 9)
    body = (b"%%PDF-1.7\n9 0 obj\n<< /Type /XRef /Size %d /W [0 1 0] /Filter /FlateDecode /Length %d >>\nstream\n%s\n"
            b"endstream\nendobj\n" % (count, len(data), data))
    assert crossrefs.read_crossrefs(body + b"startxref\n9\n%%EOF\n", lambda value: value) is None
    listed = crossrefs.MAX_ENTRIES + 1
    table = b"%PDF-1.4\nxref\n0 " + b"%d\n" % listed + b"0000000000 65535 f \n" * listed + b"trailer\n<< /Size 1 >>\n"
    assert crossrefs.read_crossrefs(table + b"startxref\n9\n%%EOF\n", lambda value: value) is None
    small = b"%PDF-1.4\nxref\n0 2\n0000000000 65535 f \n0000000009 00000 n \ntrailer\n<< /Size 2 >>\n"
    named = crossrefs.read_crossrefs(small + b"startxref\n9\n%%EOF\n", lambda value: value)
    assert named is not None and named.plain == {1: 9} and named.free == {0}
