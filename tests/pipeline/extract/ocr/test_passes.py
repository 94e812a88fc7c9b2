"""A scanned page goes through one ordered registry of declared passes: each has a name, a version, a
cost and a condition; the OCR cache key holds the enabled passes' versions; a spec disables passes by
name, and a name no pass has is a spec error; `examcorpus ocr passes` lists them."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import yaml
from PIL import Image

from pipeline.cli import main
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox
from pipeline.extract.ocr import (
    PAGE_PASSES,
    Cost,
    OcrSettings,
    PageWork,
    UnknownPass,
    ocr_pages,
    pagepasses,
    pass_names,
    read_page,
    reading_key,
    render_page,
)
from pipeline.extract.ocr.passes import page_pass
from pipeline.infra import load_yaml
from pipeline.specs import SpecError, parse_spec, spec_path
from tests.pipeline.extract.ocr.builders import build, colour_scan, needs_tesseract

SHA = "ab" * 32
SETTINGS = OcrSettings(languages=("pol",), dpi=200, option_labels=("A", "B", "C", "D"))


def _bumped(name: str) -> tuple:
    """The registry with pass `name` at a new version."""
    return tuple(replace(p, version=p.version + ".next") if p.name == name else p for p in PAGE_PASSES)


def test_every_pass_declares_a_unique_name_a_version_a_cost_a_condition_and_what_it_does():
    names = pass_names()
    assert len(names) == len(set(names)) >= 25
    for page_pass_ in PAGE_PASSES:
        assert page_pass_.version and isinstance(page_pass_.cost, Cost)
        assert page_pass_.condition, f"{page_pass_.name}: its condition has no docstring"
        assert page_pass_.summary, f"{page_pass_.name}: its step has no docstring"
    # The first reading comes before every repair, and what the page holds is decided last.
    assert names.index("prepare") < names.index("recognise") < names.index("noise") < names.index("legibility") < names.index("figures")
    assert {p.name for p in PAGE_PASSES if p.required} >= {"prepare", "recognise", "measure", "legibility"}
    assert {p.cost for p in PAGE_PASSES} == set(Cost)


@needs_tesseract("pol")
def test_the_cache_key_changes_with_an_enabled_pass_version_and_not_with_a_disabled_one(monkeypatch):
    without_roman = replace(SETTINGS, disabled_passes=("roman-numerals",))
    base, base_without = reading_key(SHA, 1, SETTINGS), reading_key(SHA, 1, without_roman)
    assert base != base_without  # disabling a pass reads the page again
    monkeypatch.setattr(pagepasses, "PAGE_PASSES", _bumped("roman-numerals"))
    assert reading_key(SHA, 1, SETTINGS) != base  # the pass runs under these settings: its new version counts
    assert reading_key(SHA, 1, without_roman) == base_without  # it does not run here: the cached reading holds


def test_a_disabled_pass_name_no_pass_has_is_refused_before_any_page_is_read(tmp_path):
    with pytest.raises(UnknownPass, match="no-such-pass"):
        ocr_pages(tmp_path / "never-opened.pdf", [1], replace(SETTINGS, disabled_passes=("no-such-pass",)))
    with pytest.raises(UnknownPass, match="recognise.*cannot be disabled"):
        pagepasses.enabled_passes(replace(SETTINGS, disabled_passes=("recognise",)))


def test_a_spec_disables_passes_by_name_and_an_unknown_or_required_name_is_a_spec_error(tmp_path):
    base = _sample_spec_data()
    spec = parse_spec({**base, "ocr": {**base["ocr"], "passes": {"disable": ["figures", "roman-numerals"]}}}, tmp_path / "sample_pl.yaml")
    assert OcrSettings.from_spec(spec).disabled_passes == ("figures", "roman-numerals")
    with pytest.raises(SpecError, match="roman-numeral'.*examcorpus ocr passes"):
        parse_spec({**base, "ocr": {**base["ocr"], "passes": {"disable": ["roman-numeral"]}}}, tmp_path / "sample_pl.yaml")
    with pytest.raises(SpecError, match="'prepare'.*cannot be disabled"):
        parse_spec({**base, "ocr": {**base["ocr"], "passes": {"disable": ["prepare"]}}}, tmp_path / "sample_pl.yaml")


def _sample_spec_data() -> dict:
    """The shipped Polish sample spec's data: a valid spec to change one field of."""
    data = load_yaml(spec_path("sample_pl").read_text(encoding="utf-8"))
    assert "passes" not in data["ocr"]
    return data


