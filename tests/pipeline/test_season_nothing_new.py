"""A season re-run with nothing new leaves the curated file standing (issue 31, bar 3): no sheet is
parsed, the Parquet is neither rewritten nor read, and the report says nothing new; anything new (a
reissued key, a curator's correction, a curated file changed by hand) makes the run do its work again,
for the sheets it concerns."""
from __future__ import annotations

import json

import pytest

from pipeline import languages, parse, season
from pipeline.devkit.sample.archive import build_archive_site
from pipeline.devkit.sample.site import TRUTH_FILE, load_truth
from pipeline.devkit.serve import serve_directory
from pipeline.review import OVERRIDES_FILE
from pipeline.season import RunOptions, run_source
from pipeline.specs import load_spec


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Two vocational sheets and their keys, text layer only."""
    folder = tmp_path_factory.mktemp("site")
    build_archive_site(folder, 2, scanned_share=0.0, filler=False)
    return folder


@pytest.fixture
def parsed(monkeypatch):
    """The sheets parse_sheet is called on, by URL."""
    calls: list[str] = []
    real = parse.parse_sheet

    def counting(sheet_doc, entry, keys, spec):
        calls.append(entry.url)
        return real(sheet_doc, entry, keys, spec)

    monkeypatch.setattr(parse, "parse_sheet", counting)
    return calls


def _copy_site(site, tmp_path):
    import shutil

    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    return copy


def _stat(path):
    stat = path.stat()
    return stat.st_ino, stat.st_mtime_ns, path.read_bytes()


def test_a_rerun_with_nothing_new_parses_nothing_and_leaves_the_curated_file_as_it_was(site, tmp_path, parsed, monkeypatch):
    spec = load_spec("sample_pl")
    with serve_directory(site) as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        first = run_source(spec, options)
        assert len(parsed) == 2 and first.report.nothing_new is False
        before = _stat(first.curated_path)
        parsed.clear()
        parse_jobs: list[str] = []
        monkeypatch.setattr(season, "_parse_job", lambda job, *a, **k: parse_jobs.append(job.sheet.url))
        again = run_source(spec, options)
    assert parsed == [] and parse_jobs == []  # not even the parse cache was asked
    assert _stat(again.curated_path) == before  # same inode, same modification time, same bytes
    assert again.report.nothing_new
    assert {f.status for f in again.report.files} == {"not_modified"}
    assert again.report.totals() | {"files": 0} == first.report.totals() | {"files": 0}
    markdown = (options.curated_dir / "reports" / "sample_pl.md").read_text(encoding="utf-8")
    assert "unchanged, nothing new since the last run" in markdown
    assert json.loads((options.curated_dir / "reports" / "sample_pl.json").read_text(encoding="utf-8"))["nothing_new"]
    assert [q.to_row() for q in again.questions] == [q.to_row() for q in first.questions]


def test_a_reissued_key_parses_its_sheet_again_and_only_that_one(site, tmp_path, parsed):
    site = _copy_site(site, tmp_path)
    truth = list(load_truth(site / TRUTH_FILE).values())
    spec = load_spec("sample_pl")
    with serve_directory(site) as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        run_source(spec, options)
        key = site / truth[1].key
        key.write_bytes(key.read_bytes() + b"\n% reissued: other bytes, same answers\n")
        parsed.clear()
        again = run_source(spec, options)
    assert [url.rsplit("/", 1)[-1] for url in parsed] == [truth[1].sheet.rsplit("/", 1)[-1]]
    assert not again.report.nothing_new
    assert sorted(f.status for f in again.report.files) == ["downloaded"] + ["not_modified"] * 3


def test_a_curators_correction_or_a_curated_file_changed_by_hand_is_something_new(site, tmp_path, parsed):
    spec = load_spec("sample_pl")
    with serve_directory(site) as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        first = run_source(spec, options)
        question = first.questions[0]
        record = {
            "question_id": question.id, "sheet_sha256": question.source_sha256, "question": "Poprawiona treść",
            "choices": list(question.choices), "answer": question.answer, "broken": False, "annotator": "Ala",
            "at": "2026-12-01T10:00:00Z", "version": 1, "note": "stem typo",
            "before": {"question": question.question, "answer": question.answer},
        }
        (options.root / OVERRIDES_FILE).parent.mkdir(parents=True, exist_ok=True)
        (options.root / OVERRIDES_FILE).write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
        corrected = run_source(spec, options)
        assert not corrected.report.nothing_new
        assert {q.id: q for q in corrected.questions}[question.id].question == "Poprawiona treść"
        settled = run_source(spec, options)  # the correction applied, nothing newer: it stands
        assert settled.report.nothing_new
        assert settled.report.overrides == corrected.report.overrides
        assert {q.id: q for q in settled.questions}[question.id].question == "Poprawiona treść"

        season.write_curated(first.curated_path, first.questions[1:])  # someone cut a record by hand
        parsed.clear()
        restored = run_source(spec, options)
    assert not restored.report.nothing_new and parsed == []  # parsed from the cache, merged and written again
    assert len(restored.questions) == len(first.questions)
    assert {q.id: q for q in restored.questions}[question.id].question == "Poprawiona treść"


def test_a_record_of_the_last_run_that_cannot_be_read_means_the_full_work(site, tmp_path, parsed):
    spec = load_spec("sample_pl")
    with serve_directory(site) as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        first = run_source(spec, options)
        [record] = (options.cache_root / "season").rglob("*.json")
        stored = json.loads(record.read_text(encoding="utf-8"))
        stored["files"][0]["a_field_of_another_version"] = 1
        record.write_text(json.dumps(stored), encoding="utf-8")
        again = run_source(spec, options)
        settled = run_source(spec, options)
    assert not again.report.nothing_new  # merged and written again, parse read from its cache
    assert [q.to_row() for q in again.questions] == [q.to_row() for q in first.questions]
    assert settled.report.nothing_new  # the full run recorded itself afresh


def test_an_edit_of_the_language_data_extracts_and_parses_again(site, tmp_path, parsed, monkeypatch):
    """OCR passes and the text path's repairs read the language and script data (units, look-alikes, marks): a run
    after an edit of it must not serve what the old data produced."""
    spec = load_spec("sample_pl")
    with serve_directory(site) as base_url:
        options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
        run_source(spec, options)
        parsed.clear()
        edited = tmp_path / "scripts.yaml"
        edited.write_text(languages.SCRIPTS_FILE.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
        monkeypatch.setattr(languages, "SCRIPTS_FILE", edited)
        languages.data_sha256.cache_clear()
        try:
            again = run_source(spec, options)
        finally:
            monkeypatch.undo()
            languages.data_sha256.cache_clear()
    assert sorted(parsed) == sorted({f.url for f in again.report.files if f.role == "sheet"})
    assert len(parsed) == 2 and again.report.nothing_new is False
