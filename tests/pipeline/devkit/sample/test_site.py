"""The embedded sample archive: what it contains, that it is reproducible, and that truth.json is right."""
import hashlib
import json
import re

import pdfplumber
import pypdf
import pytest

from pipeline.acquire import ManifestEntry
from pipeline.acquire import pair_files
from pipeline.devkit.sample.site import TRUTH_FILE, build_sample_site, load_truth
from pipeline.specs import load_spec

SAMPLE_SPECS = ("sample_pl", "sample_el")


def lines_of(path, page_index=None):
    reader = pypdf.PdfReader(path)
    pages = reader.pages if page_index is None else [reader.pages[page_index]]
    return [line.strip() for page in pages for line in (page.extract_text() or "").splitlines() if line.strip()]


def test_the_archive_holds_two_polish_and_two_greek_sheets_with_keys(sample_site):
    assert sorted((t.spec, t.year, t.scanned) for t in sample_site.truth.values()) == [
        ("sample_el", 2022, True),
        ("sample_el", 2023, False),
        ("sample_pl", 2023, False),
        ("sample_pl", 2024, True),
    ]
    for truth in sample_site.truth.values():
        assert (sample_site.dest / truth.sheet).is_file()
        assert (sample_site.dest / truth.key).is_file()
        assert 8 <= len(truth.questions) <= 12


def test_truth_json_reads_back_as_the_returned_truth_and_is_not_linked(sample_site):
    assert load_truth(sample_site.dest / TRUTH_FILE) == sample_site.truth
    assert TRUTH_FILE not in sample_site.index.read_text(encoding="utf-8")


def test_load_truth_names_the_file_it_cannot_read(tmp_path):
    bad = tmp_path / "truth.json"
    bad.write_text(json.dumps({"sheets": [{"sheet": "x"}]}), encoding="utf-8")
    with pytest.raises(ValueError, match=r"truth\.json: not a sample-site truth file"):
        load_truth(bad)
    with pytest.raises(FileNotFoundError, match="missing.json"):
        load_truth(tmp_path / "missing.json")


def test_scanned_sheets_have_no_text_layer_and_text_sheets_do(sample_site):
    for truth in sample_site.truth.values():
        reader = pypdf.PdfReader(sample_site.dest / truth.sheet)
        assert len(reader.pages) == truth.page_count
        text = "".join(page.extract_text() or "" for page in reader.pages).strip()
        if truth.scanned:
            assert text == "", truth.sheet
            assert all(page.images for page in reader.pages), "every scanned page is one image"
        else:
            assert len(text) > 500, truth.sheet
        key_text = "".join(page.extract_text() or "" for page in pypdf.PdfReader(sample_site.dest / truth.key).pages)
        assert key_text.strip(), "keys always carry a text layer"


def test_text_sheets_print_every_question_stem_and_option_as_in_truth(sample_site):
    for truth in sample_site.truth.values():
        if truth.scanned:
            continue
        with pdfplumber.open(sample_site.dest / truth.sheet) as pdf:
            pages = [" ".join((page.extract_text() or "").split()) for page in pdf.pages]
        for q in truth.questions:
            page_text = pages[q.page - 1]
            assert " ".join(q.question.split()) in page_text, (truth.sheet, q.number)
            for label, choice in zip(q.choice_labels, q.choices):
                if q.type == "single_choice":
                    assert f"{label}. {choice}" in page_text, (truth.sheet, q.number, label)


def test_the_figure_question_has_an_image_on_its_page(sample_site):
    figures = [(t, q) for t in sample_site.truth.values() for q in t.questions if q.has_figure]
    assert [q.number for _, q in figures] == ["3"]
    truth, question = figures[0]
    with pdfplumber.open(sample_site.dest / truth.sheet) as pdf:
        assert len(pdf.pages[question.page - 1].images) == 1


def test_the_grid_question_prints_two_options_per_line(sample_site):
    truth = sample_site.truth["zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny.pdf"]
    with pdfplumber.open(sample_site.dest / truth.sheet) as pdf:
        lines = [" ".join(line.split()) for page in pdf.pages for line in (page.extract_text() or "").splitlines()]
    assert "A. 400 V B. 500 V" in lines and "C. 110 V D. 230 V" in lines