def test_the_listing_shows_every_pass_in_order_and_what_a_spec_disables(tmp_path, capsys):
    data = _sample_spec_data()
    data["ocr"]["passes"] = {"disable": ["figures"]}
    spec_file = tmp_path / "sample_pl.yaml"
    spec_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert main(["ocr", "passes", "--spec", str(spec_file)]) == 0
    out = capsys.readouterr().out
    positions = [out.index(f". {name} v") for name in pass_names()]
    assert positions == sorted(positions)
    version = {p.name: p.version for p in PAGE_PASSES}
    assert f"figures v{version['figures']} [cheap; disabled]" in out
    assert f"recognise v{version['recognise']} [whole page; required]" in out
    assert f"deskew v{version['deskew']} [cheap; enabled]" in out


def test_a_pass_that_decides_the_reading_ends_the_page(monkeypatch):
    """Passes after one that sets the outcome never run (the page read turned, a page with nothing legible)."""
    ran: list[str] = []

    @page_pass("spy", "1", Cost.CHEAP)
    def spy(work: PageWork) -> PageWork:
        """records that it ran"""
        ran.append("spy")
        return work

    registry = tuple(p for p in PAGE_PASSES if p.name in ("prepare", "legibility")) + (spy,)
    monkeypatch.setattr(pagepasses, "PAGE_PASSES", registry)
    
    blank = Image.new("RGB", (400, 300), "white")
    reading = read_page(blank, OcrSettings(), page_number=1)  # no recognise: no words, nothing legible
    assert reading.words == () and (reading.image_width, reading.image_height) == (400, 300)
    assert ran == []


ELLIPSIS_LINE = "Dokończ zdanie: żołnierz stał na warcie..."


@pytest.fixture(scope="module")
def ellipsis_scan(tmp_path_factory) -> tuple:
    folder: Path = tmp_path_factory.mktemp("ellipsis")
    page = PageSpec([TextBox(ELLIPSIS_LINE, 20, 30, 170, size=13), TextBox("Zadanie 2. Oblicz sumę liczb.", 20, 45, 170, size=13)])
    scan = colour_scan(build(folder / "page.pdf", [page]), folder / "scan.pdf", dpi=200, noise=0.0, blur=0.0)
    document = pdfium.PdfDocument(str(scan))
    try:
        return render_page(document, 0, 200)
    finally:
        document.close()


@needs_tesseract("pol")
def test_a_disabled_pass_is_skipped_and_every_other_pass_reads_as_before(ellipsis_scan):
    image, _, _ = ellipsis_scan
    settings = OcrSettings(languages=("pol",), dpi=200, ellipsis=True)
    with_pass = [w.text for w in read_page(image, settings, page_number=1).words]
    without = [w.text for w in read_page(image, replace(settings, disabled_passes=("ellipsis",)), page_number=1).words]
    assert any(t.endswith("warcie…") for t in with_pass), with_pass
    assert any(t.endswith("warcie...") for t in without), without
    assert [t.replace("...", "…") for t in without] == with_pass


def test_specs_check_names_a_disabled_pass_no_pass_has(tmp_path, capsys):
    data = _sample_spec_data()
    data["ocr"]["passes"] = {"disable": ["figures", "roman-numeral"]}
    spec_file = tmp_path / "sample_pl.yaml"
    spec_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert main(["specs", "check", "--skip-ocr-check", str(spec_file)]) == 1
    error = capsys.readouterr().err
    assert "ocr.passes.disable" in error and "'roman-numeral'" in error and "'figures'" not in error.split("the passes are")[0]
