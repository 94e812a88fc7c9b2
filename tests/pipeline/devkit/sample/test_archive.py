"""The archive generator: many distinct sheets in both booklet styles, an even share of scans, every
layout the styles print, names the sample specs find and pair; and a real season run over a small
archive served by the local HTTP server curates every question of its truth, timing each stage."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from pipeline.devkit.sample.archive import archive_sheets, build_archive_site, is_scanned
from pipeline.devkit.sample.booklets import greek_count, render
from pipeline.devkit.sample.check import compare_with_truth
from pipeline.devkit.serve import serve_directory
from pipeline.season import RunOptions, run_source
from pipeline.specs import load_spec

SPECS = ("sample_pl", "sample_el")


@pytest.fixture(scope="module")
def two_hundred():
    return archive_sheets(200)


def test_sheets_are_distinct_files_of_both_styles(two_hundred):
    files = [s.sheet_file for s in two_hundred] + [s.key_file for s in two_hundred]
    assert len(set(files)) == len(files)
    assert Counter(s.spec for s in two_hundred) == {"sample_pl": 160, "sample_el": 40}
    assert len({(s.spec, s.year, s.session, s.sheet_code) for s in two_hundred}) == 200


def test_an_even_five_percent_of_each_style_are_scans(two_hundred):
    for spec, scan_count in (("sample_pl", 8), ("sample_el", 2)):
        style = [s for s in two_hundred if s.spec == spec]
        scans = [i for i, s in enumerate(style) if s.scanned]
        assert len(scans) == scan_count
        assert all(b - a == 20 for a, b in zip(scans, scans[1:]))  # spread, not bunched at one end
    assert sum(is_scanned(i, 0.2) for i in range(10)) == 2
    assert not any(s.scanned for s in archive_sheets(30, scanned_share=0.0))


def test_every_layout_of_the_two_styles_occurs(two_hundred):
    questions = [q for s in two_hundred for q in s.questions]
    assert {q.type for q in questions} == {"single_choice", "true_false", "open"}
    assert any(q.figure for q in questions) and any(q.grid for q in questions)
    assert all(len(set(q.choices)) == len(q.choices) for q in questions)  # no option printed twice
    assert all(q.answer in q.choice_labels for q in questions if q.type != "open")


def test_booklets_have_the_length_of_real_ones():
    """A national archive runs about 20 pages and 13 questions a sheet (1,500 sheets, 30,000 pages,
    19,000 questions): a rules page, long stems, room for working, scratch pages, keys of a page."""
    sheets = archive_sheets(25)
    rendered = [render(sheet) for sheet in sheets]
    pages = [len(r.sheet_pages) + len(r.key_pages) for r in rendered]
    questions = [len(sheet.questions) for sheet in sheets]
    assert 16 <= sum(pages) / len(pages) <= 24, pages
    assert 11 <= sum(questions) / len(questions) <= 16, questions
    for sheet, booklet in zip(sheets, rendered):
        assert len(booklet.key_pages) == 1
        # every question is on a page of the booklet, in order; none on a CKE cover, rules or scratch page
        on = [booklet.question_pages[q.number] for q in sheet.questions]
        assert on == sorted(on) and 1 <= on[0] and on[-1] <= len(booklet.sheet_pages)
        if sheet.spec == "sample_pl":
            assert on[0] == 3 and on[-1] <= len(booklet.sheet_pages) - sheet.scratch_pages
    polish = [s for s in sheets if s.spec == "sample_pl"]
    assert all(s.rules and s.scratch_pages >= 3 for s in polish)
    assert any(len(q.question) > 300 for s in polish for q in s.questions)  # stems over a described situation
    assert {q.number[0] for s in sheets if s.spec == "sample_el" for q in s.questions} == set("ΑΒΓΔ")


def test_without_filler_the_same_questions_print_on_fewer_pages():
    long, short = archive_sheets(10), archive_sheets(10, filler=False)
    assert [[(q.number, q.question, q.answer) for q in s.questions] for s in long] == \
        [[(q.number, q.question, q.answer) for q in s.questions] for s in short]
    assert sum(len(render(s).sheet_pages) for s in short) < 0.6 * sum(len(render(s).sheet_pages) for s in long)


def test_a_larger_archive_starts_with_the_smaller_one():
    assert archive_sheets(12) == archive_sheets(40)[:12]
    assert archive_sheets(12, seed=1) != archive_sheets(12)


def test_every_file_name_matches_its_specs_link_rules(two_hundred):
    for spec_name in SPECS:
        rules = {rule.role: re.compile(rule.pattern) for rule in load_spec(spec_name).download.links}
        for sheet in (s for s in two_hundred if s.spec == spec_name):
            assert rules["sheet"].search("/" + sheet.sheet_file), sheet.sheet_file
            assert rules["key"].search("/" + sheet.key_file), sheet.key_file


@pytest.mark.parametrize("count, share", [(0, 0.05), (5, 1.5), (5, -0.1)])
def test_a_size_or_share_out_of_range_is_refused(count, share):
    with pytest.raises(ValueError):
        archive_sheets(count, scanned_share=share)


def test_a_season_run_over_a_served_archive_curates_every_question(tmp_path):
    site = build_archive_site(tmp_path / "site", 5)
    assert {t.spec for t in site.truth.values()} == set(SPECS)
    assert (tmp_path / "site" / "truth.json").is_file()
    questions, reports = [], []
    with serve_directory(tmp_path / "site") as base_url:
        for spec_name in SPECS:
            options = RunOptions(root=tmp_path / "root", base_url=base_url, executor="inline", show_progress=False)
            result = run_source(load_spec(spec_name), options)
            questions += result.questions
            reports.append(result.report)
    for agreement in compare_with_truth(questions, site.truth):
        assert agreement.found == agreement.expected and not agreement.unexpected, agreement.line()
        assert agreement.same_answer == agreement.closed and agreement.same_choices == agreement.closed, agreement.line()
    for report in reports:
        assert not report.has_problems, report.problem_lines()
        # the run report says where the seconds went; every stage that had work to do took some
        assert all(report.stage_seconds[stage] > 0 for stage in ("download", "text", "layout", "parse", "curate"))
        assert report.stage_seconds.get("ocr", 0) == 0  # no scan among the first five sheets: no OCR seconds at all


def test_rendering_in_two_processes_writes_the_same_files(tmp_path):
    one = build_archive_site(tmp_path / "one", 2, scanned_share=0.0)
    two = build_archive_site(tmp_path / "two", 2, scanned_share=0.0, workers=2)
    assert one.files == two.files and one.truth == two.truth


def test_a_panhellenic_cover_names_every_page_count_a_booklet_of_real_length_can_have():
    # The full-size archive stopped at its first 15-page booklet: the cover's count had words up to 14.
    words = [greek_count(n) for n in range(1, 100)]
    assert len(set(words)) == 99 and all(words)
    assert greek_count(15) == "ΔΕΚΑΠΕΝΤΕ" and greek_count(21) == "ΕΙΚΟΣΙ ΜΙΑ" and greek_count(40) == "ΣΑΡΑΝΤΑ"
    with pytest.raises(ValueError):
        greek_count(100)
