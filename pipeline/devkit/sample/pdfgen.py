"""A small PDF-writing toolkit for realistic exam sheets: text, boxes, lines and images on A4 pages.

Units: millimetres, origin at the top-left corner of the page (fpdf2's convention). Font sizes are in
points. Output is deterministic: the same pages give byte-identical files (fixed creation date, file ID
derived from the content), so fixtures can be regenerated instead of committed.

`rasterize_pdf` (module `raster`, importable from here too) turns any PDF into an image-only "scan" (no text layer) for OCR tests.
"""
from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from fpdf import FPDF
from PIL import Image

from pipeline.devkit.sample.pdfbase import FIXED_CREATION_DATE, PT_PER_MM, PdfGenError, new_fpdf as _new_fpdf
# Scans live in their own module; these names stay importable from here, as tests and tools use them.
from pipeline.devkit.sample.raster import rasterize_pdf, rasterized_pdf_bytes
from pipeline.infra import write_bytes_atomic

RGB = tuple[int, int, int]

PAGE_SIZES_MM = {"A4": (210.0, 297.0), "A5": (148.0, 210.0), "Letter": (215.9, 279.4)}

FONT_DIR_ENV = "EXAMCORPUS_FONT_DIR"
DEFAULT_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/Library/Fonts")
# Only the faces shipped by Debian's fonts-dejavu-core, which `make setup` installs.
FONT_FILES: dict[tuple[str, bool], str] = {
    ("DejaVuSans", False): "DejaVuSans.ttf",
    ("DejaVuSans", True): "DejaVuSans-Bold.ttf",
    ("DejaVuSerif", False): "DejaVuSerif.ttf",
    ("DejaVuSerif", True): "DejaVuSerif-Bold.ttf",
    ("DejaVuSansMono", False): "DejaVuSansMono.ttf",
    ("DejaVuSansMono", True): "DejaVuSansMono-Bold.ttf",
}
# Hangul, kana and Han script, and circled digits, from Debian's fonts-noto-cjk (a font collection: the
# Korean face is its second font). Sheets in these scripts need it installed; `cjk_font()` says whether it is.
CJK_FONT = "NotoSansCJK"
# PDF's standard faces: no file embedded, every reader draws them with its own (pdfium: Foxit's Helvetica-like sans),
# so a sheet can be set in an Arial-like face without installing one. Latin-1 text only.
CORE_FONTS = ("Helvetica", "Times")
CJK_FONT_FILES = {False: "NotoSansCJK-Regular.ttc", True: "NotoSansCJK-Bold.ttc"}
CJK_FONT_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/noto-cjk")
CJK_COLLECTION_KOREAN = 1
# The collection's other regional faces, for Japanese and Simplified Chinese sheets: the same glyph set drawn with
# the region's forms (its first font is Japanese, its third Simplified Chinese).
CJK_FONT_JP = "NotoSansCJKjp"
CJK_FONT_SC = "NotoSansCJKsc"
CJK_COLLECTION = {CJK_FONT: CJK_COLLECTION_KOREAN, CJK_FONT_JP: 0, CJK_FONT_SC: 2}


# --------------------------------------------------------------------------- page items


@dataclass(frozen=True)
class TextBox:
    """Wrapped text whose top-left corner is at (x, y); it wraps at `width` mm and grows downwards."""

    text: str
    x: float
    y: float
    width: float
    size: float = 11
    bold: bool = False
    highlight: RGB | None = None  # a filled rectangle behind the text (e.g. the key marked in yellow)
    font: str = "DejaVuSans"
    align: str = "L"  # L, C, R or J
    color: RGB = (0, 0, 0)
    line_spacing: float = 1.25  # line height as a multiple of the font size
    stretching: float = 100.0  # horizontal scaling in percent; under 100 sets condensed type


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: RGB | None = None
    stroke: RGB | None = (0, 0, 0)
    line_width: float = 0.3
    radius: float = 0.0  # rounded corners (mm); just under half the side of a square draws a disc (fpdf2 takes half or more as a share of it)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    color: RGB = (0, 0, 0)
    width: float = 0.3


@dataclass(frozen=True)
class ImageBox:
    """A PNG or JPEG at (x, y), `w` mm wide; `h` None keeps the image's aspect ratio."""

    x: float
    y: float
    w: float
    image: bytes
    h: float | None = None

    @property
    def height(self) -> float:
        if self.h is not None:
            return self.h
        with Image.open(io.BytesIO(self.image)) as img:
            return self.w * img.height / img.width


