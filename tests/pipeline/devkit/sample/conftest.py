"""Shared fixtures for the sample-material tests: small generated PDFs and one built sample site."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import (
    PageSpec,
    Paragraph,
    QuestionBlock,
    TextBox,
    build_pdf,
    exam_pages,
)

UNICODE_LINE = "Zażółć gęślą jaźń – ĄĘŁŻ; αβγδ ΣΛ Ω; ľščťžýáíé ĽŠČ"


@pytest.fixture
def booklet_pages() -> list[PageSpec]:
    """A cover, two flowed question pages' worth of blocks and a scratch page."""
    blocks = [Paragraph("Część pierwsza", size=13, bold=True, align="C")]
    for number in range(1, 9):
        blocks.append(
            QuestionBlock(
                f"Zadanie {number}.",
                f"Pytanie numer {number}: {UNICODE_LINE}",
                ("A. pierwsza", "B. druga", "C. trzecia", "D. czwarta"),
                grid=number == 2,
            )
        )
    cover = PageSpec([TextBox("Oznaczenie kwalifikacji: XX.01", 20, 40, 170, size=14, bold=True)])
    scratch = PageSpec([TextBox("BRUDNOPIS", 20, 20, 170, bold=True, align="C")])
    return exam_pages(blocks, header="XX.01-X-24.06", cover=cover, trailing=[scratch])


@pytest.fixture
def booklet_pdf(tmp_path: Path, booklet_pages) -> Path:
    return build_pdf(tmp_path / "booklet.pdf", booklet_pages, title="Booklet")


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory):
    """The sample archive, built once for the whole session (about 5 s)."""
    from pipeline.devkit.sample.site import build_sample_site

    return build_sample_site(tmp_path_factory.mktemp("sample_site"))