def test_truth_answers_are_consistent(sample_site):
    for truth in sample_site.truth.values():
        numbers = [q.number for q in truth.questions]
        assert len(numbers) == len(set(numbers))
        for q in truth.questions:
            if q.type == "open":
                assert q.answer is None and q.choices == []
                continue
            assert q.choice_labels[q.answer_index] == q.answer
            assert len(q.choices) == len(q.choice_labels)


def test_polish_keys_list_the_truth_answers_in_the_specs_entry_format(sample_site):
    spec = load_spec("sample_pl")
    for truth in sample_site.sheets_for("sample_pl"):
        text = "\n".join(lines_of(sample_site.dest / truth.key))
        found = {m.group("number"): m.group("answer") for m in re.finditer(spec.key.entry, text)}
        assert found == {q.number: q.answer for q in truth.questions}


def test_greek_keys_give_choice_answers_after_the_task_and_true_false_answers_below_it(sample_site):
    spec = load_spec("sample_el")
    words = {"Σωστό": "Σ", "Λάθος": "Λ"}
    for truth in sample_site.sheets_for("sample_el"):
        tasks: dict[str, list[str]] = {}
        current = None
        for line in lines_of(sample_site.dest / truth.key):
            match = re.match(spec.key.task_start, line)
            if match:
                current = tasks.setdefault(match.group("number"), [])
                rest = line[match.end():].strip()
                if rest:
                    current.append(rest)
            elif current is not None:
                current.append(line)
        for q in truth.questions:
            if q.type == "single_choice":
                assert tasks[q.number] == [q.answer], q.number
        statements = [q for q in truth.questions if q.type == "true_false"]
        parent = statements[0].number.split(".")[0]
        printed = [line.split(". ") for line in tasks[parent][: len(statements)]]
        assert [(letter, words[word]) for letter, word in printed] == [(q.number.split(".")[1], q.answer) for q in statements]


@pytest.mark.parametrize("spec_name", SAMPLE_SPECS)
def test_sample_specs_are_valid(spec_name):
    spec = load_spec(spec_name)
    assert spec.name == spec_name
    assert spec.download.index_pages == ["{base_url}/index.html"]


def _links_on_index(sample_site):
    from pipeline.acquire import extract_links

    return extract_links(sample_site.index.read_text(encoding="utf-8"), "http://127.0.0.1:8000/index.html")


@pytest.mark.parametrize("spec_name", SAMPLE_SPECS)
def test_link_rules_pick_exactly_the_sheets_and_keys_from_the_index(sample_site, spec_name):
    from pipeline.acquire import match_rules, url_match_target

    spec = load_spec(spec_name)
    picked = {}
    for url in _links_on_index(sample_site):
        found = match_rules(url_match_target(url), spec.download.links)
        if found:
            picked[url.removeprefix("http://127.0.0.1:8000/")] = found.role
    expected = {}
    for truth in sample_site.sheets_for(spec_name):
        expected[truth.sheet] = "sheet"
        expected[truth.key] = "key"
    assert picked == expected


def test_unrelated_links_are_on_the_index_and_no_sample_spec_picks_them(sample_site):
    from pipeline.acquire import match_rules, url_match_target

    links = _links_on_index(sample_site)
    rules = [rule for name in SAMPLE_SPECS for rule in load_spec(name).download.links]
    for href in sample_site.unrelated:
        if href.startswith("mailto:"):
            continue
        url = href if "://" in href else f"http://127.0.0.1:8000/{href}"
        assert url in links, href
        assert match_rules(url_match_target(url), rules) is None, href


