"""A season re-run with nothing new does no work again (issue 31, item 3): the second run over a site
answers 304 Not Modified for every file, and a file that comes back unchanged is the same input to
parse as when it was first downloaded, so no sheet is parsed a second time."""
from __future__ import annotations

from pipeline.devkit.sample.archive import build_archive_site
from pipeline.devkit.serve import serve_directory
from pipeline.season import RunOptions, run_source
from pipeline.specs import load_spec


def _parse_entries(root) -> set[str]:
    return {p.name for p in (root / "raw" / "cache" / "parse").rglob("*.json")}


def test_a_rerun_answered_not_modified_parses_nothing_again(tmp_path):
    build_archive_site(tmp_path / "site", 2, scanned_share=0.0)
    spec = load_spec("sample_pl")
    with serve_directory(tmp_path / "site") as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        first = run_source(spec, options)
        parsed_once = _parse_entries(tmp_path / "root")
        again = run_source(spec, options)
    statuses = {f.status for f in again.report.files}
    assert statuses == {"not_modified"}  # the server had nothing new
    assert len(parsed_once) == 2  # one parse per sheet
    assert _parse_entries(tmp_path / "root") == parsed_once  # nothing parsed again
    assert [q.to_row() for q in again.questions] == [q.to_row() for q in first.questions]
