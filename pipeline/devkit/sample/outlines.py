"""Text drawn as vector outlines: each glyph's contours from the font (fontTools) written as a filled PDF
path, with no text object at all — what "convert text to outlines" in a layout program leaves, and how
some answer keys and booklets print their tables. The extract stage sees such ink only in the rendered
page (`pipeline.extract.inked`); tests build their drawn sheets with `draw_outlined_text`.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont
from fpdf import FPDF
from fpdf.drawing import PathPaintRule

from pipeline.devkit.sample.pdfbase import PdfGenError


@lru_cache(maxsize=8)
def _font(path: str, number: int) -> TTFont:
    return TTFont(path, fontNumber=number, lazy=True)


def draw_outlined_text(pdf: FPDF, text: str, x: float, baseline: float, size: float, font_path: Path | str, *, font_number: int = 0) -> float:
    """Draw `text` at (`x`, `baseline`) in `pdf`'s units as filled glyph outlines of `font_path` (a TTF,
    OTF or one face of a TTC), `size` in points; returns the x where the text ends."""
    font = _font(str(font_path), font_number)
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    scale = size / pdf.k / font["head"].unitsPerEm  # font units -> document units
    for character in text:
        name = cmap.get(ord(character))
        if name is None:
            raise PdfGenError(f"{font_path} has no glyph for {character!r}")
        pen = DecomposingRecordingPen(glyphs)  # composite glyphs (Ά = Α + tonos, Α = A) drawn from their parts
        glyphs[name].draw(pen)
        if pen.value:
            _fill(pdf, pen.value, x, baseline, scale)
        x += glyphs[name].width * scale
    return x


def _fill(pdf: FPDF, operations, x: float, baseline: float, scale: float) -> None:
    def at(point):
        return x + point[0] * scale, baseline - point[1] * scale

    with pdf.new_path() as path:
        path.style.fill_color = "#000000"
        path.style.stroke_color = None
        path.style.paint_rule = PathPaintRule.FILL_NONZERO
        current = None
        for operator, points in operations:
            if operator == "moveTo":
                current = points[0]
                path.move_to(*at(current))
            elif operator == "lineTo":
                current = points[0]
                path.line_to(*at(current))
            elif operator == "curveTo":  # cubic (CFF outlines)
                (a, b, c) = points[-3:]
                path.curve_to(*at(a), *at(b), *at(c))
                current = c
            elif operator == "qCurveTo":  # TrueType: implied on-curve points between off-curve ones
                offs, end = list(points[:-1]), points[-1]
                if end is None:  # a closed contour of off-curve points only
                    end = ((offs[-1][0] + offs[0][0]) / 2, (offs[-1][1] + offs[0][1]) / 2)
                for i, off in enumerate(offs):
                    on = end if i == len(offs) - 1 else ((off[0] + offs[i + 1][0]) / 2, (off[1] + offs[i + 1][1]) / 2)
                    path.quadratic_curve_to(*at(off), *at(on))
                current = end
            elif operator in ("closePath", "endPath"):
                path.close()
