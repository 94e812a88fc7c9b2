"""A parse pass's version is part of the parse cache key of the sheets it can change: bumping an OCR-only
recovery pass parses the scanned sheet again and leaves the text-layer sheet's cached parse alone;
bumping a pass that reads text-layer lines too parses both again (season run over a generated archive)."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.devkit.sample.archive import build_archive_site
from pipeline.devkit.serve import serve_directory
from pipeline.parse import PARSE_PASSES, recovery_key
from pipeline.parse import recovery as recovery_module
from pipeline.season import RunOptions, run_source
from pipeline.specs import load_spec


def _parse_entries(root) -> set[str]:
    return {p.name for p in (root / "raw" / "cache" / "parse").rglob("*.json")}


def _bumped(name: str) -> list:
    return [tuple(replace(p, version=p.version + ".next") if p.name == name else p for p in PARSE_PASSES)]


@pytest.mark.slow  # one scanned sheet is OCR'd: ~40 s of CPU
def test_bumping_a_recovery_pass_parses_again_only_the_sheets_it_can_change(tmp_path, monkeypatch):
    site = build_archive_site(tmp_path / "site", 2, scanned_share=0.5, filler=False)
    spec = load_spec("sample_pl")
    with serve_directory(tmp_path / "site") as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        first = run_source(spec, options)
        scanned = [f for f in first.report.files if f.ocr_pages]
        assert len(scanned) == 1 and len(_parse_entries(tmp_path / "root")) == 2, site  # a scan and a text sheet
        base = _parse_entries(tmp_path / "root")
        monkeypatch.setattr(recovery_module, "_REGISTRY", _bumped("label-column"))
        assert recovery_key([], True) != recovery_key([], False)
        again = run_source(spec, options)
        after_ocr_only = _parse_entries(tmp_path / "root")
        monkeypatch.setattr(recovery_module, "_REGISTRY", _bumped("unnumbered"))
        run_source(spec, options)
        after_both = _parse_entries(tmp_path / "root")
    assert len(after_ocr_only - base) == 1  # the scanned sheet only
    assert len(after_both - after_ocr_only) == 2  # both sheets
    assert [q.to_row() for q in again.questions] == [q.to_row() for q in first.questions]  # same records, from a new parse