PageItem = TextBox | Rect | Line | ImageBox


@dataclass(frozen=True)
class PageSpec:
    items: tuple[PageItem, ...] | list[PageItem] = ()
    size: str = "A4"
    # A landscape page (items laid out on `size` with width and height swapped) printed turned a quarter turn
    # counter-clockwise on an upright `size` page, as a wide table is scanned on its side.
    turned: bool = False

    @property
    def width(self) -> float:
        return _page_size(self.size)[0]

    @property
    def height(self) -> float:
        return _page_size(self.size)[1]


def _page_size(size: str) -> tuple[float, float]:
    try:
        return PAGE_SIZES_MM[size]
    except KeyError:
        raise PdfGenError(f"unknown page size {size!r}; use one of {sorted(PAGE_SIZES_MM)}") from None


# --------------------------------------------------------------------------- fonts


def font_dir() -> Path:
    """The folder holding the DejaVu TTFs ($EXAMCORPUS_FONT_DIR first)."""
    candidates = [os.environ[FONT_DIR_ENV]] if os.environ.get(FONT_DIR_ENV) else []
    candidates += list(DEFAULT_FONT_DIRS)
    for folder in candidates:
        if (Path(folder) / "DejaVuSans.ttf").is_file():
            return Path(folder)
    raise PdfGenError(
        f"DejaVu fonts not found in {candidates}: install fonts-dejavu-core (make setup) "
        f"or point ${FONT_DIR_ENV} at a folder holding DejaVuSans.ttf"
    )


def cjk_font(bold: bool = False) -> Path | None:
    """The Noto Sans CJK collection file (fonts-noto-cjk), or None when it is not installed."""
    for folder in CJK_FONT_DIRS:
        path = Path(folder) / CJK_FONT_FILES[bold]
        if path.is_file():
            return path
    return None


def _set_font(pdf: FPDF, box: TextBox) -> None:
    """Select the box's face, loading its TTF on first use (parsing a TTF costs ~0.1 s, so only the
    faces a document uses are loaded)."""
    style = "B" if box.bold else ""
    if box.font in CJK_COLLECTION:
        if f"{box.font.lower()}{style}" not in pdf.fonts:
            path = cjk_font(box.bold)
            if path is None:
                raise PdfGenError(f"font {box.font} is not installed: install fonts-noto-cjk (make system-packages)")
            pdf.add_font(box.font, style, str(path), collection_font_number=CJK_COLLECTION[box.font])
        pdf.set_font(box.font, style, box.size)
        pdf.set_stretching(box.stretching)
        return
    if box.font in CORE_FONTS:
        pdf.set_font(box.font.lower(), style, box.size)
        pdf.set_stretching(box.stretching)
        return
    filename = FONT_FILES.get((box.font, box.bold))
    if filename is None:
        raise PdfGenError(f"unknown font {box.font!r}; use one of {sorted({f for f, _ in FONT_FILES} | {*CJK_COLLECTION, *CORE_FONTS})}")
    if f"{box.font.lower()}{style}" not in pdf.fonts:
        path = font_dir() / filename
        if not path.is_file():
            raise PdfGenError(f"font {box.font} {'bold' if box.bold else 'regular'} is not installed: {path} is missing")
        pdf.add_font(box.font, style, str(path))
    pdf.set_font(box.font, style, box.size)
    pdf.set_stretching(box.stretching)


def _line_height(box: TextBox) -> float:
    return box.size * box.line_spacing / PT_PER_MM


@lru_cache(maxsize=1)
def _measuring_pdf() -> FPDF:
    pdf = _new_fpdf()
    pdf.add_page()
    return pdf


def text_height(box: TextBox) -> float:
    """Height in mm that `box` occupies once wrapped (independent of where the box sits)."""
    return _wrapped_height(replace(box, x=0.0, y=0.0) if box.x or box.y else box)


@lru_cache(maxsize=8192)
def _wrapped_height(box: TextBox) -> float:
    # fpdf's line breaking costs milliseconds a box, and layout measures the same box more than once
    # (a block is measured to size the room after it, then again to place it; Greek papers are laid out twice).
    pdf = _measuring_pdf()
    _set_font(pdf, box)
    pdf.set_xy(box.x, box.y)
    lines = pdf.multi_cell(box.width, _line_height(box), box.text, align=box.align, dry_run=True, output="LINES")
    return len(lines) * _line_height(box)


