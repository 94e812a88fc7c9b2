"""What every generated PDF shares: one fpdf2 set-up (millimetres, no margins, a fixed creation date so
the same pages give byte-identical files) and the toolkit's error."""
from __future__ import annotations

from datetime import UTC, datetime

from fpdf import FPDF

# Fixed so that builds are reproducible; the date itself means nothing.
FIXED_CREATION_DATE = datetime(2024, 1, 1, tzinfo=UTC)
PT_PER_MM = 72 / 25.4


class PdfGenError(RuntimeError):
    """Raised when a page cannot be built; the message says what to fix."""


def new_fpdf() -> FPDF:
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.c_margin = 0  # text starts exactly at the box's x
    pdf.set_creation_date(FIXED_CREATION_DATE)
    pdf.set_producer("examcorpus pdfgen")
    return pdf
