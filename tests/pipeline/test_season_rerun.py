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


def test_a_rerun_reads_no_record_when_nothing_is_new_and_a_file_written_meanwhile_again(tmp_path, monkeypatch):
    import dataclasses

    from pipeline import season, seasoncurated

    build_archive_site(tmp_path / "site", 2, scanned_share=0.0)
    spec = load_spec("sample_pl")
    reads, spec_dumps = [], []
    read_curated, spec_key, acquire = seasoncurated.read_curated, getattr(season, "_spec_for_parse_key", None), season.acquire
    # Read by the run itself and by its check of the curated file it merges into.
    for module in (season, seasoncurated):
        monkeypatch.setattr(module, "read_curated", lambda path: reads.append(path) or read_curated(path))
    monkeypatch.setattr(season, "_spec_for_parse_key", lambda s: spec_dumps.append(s) or spec_key(s), raising=False)
    with serve_directory(tmp_path / "site") as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        first = run_source(spec, options)
        reads.clear(), spec_dumps.clear()
        again = run_source(spec, options)
        # Nothing new: the curated file is the one the last run left (checked by its SHA-256), so no record
        # is read; the spec is taken once a run, not once a sheet.
        assert len(reads) == 0 and len(spec_dumps) == 1
        # Another run writes the curated file while this one downloads: this one merges into what is there now.
        other = dataclasses.replace(first.questions[0], id="sample_pl:elsewhere", source_url="http://elsewhere/x.pdf",
                                    source_sha256="e" * 64)

        def acquire_while_another_run_writes(spec, options):
            season.write_curated(again.curated_path, [*again.questions, other])
            return acquire(spec, options)

        monkeypatch.setattr(season, "acquire", acquire_while_another_run_writes)
        third = run_source(spec, options)
    assert [q.to_row() for q in again.questions] == [q.to_row() for q in first.questions]
    assert "sample_pl:elsewhere" in {q.id for q in third.questions}
    assert len(third.questions) == len(first.questions) + 1