def item_bottom(item: PageItem) -> float:
    """The lowest y (mm) an item reaches; used to stack items."""
    if isinstance(item, TextBox):
        return item.y + text_height(item)
    if isinstance(item, Rect):
        return item.y + item.h
    if isinstance(item, Line):
        return max(item.y1, item.y2)
    if isinstance(item, ImageBox):
        return item.y + item.height
    raise PdfGenError(f"not a page item: {item!r}")


# --------------------------------------------------------------------------- building


def _draw(pdf: FPDF, item: PageItem) -> None:
    if isinstance(item, TextBox):
        _set_font(pdf, item)
        pdf.set_text_color(*item.color)
        if item.highlight is not None:
            pdf.set_fill_color(*item.highlight)
            pdf.rect(item.x - 0.8, item.y - 0.3, item.width + 1.6, text_height(item) + 0.6, style="F")
        pdf.set_xy(item.x, item.y)
        pdf.multi_cell(item.width, _line_height(item), item.text, align=item.align)
    elif isinstance(item, Rect):
        style = ("F" if item.fill else "") + ("D" if item.stroke else "")
        if not style:
            return
        if item.fill:
            pdf.set_fill_color(*item.fill)
        if item.stroke:
            pdf.set_draw_color(*item.stroke)
        pdf.set_line_width(item.line_width)
        if item.radius:
            pdf.rect(item.x, item.y, item.w, item.h, style=style, round_corners=True, corner_radius=item.radius)
        else:
            pdf.rect(item.x, item.y, item.w, item.h, style=style)
    elif isinstance(item, Line):
        pdf.set_draw_color(*item.color)
        pdf.set_line_width(item.width)
        pdf.line(item.x1, item.y1, item.x2, item.y2)
    elif isinstance(item, ImageBox):
        pdf.image(io.BytesIO(item.image), x=item.x, y=item.y, w=item.w, h=item.height)
    else:
        raise PdfGenError(f"not a page item: {item!r}")


def _moved(item: PageItem, dx: float, dy: float) -> PageItem:
    if isinstance(item, Line):
        return replace(item, x1=item.x1 + dx, y1=item.y1 + dy, x2=item.x2 + dx, y2=item.y2 + dy)
    return replace(item, x=item.x + dx, y=item.y + dy)


def pdf_bytes(pages: Sequence[PageSpec], *, title: str | None = None) -> bytes:
    """The PDF for `pages`, as bytes; identical input gives identical bytes."""
    if not pages:
        raise PdfGenError("a PDF needs at least one page")
    pdf = _new_fpdf()
    if title:
        pdf.set_title(title)
    for page in pages:
        pdf.add_page(format=_page_size(page.size))
        if not page.turned:
            for item in page.items:
                _draw(pdf, item)
            continue
        width, height = _page_size(page.size)
        # Turned about the upright page's centre; each item first moved by the difference of the two centres.
        dx, dy = (width - height) / 2, (height - width) / 2
        with pdf.rotation(90, width / 2, height / 2):
            for item in page.items:
                _draw(pdf, _moved(item, dx, dy))
    return bytes(pdf.output())


def build_pdf(path: Path | str, pages: Sequence[PageSpec], *, title: str | None = None) -> Path:
    """Write `pages` to `path` (atomically) and return the path."""
    return write_bytes_atomic(Path(path), pdf_bytes(pages, title=title))


# --------------------------------------------------------------------------- exam layout


@dataclass(frozen=True)
class Margins:
    left: float = 20.0
    right: float = 20.0
    top: float = 22.0  # below the running header
    bottom: float = 22.0  # above the running footer


@dataclass(frozen=True)
class Paragraph:
    """Free text in the flow: instructions, a section title ("ΘΕΜΑ Α"), a shared passage."""

    text: str
    size: float = 11
    bold: bool = False
    align: str = "L"
    space_after: float = 3.0
    line_spacing: float = 1.25  # as TextBox's