@pytest.mark.parametrize("spec_name", SAMPLE_SPECS)
def test_local_rules_pick_the_same_files_from_the_folder_and_they_pair(sample_site, spec_name):
    from pipeline.acquire import match_rules

    spec = load_spec(spec_name)
    entries = []
    for path in sorted(sample_site.dest.rglob("*")):
        relative = path.relative_to(sample_site.dest).as_posix()
        found = match_rules(relative, spec.local.files)
        if found:
            entries.append(
                ManifestEntry(relative, relative, spec_name, found.role, found.facts, "local", path=relative)
            )
    truths = sample_site.sheets_for(spec_name)
    assert sorted(e.url for e in entries) == sorted([t.sheet for t in truths] + [t.key for t in truths])
    result = pair_files(entries, spec.pairing)
    assert result.problems == {}
    assert {job.sheet.url: [k.url for k in job.keys] for job in result.jobs} == {t.sheet: [t.key] for t in truths}
    for job in result.jobs:
        assert job.sheet.facts["year"] == str(sample_site.truth[job.sheet.url].year)


def _question_numbers(spec, lines):
    return [m.group("number") for line in lines if (m := re.match(spec.layout.question_start, line))]


@pytest.mark.parametrize("spec_name", SAMPLE_SPECS)
def test_question_start_finds_every_question_of_the_text_sheets_and_nothing_else(sample_site, spec_name):
    spec = load_spec(spec_name)
    for truth in sample_site.sheets_for(spec_name):
        if truth.scanned:
            continue
        parents = list(dict.fromkeys(q.number.split(".")[0] for q in truth.questions))
        assert _question_numbers(spec, lines_of(sample_site.dest / truth.sheet)) == parents


@pytest.mark.parametrize("spec_name", SAMPLE_SPECS)
def test_drop_rules_remove_running_text_and_non_question_pages(sample_site, spec_name):
    spec = load_spec(spec_name)
    for truth in sample_site.sheets_for(spec_name):
        if truth.scanned:
            continue
        question_pages = {q.page for q in truth.questions}
        reader = pypdf.PdfReader(sample_site.dest / truth.sheet)
        for number, page in enumerate(reader.pages, start=1):
            text = page.extract_text() or ""
            dropped = any(re.search(p, text) for p in spec.layout.drop_pages)
            assert dropped == (number not in question_pages), (truth.sheet, number)
            kept = [line.strip() for line in text.splitlines() if line.strip()]
            kept = [line for line in kept if not any(re.search(p, line) for p in spec.layout.drop_lines)]
            assert not any("Strona" in line or "ΣΕΛΙΔ" in line or "arkusze.pl" in line for line in kept)


def test_the_scanned_polish_sheet_is_legible_to_tesseract(sample_site):
    pytesseract = pytest.importorskip("pytesseract")
    import pypdfium2 as pdfium

    truth = sample_site.truth["zawodowy/inf02-2024-styczen-egzamin-zawodowy-pisemny.pdf"]
    first = min(q.page for q in truth.questions)
    document = pdfium.PdfDocument(str(sample_site.dest / truth.sheet))
    try:
        image = document[first - 1].render(scale=250 / 72).to_pil()
    finally:
        document.close()
    text = pytesseract.image_to_string(image, lang="pol")
    assert "Zadanie 1." in text
    assert "automatycznego przydzielania adresów IP" in text


def test_site_files_are_listed_with_their_sha256(sample_site):
    for relative, digest in sample_site.files.items():
        assert hashlib.sha256((sample_site.dest / relative).read_bytes()).hexdigest() == digest


def test_builds_are_byte_identical_and_a_rebuild_in_place_rewrites_only_changed_files(sample_site, tmp_path):
    first = build_sample_site(tmp_path)
    assert first.files == sample_site.files, "a build in another folder gives the same bytes"
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert on_disk == set(first.files), "every written file is listed, and nothing else is left behind"

    mtimes = {rel: (tmp_path / rel).stat().st_mtime_ns for rel in first.files}
    damaged = "zawodowy/ele02-2023-czerwiec-egzamin-zawodowy-pisemny-odpowiedzi.pdf"
    (tmp_path / damaged).write_bytes(b"%PDF-1.4 truncated")
    second = build_sample_site(tmp_path)
    assert second.files == first.files, "the damaged file is repaired"
    for rel, mtime in mtimes.items():
        if rel != damaged:
            assert (tmp_path / rel).stat().st_mtime_ns == mtime, f"{rel} was rewritten although unchanged"
