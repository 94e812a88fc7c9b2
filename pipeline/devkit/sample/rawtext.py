"""Text layers written glyph by glyph, the way other producers write them: a PDF whose every glyph is placed on
its own (`Tm` then one glyph), in whatever order the producer emits it, and mapped to Unicode by a hand-made
ToUnicode map that may say something else than the glyph's own character.

fpdf2 writes one kind of text layer: runs in reading order, each glyph mapped to its own character. Real sheets
come from word processors, TeX and typesetting systems that write accents as separate glyphs over their letters,
map ligature glyphs to `ﬁ`, decompose letters in their maps (`é` as `e` + U+0301), or emit a line's glyphs out
of reading order. This module writes such layers with one embedded TrueType font (a Type0 font, Identity-H, the
whole font file embedded, a CID per distinct glyph-and-text pair so one glyph can map to several texts).

Units: points, origin at the top-left of an A4 page (the PDF's own y is flipped when written).
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont

from pipeline.devkit.sample.pdfbase import PdfGenError

PAGE_W, PAGE_H = 595.28, 841.89


@dataclass(frozen=True)
class Placed:
    """One glyph on the page: the font's glyph for `glyph` (one character) drawn at `x` (its origin) on the baseline
    `y` (from the top), mapped to `text` (which may differ from `glyph`: a decomposition, a ligature's letters)."""

    glyph: str
    text: str
    x: float
    y: float
    size: float


@lru_cache(maxsize=4)
def _font(path: str) -> TTFont:
    return TTFont(path)


def advance(font_path: Path, char: str, size: float) -> float:
    """The glyph's advance for `char` at `size` points."""
    font = _font(str(font_path))
    name = font.getBestCmap().get(ord(char))
    if name is None:
        raise PdfGenError(f"{font_path.name} has no glyph for U+{ord(char):04X}")
    return font["hmtx"][name][0] * size / font["head"].unitsPerEm


def has_glyph(font_path: Path, char: str) -> bool:
    return ord(char) in _font(str(font_path)).getBestCmap()


def set_line(font_path: Path, text: str, x: float, y: float, size: float) -> list[Placed]:
    """`text` set left to right from `x` on baseline `y`, one glyph per character, each mapped to itself."""
    placed = []
    for ch in text:
        placed.append(Placed(ch, ch, x, y, size))
        x += advance(font_path, ch, size)
    return placed


def line_width(font_path: Path, text: str, size: float) -> float:
    return sum(advance(font_path, ch, size) for ch in text)


def _utf16_hex(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    packed = zlib.compress(data)
    return b"<< /Length %d /Filter /FlateDecode%s >>\nstream\n" % (len(packed), extra) + packed + b"\nendstream"


def write_pdf(path: Path, pages: list[list[Placed]], font_path: Path) -> Path:
    """The pages, each glyph emitted in the order given (the caller decides the order: reading order or not)."""
    font = _font(str(font_path))
    cmap, order = font.getBestCmap(), font.getGlyphOrder()
    gid_of = {name: gid for gid, name in enumerate(order)}
    scale = 1000 / font["head"].unitsPerEm
    cids: dict[tuple[str, str], int] = {}
    for page in pages:
        for g in page:
            if ord(g.glyph) not in cmap:
                raise PdfGenError(f"{font_path.name} has no glyph for U+{ord(g.glyph):04X}")
            cids.setdefault((g.glyph, g.text), len(cids) + 1)
    cid_to_gid = bytearray(2 * (len(cids) + 1))
    widths = []
    bfchars = []
    for (glyph, text), cid in cids.items():
        name = cmap[ord(glyph)]
        gid = gid_of[name]
        cid_to_gid[2 * cid:2 * cid + 2] = gid.to_bytes(2, "big")
        widths.append(f"{cid} [{round(font['hmtx'][name][0] * scale)}]")
        bfchars.append(f"<{cid:04X}> <{_utf16_hex(text)}>")
    to_unicode = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n" \
        "1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    for start in range(0, len(bfchars), 100):
        chunk = bfchars[start:start + 100]
        to_unicode += f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar\n"
    to_unicode += "endcmap CMapName currentdict /CMap defineresource pop end end"
    head, hhea = font["head"], font["hhea"]
    bbox = " ".join(str(round(v * scale)) for v in (head.xMin, head.yMin, head.xMax, head.yMax))
    base = b"/" + font_path.stem.replace(" ", "").encode()

    n_pages = len(pages)
    first_page = 3
    font_obj = first_page + 2 * n_pages
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % (first_page + 2 * i) for i in range(n_pages)), n_pages),
    ]
    for i, page in enumerate(pages):
        ops = ["BT"]
        size = None
        for g in page:
            if g.size != size:
                ops.append(f"/F1 {g.size:.2f} Tf")
                size = g.size
            ops.append(f"1 0 0 1 {g.x:.3f} {PAGE_H - g.y:.3f} Tm <{cids[(g.glyph, g.text)]:04X}> Tj")
        ops.append("ET")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>"
                       % (PAGE_W, PAGE_H, first_page + 2 * i + 1, font_obj))
        objects.append(_stream("\n".join(ops).encode()))
    objects += [
        b"<< /Type /Font /Subtype /Type0 /BaseFont " + base + b" /Encoding /Identity-H /DescendantFonts [%d 0 R] /ToUnicode %d 0 R >>"
        % (font_obj + 1, font_obj + 4),
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont " + base + b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) "
        b"/Supplement 0 >> /FontDescriptor %d 0 R /W [%s] /CIDToGIDMap %d 0 R >>" % (font_obj + 2, " ".join(widths).encode(), font_obj + 5),
        b"<< /Type /FontDescriptor /FontName " + base + b" /Flags 32 /FontBBox [%s] /ItalicAngle 0 /Ascent %d /Descent %d "
        b"/CapHeight %d /StemV 80 /FontFile2 %d 0 R >>" % (bbox.encode(), round(hhea.ascent * scale), round(hhea.descent * scale),
                                                            round(hhea.ascent * scale * 0.7), font_obj + 3),
        _stream(font_path.read_bytes(), b" /Length1 %d" % font_path.stat().st_size),
        _stream(to_unicode.encode()),
        _stream(bytes(cid_to_gid)),
    ]
    return write_raw_pdf(path, objects)


def write_raw_pdf(path: Path, objects: list[bytes]) -> Path:
    """A PDF written object by object (object 1 the catalog), with its cross-reference table: for
    content no generator writes (streams in odd order, fonts with hand-made ToUnicode maps)."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path