@dataclass(frozen=True)
class QuestionBlock:
    """One question as printed: a number line, the stem, an optional figure, then the options.

    Options are the full printed lines including their labels ("A. 230 V", "α. …"), so any labelling
    style can be laid out. `grid` prints them in two columns (A B / C D), as sheets do for short options.
    """

    number_line: str
    stem: str
    options: tuple[str, ...] = ()
    grid: bool = False
    figure: bytes | None = None  # PNG/JPEG shown between the stem and the options
    figure_width: float = 80.0
    number_inline: bool = False  # "Α1. stem…" on one line instead of a number line above the stem
    trailer: str | None = None  # a right-aligned line after the options, e.g. "Μονάδες 5"
    size: float = 11
    space_after: float = 6.0
    line_spacing: float = 1.25  # line height as a multiple of the size (TextBox's default: single spacing)


Block = Paragraph | QuestionBlock


def _layout_block(block: Block, x: float, width: float) -> tuple[list[PageItem], float]:
    """Items of a block placed at y=0, and the block's height."""
    items: list[PageItem] = []
    if isinstance(block, Paragraph):
        box = TextBox(block.text, x, 0.0, width, size=block.size, bold=block.bold, align=block.align, line_spacing=block.line_spacing)
        return [box], text_height(box) + block.space_after
    if not isinstance(block, QuestionBlock):
        raise PdfGenError(f"not a layout block: {block!r}")
    y = 0.0
    indent = 0.0
    if block.number_inline:
        # a hanging indent just wider than the number, so OCR keeps number and stem on one line
        indent = block.size * 0.9
        head = TextBox(block.number_line, x, y, indent, size=block.size, line_spacing=block.line_spacing, bold=True)
        stem = TextBox(block.stem, x + indent, y, width - indent, size=block.size, line_spacing=block.line_spacing)
        items += [head, stem]
        y = item_bottom(stem) + 1.5
    else:
        head = TextBox(block.number_line, x, y, width, size=block.size, line_spacing=block.line_spacing, bold=True)
        items.append(head)
        y = item_bottom(head) + 1.0
        stem = TextBox(block.stem, x, y, width, size=block.size, line_spacing=block.line_spacing)
        items.append(stem)
        y = item_bottom(stem) + 1.5
    if block.figure is not None:
        fig = ImageBox(x + indent + (width - indent - block.figure_width) / 2, y + 1.0, block.figure_width, block.figure)
        items.append(fig)
        y = item_bottom(fig) + 3.0
    option_x = x + indent + 2.0
    option_width = width - indent - 2.0
    if block.grid and block.options:
        column = option_width / 2
        for row_start in range(0, len(block.options), 2):
            row = [
                TextBox(text, option_x + col * column, y, column - 4.0, size=block.size, line_spacing=block.line_spacing)
                for col, text in enumerate(block.options[row_start : row_start + 2])
            ]
            items += row
            y = max(item_bottom(b) for b in row) + 1.5
    else:
        for text in block.options:
            box = TextBox(text, option_x, y, option_width, size=block.size, line_spacing=block.line_spacing)
            items.append(box)
            y = item_bottom(box) + 1.0
    if block.trailer:
        box = TextBox(block.trailer, x, y + 0.5, width, size=block.size, line_spacing=block.line_spacing, bold=True, align="R")
        items.append(box)
        y = item_bottom(box) + 1.0
    return items, y + block.space_after


def room_left(block: Block, *, size: str = "A4", margins: Margins = Margins()) -> float:
    """Millimetres a page's text area has below `block` when it starts at the top: the most blank space
    (room for working) that can follow it on one page."""
    page_w, page_h = _page_size(size)
    _, height = _layout_block(block, margins.left, page_w - margins.left - margins.right)
    return page_h - margins.top - margins.bottom - height


def _shift(item: PageItem, dy: float) -> PageItem:
    if isinstance(item, Line):
        return replace(item, y1=item.y1 + dy, y2=item.y2 + dy)
    return replace(item, y=item.y + dy)


@dataclass(frozen=True)
class Flow:
    """Blocks laid out on pages; `block_pages[i]` is the 0-based page index of block i."""

    pages: list[PageSpec]
    block_pages: list[int]


def paginate(blocks: Iterable[Block], *, size: str = "A4", margins: Margins = Margins()) -> Flow:
    """Stack blocks down pages, starting a new page when the next block does not fit (blocks never split)."""
    page_w, page_h = _page_size(size)
    width = page_w - margins.left - margins.right
    usable = page_h - margins.top - margins.bottom
    pages: list[list[PageItem]] = [[]]
    block_pages: list[int] = []
    y = margins.top
    for block in blocks:
        items, height = _layout_block(block, margins.left, width)
        if height > usable:
            raise PdfGenError(f"block {_describe(block)} is {height:.0f} mm tall; a page holds {usable:.0f} mm")
        if y + height > page_h - margins.bottom and pages[-1]:
            pages.append([])
            y = margins.top
        pages[-1] += [_shift(item, y) for item in items]
        block_pages.append(len(pages) - 1)
        y += height
    return Flow([PageSpec(tuple(items), size=size) for items in pages], block_pages)


