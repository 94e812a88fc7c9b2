"""Deterministic PNG figures for generated sheets: a bar chart and a simple circuit diagram.

Drawn with Pillow (no matplotlib) so generation needs nothing beyond the core dependencies; the same
arguments give the same PNG bytes.
"""
from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont

from pipeline.devkit.sample.pdfgen import font_dir


def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_dir() / "DejaVuSans.ttf"), size)


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def bar_chart_png(labels: Sequence[str], values: Sequence[float], *, title: str = "", unit: str = "") -> bytes:
    """A labelled bar chart, 900×540 px."""
    if len(labels) != len(values) or not labels:
        raise ValueError(f"bar chart needs as many labels as values (got {len(labels)} and {len(values)})")
    width, height = 900, 540
    image = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 90, width - 30, 70, height - 70
    if title:
        draw.text((width / 2, 30), title, fill=0, font=_font(28), anchor="mm")
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=0, width=3)
    peak = max(values) or 1
    slot = (right - left) / len(values)
    for index, (label, value) in enumerate(zip(labels, values)):
        x0 = left + index * slot + slot * 0.2
        x1 = left + (index + 1) * slot - slot * 0.2
        y0 = bottom - (bottom - top - 20) * value / peak
        draw.rectangle([x0, y0, x1, bottom], fill=150, outline=0, width=2)
        draw.text(((x0 + x1) / 2, y0 - 16), f"{value:g}{unit}", fill=0, font=_font(22), anchor="mm")
        draw.text(((x0 + x1) / 2, bottom + 28), label, fill=0, font=_font(22), anchor="mm")
    return _png(image)


def circuit_png(labels: Sequence[str] = ("R1", "R2", "R3"), *, source: str = "U") -> bytes:
    """A voltage source feeding one resistor in series with a parallel pair (R1 + (R2 ∥ R3)), 900×480 px."""
    if len(labels) != 3:
        raise ValueError(f"the circuit has three resistors; got labels {list(labels)}")
    image = Image.new("L", (900, 480), 255)
    draw = ImageDraw.Draw(image)
    font = _font(26)

    def resistor(x: float, y: float, horizontal: bool, label: str) -> None:
        if horizontal:
            draw.rectangle([x - 55, y - 20, x + 55, y + 20], outline=0, width=4, fill=255)
            draw.text((x, y - 45), label, fill=0, font=font, anchor="mm")
        else:
            draw.rectangle([x - 20, y - 55, x + 20, y + 55], outline=0, width=4, fill=255)
            draw.text((x + 50, y), label, fill=0, font=font, anchor="lm")

    wire = {"fill": 0, "width": 4}
    # outer loop: source on the left, R1 on the top wire, the parallel pair on the right
    draw.line([(120, 100), (600, 100)], **wire)
    draw.line([(120, 380), (600, 380)], **wire)
    draw.line([(120, 100), (120, 200)], **wire)
    draw.line([(120, 280), (120, 380)], **wire)
    draw.ellipse([80, 200, 160, 280], outline=0, width=4, fill=255)
    draw.text((120, 240), source, fill=0, font=font, anchor="mm")
    resistor(330, 100, True, labels[0])
    for x, label in ((600, labels[1]), (780, labels[2])):
        draw.line([(x, 100), (x, 380)], **wire)
        resistor(x, 240, False, label)
    draw.line([(600, 100), (780, 100)], **wire)
    draw.line([(600, 380), (780, 380)], **wire)
    for x, y in ((600, 100), (600, 380)):
        draw.ellipse([x - 8, y - 8, x + 8, y + 8], fill=0)
    return _png(image)
