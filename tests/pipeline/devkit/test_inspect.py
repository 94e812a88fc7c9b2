"""`examcorpus inspect`: every line of a real generated sheet, extracted by pypdfium2, with the spec rule
that took it: the numbering, the options, the clean-up rules, stop_at, sections and continuation lines."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from pipeline.devkit import inspect_sheet
from pipeline.devkit.inspect import format_table
from pipeline.devkit.sample.pdfgen import Paragraph, PageSpec, QuestionBlock, TextBox, build_pdf, exam_pages, flow_blocks, rasterize_pdf
from pipeline.specs import load_spec_file

ROOT = Path(__file__).resolve().parents[3]
EXAMCORPUS = ROOT / ".venv" / "bin" / "examcorpus"

SPEC = textwrap.dedent(
    r"""
    name: inspect_family
    description: A generated family for the inspect tool.
    metadata: {country: PL, language: pl, exam: egzamin próbny, subject: test}
    ocr: {languages: [pol]}
    local:
      files:
        - {role: sheet, pattern: '(?P<year>\d{4})_arkusz\.pdf$'}
        - {role: key, pattern: '(?P<year>\d{4})_klucz\.pdf$'}
    pairing: {'on': [year]}
    layout:
      drop_lines: ['^Wypełnia egzaminator']
      drop_pages: ['(?m)^BRUDNOPIS']
      question_start: '^Pytanie (?P<number>\d+)\.'
      context_start: '^Tekst do pytań'
      points: '\((?P<points>\d+) pkt\)'
      stop_at: ['^KONIEC TESTU']
      sections: [{start: '^CZĘŚĆ II', prefix: '2.'}]
    key: {kind: list, entry: '(?P<number>\d+)\.\s+(?P<answer>[A-D])'}
    """
)

LONG_STEM = (
    "Który z podanych protokołów służy do przesyłania poczty elektronicznej między serwerami i jest "
    "używany od wielu lat przez wszystkich dostawców usług internetowych na świecie?"
)


@pytest.fixture(scope="module")
def spec_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "inspect_family.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> Path:
    blocks = [
        Paragraph("Instrukcja: zaznacz jedną odpowiedź."),
        QuestionBlock("Pytanie 1.", LONG_STEM, ("A. SMTP", "B. FTP", "C. DNS", "D. DHCP"), trailer="(2 pkt)"),
        Paragraph("Wypełnia egzaminator: suma punktów"),
        Paragraph("Tekst do pytań 2–3"),
        Paragraph("Sieć lokalna łączy komputery jednego biura."),
        QuestionBlock("Pytanie 2.", "Ile bitów ma adres IPv4?", ("A. 16", "B. 32", "C. 64", "D. 128")),
        Paragraph("CZĘŚĆ II", bold=True),
        QuestionBlock("Pytanie 1.", "Który port jest domyślny dla HTTPS?", ("A. 21", "B. 80", "C. 443", "D. 8080")),
        Paragraph("KONIEC TESTU"),
        Paragraph("Dziękujemy za udział w egzaminie."),
    ]
    scratch = PageSpec((TextBox("BRUDNOPIS", 20, 30, 170, size=14, bold=True),
                        TextBox("(nie podlega ocenie)", 20, 40, 170, size=10)))
    pages = exam_pages(blocks, header="Egzamin próbny z informatyki", footer="Strona {page} z {pages}", trailing=[scratch])
    return build_pdf(tmp_path_factory.mktemp("sheet") / "2031_arkusz.pdf", pages)


@pytest.fixture(scope="module")
def inspection(sheet, spec_path, tmp_path_factory):
    return inspect_sheet(sheet, load_spec_file(spec_path), ocr_cache_dir=tmp_path_factory.mktemp("ocr"))


def rule_of(inspection, text_start: str, nth: int = 0) -> str:
    rules = [line.rule for line in inspection.lines if line.text.startswith(text_start)]
    assert len(rules) > nth, f"no line starting {text_start!r}: {[line.text for line in inspection.lines]}"
    return rules[nth]


def test_a_question_header_shows_its_number_and_a_section_prefixes_it(inspection):
    assert rule_of(inspection, "Pytanie 1.") == "question_start → number 1"
    assert rule_of(inspection, "Pytanie 2.") == "question_start → number 2"
    assert rule_of(inspection, "CZĘŚĆ II").startswith("section '2.'")
    assert rule_of(inspection, "Pytanie 1.", nth=1) == "question_start → number 2.1"


def test_options_points_passages_and_continuations_are_named(inspection):
    assert rule_of(inspection, "A. SMTP") == "option label A"
    assert rule_of(inspection, "D. DHCP") == "option label D"
    assert rule_of(inspection, "(2 pkt)") == "points 2"
    assert rule_of(inspection, "Tekst do pytań") == "context_start"
    assert rule_of(inspection, "Sieć lokalna") == "text (continuation of passage)"
    assert rule_of(inspection, "Instrukcja") == "text (before the first question)"
    stem_lines = [line for line in inspection.lines if line.rule == "text (continuation of 1)"]
    assert len(stem_lines) >= 2, "the long stem wraps onto a second line, which continues question 1"
    assert LONG_STEM.startswith(stem_lines[0].text)


def test_lines_the_clean_up_removed_are_shown_with_their_rule(inspection):
    assert rule_of(inspection, "Wypełnia egzaminator") == "dropped line (drop_lines '^Wypełnia egzaminator')"
    assert rule_of(inspection, "Egzamin próbny z informatyki") == "dropped line (remove_repeated_lines)"
    scratch = [line for line in inspection.lines if line.page == inspection.page_count]
    # a dropped page is kept whole, its running head included, and shown whole
    assert {"BRUDNOPIS", "(nie podlega ocenie)", "Egzamin próbny z informatyki"} <= {line.text for line in scratch}
    assert {line.rule for line in scratch} == {"dropped page (drop_pages '(?m)^BRUDNOPIS')"}


def test_stop_at_ends_the_stream_and_what_follows_is_not_parsed(inspection):
    assert rule_of(inspection, "KONIEC TESTU") == "stop_at '^KONIEC TESTU'"
    assert rule_of(inspection, "Dziękujemy") == "after stop_at (not parsed)"


def test_each_line_carries_its_geometry_and_indentation(inspection):
    header = next(line for line in inspection.lines if line.text == "Pytanie 1.")
    option = next(line for line in inspection.lines if line.text.startswith("A. SMTP"))
    assert header.bold and header.method == "text" and header.font_size == pytest.approx(11, abs=0.5)
    assert header.indent == pytest.approx(0, abs=1)
    # pdfgen sets options 2 mm (5.7 pt) right of the stem margin
    assert option.indent == pytest.approx(5.7, abs=1.0) and not option.bold
    pages = [line.page for line in inspection.lines]
    assert pages == sorted(pages)
    table = format_table(inspection)
    assert "question_start → number 2.1" in table and "option label A" in table


def _run(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    return subprocess.run([str(EXAMCORPUS), "inspect", *args], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.skipif(not EXAMCORPUS.exists(), reason="needs the project virtualenv's examcorpus command")
def test_the_command_prints_a_table_a_page_as_json_and_clear_errors(sheet, spec_path, tmp_path):
    table = _run(str(sheet), "--source", str(spec_path), cache=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "dropped line (drop_lines" in table.stdout and "stop_at '^KONIEC TESTU'" in table.stdout

    as_json = _run(str(sheet), "--source", str(spec_path), "--page", "1", "--json", cache=tmp_path)
    assert as_json.returncode == 0, as_json.stderr
    lines = json.loads(as_json.stdout)["lines"]
    assert lines and {line["page"] for line in lines} == {1}
    assert {"page", "top", "x0", "font_size", "bold", "indent", "method", "rule", "text"} <= set(lines[0])

    missing = _run(str(tmp_path / "nope.pdf"), "--source", str(spec_path), cache=tmp_path)
    assert missing.returncode == 2 and "nope.pdf: file not found" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1

    bad_spec = tmp_path / "inspect_family.yaml"
    bad_spec.write_text(SPEC.replace("question_start:", "question_strat:"), encoding="utf-8")
    bad = _run(str(sheet), "--source", str(bad_spec), cache=tmp_path)
    assert bad.returncode == 2 and "question_strat" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Tesseract with Polish data")
def test_a_scanned_sheet_is_read_by_ocr_once_and_trying_a_rule_reuses_the_reading(spec_path, tmp_path, monkeypatch):
    text_pdf = build_pdf(tmp_path / "text.pdf", flow_blocks([
        QuestionBlock("Pytanie 1.", "Ile bitów ma bajt?", ("A. 4", "B. 8", "C. 16", "D. 32"), size=14),
    ]))
    scan = rasterize_pdf(text_pdf, tmp_path / "2031_arkusz.pdf", dpi=200)
    # a tesseract that logs each run, so the test sees whether OCR ran again
    log = tmp_path / "tesseract.log"
    wrapper = tmp_path / "tesseract"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {shutil.which("tesseract")} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("EXAMCORPUS_TESSERACT", str(wrapper))
    readings = lambda: [run for run in log.read_text().splitlines() if "--version" not in run and "--list-langs" not in run]
    cache = tmp_path / "ocr-cache"

    first = inspect_sheet(scan, load_spec_file(spec_path), ocr_cache_dir=cache)
    assert {line.method for line in first.lines} == {"ocr"}
    assert rule_of(first, "Pytanie 1.") == "question_start → number 1"
    assert rule_of(first, "B. 8") == "option label B"
    ocr_runs = len(readings())
    assert ocr_runs >= 1

    tried = tmp_path / "inspect_family.yaml"
    tried.write_text(SPEC.replace("drop_lines: ['^Wypełnia egzaminator']", "drop_lines: ['^Ile bitów']"), encoding="utf-8")
    second = inspect_sheet(scan, load_spec_file(tried), ocr_cache_dir=cache)
    assert rule_of(second, "Ile bitów") == "dropped line (drop_lines '^Ile bitów')"
    assert len(readings()) == ocr_runs, "a new drop_lines rule must not run Tesseract again"
