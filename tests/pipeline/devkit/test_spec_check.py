"""`examcorpus specs check` checks what a spec means, `--try SHEET.pdf` runs it on one sheet, and the
one-sheet tools (`inspect`, `--try`) reuse the OCR readings of the season run the sheet belongs to
(issue 26, item 11).

Each broken spec is the shipped sample_pl spec with one field changed the way a curator breaks it; the
command runs as a user runs it (the CLI's main, real files, real generated PDFs, real Tesseract)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from pipeline.cli import main as examcorpus
from pipeline.devkit.sample.pdfgen import rasterize_pdf
from pipeline.specs import spec_path
from tests.pipeline.season_sheets import KEY_NAME, SHEET_NAME, key_pdf, questions_about, sheet_pdf

SHEET = SHEET_NAME.format(q="ele02", year=2023, session="czerwiec")
KEY = KEY_NAME.format(q="ele02", year=2023, session="czerwiec")
NUMBERS = [str(n) for n in range(1, 7)]
ANSWERS = [(n, "ABCD"[int(n) % 4]) for n in NUMBERS]


def spec_with(folder: Path, change) -> Path:
    data = yaml.safe_load(spec_path("sample_pl").read_text(encoding="utf-8"))
    change(data)
    path = folder / "sample_pl.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def check(capsys, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    status = examcorpus(["specs", "check", "--skip-ocr-check", *map(str, args)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _set(section: str, name: str, value):
    return lambda data: data[section].__setitem__(name, value)


def _options(name: str, value):
    return lambda data: data["layout"].setdefault("options", {}).__setitem__(name, value)


def _sections(data):
    data["key"]["sections"] = [{"start": "^CZĘŚĆ REZERWOWA", "prefix": "R"}]


def _key_in_booklet(data):
    data["key"] = {"kind": "list", "entry": data["key"]["entry"], "in_sheet": "^Odpowiedzi"}


def _no_key_rules(data):
    data["local"]["files"] = [rule for rule in data["local"]["files"] if rule["role"] == "sheet"]
    data.pop("download", None)


BROKEN = {
    "drop_lines matching the empty text": (_set("layout", "drop_lines", [r"\s*"]), "layout.drop_lines[0]", "drops every line"),
    "question_start matching every line": (_set("layout", "question_start", r"^(?P<number>\d*)\.?"),
                                           "layout.question_start", "opens a question on every line"),
    "stop_at matching every line": (_set("layout", "stop_at", ["(?:KONIEC)?"]), "layout.stop_at[0]", "stops parsing"),
    "a catastrophic drop_lines pattern": (_set("layout", "drop_lines", [r"(\w|\w\s|\s?\w)+[!¡]$"]),
                                          "layout.drop_lines[0]", "catastrophic backtracking"),
    "labels that read alike": (_options("labels", ["A", "B", "C", "А"]), "layout.options.labels", "read alike"),
    "min_count above the labels": (_options("min_count", 5), "layout.options.min_count", "more than the 4 labels"),
    "points without its group": (_set("layout", "points", r"\(\d+ pkt\)"), "layout.points", "(?P<points>...)"),
    "sheet_code without its group": (_set("layout", "sheet_code", r"Arkusz \S+"), "layout.sheet_code", "(?P<code>...)"),
    "key sections no sheet section has": (_sections, "key.sections", "number no question"),
    "key in the booklet but a key file required": (_key_in_booklet, "pairing.key_required", "key.in_sheet"),
    "a key required but no key rule": (_no_key_rules, "pairing.key_required", "no file rule"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_spec_that_loads_but_cannot_work_fails_the_check_naming_the_field(tmp_path, capsys, case):
    change, field, says = BROKEN[case]
    status, out, err = check(capsys, spec_with(tmp_path, change))
    assert status == 1, out + err
    assert f"field '{field}'" in err and says in err, err


def _sheet_sections_only(data):
    data["layout"]["sections"] = [{"prefix": "1."}, {"start": "^CZĘŚĆ II", "prefix": "2."}]


@pytest.mark.parametrize("change, says", [
    (_sheet_sections_only, "field 'key.sections': empty, but the sheet's parts (layout.sections) number their questions ['1.', '2.']"),
    (_set("ocr", "languages", ["ell"]), "field 'ocr.languages': ['ell'] holds none of the OCR data of the sheet's language 'pl'"),
    (lambda data: data["key"].__setitem__("entry", r"(?P<number>\d{1,3})\.\s*(?P<answer>[ABC])"),
     "field 'key.entry': no usual key line ('1. A', '1 A', …) gives the answer(s) ['D']"),
])
def test_a_spec_that_likely_means_something_else_passes_with_a_warning(tmp_path, capsys, change, says):
    status, out, err = check(capsys, spec_with(tmp_path, change))
    assert status == 0 and "1 warning(s)" in out, out + err
    assert says in err, err


def test_every_shipped_spec_passes_without_problems_or_warnings(capsys):
    paths = sorted((Path(spec_path("sample_pl")).parent).glob("*.yaml"))
    status, out, err = check(capsys, *paths)
    assert status == 0 and "warning" not in out + err, err
    assert out.count(": ok (") == len(paths)


@pytest.fixture
def sheet_and_key(tmp_path) -> tuple[Path, Path]:
    folder = tmp_path / "season"
    folder.mkdir()
    sheet = sheet_pdf(folder / SHEET, "EGZAMIN ZAWODOWY · Arkusz ELE.02-X-23.06", questions_about("prąd", NUMBERS))
    return sheet, key_pdf(folder / KEY, ANSWERS)


def test_try_runs_the_spec_on_one_sheet_and_prints_questions_keyed_types_flags_and_problems(tmp_path, capsys, sheet_and_key):
    sheet, key = sheet_and_key
    status, out, err = check(capsys, spec_path("sample_pl"), "--try", sheet, "--key", key)
    assert status == 0, out + err
    assert "facts: qualification=ele02, session=czerwiec, year=2023" in out
    assert "questions 6, keyed 6, voided 0, flagged 0" in out and "types: single_choice 6" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [row[:4] for row in rows] == [[n, "single_choice", a, "4"] for n, a in ANSWERS]

    # a key entry pattern that misses one answer: fewer keyed, the flag counted, the problem said, exit 1
    narrow = spec_with(tmp_path, lambda data: data["key"].__setitem__(
        "entry", r"(?<![\w.])(?P<number>\d{1,3})\.\s*(?P<answer>[ABC])(?!\w)"))
    status, out, err = check(capsys, narrow, "--try", sheet, "--key", key)
    assert status == 1, out + err
    unkeyed = [n for n, a in ANSWERS if a == "D"]
    assert f"keyed {len(NUMBERS) - len(unkeyed)}" in out and "flags: key.no_entry" in out
    assert f"problem: {len(unkeyed)} question(s) have no entry in the key: {', '.join(unkeyed)}" in out


def test_try_without_a_key_says_how_to_add_one_and_a_missing_sheet_is_a_clear_error(tmp_path, capsys, sheet_and_key):
    sheet, _ = sheet_and_key
    status, out, _ = check(capsys, spec_path("sample_pl"), "--try", sheet)
    assert status == 1 and "keyed 0" in out and "add --key KEY.pdf" in out
    status, out, err = check(capsys, spec_path("sample_pl"), "--try", tmp_path / "nowhere.pdf")
    assert status == 1 and "nowhere.pdf: file not found" in err


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Tesseract with Polish data")
def test_inspect_and_try_reuse_the_ocr_readings_of_the_run_the_scanned_sheet_belongs_to(tmp_path, capsys, monkeypatch):
    """A scanned sheet a season run has read is never OCR'd again by the one-sheet tools, whether they
    are given the original file from the project root, the run's root, or the run's raw/ copy."""
    folder = tmp_path / "season"
    folder.mkdir()
    text = sheet_pdf(tmp_path / "text.pdf", "EGZAMIN ZAWODOWY · Arkusz ELE.02-X-23.06", questions_about("prąd", NUMBERS[:3]))
    scan = rasterize_pdf(text, folder / SHEET, dpi=150)
    key_pdf(folder / KEY, ANSWERS[:3])
    log = tmp_path / "tesseract.log"
    wrapper = tmp_path / "tesseract"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {shutil.which("tesseract")} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("EXAMCORPUS_TESSERACT", str(wrapper))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))  # the user's cache starts empty
    readings = lambda: [run for run in log.read_text().splitlines() if "--version" not in run and "--list-langs" not in run]
    root = tmp_path / "project"
    root.mkdir()
    assert examcorpus(["extract", "--source", "sample_pl", "--from", str(folder), "--root", str(root), "--no-progress",
                       "--workers", "1", "--executor", "inline"]) == 0
    ran = len(readings())
    assert ran >= 1
    [raw_copy] = [p for p in (root / "raw").glob("*.pdf") if p.read_bytes() == scan.read_bytes()]

    monkeypatch.chdir(root)  # where a curator works after `extract`
    capsys.readouterr()
    assert examcorpus(["inspect", str(scan), "--source", "sample_pl"]) == 0
    assert "question_start → number 1" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)
    assert examcorpus(["inspect", str(scan), "--source", "sample_pl", "--root", str(root)]) == 0
    assert examcorpus(["inspect", str(raw_copy), "--source", "sample_pl"]) == 0
    status, out, err = check(capsys, spec_path("sample_pl"), "--try", scan, "--key", folder / KEY, "--root", root)
    assert status == 0 and "questions 3, keyed 3" in out, out + err
    assert len(readings()) == ran, "the one-sheet tools ran Tesseract again on a sheet the run had read"