def flow_blocks(blocks: Iterable[Block], *, size: str = "A4", margins: Margins = Margins()) -> list[PageSpec]:
    """The pages of `paginate`, for callers that do not need to know where each block landed."""
    return paginate(blocks, size=size, margins=margins).pages


def _describe(block: Block) -> str:
    text = block.number_line if isinstance(block, QuestionBlock) else block.text
    return repr(text[:40])


def with_running_text(
    pages: Sequence[PageSpec],
    *,
    header: str | None = None,
    footer: str | None = "Strona {page} z {pages}",
    skip: Iterable[int] = (),
    rule: bool = True,
    size: float = 9,
    header_align: str = "R",
    bold: bool = False,
) -> list[PageSpec]:
    """Add a header and a footer to every page not in `skip`.

    Both may hold {page} and {pages} (1-based, over all pages, the skipped ones included).
    """
    skipped = set(skip)
    total = len(pages)
    result = []
    for index, page in enumerate(pages):
        if index in skipped:
            result.append(page)
            continue
        extra: list[PageItem] = []
        left, right = 20.0, page.width - 20.0
        if header:
            text = header.format(page=index + 1, pages=total)
            extra.append(TextBox(text, left, 10.0, right - left, size=size, align=header_align, bold=bold))
            if rule:
                extra.append(Line(left, 15.5, right, 15.5, width=0.2))
        if footer:
            text = footer.format(page=index + 1, pages=total)
            extra.append(TextBox(text, left, page.height - 14.0, right - left, size=size, align="C", bold=bold))
        result.append(PageSpec(tuple(page.items) + tuple(extra), size=page.size))
    return result


def exam_pages(
    blocks: Iterable[Block],
    *,
    header: str | None = None,
    footer: str | None = "Strona {page} z {pages}",
    cover: PageSpec | None = None,
    trailing: Sequence[PageSpec] = (),
    size: str = "A4",
    margins: Margins = Margins(),
) -> list[PageSpec]:
    """A whole booklet: optional cover (no header/footer), flowed blocks, trailing pages (e.g. scratch)."""
    body = flow_blocks(blocks, size=size, margins=margins)
    pages = ([cover] if cover else []) + body + list(trailing)
    return with_running_text(pages, header=header, footer=footer, skip=[0] if cover else [])


def table_items(
    x: float,
    y: float,
    col_widths: Sequence[float],
    rows: Sequence[Sequence[str]],
    *,
    size: float = 10,
    header_rows: int = 1,
    header_fill: RGB | None = (225, 225, 225),
    padding: float = 1.5,
) -> tuple[list[PageItem], float]:
    """A ruled table at (x, y): its items and its bottom y. Header rows are bold on a grey fill."""
    items: list[PageItem] = []
    top = y
    for r, row in enumerate(rows):
        if len(row) != len(col_widths):
            raise PdfGenError(f"table row {r} has {len(row)} cells for {len(col_widths)} columns: {row!r}")
        is_header = r < header_rows
        boxes = []
        cx = x
        for text, w in zip(row, col_widths):
            boxes.append(TextBox(text, cx + padding, top + padding, w - 2 * padding, size=size, bold=is_header, align="C"))
            cx += w
        height = max(item_bottom(b) for b in boxes) - top + padding
        cx = x
        for w in col_widths:
            items.append(Rect(cx, top, w, height, fill=header_fill if is_header else None, line_width=0.2))
            cx += w
        items += boxes
        top += height
    return items, top


__all__ = [
    "FIXED_CREATION_DATE",
    "Block",
    "Flow",
    "ImageBox",
    "Line",
    "Margins",
    "PageItem",
    "PageSpec",
    "Paragraph",
    "PdfGenError",
    "QuestionBlock",
    "Rect",
    "TextBox",
    "build_pdf",
    "exam_pages",
    "flow_blocks",
    "font_dir",
    "item_bottom",
    "paginate",
    "pdf_bytes",
    "rasterize_pdf",
    "rasterized_pdf_bytes",
    "table_items",
    "text_height",
    "with_running_text",
]
